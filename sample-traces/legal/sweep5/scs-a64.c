// AArch64 with clang's shadow call stack (issue 11, fifth pass): every function built with
// -fsanitize=shadow-call-stack pushes its return address x30 to a second stack through x18
// (`str x30, [x18], #8` in the prologue, `ldr x30, [x18, #-8]!` before ret). Linux user space
// has no runtime that sets x18 up, so main (not instrumented) maps a shadow stack and points x18
// at it. Then x18 holds a pointer into an anonymous mapping that grows as calls nest, and a
// leaf's x30 may differ from what the stack frame says. Nothing in it is wrong.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct node { struct node *l, *r; long key; };

__attribute__((noinline)) static struct node *insert(struct node *t, long k) {
    if (!t) {
        struct node *n = calloc(1, sizeof *n);
        n->key = k;
        return n;
    }
    if (k < t->key) t->l = insert(t->l, k); else t->r = insert(t->r, k);
    return t;
}
__attribute__((noinline)) static long depth_sum(const struct node *t, int d) {
    return t ? d + depth_sum(t->l, d + 1) + depth_sum(t->r, d + 1) : 0;
}
__attribute__((noinline)) static void drop(struct node *t) { if (t) { drop(t->l); drop(t->r); free(t); } }
__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) static long text_work(long r) {
    char buf[128];
    snprintf(buf, sizeof buf, "round %ld of the shadow stack", r);
    return (long)strlen(buf);
}
__attribute__((noinline)) static long round_(long r) {
    struct node *t = NULL;
    for (int i = 0; i < 150; i++) t = insert(t, (i * 7919L + r) % 1009);
    long s = depth_sum(t, 0) + fib(16) + text_work(r);
    drop(t);
    return s;
}
__attribute__((no_sanitize("shadow-call-stack"))) int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L, t = 0;
    void *scs = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    __asm__ volatile("mov x18, %0" ::"r"(scs));
    for (long r = 0; r < rounds; r++) t += round_(r);
    printf("%ld\n", t);
    return 0;
}
