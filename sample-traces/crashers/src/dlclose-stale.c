/* A host loads a plugin, keeps a pointer to its callback, unloads the plugin with dlclose()
 * (the library is unmapped), then calls the stale pointer: the pc lands in the address range
 * where the library's code used to be, now unmapped (SIGSEGV, SEGV_MAPERR at the pc). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*score_fn)(int);
static score_fn cached_score;

static int load_plugin(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return -1; }
    cached_score = (score_fn)dlsym(h, "plugin_score");
    int first = cached_score(1);
    dlclose(h); /* bug: cached_score still points into the library */
    return first;
}

__attribute__((noinline)) int rescore(int v) {
    return cached_score(v) + 1;
}

int main(void) {
    int first = load_plugin("./dlclose-stale.so");
    if (first < 0) return 1;
    printf("first score %d\n", first);
    fflush(stdout);
    return rescore(7) == 0;
}
