/* gcc -O0: a 2 KiB buffer (past tcache) is freed into the unsorted bin; a stale writer then
 * stores a terminator at index -1 of its 64-bit view (buf[-1] = 0), the freed chunk's size
 * word. The next malloc walks the unsorted bin and aborts with
 * 'malloc(): invalid size (unsorted)'. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void terminate_before(uint64_t *words, long index) { words[index] = 0; }

__attribute__((noinline)) static char *new_line(size_t n) { return malloc(n); }

int main(void)
{
    uint64_t *buf = malloc(2048);
    void *guard = malloc(32);
    buf[0] = 1;
    free(buf);
    terminate_before(buf, -1);   /* stale pointer, off-by-one index */
    char *line = new_line(64);
    printf("%p %p\n", (void *)line, guard);
    return 0;
}
