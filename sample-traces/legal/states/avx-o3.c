/* gcc -O3 -mavx2: a vectorized loop over misaligned float arrays (vmovups), run for a long
   time, so a signal sent from outside stops it in the vector loop. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) void saxpy(float *restrict y, const float *restrict x, float a, int n) {
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
int main(int argc, char **argv) {
    int n = 4099;
    long rounds = argc > 1 ? atol(argv[1]) : 3000000;
    char *bx = malloc(n * sizeof(float) + 64), *by = malloc(n * sizeof(float) + 64);
    float *x = (float *)(bx + 4), *y = (float *)(by + 12); /* not 32-byte aligned */
    for (int i = 0; i < n; i++) { x[i] = (float)i; y[i] = 1.0f; }
    for (long r = 0; r < rounds; r++) saxpy(y, x, 1e-9f, n);
    printf("%f\n", y[7]);
    return 0;
}
