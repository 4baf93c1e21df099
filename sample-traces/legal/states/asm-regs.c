/* Calls the assembly `crunch`, which keeps small integers, a stack address, 0xdeadbeef and
   0xaaaaaaaaaaaaaaaa in callee-saved registers while it calls back into leaf_probe. */
#include <stdio.h>
long crunch(long);
volatile long sink;
__attribute__((noinline)) long leaf_probe(long a, unsigned long b) {
    sink = a ^ (long)b;
    return sink & 0xff;
}
int main(void) {
    long t = 0;
    for (long i = 0; i < 3; i++) t += crunch(i + 40);
    printf("%ld\n", t);
    return 0;
}
