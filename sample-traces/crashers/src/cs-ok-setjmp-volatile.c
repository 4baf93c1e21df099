/* gcc -O2 look-alike: setjmp/longjmp used correctly (the local changed after setjmp is
 * volatile, so the recovery sees the item the parser had reached); the recovery then reads a
 * field of that item's `detail`, which is NULL for this error (an unrelated bug).
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed must
 * stay quiet. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

struct detail { long line; };
struct item { struct item *next; long code; struct detail *detail; };

static jmp_buf on_error;

__attribute__((noinline)) void check(struct item *it)
{
    if (it->code < 0)
        longjmp(on_error, 1);
}

__attribute__((noinline)) long parse(struct item *list)
{
    struct item *volatile cur = NULL;
    if (setjmp(on_error))
        return cur->code + cur->detail->line;   /* detail is NULL */
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
