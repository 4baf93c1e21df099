/* clang -O1 -fsanitize=thread, TSAN_OPTIONS=halt_on_error=1:abort_on_error=1: two workers bump
 * a shared counter without a lock; ThreadSanitizer reports the data race and aborts. */
#include <pthread.h>
#include <stdio.h>

static long hits;

__attribute__((noinline)) static void record_hit(void)
{
    hits++; /* unsynchronized */
}

static void *worker(void *arg)
{
    for (int i = 0; i < 1000; i++)
        record_hit();
    return arg;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", hits);
    return 0;
}
