/* gcc -O0: a write through a dangling pointer into a large freed block (in the unsorted bin)
 * overwrites its list links; the next malloc aborts with 'malloc(): unsorted double linked
 * list corrupted'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char *big = malloc(2048);
    char *guard = malloc(32); /* keeps big from merging with the top chunk */
    strcpy(big, "session");
    free(big); /* too big for tcache: goes to the unsorted bin */
    long *stale = (long *)big;
    stale[1] = 0x4141; /* bug: write after free (the bk link) */
    char *again = malloc(4096);
    printf("%p %p\n", (void *)guard, (void *)again);
    return 0;
}
