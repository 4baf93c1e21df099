/* clang -flto -fsanitize=cfi-icall: an indirect call through a handler pointer whose type
 * does not match the called function's (it was stored through a cast); the CFI check
 * traps with ud2: SIGILL in the caller. */
#include <stdio.h>

typedef int (*int_handler)(int);
static int parse_flags(const char *s) { return s ? s[0] : 0; }
static int twice(int x) { return 2 * x; }

struct entry { const char *name; int_handler fn; };
static struct entry table[2];

__attribute__((noinline)) int run_handler(int i, int arg)
{
    return table[i].fn(arg);
}

int main(int argc, char **argv)
{
    (void)argv;
    table[0] = (struct entry){ "twice", twice };
    table[1] = (struct entry){ "flags", (int_handler)(void *)parse_flags };
    printf("%d\n", run_handler(0, argc));
    printf("%d\n", run_handler(1, argc));
    return 0;
}
