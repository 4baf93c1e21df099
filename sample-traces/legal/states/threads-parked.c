/* 60 worker threads parked in pthread_cond_wait (futex) while the main thread works;
   stopped at a breakpoint in the main thread and from outside. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#define N 60
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go, ready;
volatile unsigned long work;
static void *worker(void *arg) {
    pthread_mutex_lock(&mu);
    ready++;
    while (!go) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return arg;
}
__attribute__((noinline)) void checkpoint(int n) { work += (unsigned)n; }
int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    for (;;) { pthread_mutex_lock(&mu); int r = ready; pthread_mutex_unlock(&mu); if (r == N) break; usleep(1000); }
    checkpoint(N);
    for (unsigned long i = 0; i < 3000000000ul && work != 1; i++) work = work * 6364136223846793005ul + i;
    pthread_mutex_lock(&mu); go = 1; pthread_cond_broadcast(&cv); pthread_mutex_unlock(&mu);
    for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
    printf("%lu\n", work);
    return 0;
}
