/* gcc -O0: a SIGUSR1 handler runs on a 16 KiB alternate stack the program mmap()ed with a
 * PROT_NONE guard page below it; the handler formats a report recursively (1 KiB per level)
 * and runs off the bottom of the alternate stack into its guard page: SIGSEGV in the handler,
 * sp in the guard page below the sigaltstack (not below the thread's own stack). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define ALT (16 * 1024)

__attribute__((noinline)) int format_level(int depth, char *out)
{
    char line[1024];
    snprintf(line, sizeof line, "level %d", depth);
    if (depth > 0)
        return format_level(depth - 1, line) + (int)strlen(out);
    return (int)strlen(line);
}

static volatile int report_len;

static void on_report(int sig)
{
    (void)sig;
    char top[16] = "report";
    report_len = format_level(64, top);  /* 64 KiB of frames on a 16 KiB stack */
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
    printf("%d\n", report_len);
    return 0;
}
