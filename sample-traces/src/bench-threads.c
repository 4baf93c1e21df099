/* bench-threads: benchmark input generator for gen-bench.sh (not a sample).
 * Starts NTHREADS threads (64 KiB stacks); each recurses DEPTH frames through
 * four distinct functions with a few locals/args (ints, pointers, a char
 * buffer, a struct), then parks on a barrier that never completes.  The last
 * thread ("crasher") waits until every other thread is parked and then writes
 * through NULL at the bottom of its own recursion -> SIGSEGV.
 * Usage: bench-threads [NTHREADS [DEPTH]]   (defaults 3000, 48).  -O0 -g. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct point { int x, y; double weight; };
struct task {
    int id;
    int depth_limit;
    int is_crasher;
    long *sink;                 /* NULL for the crasher */
    const char *label;
    struct point origin;
};

static pthread_barrier_t barrier;
static atomic_int parked;
static int nthreads;

static long level_a(struct task *t, int depth, long seed, const char *tag);

__attribute__((noinline)) static long bottom(struct task *t, int depth, long seed)
{
    char note[32];
    snprintf(note, sizeof note, "t%d/d%d", t->id, depth);
    if (t->is_crasher) {
        while (atomic_load(&parked) < nthreads - 1)
            usleep(2000);
        usleep(200000);                     /* let every waiter reach futex_wait */
        *t->sink = seed ^ (long)note[0];    /* t->sink == NULL */
    } else {
        atomic_fetch_add(&parked, 1);
        pthread_barrier_wait(&barrier);     /* never completes */
    }
    return seed;
}

__attribute__((noinline)) static long level_d(struct task *t, int depth, struct point p, unsigned flags)
{
    long acc = p.x * 31L + p.y;
    int remaining = t->depth_limit - depth;
    struct point mirror = { p.y, p.x, -p.weight };
    const struct task *owner = t;
    (void)mirror; (void)owner;
    if (remaining <= 0)
        return bottom(t, depth, acc);
    return level_a(t, depth + 1, acc ^ flags, "from-d") + remaining;
}

__attribute__((noinline)) static long level_c(struct task *t, int depth, const char *name, size_t len)
{
    char buf[24];
    size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
    memcpy(buf, name, n);
    buf[n] = 0;
    struct point p = { depth, (int)n, depth * 0.5 };
    unsigned flags = (unsigned)(depth * 2654435761u);
    struct task view = *t;
    view.origin = p;
    (void)view;
    return level_d(t, depth + 1, p, flags) + buf[0];
}

__attribute__((noinline)) static long level_b(struct task *t, int depth, long seed, double scale)
{
    long mixed = seed * 6364136223846793005L + 1442695040888963407L;
    const char *name = (mixed & 1) ? "odd-branch" : "even-branch";
    int *slot = &t->depth_limit;
    unsigned short bucket = (unsigned short)(mixed >> 48);
    (void)bucket;
    return level_c(t, depth + 1, name, strlen(name)) + (long)(scale * *slot);
}

__attribute__((noinline)) static long level_a(struct task *t, int depth, long seed, const char *tag)
{
    int width = (int)strlen(tag);
    char label[16];
    snprintf(label, sizeof label, "%s#%d", t->label, depth);
    struct point here = t->origin;
    struct task snapshot = *t;
    (void)snapshot;
    here.x += depth;
    double scale = here.weight * width;
    return level_b(t, depth + 1, seed + width, scale);
}

static void *thread_main(void *arg)
{
    struct task *t = arg;
    char name[16];
    snprintf(name, sizeof name, t->is_crasher ? "crasher" : "worker-%d", t->id);
    pthread_setname_np(pthread_self(), name);
    level_a(t, 0, t->id, t->label);
    return NULL;
}

int main(int argc, char **argv)
{
    nthreads = argc > 1 ? atoi(argv[1]) : 3000;
    int depth = argc > 2 ? atoi(argv[2]) : 48;
    if (nthreads < 2 || depth < 4) { fprintf(stderr, "bad args\n"); return 2; }
    pthread_barrier_init(&barrier, NULL, (unsigned)nthreads);   /* one short: never released */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_t *tids = calloc((size_t)nthreads, sizeof *tids);
    struct task *tasks = calloc((size_t)nthreads, sizeof *tasks);
    static long sink;
    for (int i = 0; i < nthreads; i++) {
        tasks[i] = (struct task){ i, depth, i == nthreads - 1, i == nthreads - 1 ? NULL : &sink,
                                  "bench", { i, -i, 1.5 } };
        int rc = pthread_create(&tids[i], &attr, thread_main, &tasks[i]);
        if (rc != 0) {
            fprintf(stderr, "pthread_create #%d failed: %s\n", i, strerror(rc));
            return 1;
        }
    }
    pthread_join(tids[nthreads - 1], NULL);
    return 0;
}
