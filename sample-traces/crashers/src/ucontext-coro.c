/* A coroutine (makecontext/swapcontext) on a malloc'ed stack reads through a NULL pointer.
 * The stack pointer is in the heap: legal for a coroutine stack. */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

static ucontext_t main_ctx, coro_ctx;
struct msg { int len; char *body; };
static struct msg *inbox[2];

__attribute__((noinline)) int consume(struct msg *m)
{
    return m->body[0]; /* body == NULL */
}

static void coro_main(void)
{
    for (int i = 0; i < 2; i++) {
        printf("len %d\n", consume(inbox[i]));
        swapcontext(&coro_ctx, &main_ctx);
    }
}

int main(void)
{
    static char hello[] = "hello";
    inbox[0] = calloc(1, sizeof(struct msg));
    inbox[0]->body = hello;
    inbox[1] = calloc(1, sizeof(struct msg));
    size_t sz = 64 * 1024;
    getcontext(&coro_ctx);
    coro_ctx.uc_stack.ss_sp = malloc(sz);
    coro_ctx.uc_stack.ss_size = sz;
    coro_ctx.uc_link = &main_ctx;
    makecontext(&coro_ctx, coro_main, 0);
    swapcontext(&main_ctx, &coro_ctx);
    swapcontext(&main_ctx, &coro_ctx);
    return 0;
}
