/* gcc -O0 -pthread: a worker thread with a 64 KiB stack grows a scratch buffer with alloca()
 * in a loop (one frame, no recursion): rsp walks down past the end of the thread's stack and
 * the memset's first touch faults in the guard page below it. */
#include <alloca.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static long gather(int chunks) {
    long total = 0;
    for (int i = 0; i < chunks; i++) {
        char *scratch = alloca(4096); /* freed only when gather returns */
        memset(scratch, i, 4096);
        total += scratch[i % 4096];
    }
    return total;
}

static void *worker(void *arg) {
    (void)arg;
    long t = gather(64);
    printf("%ld\n", t);
    return NULL;
}

int main(void) {
    pthread_attr_t a;
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 64 * 1024);
    pthread_create(&t, &a, worker, NULL);
    pthread_join(t, NULL);
    return 0;
}
