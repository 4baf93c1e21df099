/* Deep but bounded recursion (depth 300, far from the stack limit): many repeated frames, no
 * overflow. At the bottom a NULL child pointer is read. */
#include <stdio.h>
#include <stdlib.h>

struct tnode { int val; struct tnode *left; };

__attribute__((noinline)) int depth_sum(struct tnode *n, int d)
{
    if (d == 300) return n->left->val; /* left == NULL */
    return depth_sum(n->left, d + 1) + n->val;
}

int main(void)
{
    struct tnode *root = NULL;
    for (int i = 0; i < 302; i++) {
        struct tnode *t = calloc(1, sizeof *t);
        t->val = i;
        t->left = root;
        root = t;
    }
    struct tnode *n = root;
    for (int i = 0; i < 300; i++) n = n->left;
    n->left = NULL;
    printf("%d\n", depth_sum(root, 0));
    return 0;
}
