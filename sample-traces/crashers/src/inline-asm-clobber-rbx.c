/* gcc -O2: a leaf function's inline assembly uses rbx as scratch without listing it as
 * clobbered, so the compiler neither saves nor restores it (its CFI records no save). The
 * caller keeps a pointer in rbx across the call (noipa: the caller may not use what it knows
 * of the callee's registers); it comes back as 0x17. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) unsigned mix(unsigned x)
{
    /* BUG: rbx is written but not in the clobber list */
    __asm__ volatile("movl $0x17, %%ebx\n\timull %%ebx, %0" : "+r"(x));
    return x;
}

struct acc { long n; long sum; };

__attribute__((noinline)) long accumulate(struct acc *a, const unsigned *v, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned m = mix(v[i]);
        a->n++;
        a->sum += m;
    }
    return a->sum;
}

int main(void)
{
    struct acc *a = calloc(1, sizeof *a);
    unsigned v[3] = { 1, 2, 3 };
    printf("%ld\n", accumulate(a, v, 3));
    return 0;
}
