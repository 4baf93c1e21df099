/* AArch64 gcc -O0 (qemu-user, static): a runaway recursion through a cyclic parent link,
 * 4 KiB of locals a frame, overflows the guest stack into qemu's guard page. */
#include <stdio.h>
#include <string.h>

struct dir { struct dir *parent; char name[16]; };

static int depth_of(const struct dir *d)
{
    char path[4096];
    strcpy(path, d->name);
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
