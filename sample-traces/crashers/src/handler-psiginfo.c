/* The program's own SIGSEGV handler reports the fault with psiginfo() and aborts. The real
 * fault (a NULL field write in store_total) is below <signal handler called>. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct acct { long id; long pad[4]; long total; };

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)uc;
    psiginfo(si, "fatal");
    abort();
}

__attribute__((noinline)) void store_total(struct acct *a, long v)
{
    a->total = v; /* a == NULL: writes 0x28 */
}

__attribute__((noinline)) void settle(struct acct **tab, int n)
{
    for (int i = 0; i < n; i++)
        store_total(tab[i], i * 10);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    struct acct *tab[3] = {calloc(1, sizeof(struct acct)), NULL, NULL};
    settle(tab, 3);
    return 0;
}
