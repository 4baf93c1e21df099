/* A custom arena allocator places a PROT_NONE guard page after each 4 KiB arena (like
 * electric fence); a record copy runs past the arena's end into the guard page:
 * SIGSEGV, SEGV_ACCERR at the guard page's first byte. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

struct arena { char *base; size_t size, used; };

static int arena_init(struct arena *a)
{
    char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    mprotect(p + 4096, 4096, PROT_NONE); /* guard */
    a->base = p; a->size = 4096; a->used = 0;
    return 0;
}

static void *arena_alloc(struct arena *a, size_t n)
{
    void *p = a->base + a->used; /* no bound check */
    a->used += n;
    return p;
}

__attribute__((noinline)) static void store_record(struct arena *a, const char *src, size_t len)
{
    char *dst = arena_alloc(a, len);
    for (size_t i = 0; i < len; i++) ((volatile char *)dst)[i] = src[i];
}

int main(void)
{
    struct arena a;
    static char rec[1000];
    memset(rec, 'r', sizeof rec);
    if (arena_init(&a)) return 1;
    for (int i = 0; i < 5; i++) store_record(&a, rec, sizeof rec);
    puts("stored");
    return 0;
}
