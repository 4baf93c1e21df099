/* gcc -O2: an IFUNC resolver picks a hash implementation from a CPU-features table that the
 * program fills in main(); resolvers run while the dynamic loader relocates the executable,
 * before any constructor or main, so the table pointer is still NULL: the fault is in the
 * resolver under _dl_relocate_object, in ld.so's frames. */
#include <stdio.h>

struct features { int has_crc32; int has_avx2; };
struct features *cpu_features; /* set in main: too late */

static unsigned hash_generic(const char *s) { unsigned h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; return h; }
static unsigned hash_crc(const char *s) { unsigned h = 0; while (*s) h = (h << 5) ^ (unsigned char)*s++; return h; }

__attribute__((noinline)) static void *resolve_hash(void)
{
    return cpu_features->has_crc32 ? (void *)hash_crc : (void *)hash_generic;
}

unsigned hash_name(const char *s) __attribute__((ifunc("resolve_hash")));

int main(void)
{
    static struct features f = { 1, 0 };
    cpu_features = &f;
    printf("%u\n", hash_name("tracecheck"));
    return 0;
}
