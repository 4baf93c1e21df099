/* a64-null-o2 (AArch64, gcc -O2): a chained hash table lookup returns NULL for a missing
 * key and the caller reads ->value through it (find is inlined into lookup_value). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry { const char *key; long value; struct entry *next; };
static struct entry *buckets[8];

static unsigned hash(const char *s) { unsigned h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; return h & 7; }

static void insert(const char *k, long v)
{
    struct entry *e = malloc(sizeof *e);
    e->key = k; e->value = v; e->next = buckets[hash(k)];
    buckets[hash(k)] = e;
}

static struct entry *find(const char *k)
{
    for (struct entry *e = buckets[hash(k)]; e; e = e->next)
        if (strcmp(e->key, k) == 0) return e;
    return NULL;
}

__attribute__((noinline)) long lookup_value(const char *k) { return find(k)->value; }

int main(void)
{
    insert("alpha", 1); insert("beta", 2);
    printf("%ld\n", lookup_value("alpha") + lookup_value("gamma"));
    return 0;
}
