/* gcc -O2: legal constants that look like fill patterns, live in registers at the crash:
 * bit-reversal masks 0xaaaa…/0xcccc…/0xf0f0…, a scrambling key 0xa5a5a5a5a5a5a5a5 and a word
 * of 'A' padding (0x4141…). No allocator fill, no MSVC, no overflow: then an unrelated NULL
 * read of a record's field in the same function. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct rec { uint64_t id; uint64_t weight; };

static uint64_t rev64(uint64_t x, uint64_t m1, uint64_t m2, uint64_t m4) {
    x = ((x & m1) >> 1) | ((x << 1) & m1);
    x = ((x & m2) >> 2) | ((x << 2) & m2);
    x = ((x & m4) >> 4) | ((x << 4) & m4);
    return __builtin_bswap64(x);
}

__attribute__((noinline)) uint64_t score(const struct rec *r, uint64_t seed) {
    uint64_t m1 = 0xaaaaaaaaaaaaaaaaull, m2 = 0xccccccccccccccccull, m4 = 0xf0f0f0f0f0f0f0f0ull;
    uint64_t key = 0xa5a5a5a5a5a5a5a5ull, pad;
    char fill[8];
    memset(fill, 'A', sizeof fill);
    memcpy(&pad, fill, sizeof pad);
    __asm__ volatile("" : "+r"(m1), "+r"(m2), "+r"(m4), "+r"(key), "+r"(pad));
    uint64_t h = rev64(seed ^ key, m1, m2, m4) + pad;
    h ^= r->weight; /* r is NULL for a missing record */
    __asm__ volatile("" ::"r"(m1), "r"(m2), "r"(m4), "r"(key), "r"(pad));
    return h;
}

static struct rec *find(uint64_t id) { (void)id; return NULL; }

int main(int argc, char **argv) {
    (void)argv;
    printf("%llu\n", (unsigned long long)score(find(42), (uint64_t)argc * 0x9e3779b97f4a7c15ull));
    return 0;
}
