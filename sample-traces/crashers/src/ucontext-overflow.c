/* A coroutine on an mmap'ed 32 KiB stack with a PROT_NONE guard page below it recurses
 * until it runs into the guard page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static ucontext_t main_ctx, coro_ctx;

__attribute__((noinline)) long walk_tree(long depth)
{
    char buf[64];
    memset(buf, (int)depth, sizeof buf);
    return walk_tree(depth + 1) + buf[depth & 63];
}

static void coro_main(void)
{
    printf("%ld\n", walk_tree(0));
}

int main(void)
{
    size_t page = 4096, sz = 8 * page;
    char *mem = mmap(NULL, sz + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(mem, page, PROT_NONE); /* guard page */
    getcontext(&coro_ctx);
    coro_ctx.uc_stack.ss_sp = mem + page;
    coro_ctx.uc_stack.ss_size = sz;
    coro_ctx.uc_link = &main_ctx;
    makecontext(&coro_ctx, coro_main, 0);
    swapcontext(&main_ctx, &coro_ctx);
    return 0;
}
