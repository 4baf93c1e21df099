/* gcc -O0: a record buffer (1 KiB, past tcache) is freed, but a stale pointer to it is still
 * used: reset_record() clears it with memset over its whole usable size, which includes the
 * prev_size word of the next chunk (the index block). Freeing the index block then consolidates
 * backward with a prev_size of 0: glibc aborts with
 * 'corrupted size vs. prev_size while consolidating'. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct cache { char *record; char *index; char *guard; };

__attribute__((noinline)) static void reset_record(char *rec) { memset(rec, 0, 0x418); }

__attribute__((noinline)) static void drop_index(struct cache *c)
{
    free(c->index);
    c->index = NULL;
}

int main(void)
{
    struct cache c;
    c.record = malloc(0x418);
    c.index = malloc(0x4f8);
    c.guard = malloc(0x18);
    strcpy(c.record, "record");
    strcpy(c.index, "index");
    char *stale = c.record;
    free(c.record);       /* goes to the unsorted bin: index's PREV_INUSE is cleared */
    reset_record(stale);  /* use after free: zeroes index's prev_size */
    drop_index(&c);
    puts("unreachable");
    return 0;
}
