/* The program's SIGALRM handler itself reads through a NULL pointer: the fault is in the
 * handler (frame #0), above <signal handler called> and the interrupted main loop. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct stats { long ticks; long *histogram; };
static struct stats *current;
static volatile long work;

static void on_alarm(int sig)
{
    (void)sig;
    current->ticks++;
}

__attribute__((noinline)) void busy_loop(void)
{
    for (;;)
        work++;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    alarm(1);
    busy_loop();
    return 0;
}
