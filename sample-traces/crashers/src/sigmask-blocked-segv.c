/* The program blocks SIGSEGV (and SIGBUS) in its own signal mask, then writes through
 * NULL: the kernel unblocks and delivers the synchronous fault anyway. */
#include <signal.h>
#include <stdio.h>

struct counter { long hits, misses; };

__attribute__((noinline)) void record_hit(struct counter *c)
{
    c->hits++;
}

int main(int argc, char **argv)
{
    (void)argv;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSEGV);
    sigaddset(&set, SIGBUS);
    sigprocmask(SIG_BLOCK, &set, NULL);
    static struct counter c;
    record_hit(argc > 5 ? &c : NULL);
    printf("%ld\n", c.hits);
    return 0;
}
