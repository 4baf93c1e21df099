/* i386 (i686-linux-gnu-gcc -O2 -fomit-frame-pointer, static): a NULL config pointer read two
 * calls deep; no frame pointer, CFI-only unwinding, 32-bit registers. */
#include <stdio.h>
#include <stdlib.h>

struct config { int verbose; int limit; const char *name; };
struct app { int id; struct config *cfg; };

__attribute__((noinline)) static int limit_of(const struct app *a)
{
    return a->cfg->limit * 2;
}

__attribute__((noinline)) static int plan(const struct app *apps, int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += limit_of(&apps[i]);
    return sum;
}

int main(void)
{
    static struct config c = {1, 40, "main"};
    struct app apps[3] = {{1, &c}, {2, &c}, {3, NULL}};
    printf("%d\n", plan(apps, 3));
    return 0;
}
