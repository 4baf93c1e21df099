/* more3.c: the harness's third set of modes (issue #11, third pass). Same library, same
 * runtime; see ../README.md and docs/julia.md. Each mode starts the runtime through the
 * library's C entry (etc_abi_version), as a host program does.
 *
 *   shape-unadopted  a pthread the runtime never saw (not adopted: its pgcstack TLS slot is
 *                    NULL) calls the runtime's C API directly (ijl_alloc_svec): the allocator
 *                    reads the current task's ptls through the NULL pgcstack.
 *   shape-rome       jl_options.handle_signals = 1 before the runtime starts (so segv_handler
 *                    is installed), then C code on the (adopted) main thread writes into a code
 *                    page: SIGSEGV SEGV_ACCERR, which the runtime turns into ReadOnlyMemoryError;
 *                    no Julia handler is active, so the runtime reports it as fatal.
 *   shape-finalizer  a pointer finalizer (ijl_gc_add_ptr_finalizer) that throws (ijl_error):
 *                    the GC runs it after a collection, catches the error and prints
 *                    "error in running finalizer"; the program goes on (a legal state: gdb
 *                    stops inside the finalizer).
 *   shape-heaphint   jl_options.heap_size_hint = 16 MiB before the runtime starts, then 3
 *                    million boxed integers: the GC runs many times (a legal state: gdb stops
 *                    at the entry of a collection the allocator started).
 *   shape-clobber    (build/harness-clobber, linked with clobber.S) the C entry called once
 *                    normally, then again with a memset armed that returns with the callee-saved
 *                    r13 overwritten when libetcouple.so calls it: Julia code (japi1_compute)
 *                    goes on using r13 after the call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *lib3;

static void *sym3(const char *name) {
    void *p = dlsym(lib3, name);
    if (!p) {
        fprintf(stderr, "harness: dlsym %s: %s\n", name, dlerror());
        exit(2);
    }
    return p;
}

/* shape-clobber (build/harness-clobber only, with clobber.S): armed before one call of the C
 * entry; the first memset called from libetcouple.so returns with r13 clobbered. */
volatile char clobber_armed;
int clobber_check(void *ret) {
    Dl_info info;
    if (!dladdr(ret, &info) || !info.dli_fname || !strstr(info.dli_fname, "libetcouple.so")) return 0;
    clobber_armed = 0;
    return 1;
}

/* gdb breaks here and then at *fn (an ELF-symbol address: a breakpoint by name would use the
 * wheel's shifted DWARF). */
__attribute__((noinline)) void stop_at(void *fn) {
    __asm__ volatile("" : : "r"(fn) : "memory");
}

static void *unadopted(void *arg) {
    void *(*alloc_svec)(size_t) = arg;
    printf("harness: unadopted thread calls ijl_alloc_svec(4)\n");
    fflush(stdout);
    void *v = alloc_svec(4);
    printf("harness: ijl_alloc_svec(4) = %p\n", v);
    return v;
}

static void (*throw_error)(const char *);
__attribute__((noinline)) void finalizer(void *p) {
    printf("harness: finalizer(%p) throws\n", p);
    fflush(stdout);
    throw_error("boom in a finalizer");
}

/* Runtime options must be set before the runtime starts, which main() does with its first
 * call of etc_abi_version: a constructor opens the library first (the runtime starts lazily,
 * from the library's C entries, not when it is loaded) and sets jl_options from argv's mode,
 * or jl_options.nthreads from HARNESS_NTHREADS (a juliac library's runtime does not read
 * JULIA_NUM_THREADS: the threads2 case sets both). Offsets: ptype /o jl_options_t. */
__attribute__((constructor)) static void set_options(void) {
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f) return;
    size_t n = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    args[n] = 0;
    const char *argv[3] = {0};
    for (size_t i = 0, k = 0; i < n && k < 3; i += strlen(args + i) + 1) argv[k++] = args + i;
    const char *nthreads = getenv("HARNESS_NTHREADS");
    if (!argv[2] || (strcmp(argv[2], "shape-rome") && strcmp(argv[2], "shape-heaphint") && !nthreads)) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/libetcouple.so", argv[1]);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    int8_t *opts = h ? dlsym(h, "jl_options") : NULL;
    if (!opts) return;
    if (!strcmp(argv[2], "shape-rome")) opts[152] = 1; /* handle_signals */
    if (!strcmp(argv[2], "shape-heaphint")) *(uint64_t *)(opts + 224) = 16u << 20; /* heap_size_hint */
    if (nthreads) *(int16_t *)(opts + 50) = (int16_t)atoi(nthreads); /* nthreads */
}

int more3_modes(void *handle, const char *mode) {
    lib3 = handle;
    int32_t (*abi)(void) = sym3("etc_abi_version");
    int8_t *opts = sym3("jl_options");
    printf("harness: etc_abi_version() = %d\n", abi()); /* the runtime is up */
    void *(*alloc_svec)(size_t) = sym3("ijl_alloc_svec");
    void *(*box_int64)(int64_t) = sym3("ijl_box_int64");
    void (*gc_collect)(int) = sym3("ijl_gc_collect");
    void **(*get_pgcstack)(void) = sym3("ijl_get_pgcstack");
    if (!strcmp(mode, "shape-clobber")) {
        typedef int32_t (*couple_fn)(int64_t, const int64_t *, const int64_t *, const int64_t *, int64_t,
                                     const int64_t *, const int64_t *, int64_t, const int64_t *, const int64_t *,
                                     int64_t *, void *, void *, void *, void *, void *, void *, void *, void *,
                                     void *, void *);
        couple_fn couple = (couple_fn)sym3("etc_couple");
        static int64_t off[2] = {0, 1}, mn[1] = {1}, ml[1] = {0}, rn[1] = {1}, rl[1] = {0}, yl[1] = {0}, ym[1] = {0};
        int64_t sizes[7] = {0};
        printf("harness: etc_couple(valid) = %d\n", couple(1, off, mn, ml, 1, rn, rl, 1, yl, ym, sizes, NULL, NULL,
                                                          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
        printf("harness: arming the r13-clobbering memset; etc_couple again\n");
        fflush(stdout);
        clobber_armed = 1;
        memset(sizes, 0, sizeof sizes);
        printf("harness: etc_couple(valid) = %d\n", couple(1, off, mn, ml, 1, rn, rl, 1, yl, ym, sizes, NULL, NULL,
                                                          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
        return 0;
    }
    if (!strcmp(mode, "shape-unadopted")) {
        pthread_t th;
        pthread_create(&th, NULL, unadopted, (void *)alloc_svec);
        pthread_join(th, NULL);
        return 0;
    }
    if (!strcmp(mode, "shape-rome")) {
        volatile unsigned char *code = (unsigned char *)(void *)abi;
        printf("harness: writing into the code of etc_abi_version at %p\n", (void *)code);
        fflush(stdout);
        code[0] = 0xc3;
        printf("harness: wrote\n");
        return 0;
    }
    if (!strcmp(mode, "shape-finalizer")) {
        void (*add_ptr_finalizer)(void *, void *, void *) = sym3("ijl_gc_add_ptr_finalizer");
        throw_error = (void (*)(const char *))sym3("ijl_error");
        void *ptls = get_pgcstack()[2]; /* pgcstack -> {gcstack, world_age, ptls} */
        add_ptr_finalizer(ptls, alloc_svec(2), (void *)finalizer); /* unrooted: dies at the next GC */
        printf("harness: finalizer registered; collecting\n");
        fflush(stdout);
        gc_collect(1);
        printf("harness: after the collection\n");
        return 0;
    }
    if (!strcmp(mode, "shape-heaphint")) {
        printf("harness: heap_size_hint = %llu\n", (unsigned long long)*(uint64_t *)(opts + 224));
        stop_at((void *)gc_collect);
        for (int64_t i = 1 << 20; i < (1 << 20) + 3000000; i++) box_int64(i);
        printf("harness: 3000000 boxes allocated\n");
        return 0;
    }
    fprintf(stderr, "harness: unknown mode %s\n", mode);
    return 2;
}
