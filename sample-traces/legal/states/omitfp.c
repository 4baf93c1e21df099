/* gcc -O2 -fomit-frame-pointer: enough live values that rbp is a general register. A long
   recursive search, stopped from outside at a random point and at a breakpoint. */
#include <stdio.h>
#include <stdlib.h>
static unsigned long seed = 0x9e3779b97f4a7c15ul;
__attribute__((noinline)) unsigned long knot(unsigned long a, unsigned long b, unsigned long c, unsigned long d,
                                             unsigned long e, unsigned long f, int depth) {
    unsigned long g = a * 31 + b, h = c ^ (d << 7), i = e + (f >> 3), j = a ^ c ^ e, k = b + d + f;
    if (depth == 0) return g ^ h ^ i ^ j ^ k;
    unsigned long r = knot(h, i, j, k, g, seed, depth - 1);
    return r + knot(i, j, k, g, h, r, depth - 1) * (g | 1) + h * i + j * k;
}
int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 30;
    printf("%lu\n", knot(1, 2, 3, 4, 5, 6, depth));
    return 0;
}
