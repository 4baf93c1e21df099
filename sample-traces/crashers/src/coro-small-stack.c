/* gcc -O0: a coroutine (makecontext/swapcontext) runs on a 4 KiB malloc'ed stack but its body
 * needs 12 KiB of locals: it writes below its stack block, over the heap chunk before it.
 * The fault comes later, when the program frees that chunk: glibc aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

static ucontext_t main_ctx, coro_ctx;
static volatile int sink;

static void body(void)
{
    char table[12288];
    memset(table, 0x5a, sizeof table);
    sink = table[100];
    swapcontext(&coro_ctx, &main_ctx);
}

int main(void)
{
    char *names = malloc(8192); /* the chunk below the coroutine's stack */
    strcpy(names, "names");
    char *stack = malloc(4096); /* too small */
    getcontext(&coro_ctx);
    coro_ctx.uc_stack.ss_sp = stack;
    coro_ctx.uc_stack.ss_size = 4096;
    coro_ctx.uc_link = &main_ctx;
    makecontext(&coro_ctx, body, 0);
    swapcontext(&main_ctx, &coro_ctx);
    printf("%s %d\n", names, sink);
    free(names);
    free(stack);
    return 0;
}
