/* gcc -O2 -mavx512f: _mm512_load_ps (an aligned 64-byte load: vmovaps/vmovapd zmm) of 16
 * floats at a 4-byte offset into a 64-byte aligned buffer: #GP, SIGSEGV with si_code SI_KERNEL
 * and si_addr 0; no NULL pointer. (Built with -mavx2 where the CPU has no AVX-512: the same
 * misaligned aligned-load, _mm256_load_ps on a ymm register.) */
#include <immintrin.h>
#include <stdio.h>

static float samples[64] __attribute__((aligned(64)));

__attribute__((noinline)) float sum16(const float *p)
{
#ifdef __AVX512F__
    __m512 v = _mm512_load_ps(p);
    return _mm512_reduce_add_ps(v);
#else
    __m256 v = _mm256_add_ps(_mm256_load_ps(p), _mm256_load_ps(p + 8));
    float o[8];
    _mm256_storeu_ps(o, v);
    return o[0] + o[1] + o[2] + o[3] + o[4] + o[5] + o[6] + o[7];
#endif
}

int main(int argc, char **argv)
{
    (void)argv;
    for (int i = 0; i < 64; i++)
        samples[i] = (float)i;
    printf("%f\n", sum16(samples) + sum16(samples + argc)); /* samples + 1: misaligned */
    return 0;
}
