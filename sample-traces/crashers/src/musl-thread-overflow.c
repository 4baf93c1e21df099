/* musl libc, static: a worker thread created with default attributes (musl's default thread
 * stack is 128 KiB, far smaller than glibc's 8 MiB) walks a deep tree recursively; each level
 * keeps a 512-byte path buffer, so the recursion runs into the guard page below the thread's
 * stack after about 200 levels. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static long walk(long depth, const char *parent)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%ld", parent, depth);
    if (depth == 0)
        return (long)strlen(path);
    return walk(depth - 1, path) + path[0];
}

static void *worker(void *arg)
{
    (void)arg;
    return (void *)walk(100000, "");
}

int main(void)
{
    pthread_t t;
    void *r;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, &r);
    printf("%ld\n", (long)r);
    return 0;
}
