/* A write through a dangling pointer lands in a freed block's tcache link: the next
 * malloc of that size pops a misaligned pointer and glibc aborts with
 * "malloc(): unaligned tcache chunk detected". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    struct node *next;
    long key;
};

__attribute__((noinline)) struct node *alloc_node(long key)
{
    struct node *n = malloc(sizeof *n);
    n->next = NULL;
    n->key = key;
    return n;
}

int main(void)
{
    struct node *a = alloc_node(1);
    struct node *b = alloc_node(2);
    free(b);
    free(a);
    a->next = (struct node *)((char *)a->next + 3); /* use after free: bumps the tcache link */
    struct node *c = alloc_node(3);
    struct node *d = alloc_node(4);
    printf("%ld %ld\n", c->key, d->key);
    return 0;
}
