/* gcc -O2: a SIGILL handler "emulates" the ud2 the hot loop executes (a feature probe) and
 * steps over it, but while doing so it writes a scratch value into every callee-saved register
 * of the interrupted context but rbp (uc_mcontext.gregs[REG_RBX], REG_R12..REG_R15 = 0x30..).
 * When it returns, the loop goes on with its cursor register changed although no instruction
 * of the loop wrote it, and the next read through it faults in the zero page.
 *
 * Expected (written before running tracecheck): null-dereference (a small address); the ideal
 * finding is callee-saved-changed saying the register changed with no writer between its last
 * write and the pc while a trap instruction (the ud2) lies between: a signal handler changed
 * it through its ucontext. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

struct node { struct node *next; long val; };

static void on_ill(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)si;
    ucontext_t *uc = ctx;
    uc->uc_mcontext.gregs[REG_RIP] += 2;   /* step over the ud2 */
    /* BUG: scratch values left in the interrupted context's callee-saved registers */
    uc->uc_mcontext.gregs[REG_RBX] = 0x30;
    uc->uc_mcontext.gregs[REG_R12] = 0x38;
    uc->uc_mcontext.gregs[REG_R13] = 0x40;
    uc->uc_mcontext.gregs[REG_R14] = 0x48;
    uc->uc_mcontext.gregs[REG_R15] = 0x50;
}

/* noipa: without it gcc knows weigh leaves rdx alone and keeps the cursor there */
__attribute__((noipa)) long weigh(long v) { return v * 3 + 1; }

__attribute__((noinline)) long sum(struct node *head)
{
    long s = 0;
    for (struct node *n = head; n; n = n->next) {
        s += weigh(n->val);        /* a call: the cursor lives in a callee-saved register */
        __asm__ volatile("ud2" ::: "memory");   /* a probe the handler emulates */
    }
    return s;
}

int main(void)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_ill;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGILL, &sa, NULL);
    struct node *head = NULL;
    for (int i = 0; i < 3; i++) {
        struct node *n = malloc(sizeof *n);
        n->val = i;
        n->next = head;
        head = n;
    }
    printf("%ld\n", sum(head));
    return 0;
}
