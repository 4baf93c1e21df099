/* A generator on a 32 KiB stack malloc'ed from [heap], switched to and from with the hand-written
   coro_switch (no ucontext, so no __start_context in the backtrace). Stopped at a breakpoint two
   calls deep inside the coroutine, where sp is in the heap. */
#include <stdio.h>
#include <stdlib.h>
void coro_switch(void **save_sp, void *to_sp);
void coro_boot(void);
static void *main_sp, *coro_sp;
static volatile long yielded;
__attribute__((noinline)) void yield_value(long v) {
    yielded = v;
    coro_switch(&coro_sp, main_sp);
}
__attribute__((noinline)) void produce_square(long i) { yield_value(i * i); }
static void body(void *arg) {
    long n = (long)arg;
    for (long i = 0; i < n; i++) produce_square(i);
}
int main(void) {
    size_t sz = 32 * 1024;
    char *stack = malloc(sz);
    void **sp = (void **)(stack + sz);
    /* coro_switch's ret leaves rsp = 0 (mod 16) at coro_boot, whose call gives body the
       ABI's rsp = 8 (mod 16) at entry. */
    *--sp = (void *)coro_boot; /* coro_switch's ret goes here */
    *--sp = 0;                 /* rbp */
    *--sp = 0;                 /* rbx */
    *--sp = (void *)5L;        /* r12: the body's argument */
    *--sp = (void *)body;      /* r13: the body */
    *--sp = (void *)&coro_sp;  /* r14 */
    *--sp = (void *)&main_sp;  /* r15 */
    coro_sp = sp;
    long total = 0;
    for (int k = 0; k < 5; k++) {
        coro_switch(&main_sp, coro_sp);
        total += yielded;
    }
    printf("%ld\n", total);
    return 0;
}
