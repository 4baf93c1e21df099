/* Registers hold NaN-boxed / high-tagged 64-bit values (non-canonical as addresses, but they
 * are never used as addresses). The crash is a NULL field read at a canonical address. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BOX_INT(i) (0xfff9000000000000ull | (uint32_t)(i))
struct env { uint64_t *slots; int n; };

__attribute__((noinline)) uint64_t env_sum(struct env *e, uint64_t a, uint64_t b)
{
    uint64_t s = a ^ b;
    for (int i = 0; i < e->n; i++) s += e->slots[i]; /* slots == NULL */
    asm volatile("" ::"r"(a), "r"(b));
    return s;
}

int main(void)
{
    struct env *e = calloc(1, sizeof *e);
    e->n = 2;
    printf("%llx\n", (unsigned long long)env_sum(e, BOX_INT(7), BOX_INT(9)));
    return 0;
}
