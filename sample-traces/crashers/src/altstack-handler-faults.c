/* gcc -O0: a crash reporter's SIGFPE handler runs on a sigaltstack and itself reads through a
 * NULL report pointer while handling the first fault (an integer division by zero). The
 * SIGSEGV in the handler is the stop: the handler's own bug, above <signal handler called>
 * and the division that raised the SIGFPE. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report { int count; char last[64]; };
static struct report *rep; /* never allocated */
static char altstack[65536];

static void on_fpe(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    rep->count++; /* bug: rep is NULL */
    snprintf(rep->last, sizeof rep->last, "sig %d at %p", sig, si->si_addr);
    _exit(3);
}

__attribute__((noinline)) static int ratio(int a, int b) { return a / b; }

int main(int argc, char **argv)
{
    (void)argv;
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fpe;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGFPE, &sa, NULL);
    printf("%d\n", ratio(10, argc - 1));
    return 0;
}
