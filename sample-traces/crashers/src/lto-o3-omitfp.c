/* gcc -O3 -flto -fomit-frame-pointer: inlining across functions, no frame pointer. A NULL
 * entry in a table is dereferenced deep inside inlined code. */
#include <stdio.h>
#include <stdlib.h>

struct entry { unsigned hash; int len; const char *key; };
struct table { int n; struct entry **slots; };

static unsigned mix(unsigned h, int len) { return (h ^ (unsigned)len) * 2654435761u; }

static unsigned slot_hash(struct table *t, int i) { return mix(t->slots[i]->hash, t->slots[i]->len); }

__attribute__((noinline)) unsigned table_digest(struct table *t)
{
    unsigned d = 0;
    for (int i = 0; i < t->n; i++) d += slot_hash(t, i);
    return d;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct table t = {.n = 4 + argc, .slots = calloc(8, sizeof(struct entry *))};
    for (int i = 0; i < 3; i++) {
        t.slots[i] = calloc(1, sizeof(struct entry));
        t.slots[i]->hash = (unsigned)i * 77u;
    }
    printf("%u\n", table_digest(&t));
    return 0;
}
