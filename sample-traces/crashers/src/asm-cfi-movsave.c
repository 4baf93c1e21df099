/* gcc -O2: `acc` lives in rbx across the call to sum_pairs (assembly), whose saved copy of
 * rbx is overwritten in its frame, so rbx comes back 0. */
#include <stdio.h>
#include <stdlib.h>

long sum_pairs(const long *v, unsigned long n);

struct acc { long *vals; unsigned long n; long total; };

__attribute__((noinline)) long accumulate(struct acc *a)
{
    register struct acc *keep asm("rbx") = a;
    asm volatile("" : "+r"(keep));
    long t = sum_pairs(keep->vals, keep->n);
    asm volatile("" : "+r"(keep));
    keep->total += t;
    return keep->total;
}

int main(void)
{
    struct acc *a = calloc(1, sizeof *a);
    a->n = 4;
    a->vals = calloc(4, sizeof(long));
    for (int i = 0; i < 4; i++) a->vals[i] = i + 1;
    printf("%ld\n", accumulate(a));
    return 0;
}
