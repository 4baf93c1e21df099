/* gcc -O0 -pthread: a mutex inside a struct that an unrelated memset-style reset overwrote with
 * a stale copy (owner set, lock word clear); the next pthread_mutex_lock fails glibc's own
 * internal assertion (`mutex->__data.__owner == 0'). The assertion is glibc's, not the
 * program's: the program's bug is the corrupted mutex in its caller. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct counter { pthread_mutex_t lock; long hits; };

__attribute__((noinline)) static void restore(struct counter *c, const struct counter *snapshot) {
    memcpy(c, snapshot, sizeof *c); /* bug: copies a mutex's internals */
    c->lock.__data.__lock = 0;
}

__attribute__((noinline)) static void bump(struct counter *c) {
    pthread_mutex_lock(&c->lock);
    c->hits++;
    pthread_mutex_unlock(&c->lock);
}

int main(void) {
    static struct counter c = { PTHREAD_MUTEX_INITIALIZER, 0 }, snap;
    pthread_mutex_lock(&c.lock);
    snap = c; /* taken while locked: __owner is this thread's tid */
    pthread_mutex_unlock(&c.lock);
    restore(&c, &snap);
    bump(&c);
    printf("%ld\n", c.hits);
    return 0;
}
