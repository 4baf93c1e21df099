/* gcc -O2: a tail call through a function pointer. main calls run_hook, which tail-calls the
 * hook it was given (`jmp *%rax`), and the hook, log_line, tail-calls puts with a NULL line.
 * The call site of the indirect jump names no target (only a location expression over the
 * registers of a frame that no longer exists), so gdb cannot rebuild run_hook or log_line;
 * the backtrace shows puts called from main, and the core path must not invent more. */
#include <stdio.h>

struct hook { int (*fn)(const char *); const char *arg; };

__attribute__((noinline)) int log_line(const char *line)
{
    if (!line[0] && 0)
        return 0;
    return puts(line);
}

__attribute__((noinline)) int log_upper(const char *line)
{
    return printf("%s!\n", line);
}

__attribute__((noinline)) int run_hook(const struct hook *h, int enabled)
{
    if (!enabled)
        return 0;
    return h->fn(h->arg);
}

int main(int argc, char **argv)
{
    (void)argv;
    struct hook hooks[] = { { log_upper, "start" }, { log_line, NULL } };
    int n = 0;
    for (int i = 0; i < 2; i++)
        n += run_hook(&hooks[i], argc);
    printf("%d\n", n);
    return 0;
}
