/* Runaway mutual recursion (is_even -> is_odd -> is_even ...) on a negative input, under
 * ulimit -s 128: the repeated frames alternate between two functions. */
#include <stdio.h>

int is_odd(long n);

__attribute__((noinline)) int is_even(long n)
{
    volatile char pad[32];
    pad[0] = (char)n;
    return n == 0 ? 1 : is_odd(n - 1) + pad[0] * 0;
}

__attribute__((noinline)) int is_odd(long n)
{
    volatile char pad[32];
    pad[0] = (char)n;
    return n == 0 ? 0 : is_even(n - 1) + pad[0] * 0;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", is_even(-(long)argc));
    return 0;
}
