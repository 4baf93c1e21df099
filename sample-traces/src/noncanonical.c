/* noncanonical: dereference a non-canonical address (0xdead000000000000).
 * x86-64 raises #GP, not #PF: SIGSEGV with si_code SI_KERNEL (128), si_addr 0.
 * -O0 -g. */
#include <stdint.h>
#include <stdio.h>

struct node { struct node *next; long key; long value; };

#define POISON_POINTER ((struct node *)0xdead000000000000UL)

__attribute__((noinline)) static long list_find(struct node *head, long key)
{
    for (struct node *n = head; n; n = n->next)
        if (n->key == key)
            return n->value;
    return -1;
}

int main(void)
{
    static struct node c = { NULL, 3, 30 };
    static struct node b = { &c, 2, 20 };
    static struct node a = { &b, 1, 10 };
    printf("%ld\n", list_find(&a, 3));
    c.next = POISON_POINTER;          /* as if c had been unlinked and poisoned */
    printf("%ld\n", list_find(&a, 4));
    return 0;
}
