/* gcc -O2: the same caller as push-slot-overrun, with a mix_rows that restores r12 intact;
 * the crash is an unrelated NULL read through another pointer after the call (the r12 value
 * after the call is the caller's own, and its saved copy in the dead frame equals it). */
#include <stdio.h>
#include <stdlib.h>

long mix_rows(const long *v, unsigned long n);

struct table { long *rows; unsigned long n; long sum; long *log; };

__attribute__((noinline)) long fold_table(struct table *t)
{
    register struct table *keep asm("r12") = t;
    asm volatile("" : "+r"(keep));
    long s = mix_rows(keep->rows, keep->n);
    asm volatile("" : "+r"(keep));
    keep->sum += s;
    return keep->sum + *keep->log;
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
