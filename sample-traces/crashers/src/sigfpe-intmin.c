/* clang -O2: INT_MIN / -1 overflows idiv: SIGFPE (FPE_INTDIV) although the divisor is not
 * zero. */
#include <limits.h>
#include <stdio.h>

__attribute__((noinline)) static int average(int sum, int count)
{
    return sum / count;
}

int main(int argc, char **argv)
{
    (void)argv;
    int count = 1 - 2 * argc; /* -1 */
    printf("%d\n", average(INT_MIN + argc - 1, count));
    return 0;
}
