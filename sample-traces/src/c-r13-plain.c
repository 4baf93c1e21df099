/* c-r13-plain: negative control.  Ordinary C at -O2 where gcc keeps loop state
 * in callee-saved registers (r12-r15, rbx) across calls; r13 ends up holding an
 * ordinary C value, not a Julia pgcstack.  Crashes with a NULL dereference in
 * histogram_add() called from tally() (no julia frames anywhere). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bucket { long count; long sum; struct bucket *overflow; };
struct histogram { int nbuckets; struct bucket **buckets; long total; };

__attribute__((noinline)) static void histogram_add(struct histogram *h, long value)
{
    struct bucket *b = h->buckets[value % h->nbuckets];
    b->count++;                            /* bucket never allocated -> NULL */
    b->sum += value;
    h->total++;
}

__attribute__((noinline)) static long score(long x)
{
    return (x * 2654435761u) >> 7;
}

__attribute__((noinline)) long tally(struct histogram *h, const long *samples, int n, long bias)
{
    long acc = 0, mx = 0, mn = 1L << 62, odd = 0;
    for (int i = 0; i < n; i++) {
        long s = score(samples[i] + bias);
        if (s > mx) mx = s;
        if (s < mn) mn = s;
        odd += s & 1;
        acc += s;
        histogram_add(h, samples[i]);
    }
    return acc + mx - mn + odd;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct histogram h = { 7, calloc(7, sizeof(struct bucket *)), 0 };
    for (int i = 0; i < 7; i++)
        if (i != 5)                        /* bucket 5 is forgotten */
            h.buckets[i] = calloc(1, sizeof(struct bucket));
    long samples[32];
    for (int i = 0; i < 32; i++)
        samples[i] = (long)i * 3 + argc;
    printf("%ld\n", tally(&h, samples, 32, 11));
    return 0;
}
