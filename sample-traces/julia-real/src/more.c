/* more.c: the harness's later modes (harness.c keeps its line numbers: transcripts and tests
 * quote them). Same library, same runtime; see ../README.md and docs/julia.md.
 *
 *   legal            nothing wrong happens: valid and invalid (validated) calls of the C entry,
 *                    a MethodError thrown by the runtime and caught by ijl_call0, allocations,
 *                    a full GC, and a foreign pthread (never seen by the runtime) calling the
 *                    C entry, which adopts it. gdb/legal.py stops it at many points.
 *   shape-unmapped   the specsig body called with r13 = a pgcstack-sized block that was
 *                    mmap'ed and then munmap'ed (a freed pgcstack): faults on its first read.
 *   shape-nroots     a GC frame whose nroots word is garbage, pushed by hand as compiled code
 *                    pushes one, then a full collection: the GC walks the garbage count.
 *   shape-overflow   a thread with a 256 KiB stack recurses in C until little stack is left,
 *                    then calls the library's C entry: Julia code runs into the guard page.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int32_t (*etc_couple_fn)(int64_t, const int64_t *, const int64_t *, const int64_t *, int64_t,
                                 const int64_t *, const int64_t *, int64_t, const int64_t *,
                                 const int64_t *, int64_t *, void *, void *, void *, void *, void *,
                                 void *, void *, void *, void *, void *);
int32_t call_with_r13(void *fn, void *r13, const int64_t args[21]); /* tramp.S */

static void *lib;
static etc_couple_fn etc_couple;
static int64_t off[2] = {0, 1}, mn[1] = {1}, ml[1] = {0}, rn[1] = {1}, rl[1] = {0}, yl[1] = {0}, ym[1] = {0};
static int64_t bad_mn[1] = {-1};

static void *sym(const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "harness: dlsym %s: %s\n", name, dlerror());
        exit(2);
    }
    return p;
}

/* Each call starts from zeroed sizes (an in/out argument). */
static int32_t couple_mn(const int64_t *m) {
    int64_t sizes[7] = {0};
    return etc_couple(1, off, m, ml, 1, rn, rl, 1, yl, ym, sizes, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                      NULL, NULL);
}

/* gdb/legal.py keeps a breakpoint here: a walk that loses its way (a longjmp past nexti's
 * step-resume breakpoint) ends at the next checkpoint instead of running to the end. */
__attribute__((noinline)) void checkpoint(int n) {
    __asm__ volatile("" : : "r"(n) : "memory");
}

static void *foreign(void *arg) {
    (void)arg;
    printf("harness: foreign thread: etc_couple() = %d\n", couple_mn(mn));
    return NULL;
}

__attribute__((noinline)) int legal(void) {
    int32_t (*abi)(void) = sym("etc_abi_version");
    printf("harness: etc_abi_version() = %d\n", abi());
    checkpoint(1);
    printf("harness: etc_couple(valid) = %d\n", couple_mn(mn));
    checkpoint(2);
    printf("harness: etc_couple(mn = -1) = %d\n", couple_mn(bad_mn));
    checkpoint(3);
    void *(*alloc_svec)(size_t) = sym("ijl_alloc_svec");
    void *(*box_int64)(int64_t) = sym("ijl_box_int64");
    void *(*call0)(void *) = sym("ijl_call0");
    void *(*exception_occurred)(void) = sym("ijl_exception_occurred");
    void (*gc_collect)(int) = sym("ijl_gc_collect");
    void **(*get_pgcstack)(void) = sym("ijl_get_pgcstack");
    /* Calling an Int64: the runtime throws a MethodError (ijl_throw, throw_internal, the
     * longjmp to jl_call's handler); ijl_call0 catches it and returns NULL. */
    for (int k = 0; k < 2; k++) {
        void *r = call0(box_int64(5));
        printf("harness: ijl_call0(5) = %p, exception %s\n", r, exception_occurred() ? "caught" : "none");
        checkpoint(4 + k);
    }
    void **pgcstack = get_pgcstack();
    struct { size_t nroots; void *prev; void *roots[1]; } frame;
    frame.nroots = 1 << 2;
    frame.prev = *pgcstack;
    frame.roots[0] = alloc_svec(4);
    *pgcstack = &frame;
    for (int64_t i = 1 << 20; i < (1 << 20) + 300000; i++) box_int64(i);
    checkpoint(6);
    gc_collect(1); /* a full collection: mark, sweep */
    *pgcstack = frame.prev;
    checkpoint(7);
    pthread_t th;
    pthread_create(&th, NULL, foreign, NULL);
    pthread_join(th, NULL);
    checkpoint(8);
    printf("harness: etc_couple(valid, again) = %d\n", couple_mn(mn));
    checkpoint(9);
    return 0;
}

/* julia_etc_couple_* from .symtab (harness.c). */
void *find_body(void);

static void fill(int64_t a[21]) {
    static int64_t sizes[7];
    memset(a, 0, 21 * sizeof *a);
    a[0] = 1, a[1] = (int64_t)off, a[2] = (int64_t)mn, a[3] = (int64_t)ml, a[4] = 1, a[5] = (int64_t)rn;
    a[6] = (int64_t)rl, a[7] = 1, a[8] = (int64_t)yl, a[9] = (int64_t)ym, a[10] = (int64_t)sizes;
}

static size_t left_at_entry;
static char *stack_lo;
__attribute__((noinline)) static int burn(int depth) {
    volatile char pad[512];
    pad[0] = (char)depth;
    if ((size_t)((char *)pad - stack_lo) > left_at_entry) return burn(depth + 1) + pad[0];
    return couple_mn(mn) + pad[0]; /* no printf here: it needs more stack than is left */
}
static void *overflow_thread(void *arg) {
    (void)arg;
    pthread_attr_t at;
    void *lo;
    size_t sz;
    pthread_getattr_np(pthread_self(), &at);
    pthread_attr_getstack(&at, &lo, &sz);
    stack_lo = lo;
    return (void *)(intptr_t)burn(0);
}

int more_modes(void *handle, const char *mode) {
    lib = handle;
    etc_couple = (etc_couple_fn)sym("etc_couple");
    if (!strcmp(mode, "legal")) return legal(); { extern int more3_modes(void *, const char *); if (!strcmp(mode, "shape-unadopted") || !strcmp(mode, "shape-clobber") || !strcmp(mode, "shape-rome") || !strcmp(mode, "shape-finalizer") || !strcmp(mode, "shape-heaphint")) return more3_modes(handle, mode); }
    int32_t (*abi)(void) = sym("etc_abi_version");
    printf("harness: etc_abi_version() = %d\n", abi()); /* the runtime is up */
    if (!strcmp(mode, "shape-unmapped")) {
        int64_t a[21];
        fill(a);
        /* A block shaped like a task's gcstack/world_age/ptls words, copied from the live
         * pgcstack, then unmapped: r13 = a freed pgcstack. */
        void **(*get_pgcstack)(void) = sym("ijl_get_pgcstack");
        char *blk = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        memcpy(blk + 256, get_pgcstack(), 24);
        munmap(blk, 4096);
        printf("harness: r13 = %p (unmapped)\n", (void *)(blk + 256));
        return call_with_r13(find_body(), blk + 256, a);
    }
    if (!strcmp(mode, "shape-nroots")) {
        void **(*get_pgcstack)(void) = sym("ijl_get_pgcstack");
        void (*gc_collect)(int) = sym("ijl_gc_collect");
        void *(*alloc_svec)(size_t) = sym("ijl_alloc_svec");
        void **pgcstack = get_pgcstack();
        struct { size_t nroots; void *prev; void *roots[1]; } frame;
        frame.nroots = (size_t)0x4141414141414141 << 2 >> 2 << 2; /* garbage count, flag bits clear */
        frame.prev = *pgcstack;
        frame.roots[0] = alloc_svec(4);
        *pgcstack = &frame;
        printf("harness: GC frame %p with nroots word %#lx; collecting\n", (void *)&frame,
               (unsigned long)frame.nroots);
        gc_collect(1);
        return 0;
    }
    if (!strcmp(mode, "shape-overflow")) {
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 256 * 1024);
        left_at_entry = 1536;
        printf("harness: recursing until %zu bytes of a 256 KiB stack are left, then etc_couple\n", left_at_entry);
        pthread_t th;
        pthread_create(&th, &at, overflow_thread, NULL);
        void *r;
        pthread_join(th, &r);
        printf("harness: no overflow (%ld)\n", (long)(intptr_t)r);
        return 0;
    }
    fprintf(stderr, "harness: unknown mode %s\n", mode);
    return 2;
}
