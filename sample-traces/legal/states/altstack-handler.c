/* A SIGUSR1 handler that runs on an alternate signal stack (sigaltstack, malloc'ed) and does
   legal work there; the program sends itself SIGUSR1. Stopped at a breakpoint in the handler. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static volatile sig_atomic_t hits;
__attribute__((noinline)) void tally(int sig) { hits += sig; }
static void on_usr1(int sig) { tally(sig); }
int main(void) {
    stack_t ss = {.ss_sp = malloc(SIGSTKSZ * 4), .ss_size = SIGSTKSZ * 4, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    for (int i = 0; i < 3; i++) kill(getpid(), SIGUSR1);
    printf("%d\n", (int)hits);
    return 0;
}
