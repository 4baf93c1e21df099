/* gcc -O0, run with glibc's malloc debugging library (LD_PRELOAD=libc_malloc_debug.so.0,
 * MALLOC_CHECK_=3; glibc 2.34+ moved MALLOC_CHECK_ there): a one-byte overflow past a 20-byte
 * block overwrites the check byte the library put after it; free() aborts with
 * 'free(): invalid pointer' from the library's free_check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) char *copy_name(const char *s)
{
    char *p = malloc(strlen(s)); /* BUG: no room for the terminating NUL */
    strcpy(p, s);
    return p;
}

int main(void)
{
    char *n = copy_name("sensor-array-0017-b");
    printf("%s\n", n);
    free(n);
    return 0;
}
