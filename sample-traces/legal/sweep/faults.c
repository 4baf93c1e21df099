// Faults a program raises on purpose and handles, legally: a write barrier (pages made
// read-only with mprotect; the SIGSEGV handler records the page, makes it writable again and
// returns, so the store is retried), and a memory probe (a SIGSEGV handler siglongjmps out of
// a read of an unmapped page). Stops inside the handlers, on their way back, are not crashes.
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static char *heap_pages;
static size_t page, npages = 64;
static volatile long dirty, probes_failed;
static sigjmp_buf probe_env;
static volatile int probing;

__attribute__((noinline)) static void mark_dirty(uintptr_t addr) {
    char *p = (char *)(addr & ~(page - 1));
    dirty++;
    if (mprotect(p, page, PROT_READ | PROT_WRITE) != 0) abort();
}
static void on_segv(int sig, siginfo_t *si, void *uc) {
    (void)sig; (void)uc;
    if (probing) { probes_failed++; siglongjmp(probe_env, 1); }
    uintptr_t a = (uintptr_t)si->si_addr;
    if (a >= (uintptr_t)heap_pages && a < (uintptr_t)heap_pages + npages * page) { mark_dirty(a); return; }
    signal(SIGSEGV, SIG_DFL);
}
__attribute__((noinline)) static int probe(const volatile char *p) {
    probing = 1;
    if (sigsetjmp(probe_env, 1)) { probing = 0; return 0; }
    char c = *p;
    probing = 0;
    return c + 1;
}
__attribute__((noinline)) static void store_round(long r) {
    for (size_t i = 0; i < npages; i++) heap_pages[i * page + (r % page)] = (char)r;
}
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    page = (size_t)sysconf(_SC_PAGESIZE);
    heap_pages = mmap(NULL, npages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *hole = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction sa = {0};
    sa.sa_sigaction = on_segv; sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    long acc = 0;
    for (long r = 0; r < rounds; r++) {
        mprotect(heap_pages, npages * page, PROT_READ);
        store_round(r);
        acc += probe(hole + (r % 64)) + probe((char *)&acc);
        if (r % 1000 == 0) { struct timespec ts = {0, 1000}; nanosleep(&ts, NULL); }
    }
    printf("%ld %ld %ld\n", acc, dirty, probes_failed);
    return 0;
}
