/* gcc -O0: a heap overflow writes past a 24-byte block into the next chunk's size field;
 * freeing the block aborts with "free(): invalid next size (fast)" once the tcache bin is
 * full. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void drop_name(char *name)
{
    free(name);
}

int main(void)
{
    void *fill[7];
    for (int i = 0; i < 7; i++)
        fill[i] = malloc(24);
    char *name = malloc(24);
    char *next = malloc(24);
    for (int i = 0; i < 7; i++)
        free(fill[i]);
    memset(name, 'A', 40); /* 16 bytes too many: over next's size field */
    drop_name(name);
    free(next);
    return 0;
}
