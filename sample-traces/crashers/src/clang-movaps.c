/* clang -O2: a global function that keeps a 16-byte-aligned vector on its stack; called from
 * assembly with a misaligned stack, its aligned store (movaps) faults with #GP. */
#include <stdio.h>
#include <string.h>

typedef float v4 __attribute__((vector_size(16)));
void call_unaligned(void (*fn)(float *), float *arg);

__attribute__((noinline)) void blend(float *out)
{
    volatile v4 tmp[2];
    v4 a = {out[0], out[1], out[2], out[3]};
    tmp[0] = a * a;
    tmp[1] = a + a;
    v4 r = tmp[0] + tmp[1];
    memcpy(out, &r, sizeof r);
}

int main(void)
{
    float v[4] = {1, 2, 3, 4};
    blend(v);
    call_unaligned(blend, v);
    printf("%f\n", v[0]);
    return 0;
}
