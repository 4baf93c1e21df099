/* gcc -O0: a 28-byte wire header is copied into a 24-byte buffer (the code sized it for the
 * old 24-byte header); the four extra bytes (the version field, 0x1001 little-endian) land on
 * the size of glibc's top chunk, which is then 0x1001: small enough to pass malloc's "corrupted
 * top size" check, not page-aligned at its end. The next request larger than that reaches
 * sysmalloc(), whose sanity assertion fails: "Fatal glibc error: malloc.c:… (sysmalloc):
 * assertion failed: …". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wire_header { /* 28 bytes on the wire since protocol 2 */
    char tag[24];
    uint32_t version;
} __attribute__((packed));

static char *save_header(const struct wire_header *h)
{
    char *copy = malloc(24);      /* sized for protocol 1's header */
    memcpy(copy, h, sizeof *h);   /* copies 28 */
    return copy;
}

int main(void)
{
    struct wire_header h;
    memset(h.tag, 'T', sizeof h.tag);
    h.version = 0x1001;
    char *saved = save_header(&h);
    char *body = malloc(8192);
    printf("%p %p\n", (void *)saved, (void *)body);
    return 0;
}
