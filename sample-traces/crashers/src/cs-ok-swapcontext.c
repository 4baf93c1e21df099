/* gcc -O2 look-alike: a generator coroutine switched with swapcontext (every callee-saved
 * register is switched, legally). The consumer keeps its output cursor in a callee-saved
 * register across the switches; the generator yields a NULL record at the end and the
 * consumer reads through it.
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed must
 * stay quiet. */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

struct rec { long v; };

static ucontext_t main_ctx, gen_ctx;
static struct rec *yielded;
static struct rec recs[3] = { { 1 }, { 2 }, { 3 } };

static void generator(void)
{
    for (int i = 0; i < 3; i++) {
        yielded = &recs[i];
        swapcontext(&gen_ctx, &main_ctx);
    }
    yielded = NULL;            /* end of stream */
    swapcontext(&gen_ctx, &main_ctx);
}

__attribute__((noinline)) long consume(long *out)
{
    long s = 0;
    for (int i = 0; i < 4; i++) {
        swapcontext(&main_ctx, &gen_ctx);
        struct rec *r = yielded;
        out[i] = r->v;         /* the fourth record is NULL */
        s += out[i];
    }
    return s;
}

int main(void)
{
    static char stack[64 << 10];
    getcontext(&gen_ctx);
    gen_ctx.uc_stack.ss_sp = stack;
    gen_ctx.uc_stack.ss_size = sizeof stack;
    gen_ctx.uc_link = &main_ctx;
    makecontext(&gen_ctx, generator, 0);
    long *out = calloc(4, sizeof *out);
    printf("%ld\n", consume(out));
    return 0;
}
