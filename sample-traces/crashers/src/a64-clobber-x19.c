/* a64-clobber-x19 (AArch64, gcc -O2): the caller keeps `c` in x19 (callee-saved) across the
 * call to mix_bits (a64-clobber-x19.S), which uses x19 as scratch without saving it and has
 * no CFI rule for it. After the call c->total faults through x19 = 0x17. */
#include <stdio.h>
#include <stdlib.h>

long mix_bits(long seed);

struct counter { long hits; long total; };

__attribute__((noinline)) long tally(struct counter *c, long seed)
{
    register struct counter *keep asm("x19") = c;
    asm volatile("" : "+r"(keep));
    keep->hits++;
    long m = mix_bits(seed);
    asm volatile("" : "+r"(keep));
    keep->total += m; /* keep was in x19 */
    return keep->total;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct counter *c = calloc(1, sizeof *c);
    printf("%ld\n", tally(c, argc + 40));
    return 0;
}
