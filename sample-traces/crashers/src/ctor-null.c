/* gcc -O0: a constructor (runs before main, from the dynamic loader's init) reads a setting
 * through a NULL pointer: the backtrace ends in ld.so's _dl_init/_dl_start_user, with no main. */
#include <stdio.h>
#include <stdlib.h>

struct settings { int verbose; int level; };
static struct settings *global_settings;

__attribute__((noinline)) static int read_level(const struct settings *s) { return s->level; }

__attribute__((constructor)) static void init_logging(void)
{
    if (getenv("TRACECHECK_NEVER_SET") != NULL) global_settings = calloc(1, sizeof *global_settings);
    printf("level %d\n", read_level(global_settings));
}

int main(void)
{
    puts("main");
    return 0;
}
