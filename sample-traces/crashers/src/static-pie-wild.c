/* gcc -static-pie: a pointer into a mapping that was munmap'ed (a dangling pointer into
 * unmapped memory, far from NULL). */
#include <stdio.h>
#include <sys/mman.h>

struct ring { long head; long tail; long data[500]; };

__attribute__((noinline)) long ring_peek(struct ring *r)
{
    return r->data[r->head % 500];
}

int main(void)
{
    struct ring *r = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    r->head = 3;
    printf("%ld\n", ring_peek(r));
    munmap(r, 1 << 16);
    printf("%ld\n", ring_peek(r));
    return 0;
}
