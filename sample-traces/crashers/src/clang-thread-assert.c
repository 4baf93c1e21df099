/* clang -O2 -pthread: an assert() fails in a worker thread while the main thread waits. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct range { int lo, hi; };

__attribute__((noinline)) int span(const struct range *r)
{
    assert(r->lo <= r->hi);
    return r->hi - r->lo;
}

static void *worker(void *arg)
{
    struct range *rs = arg;
    long t = 0;
    for (int i = 0; i < 3; i++) t += span(&rs[i]);
    return (void *)t;
}

int main(void)
{
    static struct range rs[3] = {{0, 4}, {2, 9}, {8, 3}};
    pthread_t th;
    void *res;
    pthread_create(&th, NULL, worker, rs);
    pthread_join(th, &res);
    printf("%ld\n", (long)res);
    return 0;
}
