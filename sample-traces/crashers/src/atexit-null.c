/* An atexit() handler flushes a log whose buffer was already released (set to NULL) by
 * main's cleanup: the NULL write runs under exit(), after main returned. */
#include <stdio.h>
#include <stdlib.h>

struct log { char *buf; long used; };
static struct log *the_log;

static void flush_log(void)
{
    the_log->buf[the_log->used] = '\n';
}

int main(void)
{
    static struct log lg;
    lg.buf = malloc(64);
    lg.used = 3;
    the_log = &lg;
    atexit(flush_log);
    free(lg.buf);
    lg.buf = NULL; /* cleanup, but the handler still runs later */
    return 0;
}
