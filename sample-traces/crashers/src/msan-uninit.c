/* clang -O1 -fsanitize=memory, MSAN_OPTIONS=abort_on_error=1: a branch on a field the
 * constructor never set: "MemorySanitizer: use-of-uninitialized-value", then abort. */
#include <stdio.h>
#include <stdlib.h>

struct limits {
    int soft;
    int hard;
};

__attribute__((noinline)) static struct limits *limits_new(int soft)
{
    struct limits *l = malloc(sizeof *l);
    l->soft = soft; /* hard is never set */
    return l;
}

__attribute__((noinline)) static int over_limit(const struct limits *l, int n)
{
    if (n > l->hard)
        return 1;
    return n > l->soft;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct limits *l = limits_new(10);
    printf("%d\n", over_limit(l, argc * 20));
    return 0;
}
