/* threads-current: three workers share one routine; the second one (gdb's thread 3)
 * writes through a NULL slot once all of them have met at a barrier, while the other two
 * sleep in pause() at the same pc.  Recorded without command echo, the way
 * `gdb -batch -ex bt -ex 'info threads' ...` prints, and as a core opened with gdb.
 * -O0 -g -pthread. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

struct tally { const char *label; long *slot; long count; };

static pthread_barrier_t met;

__attribute__((noinline)) static void record(struct tally *t, long v)
{
    t->count++;
    *t->slot += v;  /* t->slot is NULL for the second worker */
}

static void *worker(void *arg)
{
    struct tally *t = arg;
    pthread_setname_np(pthread_self(), t->label);
    pthread_barrier_wait(&met);
    if (t->slot == NULL) {
        usleep(200000); /* the others are in pause() by then */
        record(t, 42);
    }
    for (;;)
        pause();
    return NULL;
}

int main(void)
{
    static long sums[3];
    struct tally ts[3] = {
        {"tally-a", &sums[0], 0},
        {"tally-b", NULL, 0},
        {"tally-c", &sums[2], 0},
    };
    pthread_t th[3];
    pthread_barrier_init(&met, NULL, 4);
    for (int i = 0; i < 3; i++) {
        pthread_create(&th[i], NULL, worker, &ts[i]);
        usleep(10000); /* creation order = gdb's thread numbers */
    }
    pthread_barrier_wait(&met);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    return 0;
}
