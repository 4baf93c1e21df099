/* gcc -O2: `t` lives in r12 across the call to mix_rows (assembly), and its fields are read
 * through r12 before the call; mix_rows's saved copy of r12 is overwritten in its frame, so
 * r12 comes back 0 and the store after the call faults. */
#include <stdio.h>
#include <stdlib.h>

long mix_rows(const long *v, unsigned long n);

struct table { long *rows; unsigned long n; long sum; };

__attribute__((noinline)) long fold_table(struct table *t)
{
    register struct table *keep asm("r12") = t;
    asm volatile("" : "+r"(keep));
    long s = mix_rows(keep->rows, keep->n);
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
