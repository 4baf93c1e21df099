/* An OpenMP parallel loop over rows: one row pointer is NULL and the libgomp worker thread
 * that gets it reads through NULL. The fault is in the outlined function
 * (row_sums._omp_fn.0) run by a libgomp thread (or the main thread, whichever gets row 5). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ROWS 8
#define COLS 64

__attribute__((noinline)) void row_sums(double **rows, double *out) {
#pragma omp parallel for schedule(static, 1) num_threads(4)
    for (int r = 0; r < ROWS; r++) {
        double s = 0;
        for (int c = 0; c < COLS; c++) s += rows[r][c];
        out[r] = s;
    }
}

int main(void) {
    double *rows[ROWS], out[ROWS];
    for (int r = 0; r < ROWS; r++) {
        rows[r] = malloc(COLS * sizeof(double));
        for (int c = 0; c < COLS; c++) rows[r][c] = r + c;
    }
    free(rows[5]);
    rows[5] = NULL; /* a dropped row, not skipped by the loop */
    row_sums(rows, out);
    printf("%f\n", out[0]);
    return 0;
}
