/* gcc -O2: look-alike: opcode_cost() ends its switch with __builtin_trap() (ud2) for opcodes
 * that cannot occur; the trap is never executed. The crash is an unrelated NULL read in the
 * same function (the cost table pointer was never set), with the ud2 a few instructions away. */
#include <stdio.h>

struct costs { int add, mul, div; };
static struct costs *table; /* never loaded */

__attribute__((noinline)) int opcode_cost(int op)
{
    switch (op) {
    case 0: return table->add;
    case 1: return table->mul;
    case 2: return table->div;
    default: __builtin_trap();
    }
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", opcode_cost(argc - 1));
    return 0;
}
