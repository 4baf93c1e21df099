/* plain-null: the plainest NULL dereference, for the README's pipe recipe.
 * Built with -O0 -g. */
#include <stdio.h>

struct point {
    int x;
    int y; /* +0x4 */
};

__attribute__((noinline)) static int get_y(const struct point *p)
{
    return p->y; /* p == NULL -> fault at 0x4 */
}

int main(int argc, char **argv)
{
    (void)argv;
    struct point *p = argc > 5 ? (struct point *)argv : NULL;
    printf("y = %d\n", get_y(p));
    return 0;
}
