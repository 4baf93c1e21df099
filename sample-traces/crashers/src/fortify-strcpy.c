/* gcc -O2 -D_FORTIFY_SOURCE=2: strcpy of a 32-byte tag into a 16-byte field of a heap
 * object; __strcpy_chk knows the field's size and aborts with
 * "*** buffer overflow detected ***". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct packet {
    char tag[16];
    int len;
};

__attribute__((noinline)) void set_tag(struct packet *p, const char *tag)
{
    strcpy(p->tag, tag);
    p->len = (int)strlen(p->tag);
}

int main(int argc, char **argv)
{
    struct packet *pk = malloc(sizeof *pk);
    set_tag(pk, argc > 5 ? argv[1] : "a-tag-of-thirty-two-bytes-length");
    printf("%s\n", pk->tag);
    return 0;
}
