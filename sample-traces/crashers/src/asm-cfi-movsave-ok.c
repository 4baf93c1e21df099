/* gcc -O2: the caller keeps `a` in rbx across sum_pairs (which saves and restores rbx
 * correctly, with `mov` and CFI), then reads through a NULL field of it. */
#include <stdio.h>
#include <stdlib.h>

long sum_pairs(const long *v, unsigned long n);

struct acc { long *vals; unsigned long n; long total; long *extra; };

__attribute__((noinline)) long accumulate(struct acc *a)
{
    register struct acc *keep asm("rbx") = a;
    asm volatile("" : "+r"(keep));
    long t = sum_pairs(keep->vals, keep->n);
    asm volatile("" : "+r"(keep));
    keep->total += t;
    return keep->total + *keep->extra;
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
