/* i386 (i686-linux-gnu-gcc -O1 -static): a command table whose handler for "stop" was never
 * filled in; the call jumps to address 0 (eip = 0, the return address at [esp]). */
#include <stdio.h>
#include <string.h>

typedef int (*handler)(int);
static int do_start(int x) { return x + 1; }
struct cmd { const char *name; handler fn; };
static struct cmd cmds[] = { { "start", do_start }, { "stop", NULL } };

__attribute__((noinline)) static int run(const char *name, int arg)
{
    for (unsigned i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmds[i].name, name) == 0) return cmds[i].fn(arg);
    return -1;
}

int main(void)
{
    printf("%d\n", run("start", 1));
    printf("%d\n", run("stop", 2));
    return 0;
}
