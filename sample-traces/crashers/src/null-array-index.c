/* gcc -O2: a table lookup through a NULL table with a large index: the fault address is
 * 0x271c0 (NULL + 40000 * 4 + 0x40), above the first page but still based on NULL. */
#include <stdio.h>
#include <stdlib.h>

struct table { int hdr[16]; int cells[]; };

__attribute__((noinline)) int cell(const struct table *t, long i)
{
    return t->cells[i];
}

int main(int argc, char **argv)
{
    (void)argv;
    struct table *t = argc > 5 ? malloc(1 << 20) : NULL;
    printf("%d\n", cell(t, 40000));
    return 0;
}
