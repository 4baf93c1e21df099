/* gcc -O2 + hand-written asm (sp-pivot-unmapped.S's run_on_stack): green threads start with
 * a shared read-only placeholder as their stack until start_all() allocates one, but the
 * "allocated yet?" test compares with NULL instead of the placeholder, so the thread is started
 * on the placeholder: run_on_stack() pivots rsp into .rodata and its first push faults
 * (SEGV_ACCERR).  rsp points into read-only data. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STACK_SIZE (1 << 16)

struct green { const char *name; const char *stack; void (*entry)(void); };

void run_on_stack(uintptr_t top, void (*fn)(void));

static const char no_stack[64]; /* placeholder: "not allocated yet" */

static void tick(void) { puts("tick"); }

static struct green table[1] = {
    {"ticker", no_stack, tick},
};

__attribute__((noinline)) static void start_all(struct green *g, int n)
{
    for (int i = 0; i < n; i++) {
        if (g[i].stack == NULL) { /* BUG: should compare with no_stack */
            char *s = malloc(STACK_SIZE);
            if (!s) abort();
            g[i].stack = s;
        }
        run_on_stack((uintptr_t)g[i].stack + sizeof no_stack, g[i].entry);
    }
}

int main(void)
{
    start_all(table, 1);
    return 0;
}
