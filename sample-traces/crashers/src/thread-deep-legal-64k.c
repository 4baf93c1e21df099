/* gcc -O0 -pthread: a worker with a 64 KiB stack runs a bounded recursion that uses most of it
 * (rsp ends a few KiB above the guard page, hundreds of repeated frames), which is legal; at
 * the deepest level it reads a record through NULL. The fault address is 0, far from the
 * guard page: a NULL dereference, not a stack overflow. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct rec { int depth; int weight; };
static struct rec *leaf_rec; /* never set */

__attribute__((noinline)) static int leaf_weight(void) { return leaf_rec->weight; }

__attribute__((noinline)) static int descend(int n) {
    volatile char pad[96];
    memset((char *)pad, n, sizeof pad);
    if (n == 0) return leaf_weight();
    return descend(n - 1) + pad[n % 96];
}

static void *worker(void *arg) {
    (void)arg;
    printf("%d\n", descend(330));
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
