/* Calls the assembly helper sum_pair, whose `ret` returns into .data when the sum is large. */
#include <stdio.h>
long sum_pair(const long *p);
long pair[2] = {70, 80};

int main(void)
{
    static long small[2] = {1, 2};
    printf("%ld\n", sum_pair(small));
    printf("%ld\n", sum_pair(pair));
    return 0;
}
