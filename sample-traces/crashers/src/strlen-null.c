/* gcc -O2: strlen() of a NULL name; the fault is inside libc's strlen (an AVX2 or EVEX
 * variant), called from the program. */
#include <stdio.h>
#include <string.h>

struct column {
    const char *title;
    int width;
};

__attribute__((noinline)) int header_width(const struct column *cols, int n)
{
    int w = 0;
    for (int i = 0; i < n; i++)
        w += (int)strlen(cols[i].title) + 1;
    return w;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct column cols[3] = {{"name", 10}, {"size", 6}, {"mtime", 12}};
    cols[argc].title = NULL;
    printf("%d\n", header_width(cols, 3));
    return 0;
}
