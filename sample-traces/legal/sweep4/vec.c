// Legal vector code (issue 11, fourth pass): glibc's ifunc-selected string and memory
// functions (on an AVX-512 machine the evex/avx512 variants, else avx2/sse2) called with many
// sizes and alignments, and a loop of AVX-512 (or AVX2) intrinsics the compiler keeps in
// registers, built with clang -O3 -fomit-frame-pointer. Stops land mid-vector-code, with
// vector registers full of text and callee-saved registers holding loop state.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *buf, *dst;
enum { N = 1 << 20 };

__attribute__((noinline)) static size_t text_round(long r) {
    size_t s = 0;
    for (int k = 1; k < 4000; k += 37) {
        size_t off = (size_t)((r * 131 + k) % 4093);
        memcpy(dst + off, buf + (k % 61), (size_t)k);
        dst[off + k] = 0;
        s += strlen(dst + off);
        s += (size_t)(memchr(buf, 'z' - (k % 3), (size_t)k * 8) != NULL);
        s += (size_t)(strchr(dst + off, 'q') != NULL);
        s += (size_t)memcmp(dst + off, buf + (k % 61), (size_t)k / 2);
        memset(dst + off + k / 2, 'a' + (k % 26), (size_t)k / 2);
        memmove(dst + off + 1, dst + off, (size_t)k);
    }
    return s;
}

__attribute__((noinline)) static float dot(const float *a, const float *b, long n) {
#if defined(__AVX512F__)
    __m512 acc = _mm512_setzero_ps();
    for (long i = 0; i + 16 <= n; i += 16) acc = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), acc);
    return _mm512_reduce_add_ps(acc);
#elif defined(__AVX2__)
    __m256 acc = _mm256_setzero_ps();
    for (long i = 0; i + 8 <= n; i += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), acc);
    float t[8];
    _mm256_storeu_ps(t, acc);
    return t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
#else
    float s = 0;
    for (long i = 0; i < n; i++) s += a[i] * b[i];
    return s;
#endif
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    buf = malloc(N);
    dst = malloc(N);
    for (int i = 0; i < N; i++) buf[i] = (char)('a' + (i * 7) % 26);
    buf[N - 1] = 0;
    float *a = aligned_alloc(64, 4096 * sizeof(float)), *b = aligned_alloc(64, 4096 * sizeof(float));
    for (int i = 0; i < 4096; i++) { a[i] = (float)i * 0.5f; b[i] = 1.0f / (float)(i + 1); }
    double acc = 0;
    for (long r = 0; r < rounds; r++) {
        acc += (double)text_round(r);
        acc += dot(a + (r % 16), b, 4000);
    }
    printf("%f\n", acc);
    return 0;
}
