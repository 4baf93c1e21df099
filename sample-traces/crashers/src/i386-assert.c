/* i386 (i686-linux-gnu-gcc -O2, static): an invariant check with assert() fails in a 32-bit
 * process: glibc prints the assertion and aborts. */
#include <assert.h>
#include <stdio.h>

struct ring { unsigned head, tail, size; };

__attribute__((noinline)) static unsigned ring_used(const struct ring *r)
{
    assert(r->tail <= r->size && "tail past the end");
    return (r->tail - r->head) % r->size;
}

int main(int argc, char **argv)
{
    (void)argv;
    struct ring r = {2, 9 + (unsigned)argc, 8};
    printf("%u\n", ring_used(&r));
    return 0;
}
