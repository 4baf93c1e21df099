/* gcc -O2: a packet copy with a NULL payload pointer and a nonzero length: the fault is
 * inside glibc's memcpy variant (__memmove_avx_unaligned_erms or similar), reading NULL;
 * the culprit is the caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct packet { const unsigned char *payload; size_t len; };

__attribute__((noinline)) size_t copy_payload(unsigned char *dst, const struct packet *p) {
    memcpy(dst, p->payload, p->len);
    return p->len;
}

int main(int argc, char **argv) {
    (void)argv;
    static unsigned char buf[4096];
    struct packet p = { NULL, 300 + (size_t)argc }; /* payload never attached */
    size_t n = copy_payload(buf, &p);
    printf("%zu %u\n", n, buf[0]);
    return 0;
}
