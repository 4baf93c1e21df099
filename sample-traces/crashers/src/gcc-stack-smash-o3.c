/* gcc -O3 -fstack-protector-strong: a vectorized loop writes past a 16-int local array
 * (the bound comes from the caller); the canary check aborts with
 * "*** stack smashing detected ***". */
#include <stdio.h>

__attribute__((noinline)) int histogram(const unsigned char *data, int n, int buckets)
{
    int counts[16] = {0};
    for (int i = 0; i < buckets; i++)
        counts[i] = 0x7f7f7f7f;
    for (int i = 0; i < n; i++)
        counts[data[i] & 15]++;
    int best = 0;
    for (int i = 1; i < 16; i++)
        if (counts[i] > counts[best])
            best = i;
    return best;
}

int main(int argc, char **argv)
{
    (void)argv;
    static const unsigned char data[] = "tracecheck";
    printf("%d\n", histogram(data, sizeof data - 1, 24 + argc));
    return 0;
}
