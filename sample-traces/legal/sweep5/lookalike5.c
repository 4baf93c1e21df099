// Legal states made to look like each rule's trigger, fifth pass (issue 11): shapes the
// fourth pass's lookalike.c does not have. One program, one mode per look-alike (argv[1]);
// lookalikes5.sh stops each under gdb at a global asm label `la5_<what>` on the instruction of
// interest or at a named function, and most get a twin (SIGSEGV sent to the stopped thread with
// tgkill, then `continue`, as at a crash). Nothing here is wrong: every value is what a correct
// program holds, every access is allowed.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

volatile long sink;
char *volatile la5_kept;
static const char rodata_page[8192] __attribute__((aligned(4096))) = "read-only until mprotect";

/* noncanonical-address: a pointer with a tag in its top byte (as a tagging allocator or a
   runtime keeps them) is untagged before use: the register holds a non-canonical value, the
   load goes through the untagged copy. */
__attribute__((noinline)) static long tagged_load(long *p) {
    long r;
    __asm__ volatile("movabs $0x2a00000000000000, %%rax\n\t"
                     "or %1, %%rax\n\t"            /* rax = tagged pointer */
                     "mov %%rax, %%rdx\n\t"
                     "shl $8, %%rdx\n\t"
                     "sar $8, %%rdx\n\t"           /* rdx = untagged (canonical) */
                     ".globl la5_tagged\nla5_tagged:\n\t"
                     "mov (%%rdx), %0\n\t"
                     : "=r"(r) : "r"(p) : "rax", "rdx", "memory");
    return r;
}
/* noncanonical-address and wild-pointer: prefetches never fault, whatever the address. */
__attribute__((noinline)) static void prefetch_far(void) {
    __asm__ volatile("movabs $0xdead00000000beef, %%rax\n\t"
                     ".globl la5_prefetch_nc\nla5_prefetch_nc:\n\t"
                     "prefetcht0 (%%rax)\n\t"
                     "movabs $0x00006ffe00001000, %%rcx\n\t"   /* canonical, in no mapping */
                     ".globl la5_prefetch_wild\nla5_prefetch_wild:\n\t"
                     "prefetchnta 0x40(%%rcx)\n\t"
                     "nop" ::: "rax", "rcx", "memory");
}
/* null-dereference: container_of computed from a NULL member pointer (lea, no access), then
   tested. */
struct outer { long a, b, c; long member; };
__attribute__((noinline)) static struct outer *owner_of(long *m) {
    struct outer *o;
    __asm__ volatile("mov %1, %%rax\n\t"
                     ".globl la5_lea_null\nla5_lea_null:\n\t"
                     "lea -0x18(%%rax), %0\n\t" : "=r"(o) : "r"(m) : "rax");
    return m ? o : NULL;
}
/* null-dereference: a load from page 0 when the program mapped it (root may, below
   vm.mmap_min_addr with CAP_SYS_RAWIO); falls back to a low mapping if it cannot. */
static long *low_page;
__attribute__((noinline)) static long low_load(void) {
    long r;
    __asm__ volatile(".globl la5_low_load\nla5_low_load:\n\t"
                     "mov 0x10(%1), %0" : "=r"(r) : "r"(low_page) : "memory");
    return r;
}
/* poison-value: memset with a 0xcd fill (a program's own debug fill of a new buffer). */
__attribute__((noinline)) static void fill_cd(char *p, size_t n) {
    __asm__ volatile("movabs $0xcdcdcdcdcdcdcdcd, %%rax\n\t"
                     "mov %0, %%rdi\n\tmov %1, %%rcx\n\tshr $3, %%rcx\n\t"
                     ".globl la5_fill_cd\nla5_fill_cd:\n\t"
                     "rep stosq" :: "r"(p), "r"(n) : "rax", "rdi", "rcx", "memory");
}
/* stack-buffer-overflow: a de Bruijn sequence (the shape of a cyclic overflow pattern) as the
   program's own data, read a word at a time. */
static char cyclic[256];
__attribute__((noinline)) static long cyclic_sum(void) {
    long s = 0, w;
    for (int i = 0; i + 8 <= (int)sizeof cyclic - 1; i += 8) {
        memcpy(&w, cyclic + i, 8);
        __asm__ volatile(".globl la5_cyclic\nla5_cyclic:\n\tadd %1, %0" : "+r"(s) : "r"(w));
    }
    return s;
}
/* write-to-readonly: a store into a private writable mapping of a file opened read-only (copy
   on write), and into a .rodata page the program made writable with mprotect. */
__attribute__((noinline)) static void store_to(char *p, char v) {
    __asm__ volatile(".globl la5_store\nla5_store:\n\tmovb %1, (%0)" :: "r"(p), "r"(v) : "memory");
}
/* wild-pointer: a pointer into a PROT_NONE reservation (a runtime's reserved heap) held in rbx
   while the code reads the committed page before it. */
__attribute__((noinline)) static long reserve_neighbour(char *committed, char *reserved) {
    long r;
    __asm__ volatile("push %%rbx\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "mov %2, %%rbx\n\t"
                     ".globl la5_reserve\nla5_reserve:\n\t"
                     "mov 0xff8(%1), %0\n\t"
                     "pop %%rbx\n\t.cfi_adjust_cfa_offset -8"
                     : "=r"(r) : "r"(committed), "r"(reserved) : "memory");
    return r;
}
/* stack-overflow: a legal 60,000-deep recursion on a thread with a 64 MiB stack. */
__attribute__((noinline)) static long deep(long n) {
    volatile char pad[96];
    pad[n & 63] = (char)n;
    if (n == 0) {
        __asm__ volatile(".globl la5_deep_bottom\nla5_deep_bottom:\n\tnop");
        return pad[0];
    }
    return deep(n - 1) + pad[n & 63];
}
static void *deep_thread(void *arg) { return (void *)deep((long)arg); }
/* stack-pointer-wild: coroutines on a stack in a shared file mapping and on a __thread array. */
static ucontext_t main_ctx, co_ctx;
__attribute__((noinline)) static void co_body(void) {
    volatile long x = 0;
    for (int i = 0; i < 3; i++) {
        x += i;
        __asm__ volatile(".globl la5_co\nla5_co:\n\tnop");
        swapcontext(&co_ctx, &main_ctx);
    }
}
static __thread char tls_stack[128 * 1024] __attribute__((aligned(64)));
static void run_coroutine(void *stack, size_t size) {
    getcontext(&co_ctx);
    co_ctx.uc_stack.ss_sp = stack;
    co_ctx.uc_stack.ss_size = size;
    co_ctx.uc_link = &main_ctx;
    makecontext(&co_ctx, co_body, 0);
    for (int i = 0; i < 4; i++) swapcontext(&main_ctx, &co_ctx);
}
/* bad-pc: a GNU C nested function's trampoline runs from the (executable) stack. */
__attribute__((noinline)) static long use_cb(long (*cb)(long), long x) {
    long r;
    __asm__ volatile(".globl la5_tramp_call\nla5_tramp_call:\n\tcall *%1\n\t" : "=a"(r) : "r"(cb), "D"(x) : "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory");
    return r;
}
__attribute__((noinline)) static long nested_user(long k) {
    long bias = k * 3;
    long add_bias(long v) { return v + bias; }
    return use_cb(add_bias, 5);
}
/* stack-misaligned: a function built to realign its own stack (force_align_arg_pointer) entered
   with rsp = 0 mod 16 from assembly. */
__attribute__((noinline, force_align_arg_pointer)) long realigning(long x) {
    volatile double d[4] = {1.0, 2.0, 3.0, (double)x};
    return (long)(d[0] + d[1] + d[2] + d[3]);
}
long call_misaligned(long x);
__asm__(".text\n.globl call_misaligned\n.type call_misaligned,@function\ncall_misaligned:\n"
        ".cfi_startproc\n\tsub $8, %rsp\n\t.cfi_adjust_cfa_offset 8\n\tcall realigning\n"
        "\tadd $8, %rsp\n\t.cfi_adjust_cfa_offset -8\n\tret\n.cfi_endproc\n"
        ".size call_misaligned, .-call_misaligned\n");
/* double-free and use-after-free: glibc hands the freed block straight back (tcache), so the
   program frees and uses the same address twice, legally. */
__attribute__((noinline)) static long reuse(void) {
    long *p = malloc(48);
    p[0] = 1;
    free(p);
    long *q = malloc(48);  /* the same address */
    q[1] = 2;
    long r;
    __asm__ volatile(".globl la5_reuse_load\nla5_reuse_load:\n\tmov 0x8(%1), %0" : "=r"(r) : "r"(q) : "memory");
    printf("block %p freed, reused as %p\n", (void *)p, (void *)q);
    free(q);
    return r;
}
/* assertion-failure: the program's own SIGABRT handler jumps out of abort(). */
static sigjmp_buf abort_env;
static void on_abrt(int s) { (void)s; siglongjmp(abort_env, 1); }

int main(int argc, char **argv) {
    const char *m = argc > 1 ? argv[1] : "";
    static long cell = 42;
    for (int i = 0; i < 255; i++) cyclic[i] = (char)(i % 4 ? 'a' : 'a' + (i / 4) % 26);  /* aaaabaaacaaa… */
    if (!strcmp(m, "tagged")) sink = tagged_load(&cell);
    else if (!strcmp(m, "prefetch")) prefetch_far();
    else if (!strcmp(m, "lea-null")) sink = (long)owner_of(NULL);
    else if (!strcmp(m, "low-page")) {
        low_page = mmap((void *)0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (low_page == MAP_FAILED) low_page = mmap((void *)0x10000, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        printf("low page at %p\n", (void *)low_page);
        fflush(stdout);
        sink = low_load();
    } else if (!strcmp(m, "fill-cd")) { char *b = malloc(1 << 16); fill_cd(b, 1 << 16); sink = b[9]; free(b); }
    else if (!strcmp(m, "cyclic")) sink = cyclic_sum();
    else if (!strcmp(m, "cow")) {
        int fd = open(argv[0], O_RDONLY);
        char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        store_to(p + 100, 'x');
        sink = p[100];
    } else if (!strcmp(m, "mprotect-ro")) {
        char *p = (char *)rodata_page;
        mprotect(p, 4096, PROT_READ | PROT_WRITE);
        store_to(p + 8, 'w');
        sink = p[8];
    } else if (!strcmp(m, "reserve")) {
        char *c = mmap(NULL, 1 << 24, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        mprotect(c, 4096, PROT_READ | PROT_WRITE);
        sink = reserve_neighbour(c, c + (1 << 20));
    } else if (!strcmp(m, "deep")) {
        pthread_attr_t a;
        pthread_t t;
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, 64L << 20);
        pthread_create(&t, &a, deep_thread, (void *)60000L);
        pthread_join(t, NULL);
    } else if (!strcmp(m, "file-stack")) {
        char path[] = "/tmp/lookalike5-stackXXXXXX";
        int fd = mkstemp(path);
        unlink(path);
        ftruncate(fd, 256 * 1024);
        char *st = mmap(NULL, 256 * 1024, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        run_coroutine(st, 256 * 1024);
    } else if (!strcmp(m, "tls-stack")) run_coroutine(tls_stack, sizeof tls_stack);
    else if (!strcmp(m, "trampoline")) sink = nested_user(7);
    else if (!strcmp(m, "realign")) sink = call_misaligned(3);
    else if (!strcmp(m, "reuse")) sink = reuse();
    else if (!strcmp(m, "abort-handled")) {
        signal(SIGABRT, on_abrt);
        if (!sigsetjmp(abort_env, 1)) abort();
        puts("recovered from abort");
    } else if (!strcmp(m, "error-log")) {
        fprintf(stderr, "ERROR: config file /etc/lookalike5.conf not found, using defaults\n");
        fprintf(stderr, "ERROR: retrying connection (1/3)\n");
        for (int i = 0; i < 3; i++) sink += (long)strlen(cyclic) * i;
        __asm__ volatile(".globl la5_after_log\nla5_after_log:\n\tnop");
    } else if (!strcmp(m, "keep")) {
        /* still reachable at exit: valgrind lists it, it is no leak */
        la5_kept = malloc(100);
        strcpy(la5_kept, "kept for the whole run");
        sink = (long)strlen(la5_kept);
    } else if (!strcmp(m, "memfd-sleep")) {
        /* code in a memfd and data in a deleted file, mapped while the process idles: a core
           of it names files gdb cannot open afterwards */
        int fd = memfd_create("jit", 0);
        static const unsigned char ret42[] = {0xb8, 42, 0, 0, 0, 0xc3};
        write(fd, ret42, sizeof ret42);
        ftruncate(fd, 4096);
        long (*f)(void) = (long (*)(void))mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
        char path[] = "/tmp/lookalike5-dataXXXXXX";
        int d = mkstemp(path);
        ftruncate(d, 8192);
        char *dp = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, d, 0);
        unlink(path);
        for (;;) { dp[0] = (char)f(); usleep(20000); }
    } else { fprintf(stderr, "unknown mode %s\n", m); return 2; }
    return 0;
}
