/* threads-crash: four named worker threads park on a condition variable, a
 * fifth named thread ("crasher") writes through NULL once they are all parked.
 * -O0 -g -pthread. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NWORKERS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int parked;
static int released;

struct job { int id; const char *name; long *result; };

__attribute__((noinline)) static void park(struct job *j)
{
    pthread_mutex_lock(&lock);
    parked++;
    while (!released)
        pthread_cond_wait(&go, &lock);
    pthread_mutex_unlock(&lock);
    (void)j;
}

static void *worker(void *arg)
{
    struct job *j = arg;
    pthread_setname_np(pthread_self(), j->name);
    park(j);
    return NULL;
}

__attribute__((noinline)) static void store_result(struct job *j, long value)
{
    *j->result = value;                      /* j->result == NULL */
}

static void *crasher(void *arg)
{
    struct job *j = arg;
    pthread_setname_np(pthread_self(), j->name);
    for (;;) {                               /* wait until every worker is parked */
        pthread_mutex_lock(&lock);
        int n = parked;
        pthread_mutex_unlock(&lock);
        if (n == NWORKERS) break;
        usleep(1000);
    }
    usleep(20000);                           /* let them settle in futex_wait */
    store_result(j, 42);
    return NULL;
}

int main(void)
{
    static const char *names[NWORKERS] = { "io-reader", "io-writer", "gc-sweeper", "timer" };
    pthread_t t[NWORKERS + 1];
    struct job jobs[NWORKERS + 1];
    for (int i = 0; i < NWORKERS; i++) {
        jobs[i] = (struct job){ i, names[i], NULL };
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    }
    jobs[NWORKERS] = (struct job){ NWORKERS, "crasher", NULL };
    pthread_create(&t[NWORKERS], NULL, crasher, &jobs[NWORKERS]);
    for (int i = 0; i <= NWORKERS; i++)
        pthread_join(t[i], NULL);
    return 0;
}
