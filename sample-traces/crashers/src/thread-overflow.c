/* Stack overflow in a worker thread with a 64 KiB stack: the fault lands in the guard page
 * just below the thread's stack mapping. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int parse_expr(const char *s, int depth)
{
    char scratch[96];
    memcpy(scratch, s, 8);
    if (scratch[0] == 0) return depth;
    return parse_expr(s, depth + 1) + scratch[depth % 8];
}

static void *worker(void *arg)
{
    return (void *)(long)parse_expr(arg, 0);
}

int main(void)
{
    pthread_attr_t at;
    pthread_t t;
    void *res;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 * 1024);
    pthread_create(&t, &at, worker, "((((((((");
    pthread_join(t, &res);
    printf("%ld\n", (long)res);
    return 0;
}
