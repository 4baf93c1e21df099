/* gcc -O2 -lm: a numeric kernel enables floating-point traps (feenableexcept) and divides by a
 * zero norm: SIGFPE with si_code FPE_FLTDIV at a divsd (an SSE division), not the integer
 * divide shape (FPE_INTDIV). */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdio.h>

__attribute__((noinline)) double normalize(const double *v, int n, double norm) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] / norm;
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    double v[4] = { 1, 2, 3, 4 };
    feenableexcept(FE_DIVBYZERO | FE_INVALID);
    printf("%f\n", normalize(v, 4, (double)(argc - 1))); /* norm 0 without arguments */
    return 0;
}
