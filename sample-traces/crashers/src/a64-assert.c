/* AArch64 gcc -O2 (qemu-user, static): assert() fails in a ring buffer's push. */
#include <assert.h>
#include <stdio.h>

struct ring { int buf[4]; unsigned head, tail; };

__attribute__((noinline)) void ring_push(struct ring *r, int v)
{
    assert(r->head - r->tail < 4 && "ring full");
    r->buf[r->head++ % 4] = v;
}

int main(void)
{
    static struct ring r;
    for (int i = 0; i < 6; i++) ring_push(&r, i);
    printf("%u\n", r.head);
    return 0;
}
