/* gcc -O2 -g: a list walk advances its argument register, so at the fault gdb shows both the
 * current value and the value at entry (`p=0x0, p@entry=0x…`, from DW_OP_entry_value /
 * call-site parameters): the pointer was valid when the function was entered and became NULL
 * in its loop. */
#include <stdio.h>
#include <stdlib.h>

struct node { long key; struct node *next; };

__attribute__((noinline)) long key_at(struct node *p, int steps)
{
    while (steps-- > 0) p = p->next;
    return p->key; /* walks off the end of the list */
}

int main(int argc, char **argv)
{
    (void)argv;
    struct node *head = NULL;
    for (int i = 0; i < 3; i++) {
        struct node *n = malloc(sizeof *n);
        n->key = i;
        n->next = head;
        head = n;
    }
    long k = key_at(head, 2 + argc); /* 3 steps on a 3-node list */
    printf("%ld\n", k);
    free(head); /* head stays live across the call, in a callee-saved register */
    return 0;
}
