/* gcc -O0: look-alike: a toy generational GC protects its old-generation pages read-only and
 * catches the first write to each with a SIGSEGV handler (a card-marking write barrier: the
 * handler marks the card and makes the page writable, legally); gdb passes those faults on.
 * The stop is the collector's own assert on its card count, which is off by one. */
#include <assert.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 4
static char *old_gen;
static long page;
static int dirty_cards;

static void on_barrier(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)uc;
    char *a = si->si_addr;
    if (a < old_gen || a >= old_gen + PAGES * page) {
        signal(SIGSEGV, SIG_DFL);
        return;
    }
    char *p = old_gen + (a - old_gen) / page * page;
    mprotect(p, page, PROT_READ | PROT_WRITE);
    dirty_cards++;
}

__attribute__((noinline)) void collect(int expected)
{
    assert(dirty_cards == expected);
}

int main(void)
{
    page = sysconf(_SC_PAGESIZE);
    old_gen = mmap(NULL, PAGES * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_barrier;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    old_gen[10] = 1;            /* page 0: barrier fault */
    old_gen[2 * page + 5] = 2;  /* page 2: barrier fault */
    old_gen[20] = 3;            /* page 0 again: already writable */
    collect(3);                 /* the collector counted writes, not pages */
    return 0;
}
