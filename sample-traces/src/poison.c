/* poison: use-after-free of a large (non-tcache) object while glibc's
 * MALLOC_PERTURB_=165 is set: free() fills the freed chunk with 0xa5 bytes, so
 * the stale pointer read back from it is 0xa5a5a5a5a5a5a5a5 (non-canonical).
 * -O0 -g.  MALLOC_PERTURB_ is set by the gdb script (set environment). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct conn {
    char inbuf[1500];         /* large, so the chunk bypasses tcache/fastbins */
    struct peer *peer;        /* +0x5e0 */
    int state;
};
struct peer { const char *host; int port; };

__attribute__((noinline)) static int peer_port(const struct conn *c)
{
    return c->peer->port;     /* c was freed: c->peer == 0xa5a5a5a5a5a5a5a5 */
}

int main(void)
{
    static struct peer p = { "example.org", 443 };
    struct conn *c = malloc(sizeof *c);
    struct conn *guard = malloc(64);   /* keep c from merging into the top chunk */
    memset(c->inbuf, 0, sizeof c->inbuf);
    c->peer = &p;
    c->state = 1;
    printf("port %d\n", peer_port(c));
    free(c);
    printf("port %d\n", peer_port(c));   /* use after free */
    free(guard);
    return 0;
}
