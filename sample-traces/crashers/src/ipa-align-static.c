/* gcc -O2: -fipa-stack-alignment (on by default) lets a caller whose static callees need
 * no 16-byte stack alignment call them with rsp = 8 (mod 16). That is legal: sum_chain
 * pushes two registers and calls weight_of without realigning. The crash is an unrelated
 * NULL field read in the static callee. */
#include <stdio.h>
#include <stdlib.h>

struct node { long key; struct node *next; long weight; };

static __attribute__((noinline, noclone)) long weight_of(const struct node *n, long scale)
{
    return n->weight * scale + n->key; /* n == NULL: reads 0x10 */
}

static __attribute__((noinline, noclone)) long sum_chain(struct node **v, long count, long scale)
{
    long a = 0;
    for (long i = 0; i < count; i++)
        a += weight_of(v[i], scale);
    return a;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct node **v = calloc(4, sizeof *v);
    for (int i = 0; i < 2; i++) {
        v[i] = calloc(1, sizeof(struct node));
        v[i]->weight = i + 1;
    }
    printf("%ld\n", sum_chain(v, 3 + argc, argc + 2));
    return 0;
}
