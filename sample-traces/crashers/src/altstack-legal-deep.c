/* gcc -O0: look-alike of altstack-handler-overflow: a SIGUSR1 handler on a 64 KiB mmap()ed
 * alternate stack (guard page below) recurses 40 levels of 1 KiB, legally within it, and at
 * the deepest level reads the report's sink through a NULL pointer. sp is 40 KiB into the
 * alternate stack, far above its guard page. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define ALT (64 * 1024)

struct sink { int fd; long written; };
static struct sink *report_sink; /* never opened */

__attribute__((noinline)) long emit_level(int depth)
{
    char line[1024];
    snprintf(line, sizeof line, "level %d", depth);
    if (depth > 0)
        return emit_level(depth - 1) + line[0];
    return report_sink->written + line[1];
}

static volatile long report_len;

static void on_report(int sig)
{
    (void)sig;
    report_len = emit_level(40);
}

int main(void)
{
    char *mem = mmap(NULL, ALT + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(mem, 4096, PROT_NONE);
    stack_t ss = { .ss_sp = mem + 4096, .ss_size = ALT, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_report;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    printf("%ld\n", report_len);
    return 0;
}
