/* gcc -O2: the caller keeps `s` in r12 (a callee-saved register) across the call to
 * checksum_block, which clobbers r12. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long checksum_block(const unsigned char *p, unsigned long n);

struct session { long id; long sum; char buf[32]; };

__attribute__((noinline)) long update(struct session *s, const unsigned char *p, unsigned long n)
{
    register struct session *keep asm("r12") = s;
    asm volatile("" : "+r"(keep));
    long c = checksum_block(p, n);
    asm volatile("" : "+r"(keep));
    keep->sum += c; /* keep was in r12 */
    return keep->sum + keep->id;
}

int main(void)
{
    struct session *s = calloc(1, sizeof *s);
    s->id = 9;
    strcpy(s->buf, "payload");
    printf("%ld\n", update(s, (const unsigned char *)s->buf, 7));
    return 0;
}
