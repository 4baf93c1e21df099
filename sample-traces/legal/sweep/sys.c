// Legal control transfers the rules could misread, all in one loop: a SIGALRM handler on a
// sigaltstack that does real work, setjmp/longjmp out of nested calls, swapcontext between
// two ucontext coroutines on heap stacks, a shared library dlopen'ed RTLD_LAZY and closed
// again each round (so ld.so's lazy binding, _dl_runtime_resolve_*, runs every round), short
// threads created and joined (clone3, thread start), and vDSO clock_gettime.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>

static volatile long handled;
static jmp_buf jb;
static ucontext_t main_ctx, coro_ctx;
static long coro_val;

__attribute__((noinline)) static long handler_work(int n) { long s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }
static void on_alarm(int sig, siginfo_t *si, void *uc) { (void)si; (void)uc; handled += handler_work(200 + sig); }

__attribute__((noinline)) static void dive(int d) { if (d == 0) longjmp(jb, 3); dive(d - 1); }
__attribute__((noinline)) static void coro_body(void) {
    for (;;) { coro_val = coro_val * 3 + 1; swapcontext(&coro_ctx, &main_ctx); }
}
static void *thread_main(void *arg) { long *p = arg; *p = handler_work(1000) + *p; return NULL; }

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    const char *lib = argc > 2 ? argv[2] : "./libplt.so";
    stack_t ss = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {0};
    sa.sa_sigaction = on_alarm; sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_REAL, &it, NULL);
    getcontext(&coro_ctx);
    coro_ctx.uc_stack.ss_sp = malloc(1 << 16); coro_ctx.uc_stack.ss_size = 1 << 16; coro_ctx.uc_link = &main_ctx;
    makecontext(&coro_ctx, coro_body, 0);
    long acc = 0;
    for (long r = 0; r < rounds; r++) {
        if (setjmp(jb) == 0) dive(20); else acc++;
        swapcontext(&main_ctx, &coro_ctx); acc += coro_val & 15;
        void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
        if (h) { long (*f)(long) = (long (*)(long))dlsym(h, "plt_entry"); if (f) acc += f(r); dlclose(h); }
        if (r % 4 == 0) { pthread_t t; long v = r; pthread_create(&t, NULL, thread_main, &v); pthread_join(t, NULL); acc += v; }
        struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); acc += ts.tv_nsec & 1;
    }
    printf("%ld %ld\n", acc, handled);
    return 0;
}
