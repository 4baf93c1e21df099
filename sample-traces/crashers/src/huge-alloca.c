/* A single 64 MiB alloca on an 8 MiB stack: sp jumps far below the stack's reach (past
 * any guard gap) and the first touch faults. A stack overflow without recursion. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) long render(size_t pixels)
{
    unsigned char *buf = alloca(pixels * 4);
    memset(buf, 0xff, pixels * 4);
    return buf[pixels];
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%ld\n", render((size_t)(4096 * 4096) * (size_t)argc));
    return 0;
}
