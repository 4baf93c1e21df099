/* gcc -static: a handler table entry that was never filled is called (pc = 0). */
#include <stdio.h>

struct handler { const char *name; int (*fn)(int); };

static int on_open(int x) { return x + 1; }

static struct handler handlers[3] = {{"open", on_open}, {"close", 0}, {"read", on_open}};

__attribute__((noinline)) int dispatch(int which, int arg)
{
    return handlers[which].fn(arg);
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", dispatch(0, argc));
    printf("%d\n", dispatch(argc, argc));
    return 0;
}
