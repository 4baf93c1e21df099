/* AArch64 gcc -O2 (qemu-user): the caller of an assembly function (a64-asm-no-restore.S) that
 * saves x19-x28 with stp (and CFI), uses them as accumulators, and returns after
 * `add sp, sp, #96` without the ldp restores: the caller gets its values (0x31..) back. The
 * caller keeps a table pointer in a callee-saved register across the call and faults reading
 * through it.
 *
 * Expected (written before running tracecheck): callee-saved-changed: fold_bytes saves the
 * register and writes it but returns without restoring it (with the binary or a core);
 * null-dereference may fire. */
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
