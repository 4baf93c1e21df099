// Sanitizer runs of legal programs (issue 11, fifth pass): what a sanitizer prints on code that
// does nothing undefined or wrong, for look-alikes of the sanitizer-based rules (lookalikes5.sh):
//   unsigned  clang -fsanitize=unsigned-integer-overflow: wrap-around of unsigned arithmetic is
//             defined C, yet reported as a "runtime error" (a hash that wraps on purpose)
//   implicit  clang -fsanitize=implicit-conversion: a truncation to unsigned char is defined C
//   lockorder TSan: two mutexes taken in both orders by one thread (no deadlock can happen)
//   allocnull ASan with allocator_may_return_null=1: a huge malloc returns NULL (handled)
//   noreturn  ASan: a longjmp inside a coroutine on a heap stack
//   leakcache LSan: a cache kept until exit, listed in a suppressions file
//   atomics   TSan: two threads sharing counters through atomics and a mutex (no race)
//   padcopy   MSan: a struct with uninitialized padding copied around (copies are no use)
// Then each idles in a loop, so the debugger stops it at `idle`.
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

volatile unsigned long sink;
__attribute__((noinline)) void idle(int n) {
    for (int i = 0; i < n; i++) { sink += i; usleep(1000); }
}
__attribute__((noinline)) static unsigned hash32(const char *s) {
    unsigned h = 2166136261u;
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;  /* wraps: defined */
    return h;
}
__attribute__((noinline)) static unsigned char low_byte(int v) { return v; }  /* truncates: defined */
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static jmp_buf co_jmp;
static ucontext_t main_ctx, co_ctx;
__attribute__((noreturn, noinline)) static void bail(void) { longjmp(co_jmp, 1); }
static void co_body(void) {
    if (!setjmp(co_jmp)) bail();
    sink++;
}
static long counter_atomic, counter_locked;
static void *sharer(void *arg) {
    for (int i = 0; i < 100000; i++) {
        __atomic_fetch_add(&counter_atomic, 1, __ATOMIC_RELAXED);
        pthread_mutex_lock(&a);
        counter_locked += (long)arg;
        pthread_mutex_unlock(&a);
    }
    return NULL;
}
struct padded { char c; long l; };
__attribute__((noinline)) static long copy_padded(struct padded *dst, int n) {
    struct padded p;  /* 7 bytes of padding never written */
    p.c = 'x';
    p.l = n;
    for (int i = 0; i < n; i++) dst[i] = p;
    return dst[n - 1].l + dst[0].c;
}
void *volatile leaky_cache;
__attribute__((noinline)) static void fill_cache(void) { leaky_cache = malloc(64); memset(leaky_cache, 1, 64); }
int main(int argc, char **argv) {
    const char *m = argc > 1 ? argv[1] : "";
    if (!strcmp(m, "unsigned")) sink = hash32("tracecheck legal state");
    else if (!strcmp(m, "implicit")) sink = low_byte(300);
    else if (!strcmp(m, "lockorder")) {
        pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a);
        pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b);
    } else if (!strcmp(m, "allocnull")) {
        void *volatile p = malloc((size_t)1 << 44);
        printf("huge malloc: %s\n", p ? "ok" : "NULL, handled");
        free(p);
    } else if (!strcmp(m, "noreturn")) {
        size_t sz = 256 * 1024;
        char *st = malloc(sz);
        getcontext(&co_ctx);
        co_ctx.uc_stack.ss_sp = st;
        co_ctx.uc_stack.ss_size = sz;
        co_ctx.uc_link = &main_ctx;
        makecontext(&co_ctx, co_body, 0);
        swapcontext(&main_ctx, &co_ctx);
        free(st);
    } else if (!strcmp(m, "atomics")) {
        pthread_t t1, t2;
        pthread_create(&t1, NULL, sharer, (void *)1L);
        pthread_create(&t2, NULL, sharer, (void *)2L);
        pthread_join(t1, NULL);
        pthread_join(t2, NULL);
        sink = counter_atomic + counter_locked;
    } else if (!strcmp(m, "padcopy")) {
        struct padded *d = malloc(16 * sizeof *d);
        sink = copy_padded(d, 16);
        free(d);
    } else if (!strcmp(m, "leakcache")) {
        fill_cache();
        leaky_cache = NULL;  /* dropped on purpose: listed in the suppressions */
    }
    fflush(stdout);
    idle(argc > 2 ? atoi(argv[2]) : 1000000);
    return 0;
}
