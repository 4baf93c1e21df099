/* gcc -O0: a 4 KiB buffer (too large for tcache and the fastbins) freed twice; the second
 * free finds the next chunk's PREV_INUSE bit clear: 'double free or corruption (!prev)'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frame_buf { unsigned char px[4096]; };

__attribute__((noinline)) static void drop(struct frame_buf *f)
{
    free(f);
}

int main(void)
{
    struct frame_buf *cur = malloc(sizeof *cur);
    struct frame_buf *next = malloc(sizeof *next); /* keeps cur away from the top chunk */
    memset(cur, 0, sizeof *cur);
    drop(cur);
    drop(cur); /* the swap code forgot that cur was already released */
    printf("%p\n", (void *)next);
    return 0;
}
