// TLS in every model (issue 11, fifth pass): initialized and zeroed __thread data in the
// executable (local-exec), in a library loaded at start (initial-exec via libtls5.so's
// global-dynamic accesses through __tls_get_addr) and in the same library dlopen'ed again under
// another name (dynamic TLS, allocated lazily per thread); threads created and joined in a loop,
// so the loader sets up static TLS blocks and dtv entries again and again. sweep5.sh also
// starts it with `starti` and stops it inside ld.so before main. Nothing in it is wrong.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread long tls_counter = 7;
__thread char tls_name[64] = "main";
__thread long tls_big[512];
long tls5_touch(long);  // libtls5.so

static long (*dyn_touch)(long);

__attribute__((noinline)) static long local_tls(long x) {
    tls_counter += x;
    tls_big[x & 511] ^= tls_counter;
    return tls_counter + tls_name[0];
}
static void *worker(void *arg) {
    long x = (long)arg, s = 0;
    snprintf(tls_name, sizeof tls_name, "w%ld", x);
    for (int i = 0; i < 200; i++) s += local_tls(i) + tls5_touch(i) + (dyn_touch ? dyn_touch(i) : 0);
    return (void *)s;
}
int main(int argc, char **argv) {
    long rounds = argc > 2 ? atol(argv[2]) : 1000000000L, t = 0;
    for (long r = 0; r < rounds; r++) {
        void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
        dyn_touch = h ? (long (*)(long))dlsym(h, "tls5_touch") : NULL;
        pthread_t th[4];
        for (long i = 0; i < 4; i++) pthread_create(&th[i], NULL, worker, (void *)(r * 4 + i));
        for (int i = 0; i < 4; i++) { void *v; pthread_join(th[i], &v); t += (long)v; }
        dyn_touch = NULL;
        if (h && (r & 3) == 3) dlclose(h);
    }
    printf("%ld\n", t);
    return 0;
}
