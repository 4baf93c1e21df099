/* AArch64 gcc -O2 (qemu-user, static): a callback table entry never filled in; blr to
 * address 0 (pc = 0; the return address is in x30). */
#include <stdio.h>

typedef long (*op_fn)(long, long);
static long op_add(long a, long b) { return a + b; }
static op_fn ops[4] = { op_add, 0, 0, 0 };

__attribute__((noinline)) long apply(int op, long a, long b)
{
    return ops[op](a, b) + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%ld\n", apply(0, argc, 2));
    printf("%ld\n", apply(argc + 1, 3, 4));
    return 0;
}
