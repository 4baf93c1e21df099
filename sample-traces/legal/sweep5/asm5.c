// Driver of asm5.S (issue 11, fifth pass): calls each hand-written routine in a loop so that
// random stops land inside them. Nothing in it is wrong.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long rz_leaf(long, long);
long rbp_counter(void);
long jmp_return(long);
long push_return(long);
long on_private_stack(long (*)(long), long);
void fill_pattern(void *, size_t);
long nocfi_caller(long (*)(long), long);

static char buf[4096];
__attribute__((noinline)) long c_callback(long x) {
    long s = 0;
    for (int i = 0; i < 200; i++) s += (x ^ i) * 31 + (long)strlen(buf + (i & 63));
    char *p = malloc(64 + (x & 127));
    snprintf(p, 64, "%ld", s);
    s += p[0];
    free(p);
    return s;
}
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L, t = 0;
    for (long r = 0; r < rounds; r++) {
        t += rz_leaf(r, t);
        t += rbp_counter();
        t += jmp_return(r);
        t += push_return(r);
        t += on_private_stack(c_callback, r);
        fill_pattern(buf, sizeof buf - 64);
        buf[(r & 1023) + 64] = 0;
        t += nocfi_caller(c_callback, t);
    }
    printf("%ld\n", t);
    return 0;
}
