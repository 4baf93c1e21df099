/* i386 (gcc -m32 via i686-linux-gnu-gcc, static): NULL field read in a 32-bit program. */
#include <stdio.h>

struct entry { int key; int value; struct entry *next; };

__attribute__((noinline)) int lookup(const struct entry *e, int key)
{
    while (e->key != key)
        e = e->next;
    return e->value;
}

int main(int argc, char **argv)
{
    (void)argv;
    static struct entry c = {3, 30, NULL}, b = {2, 20, &c}, a = {1, 10, &b};
    printf("%d\n", lookup(&a, argc + 8));
    return 0;
}
