/* gcc -O0: look-alike: a calculator recovers from integer division by zero with a SIGFPE
 * handler and siglongjmp (the program's own, legal recovery), prints the error and goes on;
 * later it reads a variable's name through a NULL symbol pointer: the stop is that SIGSEGV.
 * (gdb passes SIGFPE to the program without stopping.) */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf recover;

static void on_fpe(int sig)
{
    (void)sig;
    siglongjmp(recover, 1);
}

__attribute__((noinline)) long eval_div(volatile long a, volatile long b) { return a / b; }

struct symbol { const char *name; long value; };

__attribute__((noinline)) size_t name_len(const struct symbol *s) { return strlen(s->name) + (size_t)s->value; }

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fpe;
    sigaction(SIGFPE, &sa, NULL);
    if (sigsetjmp(recover, 1) == 0)
        printf("%ld\n", eval_div(10, 0));
    else
        puts("error: division by zero");
    struct symbol *unbound = NULL;
    printf("%zu\n", name_len(unbound));
    return 0;
}
