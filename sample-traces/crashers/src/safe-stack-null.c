/* clang -fsanitize=safe-stack: address-taken locals live on a separate "unsafe stack"
 * (an mmap'ed region, pointer in the thread's TCB), not on the stack rsp points to.
 * A NULL read in a function whose buffer is on the unsafe stack: legal rsp, legal frame. */
#include <stdio.h>
#include <string.h>

struct node { struct node *next; int val; };

__attribute__((noinline)) static int sum_tail(const struct node *n, const char *label)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", label);
    int s = (int)strlen(buf);
    while (n->val >= 0) { s += n->val; n = n->next; } /* no NULL check */
    return s;
}

int main(void)
{
    struct node c = { NULL, 3 }, b = { &c, 2 }, a = { &b, 1 };
    printf("%d\n", sum_tail(&a, "list"));
    return 0;
}
