/* i386 (i686-linux-gnu-gcc -O2, static): INT_MIN / -1 overflows idiv: SIGFPE (FPE_INTDIV)
 * with a non-zero divisor, in a 32-bit process. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int scale(int total, int parts)
{
    return total / parts; /* parts = -1, total = INT_MIN */
}

int main(int argc, char **argv)
{
    (void)argv;
    int parts = argc - 2; /* -1 */
    printf("%d\n", scale(INT_MIN + argc - 1, parts));
    return 0;
}
