/* Error handling with setjmp/longjmp: a deep call chain jumps back out, and the program
   goes on. Stopped at a breakpoint in the function called after the jump (and in the one
   that jumps). */
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
volatile int depth_seen;
__attribute__((noinline)) void bail(int d) { longjmp(env, d + 1); }
__attribute__((noinline)) void dig(int d) {
    depth_seen = d;
    if (d == 12) bail(d);
    dig(d + 1);
}
__attribute__((noinline)) int after_jump(int code) { return code * 2 + depth_seen; }
int main(void) {
    int code = setjmp(env);
    if (code == 0) dig(0);
    printf("%d\n", after_jump(code));
    return 0;
}
