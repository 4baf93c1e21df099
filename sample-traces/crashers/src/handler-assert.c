/* gcc -O0: the program's SIGALRM handler asserts an invariant of the sampler state, which the
 * main loop has broken: the abort is the handler's own (frames above <signal handler called>
 * and the interrupted loop), not a fault of the interrupted code. */
#include <assert.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile long samples, budget = 100;

static void on_tick(int sig)
{
    (void)sig;
    assert(samples <= budget);
    samples = 0;
}

__attribute__((noinline)) void sample_loop(void)
{
    for (;;)
        samples++;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sigaction(SIGALRM, &sa, NULL);
    alarm(1);
    sample_loop();
    return 0;
}
