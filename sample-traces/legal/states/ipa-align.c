/* gcc -O2 (-fipa-stack-alignment, on by default): `mix` is static, needs no 16-byte
   alignment, and is called with rsp = 8 (mod 16) at its entry. Stopped at a breakpoint in it. */
#include <stdio.h>
static volatile unsigned sink;
__attribute__((noinline)) static unsigned mix(unsigned a, unsigned b) {
    unsigned x = a * 2654435761u ^ b;
    sink = x;
    return x >> 3;
}
__attribute__((noinline)) static unsigned outer(unsigned n) {
    unsigned acc = 0;
    for (unsigned i = 0; i < n; i++) acc += mix(i, acc);
    return acc;
}
int main(int argc, char **argv) {
    (void)argv;
    printf("%u\n", outer(1000u + (unsigned)argc));
    return 0;
}
