/* gcc/clang -O2: a chain of three tail calls into the C library. main calls render_row, which
 * tail-calls render_cell, which tail-calls write_text, which tail-calls fputs (`jmp
 * fputs@plt`): none of the three leaves a frame. The cell's text is NULL, so fputs faults in
 * glibc's strlen; gdb rebuilds the three as tail-call frames from the DWARF call sites. */
#include <stdio.h>

struct cell { const char *text; int width; };
struct row { struct cell cells[2]; int ncells; };

__attribute__((noinline)) int write_text(FILE *out, const char *s, int width)
{
    if (width < 0)
        return -1;
    return fputs(s, out);
}

__attribute__((noinline)) int render_cell(FILE *out, const struct cell *c)
{
    if (c->width > 200)
        return 0;
    return write_text(out, c->text, c->width);
}

__attribute__((noinline)) int render_row(FILE *out, const struct row *r, int col)
{
    if (col >= r->ncells)
        return 0;
    return render_cell(out, &r->cells[col]);
}

int main(int argc, char **argv)
{
    (void)argv;
    struct row rows[] = { { { { "id", 4 }, { "name", 8 } }, 2 }, { { { "7", 4 }, { NULL, 8 } }, 2 } };
    int n = 0;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < argc + 1; c++)
            n += render_row(stdout, &rows[r], c);
    printf("\n%d\n", n);
    return 0;
}
