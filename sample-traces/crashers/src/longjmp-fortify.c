/* gcc -O2 -D_FORTIFY_SOURCE=2: longjmp to a jmp_buf whose frame has returned. glibc's
 * ____longjmp_chk sees the target below the current stack pointer and aborts with
 * "*** longjmp causes uninitialized stack frame ***". */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf saved;

__attribute__((noinline)) int arm(int depth)
{
    volatile char pad[256];
    pad[0] = (char)depth;
    if (depth > 0) return arm(depth - 1) + pad[0];
    return setjmp(saved);
}

__attribute__((noinline)) void fire(int code)
{
    longjmp(saved, code);
}

int main(void)
{
    printf("%d\n", arm(4));
    fire(3);
    return 0;
}
