/* gcc -O0: the caller pins its cursor to r12 with a local register variable (the one way
 * -O0 code keeps a value in a callee-saved register across a call); the -O0 helper's inline
 * assembly writes r12 without listing it as clobbered, so its prologue does not save it. The
 * cursor comes back as 0x40 and `cur->next` faults in the zero page.
 *
 * Expected (written before running tracecheck): callee-saved-changed: stir writes r12 without
 * saving it (with the binary or a core; from the transcript with `disassemble /r stir`);
 * null-dereference may fire. */
#include <stdio.h>
#include <stdlib.h>

struct node { struct node *next; long val; };

long stir(long v)
{
    /* BUG: r12 is written but not in the clobber list */
    __asm__ volatile("mov $0x40, %%r12\n\tadd $1, %0" : "+r"(v));
    return v;
}

long walk(struct node *head)
{
    register struct node *cur __asm__("r12") = head;
    long total = 0;
    while (cur) {
        total += stir(cur->val);
        cur = cur->next;
    }
    return total;
}

int main(void)
{
    struct node *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    a->next = b;
    printf("%ld\n", walk(a));
    return 0;
}
