/* A deep but legal recursion: a depth-first walk 5000 levels down (about 400 KiB of an
 * 8 MiB stack), where the leaf's payload pointer is NULL. Thousands of repeated frames,
 * no overflow. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *child;
    long *payload;
};

__attribute__((noinline)) long depth_sum(const struct node *n, long depth)
{
    if (!n->child)
        return *n->payload + depth;
    return depth_sum(n->child, depth + 1) + 1;
}

int main(void)
{
    enum { N = 5000 };
    struct node *nodes = calloc(N, sizeof *nodes);
    static long one = 1;
    for (int i = 0; i < N - 1; i++) {
        nodes[i].child = &nodes[i + 1];
        nodes[i].payload = &one;
    }
    printf("%ld\n", depth_sum(nodes, 0));
    return 0;
}
