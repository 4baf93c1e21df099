/* gcc -O2: two possible tail-call paths. main calls dispatch, which tail-calls either
 * show_short or show_long, and each tail-calls puts. Both paths end at puts and share no call
 * site below dispatch, so the DWARF call sites cannot tell which one ran: gdb shows no
 * tail-call frame (puts called from main), and the core path must not pick one. */
#include <stdio.h>

struct msg { const char *text; int kind; };

__attribute__((noinline)) int show_short(const struct msg *m)
{
    if (m->kind > 9)
        return 0;
    return puts(m->text);
}

__attribute__((noinline)) int show_long(const struct msg *m)
{
    if (m->kind < 0)
        return 0;
    return puts(m->text + 1);
}

__attribute__((noinline)) int dispatch(const struct msg *m)
{
    if (m->kind & 1)
        return show_long(m);
    return show_short(m);
}

int main(int argc, char **argv)
{
    (void)argv;
    struct msg msgs[] = { { "hello", 0 }, { "xworld", 1 }, { NULL, 2 } };
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += dispatch(&msgs[i]) + argc;
    printf("%d\n", n);
    return 0;
}
