/* Plain C, no Julia runtime: functions merely named julia_* and jlcapi_*. r13 holds a small
 * counter, as any C code may keep in a callee-saved register. The crash is a NULL read. */
#include <stdio.h>
#include <stdlib.h>

struct cfg { const char *name; long *limits; };

__attribute__((noinline)) long julia_limit_of(struct cfg *c, long i)
{
    return c->limits[i]; /* limits == NULL */
}

__attribute__((noinline)) long jlcapi_total(struct cfg *c, long n)
{
    register long count asm("r13") = 0;
    long t = 0;
    for (long i = 0; i < n; i++) {
        asm volatile("inc %0" : "+r"(count));
        t += julia_limit_of(c, i + count);
    }
    return t;
}

int main(void)
{
    struct cfg *c = calloc(1, sizeof *c);
    c->name = "default";
    printf("%ld\n", jlcapi_total(c, 3));
    return 0;
}
