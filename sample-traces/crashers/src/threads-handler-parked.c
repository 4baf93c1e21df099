/* gcc -O0 -pthread: six threads. One worker is inside its SIGUSR1 handler (the handler waits
 * on a flag with nanosleep, so that thread's backtrace shows <signal handler called>) while a
 * different worker reads its job through NULL. The crash is in the second worker; the parked
 * handler in another thread is legal and unrelated. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct job { int id; int cost; };
static volatile sig_atomic_t in_handler, release_handler;
static struct job *jobs[6];
static pthread_barrier_t start;

static void on_usr1(int sig) {
    (void)sig;
    in_handler = 1;
    struct timespec ts = { 0, 1000000 };
    while (!release_handler) nanosleep(&ts, NULL);
}

__attribute__((noinline)) static int job_cost(const struct job *j) { return j->cost * 2; }

static void *worker(void *arg) {
    long idx = (long)arg;
    pthread_barrier_wait(&start);
    if (idx == 4) {
        while (!in_handler) usleep(1000);
        return (void *)(long)job_cost(jobs[idx]); /* jobs[4] was never filled in */
    }
    struct timespec ts = { 0, 5000000 };
    for (int k = 0; k < 200; k++) nanosleep(&ts, NULL);
    return (void *)(long)job_cost(jobs[idx]);
}

int main(void) {
    static struct job pool[6];
    pthread_t t[6];
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    for (int i = 0; i < 6; i++) { pool[i].id = i; pool[i].cost = i + 1; jobs[i] = i == 4 ? NULL : &pool[i]; }
    pthread_barrier_init(&start, NULL, 7);
    for (long i = 0; i < 6; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    pthread_barrier_wait(&start);
    pthread_kill(t[1], SIGUSR1); /* worker 1 parks in its handler */
    for (int i = 0; i < 6; i++) pthread_join(t[i], NULL);
    return 0;
}
