/* gcc -O2: qsort's comparator calls strcmp on an entry whose name was never set; the
 * fault is in libc's strcmp, called from the comparator, called from libc's qsort
 * (libc frames above and below the program's frame). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct user {
    const char *name;
    int uid;
};

__attribute__((noinline)) int by_name(const void *a, const void *b)
{
    const struct user *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : x->uid - y->uid; /* ties by uid: not a tail call */
}

int main(int argc, char **argv)
{
    (void)argv;
    struct user users[5] = {{"mallory", 4}, {"alice", 1}, {"carol", 3}, {"bob", 2}, {"dave", 5}};
    users[argc + 1].name = NULL; /* lost in an earlier failed lookup */
    qsort(users, 5, sizeof users[0], by_name);
    for (int i = 0; i < 5; i++)
        printf("%s\n", users[i].name);
    return 0;
}
