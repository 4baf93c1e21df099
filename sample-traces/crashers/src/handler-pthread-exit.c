/* A worker thread faults; the program's SIGSEGV handler ends just that thread with
 * pthread_exit(). The main thread then finds no result and aborts with its own message.
 * gdb passes SIGSEGV to the handler, so the stop is the main thread's abort(). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_segv(int sig)
{
    (void)sig;
    pthread_exit((void *)-1); /* not async-signal-safe; done in the wild all the same */
}

static void *worker(void *arg)
{
    long *slot = arg;
    return (void *)(*slot * 2);
}

__attribute__((noinline)) long collect_result(pthread_t t)
{
    void *res;
    pthread_join(t, &res);
    if (res == (void *)-1) {
        fprintf(stderr, "worker died: no result\n");
        abort();
    }
    return (long)res;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_segv;
    sigaction(SIGSEGV, &sa, NULL);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    printf("%ld\n", collect_result(t));
    return 0;
}
