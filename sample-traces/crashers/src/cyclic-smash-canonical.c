/* A stack smash whose overwrite ends 6 bytes into the return address (the copy length comes
 * from the input): the return address becomes a canonical but unmapped address built from a
 * cyclic pattern, so `ret` jumps there and the fault is at the new pc. */
#include <stdio.h>
#include <string.h>

struct packet { unsigned len; unsigned char data[64]; };

__attribute__((noinline)) int read_packet(const struct packet *p)
{
    unsigned char hdr[16];
    memcpy(hdr, p->data, p->len); /* len is not checked against sizeof hdr */
    return hdr[0];
}

int main(void)
{
    struct packet p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < 32; i++) p.data[i] = (unsigned char)("aaaabaaacaaadaaaeaaafaaagaaahaaa"[i]);
    p.len = 16 + 8 + 6; /* hdr, saved rbp, 6 bytes of the return address */
    printf("%d\n", read_packet(&p));
    return 0;
}
