/* clang -O3 -flto -fomit-frame-pointer: a NULL bucket read in a lookup inlined across
 * functions; no frame pointers, CFI-only unwinding. */
#include <stdio.h>
#include <stdlib.h>

struct entry { unsigned key; int val; struct entry *next; };
struct table { unsigned n; struct entry **buckets; };

static unsigned hash(unsigned k) { return (k * 2654435761u) >> 7; }

__attribute__((noinline)) int lookup(const struct table *t, unsigned key)
{
    const struct entry *e = t->buckets[hash(key) % t->n];
    while (e->key != key) /* the bucket is NULL */
        e = e->next;
    return e->val;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct table t = { 8, calloc(8, sizeof(struct entry *)) };
    struct entry *e = malloc(sizeof *e);
    *e = (struct entry){ 5, 50, NULL };
    t.buckets[hash(5) % 8] = e;
    printf("%d\n", lookup(&t, 5) + lookup(&t, (unsigned)argc + 10));
    return 0;
}
