/* A detached worker keeps a pointer to a job struct on its creator's stack; the creator
 * returned, and the next call reused that stack and zeroed it: the worker reads the job's
 * buffer pointer (now 0) and writes through it. (The hand-off uses flags, not calls, so
 * that nothing but clear_scratch reuses the dead frame.) */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct job { char *out; int n; };
static volatile int started, reused;

static void *worker(void *arg)
{
    struct job *j = arg; /* points into start_job's dead frame */
    started = 1;
    while (!reused) ;
    for (int i = 0; i < j->n + 1; i++) j->out[i] = 'w';
    return NULL;
}

__attribute__((noinline)) static void start_job(char *buf)
{
    struct job j = { buf, 8 };
    pthread_t t;
    pthread_create(&t, NULL, worker, &j);
    pthread_detach(t);
    while (!started) ;
} /* j dies here */

__attribute__((noinline)) static void clear_scratch(void)
{
    char scratch[512];
    memset(scratch, 0, sizeof scratch);
    __asm__ volatile("" : : "r"(scratch) : "memory");
}

int main(void)
{
    static char buf[64];
    start_job(buf);
    clear_scratch(); /* reuses the dead frame */
    reused = 1;
    for (;;) ; /* the worker ends the process */
}
