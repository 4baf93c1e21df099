/* gcc -O2 -D_FORTIFY_SOURCE=2: a format string built at run time in writable memory contains
 * %n; fortified printf refuses it: '*** %n in writable segments detected ***' and aborts. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void report(const char *user)
{
    char fmt[64];
    int n = 0;
    snprintf(fmt, sizeof fmt, "user %s%%n\n", user);
    printf(fmt, &n);
    printf("%d\n", n);
}

int main(void)
{
    report("guest");
    return 0;
}
