/* A real stack smash: a length-unchecked copy writes a cyclic (de Bruijn-style) pattern over
 * the saved frame pointer and the return address. The return address becomes
 * non-canonical, so `ret` faults (#GP) with the pc still in copy_field. */
#include <stdio.h>
#include <string.h>

static char pattern[256];

static void make_pattern(void)
{
    /* "aaaabaaacaaadaaa..." : each 4-byte group is unique */
    int k = 0;
    for (char a = 'a'; a <= 'z' && k + 4 <= (int)sizeof pattern - 1; a++) {
        pattern[k++] = 'a'; pattern[k++] = 'a'; pattern[k++] = 'a'; pattern[k++] = a;
    }
    for (char a = 'A'; k + 4 <= (int)sizeof pattern - 1; a++) {
        pattern[k++] = 'b'; pattern[k++] = 'a'; pattern[k++] = 'a'; pattern[k++] = a;
    }
}

__attribute__((noinline)) int copy_field(const char *src)
{
    char field[24];
    strcpy(field, src); /* no bounds check */
    return field[0];
}

int main(void)
{
    make_pattern();
    printf("%d\n", copy_field(pattern + 0) + copy_field(pattern));
    return 0;
}
