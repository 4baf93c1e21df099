/* Integer division by zero (SIGFPE, FPE_INTDIV): the mean of the values above a
 * threshold, when none is above it. */
#include <stdio.h>

__attribute__((noinline)) long mean_above(const long *v, long n, long limit)
{
    long sum = 0, count = 0;
    for (long i = 0; i < n; i++)
        if (v[i] > limit) {
            sum += v[i];
            count++;
        }
    return sum / count;
}

int main(int argc, char **argv)
{
    (void)argv;
    long v[4] = {3, 5, 7, 9};
    printf("%ld\n", mean_above(v, 4, 8 + argc));
    return 0;
}
