/* Stack overflow caught by a SIGSEGV handler running on an alternate signal stack; the
 * handler says so and aborts. The overflow (recursion in visit) is below
 * <signal handler called>. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char altstack[64 * 1024];

static void on_fault(int sig)
{
    (void)sig;
    static const char msg[] = "fatal: stack overflow (SIGSEGV on the alternate stack)\n";
    write(2, msg, sizeof msg - 1);
    abort();
}

__attribute__((noinline)) long visit(long *node, long depth)
{
    long local[8];
    memset(local, (int)depth, sizeof local);
    return visit(local, depth + 1) + local[depth & 7] + node[0];
}

int main(void)
{
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    long root = 1;
    printf("%ld\n", visit(&root, 0));
    return 0;
}
