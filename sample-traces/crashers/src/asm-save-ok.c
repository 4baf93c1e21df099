/* gcc -O2: the caller keeps pointers in callee-saved registers across sum_words, which saves
 * them correctly. The crash is a NULL field read unrelated to the assembly. */
#include <stdio.h>
#include <stdlib.h>

long sum_words(const long *v, unsigned long n);

struct batch { long *words; unsigned long n; struct batch *next; long *out; };

__attribute__((noinline)) long drain(struct batch *b)
{
    long t = 0;
    while (b) {
        long s = sum_words(b->words, b->n);
        *b->out += s; /* the second batch has out == NULL */
        t += s;
        b = b->next;
    }
    return t;
}

int main(void)
{
    static long w[3] = {1, 2, 3};
    static long sink;
    struct batch *b2 = calloc(1, sizeof *b2);
    b2->words = w; b2->n = 3;
    struct batch *b1 = calloc(1, sizeof *b1);
    b1->words = w; b1->n = 2; b1->next = b2; b1->out = &sink;
    printf("%ld\n", drain(b1));
    return 0;
}
