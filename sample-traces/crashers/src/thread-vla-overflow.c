/* A worker with a 64 KiB stack declares a VLA sized from its input (1 MiB): one frame moves
 * rsp far below the thread's stack and guard page; the first store into the array faults. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static long checksum(const unsigned char *src, size_t n)
{
    unsigned char copy[n]; /* VLA */
    memcpy(copy, src, n);
    long s = 0;
    for (size_t i = 0; i < n; i += 4096) s += copy[i];
    return s;
}

static unsigned char input[1 << 20];

static void *worker(void *arg)
{
    (void)arg;
    printf("%ld\n", checksum(input, sizeof input));
    return NULL;
}

int main(void)
{
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 * 1024);
    pthread_t t;
    pthread_create(&t, &at, worker, NULL);
    pthread_join(t, NULL);
    return 0;
}
