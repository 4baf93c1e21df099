/* Allocation churn: most of the time is spent inside malloc and free, so a signal sent from
   outside stops the program in the allocator, whose heap is perfectly sound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 200000000;
    void *slots[256] = {0};
    unsigned long x = 88172645463325252ul, sum = 0;
    for (long r = 0; r < rounds; r++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        unsigned i = x & 255;
        free(slots[i]);
        size_t n = 16 + (x >> 20) % 2000;
        slots[i] = malloc(n);
        memset(slots[i], (int)r, n < 64 ? n : 64);
        sum += ((unsigned char *)slots[i])[0];
    }
    printf("%lu\n", sum);
    return 0;
}
