/* A legal recursion 60,000 frames deep (a few MiB of an 8 MiB stack; argv[2] sets another depth), repeated: a signal sent
   from outside stops it with thousands of identical frames and sp far below the stack's top. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long walk(unsigned long n, unsigned long acc) {
    volatile char pad[32];
    pad[n & 31] = (char)n;
    if (n == 0) return acc;
    return walk(n - 1, acc * 31 + (unsigned long)pad[n & 31]) + 1;
}
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 2000;
    unsigned long depth = argc > 2 ? strtoul(argv[2], NULL, 10) : 60000;
    unsigned long t = 0;
    for (long r = 0; r < rounds; r++) t += walk(depth, (unsigned long)r);
    printf("%lu\n", t);
    return 0;
}
