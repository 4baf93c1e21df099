/* clang -O3 -fomit-frame-pointer -static-pie: a lookup chain inlined and tail-called, no frame
 * pointers, statically linked and position-independent; a missing record is read through
 * NULL three calls deep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { const char *name; int weight; struct rec *next; };

__attribute__((noinline)) static struct rec *find(struct rec *head, const char *name)
{
    while (head && strcmp(head->name, name) != 0) head = head->next;
    return head;
}

__attribute__((noinline)) int weight_of(struct rec *head, const char *name)
{
    struct rec *r = find(head, name);
    return r->weight * 3 + (int)strlen(name); /* r is NULL for a missing name */
}

__attribute__((noinline)) int total(struct rec *head, const char **names, int n)
{
    int t = 0;
    for (int i = 0; i < n; i++) t += weight_of(head, names[i]);
    return t;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct rec c = {"gamma", 3, NULL}, b = {"beta", 2, &c}, a = {"alpha", 1, &b};
    const char *names[] = {"alpha", "gamma", argc > 5 ? "beta" : "delta"};
    printf("%d\n", total(&a, names, 3));
    return 0;
}
