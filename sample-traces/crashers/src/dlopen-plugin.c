/* The host: loads ./dlopen-plugin.so with dlopen() and calls its plugin_run() with a
 * context whose output pointer it forgot to set. */
#include <dlfcn.h>
#include <stdio.h>

struct output;
struct context {
    const char *name;
    struct output *out;
};

int main(void)
{
    void *h = dlopen("./dlopen-plugin.so", RTLD_NOW);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 2;
    }
    long (*run)(struct context *, const long *, long) =
        (long (*)(struct context *, const long *, long))dlsym(h, "plugin_run");
    struct context cx = {"sum", NULL};
    long v[3] = {1, 2, 3};
    printf("%ld\n", run(&cx, v, 3));
    return 0;
}
