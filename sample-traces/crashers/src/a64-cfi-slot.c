/* a64-cfi-slot (AArch64, gcc -O2): the caller keeps `st` in x19 across the call to
 * scale_row (a64-cfi-slot.S), which saves x19/x20 with stp (CFI: x19 at CFA-16) but clears
 * one word past its 4-word scratch array: the saved x19. Its ldp then restores x19 = 0, and
 * st->sum faults through x19 = 0. Only the callee's CFI and its dead frame below sp (in a
 * core) show what happened: the save and the restore are both there in its code. */
#include <stdio.h>
#include <stdlib.h>

long scale_row(long *row, long n);

struct stats { long n; long sum; };

__attribute__((noinline)) long update(struct stats *st, long *row)
{
    register struct stats *keep asm("x19") = st;
    asm volatile("" : "+r"(keep));
    keep->n++;
    long s = scale_row(row, 3);
    asm volatile("" : "+r"(keep));
    keep->sum += s; /* keep was in x19 */
    return keep->sum;
}

int main(void)
{
    struct stats *st = calloc(1, sizeof *st);
    long row[3] = { 3, 5, 7 };
    printf("%ld\n", update(st, row));
    return 0;
}
