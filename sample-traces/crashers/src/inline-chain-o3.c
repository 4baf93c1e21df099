/* gcc -O3 -fomit-frame-pointer: three static inline helpers inlined into one function;
 * the NULL read happens in the innermost one (gdb shows inlined frames without pc). */
#include <stdio.h>
#include <stdlib.h>

struct leaf { long weight; };
struct branch { struct leaf *left, *right; };
struct tree { struct branch *root; long size; };

static inline long leaf_weight(const struct leaf *l) { return l->weight; }
static inline long branch_weight(const struct branch *b) { return leaf_weight(b->left) + leaf_weight(b->right); }
static inline long tree_weight(const struct tree *t) { return t->size * branch_weight(t->root); }

__attribute__((noinline)) long total_weight(struct tree **ts, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += tree_weight(ts[i]);
    return s;
}

int main(int argc, char **argv)
{
    (void)argv;
    static struct leaf l = {5};
    static struct branch b1 = {&l, &l}, b2 = {&l, NULL};
    static struct tree t1 = {&b1, 2}, t2 = {&b2, 3};
    struct tree *ts[2] = {&t1, &t2};
    printf("%ld\n", total_weight(ts, argc + 1));
    return 0;
}
