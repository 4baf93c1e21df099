// Legal signal handling (issue 11, fourth pass): SA_SIGINFO handlers on an alternate stack
// for SIGUSR1 (sent by a second thread with pthread_kill), a SIGSEGV the program raises on
// purpose by reading through NULL and handles by moving the interrupted pc past the load
// (REG_RIP in the ucontext, as a runtime's nil check does), a SIGFPE from an integer
// division by zero handled the same way, nested signals (SIGUSR2 raised inside the SIGUSR1
// handler), and vfork() + execve of /bin/true (the child runs on the parent's stack).
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static volatile long usr1, usr2, segvs, fpes;
static pthread_t main_thread;

__attribute__((noinline)) static long handler_work(long n) { long s = 0; for (long i = 0; i < n; i++) s += i ^ (s >> 3); return s; }
static void on_usr2(int sig, siginfo_t *si, void *uc) { (void)si; (void)uc; usr2 += handler_work(50 + sig); }
static void on_usr1(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    usr1 += handler_work(300) + si->si_code + sig;
    if ((usr1 & 7) == 0) raise(SIGUSR2);
}
/* The faulting loads below are `mov (%rax),%eax`-like instructions of known length: the
   handler skips the instruction by decoding only the lengths this file's code uses. */
static void skip_insn(ucontext_t *u, int len) { u->uc_mcontext.gregs[REG_RIP] += len; }
static void on_segv(int sig, siginfo_t *si, void *ucv) {
    (void)sig;
    ucontext_t *u = ucv;
    segvs += (long)(uintptr_t)si->si_addr + 1;
    skip_insn(u, 2);
}
static void on_fpe(int sig, siginfo_t *si, void *ucv) { (void)sig; (void)si; fpes++; skip_insn(ucv, 2); }

__attribute__((noinline)) static int nil_check(volatile int *p) {
    int v;
    __asm__ volatile("mov (%%rax), %%eax" : "=a"(v) : "a"(p) : "memory"); /* 8b 00: 2 bytes */
    return v;
}
__attribute__((noinline)) static int divide(int a, int b) {
    int q = a;
    __asm__ volatile("cltd\n\tidivl %%ecx" : "+a"(q) : "c"(b) : "edx"); /* f7 f9: 2 bytes */
    return q;
}
static void *pinger(void *arg) {
    (void)arg;
    for (;;) { pthread_kill(main_thread, SIGUSR1); usleep(300); }
    return NULL;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    main_thread = pthread_self();
    stack_t ss = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sa.sa_sigaction = on_usr1; sigaction(SIGUSR1, &sa, NULL);
    sa.sa_sigaction = on_usr2; sigaction(SIGUSR2, &sa, NULL);
    sa.sa_sigaction = on_segv; sigaction(SIGSEGV, &sa, NULL);
    sa.sa_sigaction = on_fpe; sigaction(SIGFPE, &sa, NULL);
    pthread_t t;
    pthread_create(&t, NULL, pinger, NULL);
    long acc = 0;
    for (long r = 0; r < rounds; r++) {
        acc += handler_work(2000);
        if (r % 50 == 0) acc += nil_check(NULL);
        if (r % 70 == 0) acc += divide(7, (int)(r % 1));
        if (r % 400 == 0) {
            pid_t pid = vfork();
            if (pid == 0) { char *av[] = {"/bin/true", NULL}; execve("/bin/true", av, environ); _exit(127); }
            if (pid > 0) waitpid(pid, NULL, 0);
        }
    }
    printf("%ld %ld %ld %ld %ld\n", acc, usr1, usr2, segvs, fpes);
    return 0;
}
