/* Two coroutines on stacks malloc'ed from the heap (makecontext/swapcontext), ping-ponging.
   Stopped at a breakpoint inside a coroutine, where sp is in the heap buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>
static ucontext_t main_ctx, co_ctx;
static volatile long produced;
__attribute__((noinline)) void emit(long v) { produced += v; }
static void producer(void) {
    for (long i = 0; i < 5; i++) {
        emit(i * 3);
        swapcontext(&co_ctx, &main_ctx);
    }
}
int main(void) {
    size_t sz = 64 * 1024;
    char *stack = malloc(sz);
    getcontext(&co_ctx);
    co_ctx.uc_stack.ss_sp = stack;
    co_ctx.uc_stack.ss_size = sz;
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, producer, 0);
    for (int i = 0; i < 6; i++) swapcontext(&main_ctx, &co_ctx);
    printf("%ld\n", produced);
    free(stack);
    return 0;
}
