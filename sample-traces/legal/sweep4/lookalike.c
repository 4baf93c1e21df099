// Legal states made to look like each rule's trigger (issue 11, fourth pass). One program,
// one mode per look-alike (argv[1]); lookalikes.sh stops each under gdb at the label named
// `la_<mode>` (a global asm label on the instruction of interest) or at a named function, and
// sends the stopped thread a SIGSEGV (tgkill: si_code SI_TKILL) for the twin. Nothing here is
// wrong: every value is what a correct program holds.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

volatile long sink;

/* null-dereference: multi-byte NOP and prefetch through NULL never access memory. */
__attribute__((noinline)) static void nop_null(void) {
    __asm__ volatile("xor %%eax, %%eax\n\t"
                     ".globl la_nopw\nla_nopw:\n\t"
                     "nopw 0x0(%%rax,%%rax,1)\n\t"
                     ".globl la_prefetch\nla_prefetch:\n\t"
                     "prefetcht0 0x40(%%rax)\n\t"
                     "nop" ::: "rax", "memory");
}
/* noncanonical-address: lea computes with a NaN-boxed value (a JS engine's tagged double or
   pointer) without touching memory. */
__attribute__((noinline)) static long lea_nanbox(void) {
    long r;
    __asm__ volatile("movabs $0xfffc000012345678, %%rax\n\t"
                     ".globl la_lea\nla_lea:\n\t"
                     "lea 0x8(%%rax), %%rdx\n\t"
                     "mov %%rdx, %0" : "=r"(r) :: "rax", "rdx");
    return r;
}
/* poison-value: constants of legal code (FNV-1a, the golden-ratio hash, the bit tricks of a
   word-at-a-time strlen, a memset of 0xbe bytes) in callee-saved and argument registers. */
__attribute__((noinline)) static long hash_consts(const char *s) {
    long r;
    __asm__ volatile("push %%rbx\n\t.cfi_adjust_cfa_offset 8\n\tpush %%r12\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "push %%r13\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "movabs $0xcbf29ce484222325, %%rbx\n\t"
                     "movabs $0x9e3779b97f4a7c15, %%r12\n\t"
                     "movabs $0xfefefefefefefeff, %%r13\n\t"
                     "movabs $0x8080808080808080, %%rcx\n\t"
                     "movabs $0xbebebebebebebebe, %%rsi\n\t"
                     ".globl la_consts\nla_consts:\n\t"
                     "mov (%1), %%al\n\t"
                     "lea (%%rbx,%%r12), %0\n\t"
                     "xor %%r13, %0\n\t"
                     "pop %%r13\n\t.cfi_adjust_cfa_offset -8\n\tpop %%r12\n\t.cfi_adjust_cfa_offset -8\n\t"
                     "pop %%rbx\n\t.cfi_adjust_cfa_offset -8"
                     : "=&r"(r) : "D"(s) : "rax", "rcx", "rsi", "memory");
    return r;
}
/* The pushes in the asm below carry CFI (.cfi_adjust_cfa_offset), as the compiler's own do,
   so debuggers unwind through them. */
/* stack-misaligned: a local asm leaf called with rsp = 0 mod 16 at its entry (one extra push):
   it uses no SSE and calls nothing, so no alignment is needed. */
__asm__(".text\n"
        "leaf_noalign:\n\t"
        ".globl la_leaf\nla_leaf:\n\t"
        "mov %rdi, %rax\n\t"
        "add $3, %rax\n\t"
        "ret\n");
long leaf_noalign(long);
__attribute__((noinline)) static long call_noalign(long x) {
    long r;
    __asm__ volatile("push %%rbx\n\t.cfi_adjust_cfa_offset 8\n\tcall leaf_noalign\n\tpop %%rbx\n\t.cfi_adjust_cfa_offset -8" : "=a"(r) : "D"(x) : "memory", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11");
    return r;
}
/* callee-saved-changed / null-dereference: a callee that saves rbx and r12, puts NULL and a
   small count in them while it works, and restores them. */
__attribute__((noinline)) long inner_work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i; sink = s; return s; }
__attribute__((noinline)) static long saves_null(long n) {
    long r;
    __asm__ volatile("push %%rbx\n\t.cfi_adjust_cfa_offset 8\n\tpush %%r12\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "push %%rbp\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "xor %%ebx, %%ebx\n\t"
                     "mov $7, %%r12d\n\t"
                     "call inner_work\n\t"
                     ".globl la_after_call\nla_after_call:\n\t"
                     "add %%rbx, %%rax\n\t"
                     "pop %%rbp\n\t.cfi_adjust_cfa_offset -8\n\tpop %%r12\n\t.cfi_adjust_cfa_offset -8\n\t"
                     "pop %%rbx\n\t.cfi_adjust_cfa_offset -8"
                     : "=a"(r) : "D"(n) : "memory", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11");
    return r;
}
/* bad-pc: JIT code executed from a memfd mapped twice (written through an RW view, run
   through an RX view: W^X JITs do this); pc is in "/memfd:jit (deleted)". */
static long run_memfd_jit(void) {
    int fd = memfd_create("jit", 0);
    if (fd < 0 || ftruncate(fd, 4096) != 0) return -1;
    unsigned char *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    unsigned char *x = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
    if (w == MAP_FAILED || x == MAP_FAILED) return -1;
    /* mov $N,%eax; 1: dec %eax; jnz 1b; ret */
    static const unsigned char code[] = {0xb8, 0x00, 0xe1, 0xf5, 0x05, 0xff, 0xc8, 0x75, 0xfc, 0xc3};
    memcpy(w, code, sizeof code);
    long (*f)(void) = (long (*)(void))x;
    long s = 0;
    for (int i = 0; i < 100; i++) s += f();
    return s;
}
/* stack-overflow: a thread on a 64 KiB stack recursing legally to within a few KiB of its
   guard page, and stopped there. */
__attribute__((noinline)) static long near_guard(long d, char *base) {
    volatile char pad[512];
    pad[0] = (char)d;
    char here;
    if ((size_t)(base - &here) > 44 * 1024) {
        __asm__ volatile(".globl la_deep\nla_deep:\n\tnop");
        return pad[0];
    }
    return near_guard(d + 1, base) + pad[0];
}
static void *small_thread(void *arg) { char base; (void)arg; sink = near_guard(0, &base); return NULL; }
/* stack-pointer-wild: a SA_ONSTACK handler whose alternate stack is a static array in .bss. */
static char altstack[1 << 16] __attribute__((aligned(16)));
static void on_usr1(int sig, siginfo_t *si, void *uc) {
    (void)si; (void)uc;
    __asm__ volatile(".globl la_altstack\nla_altstack:\n\tnop");
    sink += sig;
}
/* write-to-readonly: a load from a page the program made read-only, and a store to .data. */
long counter;
__attribute__((noinline)) static long ro_read(const long *p) {
    long v;
    __asm__ volatile(".globl la_roload\nla_roload:\n\tmov (%1), %0\n\t"
                     ".globl la_datastore\nla_datastore:\n\tmov %0, counter(%%rip)" : "=r"(v) : "r"(p) : "memory");
    return v;
}
/* handled fault: a NULL load the SIGSEGV handler steps over (as a runtime's nil check does),
   then, much later, a SIGUSR1 handler that raises SIGUSR2 (handled too). Stopped at that
   SIGUSR2 in raise: the kernel's signal frame below is SIGUSR1's, while the thread's last trap
   (the sigcontext's trap number and cr2) is still the old page fault at 0. */
static void on_segv_skip(int sig, siginfo_t *si, void *ucv) {
    (void)sig; (void)si;
    ((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP] += 2;
}
static void on_usr2(int sig) { sink += sig; }
static void on_usr1_raise(int sig, siginfo_t *si, void *uc) { (void)si; (void)uc; sink += sig; raise(SIGUSR2); }
__attribute__((noinline)) static int nil_load(volatile int *p) {
    int v;
    __asm__ volatile("mov (%%rax), %%eax" : "=a"(v) : "a"(p) : "memory"); /* 8b 00: 2 bytes */
    return v;
}
/* wild-pointer: a pointer to a page the program has unmapped, kept in a callee-saved register
   (a stale cache entry nobody reads), while the code at pc uses other registers. */
__attribute__((noinline)) static long keeps_stale(long *stale, long x) {
    long r;
    __asm__ volatile("push %%rbx\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "mov %1, %%rbx\n\t"
                     ".globl la_stale\nla_stale:\n\t"
                     "lea 0x1(%2), %0\n\t"
                     "pop %%rbx\n\t.cfi_adjust_cfa_offset -8"
                     : "=&r"(r) : "r"(stale), "r"(x) : "memory");
    return r;
}
/* pinned-register: plain C functions named like Julia's, in a program without any Julia
   runtime, with r13 holding a heap pointer (no pgcstack: there is no Julia here). */
__attribute__((noinline)) long julia_kernel_3(long *v) {
    long r;
    __asm__ volatile("push %%r13\n\t.cfi_adjust_cfa_offset 8\n\t"
                     "mov %1, %%r13\n\t"
                     ".globl la_julia_named\nla_julia_named:\n\t"
                     "mov 0x8(%%r13), %0\n\t"
                     "pop %%r13\n\t.cfi_adjust_cfa_offset -8"
                     : "=&r"(r) : "r"(v) : "memory");
    return r;
}
__attribute__((noinline)) long jlcapi_kernel_4(long *v) { return julia_kernel_3(v) + 1; }
/* Messages a program prints as ordinary output (a test log quoting them). */
static void logs(void) {
    puts("test 7: expect message \"Assertion `n > 0' failed.\" from the checker ... ok");
    puts("test 8: the log should contain 'terminate called after throwing an instance of' ... ok");
    puts("test 9: grep for \"free(): invalid pointer\" and \"malloc(): corrupted top size\" ... none");
    puts("test 10: 'panicked at' is not in the output ... ok");
    puts("summary: 0 errors, 0 warnings, 0 leaks (definitely lost: 0 bytes in 0 blocks)");
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *m = argc > 1 ? argv[1] : "";
    if (!strcmp(m, "free-null")) { void *volatile np = NULL; free(np); void *p = realloc(np, 16); free(p); }
    else if (!strcmp(m, "nop-null")) nop_null();
    else if (!strcmp(m, "lea-nanbox")) sink = lea_nanbox();
    else if (!strcmp(m, "consts")) sink = hash_consts("abc");
    else if (!strcmp(m, "noalign")) sink = call_noalign(4);
    else if (!strcmp(m, "saves-null")) sink = saves_null(1000);
    else if (!strcmp(m, "memfd-jit")) sink = run_memfd_jit();
    else if (!strcmp(m, "near-guard")) {
        pthread_attr_t a; pthread_t t;
        pthread_attr_init(&a); pthread_attr_setstacksize(&a, 64 * 1024);
        pthread_create(&t, &a, small_thread, NULL); pthread_join(t, NULL);
    } else if (!strcmp(m, "altstack-bss")) {
        stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
        sigaltstack(&ss, NULL);
        struct sigaction sa = {0};
        sa.sa_sigaction = on_usr1; sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigaction(SIGUSR1, &sa, NULL);
        raise(SIGUSR1);
    } else if (!strcmp(m, "ro-read")) {
        long *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        p[0] = 42; mprotect(p, 4096, PROT_READ);
        sink = ro_read(p);
    } else if (!strcmp(m, "raise-after-fault")) {
        struct sigaction sa = {0};
        sa.sa_sigaction = on_segv_skip; sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
        sa.sa_sigaction = on_usr1_raise;
        sigaction(SIGUSR1, &sa, NULL);
        signal(SIGUSR2, on_usr2);
        sink += nil_load(NULL);
        raise(SIGUSR1);
    } else if (!strcmp(m, "stale")) {
        long *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        munmap(p, 4096);
        sink = keeps_stale(p, 41);
    } else if (!strcmp(m, "julia-named")) {
        long *v = calloc(4, sizeof *v);
        v[1] = 5;
        sink = jlcapi_kernel_4(v);
        free(v);
    } else if (!strcmp(m, "logs")) { logs(); sink = inner_work(10); }
    else if (!strcmp(m, "vfork")) {
        pid_t pid = vfork();
        if (pid == 0) { char *av[] = {"/bin/true", NULL}; execv("/bin/true", av); _exit(127); }
    } else { fprintf(stderr, "usage: lookalike MODE\n"); return 2; }
    printf("%ld\n", sink);
    return 0;
}
