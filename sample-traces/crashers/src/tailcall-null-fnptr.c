/* gcc -O2: dispatch() ends in a tail call through an ops table (`jmp *(%rdi)`), so it leaves
 * no frame; the table's entry is NULL: pc = 0 and [sp] is main's return address into the
 * direct call of dispatch. */
#include <stdio.h>

struct ops { int (*apply)(int); int (*undo)(int); };

static int inc(int x) { return x + 1; }

__attribute__((noinline)) int dispatch(const struct ops *o, int x) { return o->apply(x); }

int main(int argc, char **argv)
{
    (void)argv;
    struct ops good = {inc, inc};
    struct ops bad = {NULL, inc};
    volatile const struct ops *pick = argc > 5 ? &good : &bad;
    printf("%d\n", dispatch(&good, 1));
    printf("%d\n", dispatch((const struct ops *)pick, 2));
    return 0;
}
