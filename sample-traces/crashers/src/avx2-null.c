/* gcc -O3 -mavx2: a vectorized sum over a row pointer that is NULL for an empty table; the
 * first 32-byte load (vmovdqu (%rax),%ymm0 or a vpaddd with a memory operand) faults at 0. */
#include <stdio.h>
#include <stdlib.h>

struct table { int rows; int cols; int **row; };

__attribute__((noinline)) long row_sum(const struct table *t, int r)
{
    long s = 0;
    const int *p = t->row[r];
    for (int c = 0; c < t->cols; c++) s += p[c];
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct table t = {.rows = 2, .cols = 64 + argc};
    t.row = calloc(2, sizeof *t.row);
    t.row[0] = calloc((size_t)t.cols, sizeof(int));
    printf("%ld\n", row_sum(&t, 0));
    printf("%ld\n", row_sum(&t, 1));
    return 0;
}
