/* gcc -O2: a global function marked force_align_arg_pointer realigns its own stack, so a
 * caller may call it with rsp = 8 (mod 16) (the assembly glue here does); it keeps SSE
 * locals on the realigned stack legally. An unrelated NULL read follows inside it. */
#include <stdio.h>
#include <string.h>

struct sample { float v[4]; const int *scale; };

int call_unaligned(int (*fn)(const struct sample *), const struct sample *s);

__attribute__((noinline, force_align_arg_pointer)) int mix_sample(const struct sample *s)
{
    float tmp[8] __attribute__((aligned(16)));
    memcpy(tmp, s->v, sizeof s->v);
    memcpy(tmp + 4, s->v, sizeof s->v);
    float acc = 0;
    for (int i = 0; i < 8; i++) acc += tmp[i] * (float)i;
    return (int)acc * *s->scale;
}

int main(void)
{
    static const int one = 1;
    struct sample ok = {{1, 2, 3, 4}, &one};
    struct sample broken = {{5, 6, 7, 8}, NULL};
    printf("%d\n", call_unaligned(mix_sample, &ok));
    printf("%d\n", call_unaligned(mix_sample, &broken));
    return 0;
}
