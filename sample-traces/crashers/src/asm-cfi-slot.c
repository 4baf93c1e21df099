/* gcc -O2: `st` lives in rbx across the call to scale_all, which returns with rbx changed. */
#include <stdio.h>
#include <stdlib.h>

long scale_all(long *v, unsigned long n);

struct state { long *vals; unsigned long n; long total; };

__attribute__((noinline)) long rescale(struct state *st)
{
    register struct state *keep asm("rbx") = st;
    asm volatile("" : "+r"(keep));
    long t = scale_all(keep->vals, keep->n);
    asm volatile("" : "+r"(keep));
    keep->total += t;
    return keep->total * (long)keep->n;
}

int main(void)
{
    struct state *st = calloc(1, sizeof *st);
    st->n = 4;
    st->vals = calloc(4, sizeof(long));
    for (int i = 0; i < 4; i++) st->vals[i] = i + 1;
    printf("%ld\n", rescale(st));
    return 0;
}
