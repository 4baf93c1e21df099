/* A leftover debugging breakpoint: __builtin_debugtrap-style int3 in a code path that runs,
 * so the program stops with SIGTRAP (gdb reports it) at a code address. */
#include <stdio.h>

__attribute__((noinline)) int settle(int v)
{
    if (v > 2)
        __asm__ volatile("int3");
    return v * 3;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", settle(argc + 2));
    return 0;
}
