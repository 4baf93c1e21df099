/* gcc -O2 + hand-written asm: a green-thread table entry whose stack allocation failed keeps a
 * stale "top of stack" from a previous configuration (a fixed address range that is no longer
 * mapped); run_on_stack() pivots rsp to it and its first push faults.  rsp is in no mapping. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct green { const char *name; uintptr_t stack_top; void (*entry)(void); };

void run_on_stack(uintptr_t top, void (*fn)(void));

static void tick(void) { puts("tick"); }

static struct green table[2] = {
    {"ticker", 0, tick},
    {"reaper", 0x00006f0000010000u, tick}, /* stale: the arena it pointed into is gone */
};

__attribute__((noinline)) static void start_all(struct green *g, int n)
{
    for (int i = 0; i < n; i++) {
        if (!g[i].stack_top) {
            char *s = malloc(1 << 16);
            if (!s) abort();
            g[i].stack_top = (uintptr_t)(s + (1 << 16));
        }
        run_on_stack(g[i].stack_top, g[i].entry);
    }
}

int main(void)
{
    start_all(table, 2);
    return 0;
}
