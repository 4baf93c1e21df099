/* gcc -O0: look-alike for null-dereference: a loader maps a table at a fixed low address
 * (0x20000, allowed: vm.mmap_min_addr is below it), unmaps it on reload, and a reader keeps the
 * old pointer: the read faults at 0x20008, a small address that is not NULL-based (the base
 * register holds 0x20000). */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

struct table { long magic; long count; long rows[8]; };

__attribute__((noinline)) long row_count(const struct table *t) { return t->count; }

int main(void)
{
    struct table *t = mmap((void *)0x20000, 4096, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (t == MAP_FAILED) { perror("mmap"); return 1; }
    t->magic = 0x5441424c;
    t->count = 8;
    const struct table *reader = t;
    printf("%ld\n", row_count(reader));
    munmap(t, 4096);            /* reload: the old table is gone */
    printf("%ld\n", row_count(reader));
    return 0;
}
