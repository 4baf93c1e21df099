/* clang -O2 -fsanitize=signed-integer-overflow -fsanitize-trap=all: a signed overflow in a
 * running sum is caught by the inline check, which executes ud2 with no message. */
#include <limits.h>
#include <stdio.h>

__attribute__((noinline)) int running_sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

int main(void)
{
    int small[3] = {1, 2, 3};
    int large[3] = {INT_MAX - 5, 4, 9};
    printf("%d\n", running_sum(small, 3));
    printf("%d\n", running_sum(large, 3));
    return 0;
}
