/* The program's own fatal(): prints its message and calls abort(). No assert, no heap check,
 * no exception: just a deliberate abort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noreturn, noinline)) void fatal(const char *what)
{
    fprintf(stderr, "fatal: %s\n", what);
    abort();
}

__attribute__((noinline)) int parse_port(const char *s)
{
    int p = atoi(s);
    if (p <= 0 || p > 65535) fatal("config: port out of range");
    return p;
}

int main(void)
{
    printf("%d\n", parse_port("70000"));
    return 0;
}
