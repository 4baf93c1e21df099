/* stack-overflow: unbounded recursion with a 4 KiB local array. -O0 -g. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static unsigned long walk(const char *path, unsigned depth)
{
    char component[4000];
    unsigned long h = depth;
    strncpy(component, path, sizeof component - 1);
    component[sizeof component - 1] = 0;
    for (const char *c = component; *c; c++)
        h = h * 31 + (unsigned char)*c;
    /* missing base case: recurses until the stack is exhausted */
    return h ^ walk(component, depth + 1);
}

int main(void)
{
    printf("%lu\n", walk("/usr/share/doc", 0));
    return 0;
}
