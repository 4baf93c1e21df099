/* Under jemalloc (LD_PRELOAD=libjemalloc.so.2): free() of a message text inside a stack
 * struct. jemalloc keeps no chunk header to check: its free looks the pointer up in its
 * radix tree of extents, finds no extent, and faults inside libjemalloc (no message). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct message { int len; char text[60]; };

__attribute__((noinline)) static void release_text(char *text)
{
    free(text); /* not from malloc */
}

int main(void)
{
    struct message m;
    m.len = 5;
    strcpy(m.text, "hello");
    char *owned = strdup("owned");
    release_text(owned);
    release_text(m.text);
    puts("released");
    return 0;
}
