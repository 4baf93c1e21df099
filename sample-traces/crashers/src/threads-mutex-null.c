/* Two worker threads update a shared counter under a mutex (synchronized, no race); one
 * then reads its settings through a NULL pointer. gdb shows every thread. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

struct settings { int batch; int verbose; };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static struct settings *worker_settings[2];

__attribute__((noinline)) int batch_size(const struct settings *s)
{
    return s->batch;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    if (id == 1) {
        usleep(10000);
        return (void *)(long)batch_size(worker_settings[id]);
    }
    pause();
    return NULL;
}

int main(void)
{
    static struct settings s0 = {64, 0};
    worker_settings[0] = &s0; /* worker 1's settings were never loaded */
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    pthread_join(t[1], NULL);
    printf("%ld\n", counter);
    return 0;
}
