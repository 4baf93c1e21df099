/* The same bug built two ways (same-bug-clang-o0: clang -O0; same-bug-gcc-o2: gcc -O2):
 * a list walk trusts a stale count and follows the last node's NULL next pointer. */
#include <stdio.h>
#include <stdlib.h>

struct item {
    struct item *next;
    long price;
    long qty;
};

__attribute__((noinline)) long sum_first(const struct item *it, int count)
{
    long s = 0;
    for (int i = 0; i < count; i++) {
        s += it->price * it->qty;
        it = it->next;
    }
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct item *head = NULL;
    for (int i = 0; i < 3; i++) {
        struct item *n = malloc(sizeof *n);
        n->next = head;
        n->price = 10 + i;
        n->qty = i + 1;
        head = n;
    }
    int count = 3 + argc; /* stale: one item was removed earlier */
    printf("%ld\n", sum_first(head, count));
    return 0;
}
