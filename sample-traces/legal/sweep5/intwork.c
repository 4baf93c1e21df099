// An integer-only legal workload (issue 11, fifth pass), so it builds with
// -mgeneral-regs-only as well as with -mstackrealign, -mno-red-zone, -fcf-protection=full,
// -fstack-clash-protection and -fsplit-stack (sweep5.sh): recursion, a large stack array
// (probed page by page under -fstack-clash-protection), qsort callbacks, malloc churn,
// function pointers, varargs, string work and syscalls. Nothing in it is wrong.
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) long big_frame(int seed) {
    // 40 KiB on the stack: -fstack-clash-protection probes it a page at a time.
    volatile char buf[40 * 1024];
    long s = 0;
    for (unsigned i = 0; i < sizeof buf; i += 61) buf[i] = (char)(i ^ seed);
    for (unsigned i = 0; i < sizeof buf; i += 127) s += buf[i];
    return s;
}
__attribute__((noinline)) long vla_frame(int n) {
    char v[n];  // a variable-length array: probed and aligned at run time
    memset(v, n & 0x7f, n);
    long s = 0;
    for (int i = 0; i < n; i += 7) s += v[i];
    return s;
}
static long sum_va(int n, ...) {
    va_list ap; va_start(ap, n);
    long s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, long);
    va_end(ap); return s;
}
typedef long (*op_fn)(long, long);
static long op_add(long a, long b) { return a + b; }
static long op_xor(long a, long b) { return a ^ (b << 1); }
__attribute__((noinline)) long apply_ops(op_fn *ops, int n, long x) { for (int i = 0; i < n; i++) x = ops[i % 2](x, i); return x; }
__attribute__((noinline)) unsigned long hash_text(const char *s) {
    unsigned long h = 1469598103934665603ul;
    while (*s) h = (h ^ (unsigned char)*s++) * 1099511628211ul;
    return h;
}
__attribute__((noinline)) void text_work(int round) {
    char buf[512];
    int k = snprintf(buf, sizeof buf, "round %d: %s", round, "the quick brown fox jumps over the lazy dog");
    for (int i = 0; i < 20; i++) {
        char *d = strdup(buf);
        k += (int)strlen(d) + (int)(hash_text(d) & 7);
        free(d);
    }
    if (devnull >= 0) write(devnull, buf, (size_t)k % sizeof buf);
}
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    devnull = open("/dev/null", O_WRONLY);
    op_fn ops[2] = {op_add, op_xor};
    long total = 0;
    for (long r = 0; r < rounds; r++) {
        struct node *t = NULL;
        for (int i = 0; i < 200; i++) t = insert(t, (i * 7919L + r) % 1009);
        total += depth_sum(t, 0);
        drop(t);
        long arr[300];
        for (int i = 0; i < 300; i++) arr[i] = (i * 2654435761L + r) & 0xffff;
        qsort(arr, 300, sizeof arr[0], cmp_long);
        total += fib(18) + sum_va(4, 1L, 2L, 3L, r) + apply_ops(ops, 50, r);
        total += big_frame((int)r) + vla_frame(100 + (int)(r % 3000));
        text_work((int)r);
    }
    printf("%ld\n", total);
    return 0;
}
