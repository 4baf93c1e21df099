// A legal C workload built many ways by sweep.sh (gcc and clang, -O0/-O2/-O3,
// -fomit-frame-pointer, static, LTO): recursion, qsort with a callback, string and
// floating-point work, malloc churn, function pointers, varargs, and the vDSO (clock_gettime)
// and real syscalls (write to /dev/null). Nothing in it is wrong.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static int devnull = -1;
struct node { struct node *l, *r; long key; char tag[24]; };

static struct node *insert(struct node *t, long k) {
    if (!t) {
        struct node *n = calloc(1, sizeof *n);
        n->key = k;
        snprintf(n->tag, sizeof n->tag, "k%ld", k);
        return n;
    }
    if (k < t->key) t->l = insert(t->l, k); else t->r = insert(t->r, k);
    return t;
}
static long depth_sum(const struct node *t, int d) { return t ? d + depth_sum(t->l, d + 1) + depth_sum(t->r, d + 1) : 0; }
static void drop(struct node *t) { if (t) { drop(t->l); drop(t->r); free(t); } }

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}
__attribute__((noinline)) double mix(const double *v, int n, double s) {
    double acc = 0;
    for (int i = 0; i < n; i++) acc += sin(v[i] * s) * sqrt(fabs(v[i]) + 1.0);
    return acc;
}
__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long sum_va(int n, ...) {
    va_list ap; va_start(ap, n);
    long s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, long);
    va_end(ap); return s;
}
typedef long (*op_fn)(long, long);
static long op_add(long a, long b) { return a + b; }
static long op_xor(long a, long b) { return a ^ (b << 1); }
__attribute__((noinline)) long apply_ops(op_fn *ops, int n, long x) { for (int i = 0; i < n; i++) x = ops[i % 2](x, i); return x; }
__attribute__((noinline)) void report(const char *fmt, ...) {
    char buf[256]; va_list ap; va_start(ap, fmt); int k = vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap);
    if (write(devnull, buf, k) < 0) abort();
}
__attribute__((noinline)) size_t text_work(int round) {
    char *s = malloc(4096); size_t total = 0;
    for (int i = 0; i < 64; i++) {
        snprintf(s, 4096, "round %d item %d %s", round, i, i % 3 ? "odd" : "even");
        strcat(s, " tail"); total += strlen(s) + (strstr(s, "item") - s);
        char *d = strdup(s); total += strcspn(d, "0123456789"); free(d);
    }
    free(s); return total;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    devnull = open("/dev/null", O_WRONLY);
    long arr[512]; double v[256]; op_fn ops[2] = {op_add, op_xor};
    unsigned seed = 12345; long acc = 0;
    for (long r = 0; r < rounds; r++) {
        struct node *t = NULL;
        for (int i = 0; i < 200; i++) { seed = seed * 1103515245 + 12345; t = insert(t, seed % 100000); }
        acc += depth_sum(t, 0); drop(t);
        for (int i = 0; i < 512; i++) { seed = seed * 1103515245 + 12345; arr[i] = seed; }
        qsort(arr, 512, sizeof arr[0], cmp_long);
        for (int i = 0; i < 256; i++) v[i] = (double)arr[i] / 1e9;
        acc += (long)mix(v, 256, 0.5) + fib(18) + sum_va(4, 1L, 2L, 3L, r) + apply_ops(ops, 9, r);
        struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); acc += ts.tv_nsec & 1;
        acc += text_work((int)r);
        report("r=%ld acc=%ld\n", r, acc);
    }
    printf("%ld\n", acc);
    return 0;
}
