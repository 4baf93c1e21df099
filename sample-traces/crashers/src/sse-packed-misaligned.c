/* gcc -O2: a packed header puts a float[4] at offset 1; the code loads it with the
 * aligned SSE intrinsic _mm_load_ps (movaps), which raises #GP on a misaligned address:
 * SIGSEGV with si_code SI_KERNEL and si_addr 0, although no pointer is NULL. */
#include <stdio.h>
#include <stdlib.h>
#include <xmmintrin.h>

struct __attribute__((packed)) sample {
    unsigned char kind;
    float v[4];
};

__attribute__((noinline)) float sum4(const struct sample *s)
{
    __m128 x = _mm_load_ps(s->v);
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));
    x = _mm_add_ss(x, _mm_shuffle_ps(x, x, 1));
    return _mm_cvtss_f32(x);
}

int main(void)
{
    struct sample *s = aligned_alloc(64, 64);
    s->kind = 1;
    for (int i = 0; i < 4; i++)
        s->v[i] = (float)i;
    printf("%f\n", sum4(s));
    return 0;
}
