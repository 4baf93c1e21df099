/* atoi(getenv("WORKERS")) with the variable unset: glibc's strtol reads through NULL
 * (the fault is inside libc's ____strtol_l_internal). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int worker_count(void)
{
    return atoi(getenv("TRACECHECK_DEMO_WORKERS"));
}

int main(void)
{
    int n = worker_count();
    printf("%d workers\n", n);
    return 0;
}
