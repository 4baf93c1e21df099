/* Calls jfptr_reuse_7 (assembly), which passes julia_reuse_6 a pgcstack-like pointer in r13;
   julia_reuse_6 reads it once and reuses r13 as its loop counter (legal). */
#include <stdio.h>
long jfptr_reuse_7(long x);
volatile long probe_sink;
__attribute__((noinline)) long reuse_probe(long v) { probe_sink = v; return v + 1; }
int main(void) {
    printf("%ld\n", jfptr_reuse_7(5));
    return 0;
}
