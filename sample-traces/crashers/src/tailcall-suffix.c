/* gcc -O2: two tail-call paths with a common end. main calls route, which tail-calls either
 * route_fast or route_slow, and both tail-call format_name, which tail-calls puts with a NULL
 * name. Which of the two ran is unknown, but format_name ran on either path: gdb keeps the
 * common part of the chains and shows format_name alone as a tail-call frame. */
#include <stdio.h>

struct req { const char *name; int slow; };

__attribute__((noinline)) int format_name(const char *name, int pad)
{
    if (pad > 64)
        return -1;
    return puts(name);
}

__attribute__((noinline)) int route_fast(const struct req *r)
{
    if (!r)
        return 0;
    return format_name(r->name, 1);
}

__attribute__((noinline)) int route_slow(const struct req *r)
{
    if (!r)
        return 0;
    return format_name(r->name, 8);
}

__attribute__((noinline)) int route(const struct req *r)
{
    if (r->slow)
        return route_slow(r);
    return route_fast(r);
}

int main(int argc, char **argv)
{
    (void)argv;
    struct req reqs[] = { { "a", 0 }, { "b", 1 }, { NULL, argc } };
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += route(&reqs[i]);
    printf("%d\n", n);
    return 0;
}
