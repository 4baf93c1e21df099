/* AArch64 gcc -O2 (qemu-user): a noipa helper's inline assembly writes x19-x28 with small
 * constants and lists none of them as clobbered, so its prologue saves none of them. The
 * caller keeps its list cursor in a callee-saved register across the call; it comes back as
 * 0x13..0x1c and the next `n->next` read faults in the zero page.
 *
 * Expected (written before running tracecheck): callee-saved-changed: stir writes the cursor's
 * register without saving it (with the binary or a core); null-dereference may fire. */
#include <stdio.h>
#include <stdlib.h>

struct node { struct node *next; long val; };

__attribute__((noipa)) long stir(long v)
{
    /* BUG: x19-x28 are written but not in the clobber list */
    __asm__ volatile("mov x19, #0x13\n\tmov x20, #0x14\n\tmov x21, #0x15\n\tmov x22, #0x16\n\t"
                     "mov x23, #0x17\n\tmov x24, #0x18\n\tmov x25, #0x19\n\tmov x26, #0x1a\n\t"
                     "mov x27, #0x1b\n\tmov x28, #0x1c\n\tadd %0, %0, #3"
                     : "+r"(v));
    return v;
}

__attribute__((noinline)) long sum_list(struct node *head)
{
    long total = 0;
    for (struct node *n = head; n; n = n->next)
        total += stir(n->val);
    return total;
}

int main(void)
{
    struct node *head = NULL;
    for (int i = 0; i < 4; i++) {
        struct node *n = malloc(sizeof *n);
        n->val = i;
        n->next = head;
        head = n;
    }
    printf("%ld\n", sum_list(head));
    return 0;
}
