/* gcc -O0 (no _FORTIFY_SOURCE): longjmp to a jmp_buf set in a function that has already
 * returned. The jump restores that dead frame's sp and rbp; the frame's stack slots have
 * since been reused, so its return reads a clobbered return address. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static jmp_buf on_error;

__attribute__((noinline)) static int setup(void)
{
    if (setjmp(on_error)) {
        puts("recovered");
        return -1;
    }
    return 0;
}

__attribute__((noinline)) static int init(void)
{
    volatile char pad[64];
    pad[0] = 1;
    return setup() + pad[0]; /* setup's frame is below init's */
}

__attribute__((noinline)) static void clobber(void)
{
    volatile char scratch[512]; /* covers init's and setup's dead frames */
    memset((char *)scratch, 0x41, sizeof scratch);
}

__attribute__((noinline)) static void fail(void) { longjmp(on_error, 1); }

int main(void)
{
    init(); /* returns: on_error now points at a dead frame */
    clobber();
    fail();
    return 0;
}
