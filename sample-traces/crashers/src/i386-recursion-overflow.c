/* i386 (i686-linux-gnu-gcc -O0 -static), ulimit -s 128: a runaway recursion (a cyclic
 * parent link) overflows the main thread's stack. */
#include <stdio.h>

struct dir { struct dir *parent; char name[16]; };

static int depth_of(const struct dir *d)
{
    char path[64];
    snprintf(path, sizeof path, "%s", d->name);
    if (!d->parent) return 0;
    return 1 + depth_of(d->parent) + (path[0] == 0);
}

int main(void)
{
    struct dir root = { NULL, "/" }, a = { &root, "a" }, b = { &a, "b" };
    printf("%d\n", depth_of(&b));
    root.parent = &b; /* a cycle */
    printf("%d\n", depth_of(&b));
    return 0;
}
