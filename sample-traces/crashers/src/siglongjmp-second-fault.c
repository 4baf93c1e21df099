/* A SIGSEGV handler that recovers from the first fault with siglongjmp (a NULL header read,
 * reported with psiginfo and skipped), and aborts on the second: a write through a pointer
 * into a page the program has munmap'ed. Both psiginfo lines are on stderr; the stop is the
 * second fault's abort, with store_result below <signal handler called>. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static sigjmp_buf recover;
static volatile int faults;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)sig; (void)uc;
    psiginfo(si, "fault");
    if (++faults == 1)
        siglongjmp(recover, 1);
    abort();
}

struct hdr { long magic; long len; long kind; };

__attribute__((noinline)) long parse_header(const struct hdr *h)
{
    return h->kind; /* h == NULL: reads 0x10 */
}

__attribute__((noinline)) void store_result(long *slot, long v)
{
    slot[3] = v; /* slot points into an unmapped page */
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    long kind = -1;
    if (sigsetjmp(recover, 1) == 0)
        kind = parse_header(NULL);
    fprintf(stderr, "header skipped, kind %ld\n", kind);
    long *out = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(out, 4096);
    store_result(out, 42);
    return 0;
}
