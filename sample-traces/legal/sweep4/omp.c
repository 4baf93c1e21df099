// Legal OpenMP (issue 11, fourth pass): libgomp parallel regions again and again (a
// reduction, a dynamic schedule, a critical section, tasks, barriers), so stops land in the
// outlined `main._omp_fn.N` bodies, in libgomp's team start and barrier waits (futex), and in
// threads parked between regions.
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static double work(long i) { return sin((double)i) * cos((double)i * 0.5); }
__attribute__((noinline)) static long fib(int n) {
    if (n < 2) return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    double total = 0;
    long hist[16] = {0};
    for (long r = 0; r < rounds; r++) {
        double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(4)
        for (long i = 0; i < 20000; i++) s += work(i + r);
#pragma omp parallel num_threads(3)
        {
#pragma omp for schedule(dynamic, 64)
            for (long i = 0; i < 4096; i++) {
                long k = (long)(fabs(work(i)) * 15.0);
#pragma omp critical
                hist[k & 15]++;
            }
#pragma omp barrier
#pragma omp single
            total += (double)fib(14);
        }
        total += s;
    }
    printf("%f %ld\n", total, hist[3]);
    return 0;
}
