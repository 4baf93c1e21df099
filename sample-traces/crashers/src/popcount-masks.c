/* SWAR popcount (gcc -O2): registers legitimately hold 0x5555555555555555,
 * 0x3333333333333333 and 0x0f0f0f0f0f0f0f0f masks. The crash is a NULL read. */
#include <stdio.h>
#include <stdlib.h>

struct bitset { unsigned long nwords; unsigned long *words; };

__attribute__((noinline)) unsigned long bitset_count(const struct bitset *b)
{
    unsigned long total = 0;
    const unsigned long m1 = 0x5555555555555555ul, m2 = 0x3333333333333333ul, m4 = 0x0f0f0f0f0f0f0f0ful;
    for (unsigned long i = 0; i < b->nwords; i++) {
        unsigned long x = b->words[i]; /* words == NULL */
        x -= (x >> 1) & m1;
        x = (x & m2) + ((x >> 2) & m2);
        x = (x + (x >> 4)) & m4;
        total += (x * 0x0101010101010101ul) >> 56;
        asm volatile("" ::"r"(m1), "r"(m2), "r"(m4));
    }
    return total;
}

int main(void)
{
    struct bitset *b = calloc(1, sizeof *b);
    b->nwords = 4;
    printf("%lu\n", bitset_count(b));
    return 0;
}
