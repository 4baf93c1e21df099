/* gcc -O2: the same caller as live-slot-smash; scan_rows keeps its saved copy of r12 intact
 * and faults on the NULL `out` pointer before returning. */
#include <stdio.h>
#include <stdlib.h>

long scan_rows(const long *v, unsigned long n, long *out);

struct table { long *rows; unsigned long n; long *out; long sum; };

__attribute__((noinline)) long fold_table(struct table *t)
{
    register struct table *keep asm("r12") = t;
    asm volatile("" : "+r"(keep));
    long s = scan_rows(keep->rows, keep->n, keep->out);
    asm volatile("" : "+r"(keep));
    keep->sum += s;
    return keep->sum;
}

int main(void)
{
    struct table *t = calloc(1, sizeof *t);
    t->n = 3;
    t->rows = calloc(3, sizeof(long));
    for (int i = 0; i < 3; i++) t->rows[i] = 10 * (i + 1);
    printf("%ld\n", fold_table(t));
    return 0;
}
