/* misaligned-sse: an assembly shim (misaligned-sse.S) calls vec_accumulate with
 * rsp misaligned by 8.  vec_accumulate is built with -O0, where gcc spills
 * __m128 locals with movaps to 16-byte-aligned rbp offsets; with the stack off
 * by 8 those slots are misaligned and movaps raises #GP -> SIGSEGV, si_code
 * SI_KERNEL (128), si_addr 0. */
#include <stdio.h>
#include <xmmintrin.h>

float vec_accumulate(const float *v, int n);
float call_misaligned(float (*fn)(const float *, int), const float *v, int n);

float vec_accumulate(const float *v, int n)
{
    __m128 acc = _mm_setzero_ps();
    for (int i = 0; i + 4 <= n; i += 4)
        acc = _mm_add_ps(acc, _mm_loadu_ps(v + i));
    float out[4];
    _mm_storeu_ps(out, acc);
    return out[0] + out[1] + out[2] + out[3];
}

int main(void)
{
    float data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    printf("%f\n", vec_accumulate(data, 8));          /* fine: aligned call */
    printf("%f\n", call_misaligned(vec_accumulate, data, 8));
    return 0;
}
