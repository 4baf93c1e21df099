// Legal dynamic loading (issue 11, fourth pass): libraries dlopen'ed and closed again and
// again, RTLD_NOW and RTLD_LAZY, global and local, with dlsym and a constructor in the
// library, so stops land inside ld.so (mapping segments, relocating, looking symbols up,
// running initializers, unmapping) with the loader's own frames and stack use.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    const char *libs[] = {argc > 2 ? argv[2] : "./libdl4.so", "libm.so.6", "libz.so.1", "libpthread.so.0"};
    long acc = 0;
    for (long r = 0; r < rounds; r++) {
        for (int i = 0; i < 4; i++) {
            int mode = ((r + i) & 1 ? RTLD_NOW : RTLD_LAZY) | ((r & 2) ? RTLD_GLOBAL : RTLD_LOCAL);
            void *h = dlopen(libs[i], mode);
            if (!h) continue;
            long (*f)(long) = (long (*)(long))dlsym(h, "dl4_entry");
            if (f) acc += f(r);
            double (*c)(double) = (double (*)(double))dlsym(h, "cos");
            if (c) acc += (long)c((double)r);
            Dl_info info;
            if (f && dladdr((void *)f, &info)) acc += info.dli_fname[0];
            dlclose(h);
        }
    }
    printf("%ld\n", acc);
    return 0;
}
