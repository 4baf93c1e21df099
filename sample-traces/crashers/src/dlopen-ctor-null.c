/* gcc -O2: the host dlopen()s a plugin before creating the registry the plugin's constructor
 * writes to: the constructor faults inside dlopen (under _dl_init, dl_open_worker and
 * _dl_catch_exception), writing through host_registry = NULL. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

struct registry { int count; void *entries[16]; };
struct registry *host_registry;

int main(void)
{
    void *h = dlopen("./dlopen-ctor-null.so", RTLD_NOW);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    host_registry = calloc(1, sizeof *host_registry);
    printf("%d\n", host_registry->count);
    return 0;
}
