/* Unbounded recursion in the main thread. Run with a small stack (ulimit -s 128) so the
 * backtrace has a few thousand frames (frame numbers >= 1000). */
#include <stdio.h>

__attribute__((noinline)) long descend(long depth, const char *tag)
{
    volatile char pad[16];
    pad[0] = tag[depth & 3];
    return descend(depth + 1, tag) + pad[0];
}

int main(void)
{
    printf("%ld\n", descend(0, "abcd"));
    return 0;
}
