/* a64-callee-heavy (AArch64, gcc -O2, qemu-user): a legal mixer keeps ten values live across
 * calls, so gcc puts them in the callee-saved x19-x28 (heap pointers in several, x28 among
 * them, in a program with no Go or Julia runtime), and an assembly-free leaf uses x18 as a
 * scratch register (legal on Linux, where x18 is not reserved). Every callee saves and restores
 * what it uses. Then an unrelated NULL read in a leaf (a missing channel). */
#include <stdio.h>
#include <stdlib.h>

struct channel { long gain; long *samples; };

__attribute__((noinline)) long channel_gain(const struct channel *c) { return c->gain; }

__attribute__((noinline)) long scale(long v, long k) {
    register long t __asm__("x18") = v * k; /* x18 as an ordinary temporary */
    __asm__ volatile("" : "+r"(t));
    return t >> 1;
}

__attribute__((noinline)) long mix(struct channel **ch, long *a, long *b, long *c, long *d, long n) {
    long *e = malloc(64), *f = malloc(64), *g = malloc(64), *h = malloc(64);
    long acc = 0, k0 = n + 1, k1 = n + 2, k2 = n * 3;
    for (long i = 0; i < n; i++) {
        acc += scale(a[i] + b[i], k0);
        acc += scale(c[i] - d[i], k1);
        e[i] = acc; f[i] = acc ^ k2; g[i] = e[i] + f[i]; h[i] = g[i] - k0;
        acc += channel_gain(ch[i]);
    }
    long r = acc + e[0] + f[1] + g[2] + h[3];
    free(e); free(f); free(g); free(h);
    return r;
}

int main(void) {
    long a[8], b[8], c[8], d[8];
    struct channel one = { 2, a }, two = { 3, b };
    struct channel *ch[8] = { &one, &two, &one, &two, NULL, &one, &two, &one }; /* ch[4] missing */
    for (int i = 0; i < 8; i++) { a[i] = i; b[i] = 2 * i; c[i] = 3 * i; d[i] = i + 1; }
    printf("%ld\n", mix(ch, a, b, c, d, 8));
    return 0;
}
