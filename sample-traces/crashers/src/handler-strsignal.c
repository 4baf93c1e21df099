/* Own SIGSEGV handler: prints strsignal() and the fault address, then abort(). The fault is
 * a read through a pointer into a page that was unmapped (a wild pointer, not NULL). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    fprintf(stderr, "crash handler: %s at address %p\n", strsignal(sig), si->si_addr);
    abort();
}

__attribute__((noinline)) long read_record(const long *rec, int i)
{
    return rec[i];
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    long *page = mmap(NULL, 4096 * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    page[0] = 1;
    munmap(page, 4096 * 4);
    printf("%ld\n", read_record(page, 130));
    return 0;
}
