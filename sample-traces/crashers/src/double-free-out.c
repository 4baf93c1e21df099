/* gcc -O0: a length-prefixed message (a 64-bit length, then the text) is kept in a heap buffer;
 * release_text() frees the text pointer, not the buffer. The length word in front of the text
 * reads as a chunk size of 0x20000, whose next chunk lies past the top of the heap: glibc
 * aborts with 'double free or corruption (out)' although nothing was freed twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct msg { uint64_t pad; uint64_t len; char text[48]; };

__attribute__((noinline)) static void release_text(char *text) { free(text); }

int main(void)
{
    struct msg *m = malloc(sizeof *m);
    m->pad = 0;
    m->len = 0x200000;  /* a 2 MiB payload announced by the header */
    strcpy(m->text, "payload follows");
    release_text(m->text);   /* should have been free(m) */
    puts("unreachable");
    return 0;
}
