/* harness.c: drives real Julia 1.13.1 code (the juliac-built libetcouple.so of the
 * PyPI wheel ace-jax-coupling 0.2.0) into the crashes recorded in this directory.
 *
 *   harness LIBDIR MODE
 *
 * MODE (one per recorded case; see ../README.md and docs/julia.md):
 *   sizes        etc_couple(..., sizes = (void *)0x10, ...) through the library's C entry:
 *                the fault is in Julia-compiled code with a valid r13 (pgcstack).
 *   entry        the same C entry with valid arguments (gdb stops at a breakpoint in the
 *                julia_etc_couple_* specsig body): a valid r13 in the founding function.
 *   thunk        the founding case: thunk_trampoline (tramp.S) keeps a heap "thunk" in r13
 *                and calls the julia_etc_couple_* specsig body directly.
 *   r13-zero     the specsig body called directly with r13 = 0.
 *   r13-stale    the specsig body called directly on the main thread with r13 = the
 *                pgcstack of a second (real, live) thread, and sizes = 0x10 so it faults.
 *   gc-corrupt   a rooted Julia object whose header (type tag) the harness overwrites with
 *                'A's, then allocations until the GC runs and marks it.
 *   banner       jl_options.handle_signals = 1 before the runtime starts, then the `sizes`
 *                fault: the runtime's own SIGSEGV handler prints its crash banner.
 *   sigstate     print who owns SIGSEGV before and after the runtime starts (no crash).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int32_t (*etc_couple_fn)(int64_t, const int64_t *, const int64_t *, const int64_t *, int64_t,
                                 const int64_t *, const int64_t *, int64_t, const int64_t *,
                                 const int64_t *, int64_t *, void *, void *, void *, void *, void *,
                                 void *, void *, void *, void *, void *);

/* tramp.S */
struct thunk {
    const void *vtable; /* what a C++ callback object starts with */
    void *fn;           /* the callback: a julia_* specsig body */
    intptr_t refcount;
    intptr_t result;
};
int32_t thunk_trampoline(struct thunk *t, const int64_t args[21]);
int32_t call_with_r13(void *fn, void *r13, const int64_t args[21]);

static void *lib;
static etc_couple_fn etc_couple;
static int32_t (*etc_abi_version)(void);
static void **(*get_pgcstack)(void);

static void *sym(const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "harness: dlsym %s: %s\n", name, dlerror());
        exit(2);
    }
    return p;
}

/* The address of the first STT_FUNC in libetcouple.so's .symtab whose name starts with
 * `prefix` (julia_* specsig bodies are local symbols: not in .dynsym, not dlsym-able). */
static void *find_local_function(const char *prefix) {
    Dl_info info;
    if (!dladdr((void *)etc_couple, &info)) return NULL;
    int fd = open(info.dli_fname, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) return NULL;
    const unsigned char *f = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED) return NULL;
    const Elf64_Ehdr *eh = (const void *)f;
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB) continue;
        const Elf64_Sym *s = (const void *)(f + sh[i].sh_offset);
        const char *str = (const char *)(f + sh[sh[i].sh_link].sh_offset);
        size_t n = sh[i].sh_size / sizeof *s;
        for (size_t k = 0; k < n; k++)
            if (ELF64_ST_TYPE(s[k].st_info) == STT_FUNC && strncmp(str + s[k].st_name, prefix, strlen(prefix)) == 0) {
                printf("harness: %s at %#lx (%s + %#lx)\n", str + s[k].st_name,
                       (unsigned long)((char *)info.dli_fbase + s[k].st_value), info.dli_fname,
                       (unsigned long)s[k].st_value);
                return (char *)info.dli_fbase + s[k].st_value;
            }
    }
    return NULL;
}

/* One body of one (n, l) = (1, 0) with Y = (0, 0): the smallest valid spec. */
static int64_t off[2] = {0, 1}, mn[1] = {1}, ml[1] = {0}, rn[1] = {1}, rl[1] = {0}, yl[1] = {0}, ym[1] = {0};
static int64_t sizes[7];

static void fill_args(int64_t a[21], int64_t *sizes_arg) {
    memset(a, 0, 21 * sizeof *a);
    a[0] = 1;
    a[1] = (int64_t)off;
    a[2] = (int64_t)mn;
    a[3] = (int64_t)ml;
    a[4] = 1;
    a[5] = (int64_t)rn;
    a[6] = (int64_t)rl;
    a[7] = 1;
    a[8] = (int64_t)yl;
    a[9] = (int64_t)ym;
    a[10] = (int64_t)sizes_arg;
}

static int32_t couple(int64_t *sizes_arg) {
    return etc_couple(1, off, mn, ml, 1, rn, rl, 1, yl, ym, sizes_arg, NULL, NULL, NULL, NULL, NULL, NULL,
                      NULL, NULL, NULL, NULL);
}

/* r13-stale: a second thread enters Julia, publishes its pgcstack and waits. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static void **worker_pgcstack;
static void *worker(void *arg) {
    (void)arg;
    printf("harness: worker: etc_abi_version() = %d\n", etc_abi_version());
    pthread_mutex_lock(&mu);
    worker_pgcstack = get_pgcstack();
    printf("harness: worker: pgcstack = %p\n", (void *)worker_pgcstack);
    fflush(stdout);
    pthread_cond_broadcast(&cv);
    for (;;) pthread_cond_wait(&cv, &mu); /* stays alive, blocked */
    return NULL;
}

/* gdb stops here to set a breakpoint at an address inside `fn` (see gdb/entry-break.gdb):
 * gdb resolves julia_* names through the DWARF, whose addresses in this wheel are 0x2000 below
 * the code (docs/julia.md), so a breakpoint by name would never be hit. */
__attribute__((noinline)) void about_to_call(void *fn) {
    __asm__ volatile("" : : "r"(fn) : "memory");
}

static void print_sigsegv_owner(const char *when) {
    struct sigaction sa;
    sigaction(SIGSEGV, NULL, &sa);
    void *h = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
    Dl_info info;
    const char *name = "none";
    if (h == (void *)SIG_DFL) name = "SIG_DFL";
    else if (dladdr(h, &info) && info.dli_sname) name = info.dli_sname;
    else if (dladdr(h, &info)) name = info.dli_fname;
    printf("harness: SIGSEGV handler %s: %p (%s)\n", when, h, name);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: harness LIBDIR MODE\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/libetcouple.so", argv[1]);
    const char *mode = argv[2];
    setvbuf(stdout, NULL, _IONBF, 0);
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "harness: dlopen: %s\n", dlerror());
        return 2;
    }
    etc_couple = (etc_couple_fn)sym("etc_couple");
    etc_abi_version = (int32_t (*)(void))sym("etc_abi_version");
    get_pgcstack = (void **(*)(void))sym("ijl_get_pgcstack");
    int64_t a[21];

    if (!strcmp(mode, "sigstate") || !strcmp(mode, "banner")) {
        if (!strcmp(mode, "banner")) {
            /* jl_options lives in libjulia; handle_signals is at offset 152 in 1.13.1
             * (ptype /o jl_options_t on libjulia-internal's DWARF). */
            int8_t *opts = sym("jl_options");
            printf("harness: jl_options.handle_signals = %d before init; setting 1\n", opts[152]);
            opts[152] = 1;
        }
        print_sigsegv_owner("before the runtime starts");
        printf("harness: etc_abi_version() = %d\n", etc_abi_version());
        print_sigsegv_owner("after the runtime started");
        if (!strcmp(mode, "sigstate")) return 0;
        return couple((int64_t *)0x10);
    }
    if (!strcmp(mode, "sizes")) return couple((int64_t *)0x10);

    void *body = find_local_function("julia_etc_couple_");
    if (!body) {
        fprintf(stderr, "harness: julia_etc_couple_* not found in the symbol table\n");
        return 2;
    }
    if (!strcmp(mode, "entry")) {
        about_to_call(body);
        return couple(sizes);
    }
    printf("harness: etc_abi_version() = %d\n", etc_abi_version()); /* the runtime is up */
    if (!strcmp(mode, "thunk")) {
        static const void *vtable[2];
        struct thunk *t = malloc(sizeof *t);
        t->vtable = vtable;
        t->fn = body;
        t->refcount = 0x2a;
        t->result = 0;
        fill_args(a, sizes);
        printf("harness: thunk = %p\n", (void *)t);
        return thunk_trampoline(t, a);
    }
    if (!strcmp(mode, "r13-zero")) {
        fill_args(a, sizes);
        return call_with_r13(body, NULL, a);
    }
    if (!strcmp(mode, "r13-stale")) {
        pthread_t th;
        pthread_create(&th, NULL, worker, NULL);
        pthread_mutex_lock(&mu);
        while (!worker_pgcstack) pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
        printf("harness: main: own pgcstack = %p, using the worker's %p\n", (void *)get_pgcstack(),
               (void *)worker_pgcstack);
        fill_args(a, (int64_t *)0x10);
        return call_with_r13(body, worker_pgcstack, a);
    }
    if (!strcmp(mode, "gc-corrupt")) {
        void *(*alloc_svec)(size_t) = sym("ijl_alloc_svec");
        void *(*box_int64)(int64_t) = sym("ijl_box_int64");
        void **pgcstack = get_pgcstack();
        /* A live object: a 4-slot SimpleVector, rooted by a GC frame pushed by hand exactly as
         * compiled code does (frame[0] = nroots << 2, frame[1] = previous top, roots follow). */
        struct { size_t nroots; void *prev; void *roots[1]; } frame;
        void *sv = alloc_svec(4);
        frame.nroots = 1 << 2;
        frame.prev = *pgcstack;
        frame.roots[0] = sv;
        *pgcstack = &frame;
        printf("harness: rooted svec %p, header %#lx; overrunning it with 'A's\n", sv,
               (unsigned long)((uintptr_t *)sv)[-1]);
        memset((char *)sv - 8, 'A', 8); /* the header word (type tag and GC bits) */
        for (int64_t i = 1 << 20;; i++) box_int64(i); /* allocate until the GC marks sv */
    }
    if (!strcmp(mode, "legal") || !strncmp(mode, "shape-", 6)) { extern int more_modes(void *, const char *); return more_modes(lib, mode); }
    fprintf(stderr, "harness: unknown mode %s\n", mode);
    return 2;
}

/* For more.c: the specsig body, found in the symbol table. */
void *find_body(void) {
    return find_local_function("julia_etc_couple_");
}
