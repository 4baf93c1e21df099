/* gcc -O0: an atexit() handler checks that every file the program opened was closed; main
 * returns with one still open, and the handler's assert fails under exit() after main. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

static int open_files;

static void check_closed(void)
{
    assert(open_files == 0);
}

__attribute__((noinline)) static FILE *open_log(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f) open_files++;
    return f;
}

int main(void)
{
    atexit(check_closed);
    FILE *f = open_log("/dev/null");
    fputs("started\n", f);
    return 0; /* f never closed */
}
