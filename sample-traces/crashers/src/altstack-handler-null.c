/* A SIGUSR1 handler running on an alternate stack in .bss dereferences a NULL pointer. The
 * stack pointer at the fault is in .bss: legal for an alternate signal stack. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char altstack[32 * 1024];
struct stats { long hits; long *hist; };
static struct stats *current;

__attribute__((noinline)) void bump(struct stats *s, int sig)
{
    s->hist[sig] += 1; /* hist == NULL */
}

static void on_usr1(int sig)
{
    bump(current, sig);
}

int main(void)
{
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    current = calloc(1, sizeof *current);
    raise(SIGUSR1);
    puts("done");
    return 0;
}
