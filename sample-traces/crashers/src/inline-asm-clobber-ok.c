/* gcc -O2: the same leaf as inline-asm-clobber-rbx, but its inline assembly lists rbx as
 * clobbered, so the compiler saves and restores it (push/pop with CFI); the caller's pointer
 * survives. Then an unrelated NULL read: the caller's accumulator table has a NULL slot. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) unsigned mix(unsigned x)
{
    __asm__ volatile("movl $0x17, %%ebx\n\timull %%ebx, %0" : "+r"(x) : : "rbx");
    return x;
}

struct acc { long n; long sum; };

__attribute__((noinline)) long accumulate(struct acc **tab, const unsigned *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        unsigned m = mix(v[i]);
        tab[i]->n++; /* tab[2] == NULL */
        tab[i]->sum += m;
        s += tab[i]->sum;
    }
    return s;
}

int main(void)
{
    struct acc *tab[3] = { calloc(1, sizeof(struct acc)), calloc(1, sizeof(struct acc)), NULL };
    unsigned v[3] = { 1, 2, 3 };
    printf("%ld\n", accumulate(tab, v, 3));
    return 0;
}
