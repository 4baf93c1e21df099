/* musl libc, static: a NULL field read. */
#include <stdio.h>
#include <stdlib.h>

struct user { int uid; struct user *manager; char name[16]; };

__attribute__((noinline)) int manager_uid(const struct user *u)
{
    return u->manager->uid; /* manager == NULL */
}

int main(void)
{
    struct user *u = calloc(1, sizeof *u);
    u->uid = 1000;
    printf("%d\n", manager_uid(u));
    return 0;
}
