/* gcc/clang -O2: a chain of two tail calls into the C library. main calls print_entry, which
 * tail-calls emit_label (`jmp emit_label`), which tail-calls puts (`jmp puts@plt`): neither
 * leaves a frame. The entry's label is NULL, so puts faults inside glibc's strlen, and the
 * only program frame on the stack is main's; gdb rebuilds emit_label and print_entry as
 * tail-call frames from the DWARF call sites (DW_AT_call_tail_call). */
#include <stdio.h>
#include <stdlib.h>

struct entry { int id; const char *label; };

__attribute__((noinline)) int emit_label(const struct entry *e, int width)
{
    if (width > 80)
        return -1;
    return puts(e->label);
}

__attribute__((noinline)) int print_entry(const struct entry *e, int indent)
{
    if (!e)
        return 0;
    return emit_label(e, indent * 2 + 4);
}

int main(int argc, char **argv)
{
    (void)argv;
    struct entry table[] = { { 1, "alpha" }, { 2, NULL }, { 3, "gamma" } };
    int total = 0;
    for (int i = 0; i < 3; i++)
        total += print_entry(&table[i], argc);
    printf("%d\n", total);
    return 0;
}
