/* musl libc, dynamically linked (/lib/ld-musl-x86_64.so.1 is both loader and libc): strlen()
 * of a NULL title faults inside musl's strlen; the culprit is its caller. */
#include <stdio.h>
#include <string.h>

struct doc { const char *title; int pages; };

__attribute__((noinline)) size_t title_width(const struct doc *d)
{
    return strlen(d->title) + 2;
}

int main(void)
{
    struct doc docs[2] = { { "intro", 3 }, { NULL, 9 } };
    size_t w = 0;
    for (int i = 0; i < 2; i++)
        w += title_width(&docs[i]);
    printf("%zu\n", w);
    return 0;
}
