/* gcc -O2 -mavx2: an unaligned 256-bit load of a model's weights at a 4-byte offset
 * (_mm256_loadu_ps, which gcc folds into the memory operand of vmulps: VEX operands need no
 * alignment); the model pointer is NULL, so the vector instruction faults at the small address
 * 0xc: a page fault (SEGV_MAPERR with that address), not an alignment #GP. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

struct model { int n; float scale; float w[16]; };

__attribute__((noinline)) float dot8(const struct model *m, const float *x, int off)
{
    __m256 a = _mm256_loadu_ps(m->w + off);
    __m256 b = _mm256_loadu_ps(x);
    __m256 p = _mm256_mul_ps(a, b);
    float out[8];
    _mm256_storeu_ps(out, p);
    float s = 0;
    for (int i = 0; i < 8; i++)
        s += out[i];
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct model *good = calloc(1, sizeof *good);
    float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    printf("%f\n", dot8(good, x, argc));
    printf("%f\n", dot8(argc > 5 ? good : NULL, x, argc));
    return 0;
}
