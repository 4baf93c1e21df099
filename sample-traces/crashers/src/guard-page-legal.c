/* Look-alike: the same arena allocator with a PROT_NONE guard page after the arena, used
 * within bounds; an unrelated NULL read afterwards (the guard page is in the mappings, and
 * nothing touched it). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

struct arena { char *base; size_t size, used; };
struct opts { int verbose; int level; };

static int arena_init(struct arena *a)
{
    char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    mprotect(p + 4096, 4096, PROT_NONE);
    a->base = p; a->size = 4096; a->used = 0;
    return 0;
}

__attribute__((noinline)) static int level_of(const struct opts *o) { return o->level; }

int main(void)
{
    struct arena a;
    if (arena_init(&a)) return 1;
    memset(a.base, 'x', a.size - 16);
    a.used = a.size - 16;
    const struct opts *o = a.used > 4000 ? NULL : (const struct opts *)a.base;
    printf("%d\n", level_of(o));
    return 0;
}
