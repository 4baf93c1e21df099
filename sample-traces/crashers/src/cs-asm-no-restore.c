/* gcc -O2 caller of a hand-written assembly function (cs-asm-no-restore.S) that pushes every
 * callee-saved register (rbx, rbp, r12-r15), uses them, and returns after `add $48,%rsp` instead of popping
 * them: the saved copies are dropped and the caller gets the function's values (0x21..0x26).
 * The caller keeps a table pointer in a callee-saved register across the call and faults
 * reading through it.
 *
 * Expected (written before running tracecheck): callee-saved-changed: fold_bytes saves the
 * register and writes it but returns without restoring it (with the binary or a core); nothing
 * from the transcript alone (no code of the returned callee); null-dereference may fire. */
#include <stdio.h>
#include <stdlib.h>

long fold_bytes(const unsigned char *p, long n);

struct table { long rows; long *cells; };

__attribute__((noinline)) long total(struct table *t, const unsigned char *data)
{
    long s = 0;
    for (long r = 0; r < t->rows; r++)
        s += fold_bytes(data, 4) + t->cells[r];
    return s;
}

int main(void)
{
    struct table *t = malloc(sizeof *t);
    t->rows = 3;
    t->cells = calloc(3, sizeof(long));
    unsigned char data[4] = { 1, 2, 3, 4 };
    printf("%ld\n", total(t, data));
    return 0;
}
