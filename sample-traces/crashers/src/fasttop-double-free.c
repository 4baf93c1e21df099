/* gcc -O0: seven frees fill the tcache bin, so the double free of the eighth block goes to
 * the fastbin check: "free(): double free detected in tcache 2" is not what fires here,
 * glibc says "double free or corruption (fasttop)". */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void release(void *p)
{
    free(p);
}

int main(void)
{
    void *blocks[8];
    for (int i = 0; i < 8; i++)
        blocks[i] = malloc(32);
    for (int i = 0; i < 8; i++)
        release(blocks[i]);
    release(blocks[7]);
    puts("unreachable");
    return 0;
}
