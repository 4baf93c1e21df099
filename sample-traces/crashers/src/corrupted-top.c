/* A heap overflow that runs into the top chunk's size field: the next malloc() aborts with
 * "malloc(): corrupted top size". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void fill(char *dst, size_t n)
{
    memset(dst, 0x7a, n);
}

int main(void)
{
    char *a = malloc(24);
    fill(a, 40); /* 24-byte chunk; bytes 24..39 overwrite the top chunk's header */
    char *b = malloc(5000);
    printf("%p %p\n", (void *)a, (void *)b);
    return 0;
}
