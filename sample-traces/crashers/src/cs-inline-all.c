/* cs-inline-all-gcc-o2 / cs-inline-all-clang-o2: a noipa helper's inline assembly writes every
 * callee-saved register but rbp (rbx, r12-r15) with small constants and lists none of them as
 * clobbered, so the compiler neither saves nor restores them. The caller walks a list and keeps
 * its cursor in whichever callee-saved register its compiler picks, across the call; the cursor
 * comes back as 0x11..0x15 and the next `n->next` read faults in the zero page.
 *
 * Expected (written before running tracecheck): callee-saved-changed names stir as the
 * callee that writes the cursor's register without saving it (with the binary or a core, and
 * from the transcript's `disassemble /r stir`); null-dereference may fire too (a small
 * address). */
#include <stdio.h>
#include <stdlib.h>

struct node { struct node *next; long val; };

/* noipa (gcc): the caller may not use what it knows of the callee's registers; clang has no
 * noipa and does no interprocedural register allocation, noinline is enough there */
#ifdef __clang__
#define OPAQUE __attribute__((noinline))
#else
#define OPAQUE __attribute__((noipa))
#endif

OPAQUE long stir(long v)
{
    /* BUG: rbx, r12-r15 are written but not in the clobber list */
    __asm__ volatile("mov $0x11, %%rbx\n\tmov $0x12, %%r12\n\tmov $0x13, %%r13\n\t"
                     "mov $0x14, %%r14\n\tmov $0x15, %%r15\n\tadd $3, %0"
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
