/* gcc -O2: setjmp/longjmp error recovery where a local changed after setjmp is not volatile.
 * The compiler keeps `cur` in a callee-saved register; longjmp restores the registers saved by
 * setjmp, so after the jump `cur` has its value from the setjmp call (NULL), not the item the
 * parser had reached, and the recovery path reads through it.
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed must
 * stay quiet (longjmp restoring the jmp_buf's registers is the ABI working, and no callee
 * changed the register: the bug is the missing volatile). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

struct item { struct item *next; long code; };

static jmp_buf on_error;

__attribute__((noinline)) void check(struct item *it)
{
    if (it->code < 0)
        longjmp(on_error, 1);
}

__attribute__((noinline)) long parse(struct item *list)
{
    struct item *cur = NULL;       /* BUG: not volatile, changed after setjmp */
    if (setjmp(on_error))
        return cur->code;          /* the recovery reads the stale NULL */
    long n = 0;
    for (cur = list; cur; cur = cur->next) {
        check(cur);
        n++;
    }
    return n;
}

int main(void)
{
    struct item *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    a->next = b;
    b->code = -1;
    printf("%ld\n", parse(a));
    return 0;
}
