/* musl libc, static: an assert() fails; musl's message format differs from glibc's. */
#include <assert.h>
#include <stdio.h>

__attribute__((noinline)) int checked_div(int a, int b)
{
    assert(b != 0 && "divisor must be non-zero");
    return a / b;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", checked_div(10, argc));
    printf("%d\n", checked_div(10, argc - 1));
    return 0;
}
