/* gcc -O2 look-alike: the caller's callee-saved register holds NULL across a call to a leaf
 * assembly function that does not save rbx/r12-r15 because it never touches them (legal), and
 * the NULL came from the caller's own load before the call (an empty slot of its table).
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed must
 * stay quiet (the callee writes none of the callee-saved registers). */
#include <stdio.h>
#include <stdlib.h>

long mix_leaf(long x);   /* cs-ok-unused-leaf.S: uses only rax, rcx, rdx */

struct slot { long weight; };

__attribute__((noinline)) long weigh_all(struct slot **slots, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        struct slot *p = slots[i];
        s += mix_leaf(i);
        s += p->weight;        /* slots[2] is NULL */
    }
    return s;
}

int main(void)
{
    struct slot **slots = calloc(3, sizeof *slots);
    slots[0] = calloc(1, sizeof **slots);
    slots[1] = calloc(1, sizeof **slots);
    printf("%ld\n", weigh_all(slots, 3));
    return 0;
}
