/* i386 (i686-linux-gnu-gcc -O0, static): a legal recursion 3000 deep (thousands of repeated
 * frames, far from the 8 MiB limit), then a NULL read at the leaf. Look-alike of a stack
 * overflow in a 32-bit process. */
#include <stdio.h>

struct node { int depth; struct node *child; };

static int walk(struct node *n, int depth)
{
    char pad[32];
    pad[depth % 32] = (char)depth;
    if (depth == 3000)
        return n->depth + pad[0]; /* n is NULL here */
    return walk(depth == 2999 ? NULL : n, depth + 1) + pad[depth % 32];
}

int main(void)
{
    struct node root = {0, NULL};
    printf("%d\n", walk(&root, 0));
    return 0;
}
