/* A program that never frees what it allocates (a leak, but nothing reports it here) and
 * then reads through a NULL entry of its cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry { char *key; long hits; };

__attribute__((noinline)) long hits_of(struct entry **cache, int i)
{
    return cache[i]->hits;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct entry **cache = calloc(64, sizeof *cache);
    for (int i = 0; i < 1000; i++) {
        struct entry *e = malloc(sizeof *e); /* the previous entry leaks */
        e->key = strdup("key");
        e->hits = i;
        cache[i % 32] = e;
    }
    printf("%ld\n", hits_of(cache, 32 + argc));
    return 0;
}
