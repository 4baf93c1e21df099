/* gcc -O0 -fno-stack-protector: parse_header() copies a length-prefixed field into a 16-byte
 * buffer and trusts the length, so 8 bytes past the buffer land on the saved frame pointer
 * (the caller's rbp), but not on the return address. parse_header() returns normally; its
 * caller returns its result at once, so the caller's epilogue (`leave; ret`) loads rsp from
 * the corrupted rbp, and `ret` reads the return address from an unmapped page: the fault is
 * on the stack pointer itself. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct packet { uint8_t len; uint8_t body[31]; };

__attribute__((noinline)) static int parse_header(const struct packet *p) {
    char field[16];
    memcpy(field, p->body, p->len); /* BUG: len is not checked against sizeof field */
    return field[0] == 'H';
}

__attribute__((noinline)) static int handle(const struct packet *p) {
    return parse_header(p);
}

int main(void) {
    struct packet p = { .len = 24 };
    memcpy(p.body, "HELLO, WORLD....", 16);
    /* the 8 bytes after the field: an address in no mapping (canonical, user half) */
    uint64_t bogus = 0x00003fff12345000ULL;
    memcpy(p.body + 16, &bogus, 8);
    printf("handled %d\n", handle(&p));
    return 0;
}
