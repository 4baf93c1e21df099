/* clang -O1 -fsanitize=address, run with ASAN_OPTIONS=abort_on_error=1 under the debugger:
 * ASan's heap-buffer-overflow report on stderr, then SIGABRT from ASan's Die(). The overflow is
 * a histogram update one bucket past the end. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void histogram(int *bins, int nbins, const int *v, int n)
{
    for (int i = 0; i < n; i++)
        bins[v[i] * nbins / 100]++; /* v = 100 gives bin nbins */
}

int main(void)
{
    int *bins = calloc(10, sizeof *bins);
    int v[4] = { 5, 55, 99, 100 };
    histogram(bins, 10, v, 4);
    printf("%d\n", bins[0]);
    free(bins);
    return 0;
}
