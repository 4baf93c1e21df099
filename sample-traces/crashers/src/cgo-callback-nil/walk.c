#include "_cgo_export.h"

int walk(struct node *n) {
    if (!n) return 0;
    int here = visitNode(n->id);
    return here + walk(n->left) + walk(n->right);
}
