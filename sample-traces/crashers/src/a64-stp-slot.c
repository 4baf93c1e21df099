/* a64-stp-slot-overrun / a64-stp-slot-ok (AArch64, gcc -O2): the caller keeps its histogram in
 * x21 across the call to window_sum (a64-stp-slot.S), which saves x21/x22 with stp. In the
 * overrun build its off-by-one clear zeroes the saved x21 and the ldp restores x21 = 0, so
 * h->total faults through x21 = 0; in the ok build x21 survives and the unrelated NULL read of
 * the missing label table faults instead. The transcripts add `disassemble window_sum` (the
 * returned callee's prologue: where it saved x21) and `x/8gx $sp-64` (its dead frame). */
#include <stdio.h>
#include <stdlib.h>

long window_sum(long *v, long n);

struct hist { long total; long count; const char **labels; };

__attribute__((noinline)) long add_window(struct hist *h, long *v)
{
    register struct hist *keep asm("x21") = h;
    asm volatile("" : "+r"(keep));
    keep->count++;
    long s = window_sum(v, 3);
    asm volatile("" : "+r"(keep));
    keep->total += s; /* keep was in x21 */
    return keep->total + (long)keep->labels[0][0]; /* labels == NULL */
}

int main(void)
{
    struct hist *h = calloc(1, sizeof *h);
    long v[3] = { 2, 4, 6 };
    printf("%ld\n", add_window(h, v));
    return 0;
}
