/* free() of a pointer into the middle of a block: glibc aborts with
 * "free(): invalid pointer". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void release_name(char *name)
{
    free(name);
}

int main(void)
{
    char *rec = malloc(64);
    strcpy(rec, "id=7;name=alice");
    char *name = strchr(rec, ';') + 1;
    puts(name);
    release_name(name);
    return 0;
}
