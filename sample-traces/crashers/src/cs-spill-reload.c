/* cs-spill-reload-gcc-o0 / -clang-o0: -O0 keeps every local in a frame slot and reloads it at
 * each use. tally stores the pointer lookup() returned in its slot (the field after a 16-byte
 * tag in one struct, so the layout is the same for both compilers), reads through it, clears
 * the tag with memset of the wrong size (24 bytes), which zeroes the pointer's slot too (and
 * nothing past the struct), then reloads the pointer and faults on a NULL read.
 *
 * Expected (written before running tracecheck): null-dereference, and stack-buffer-overflow
 * naming the call that overwrote the reloaded slot (memset, given a frame address below the
 * slot with a length that reaches it) with the load and the store it traced (with the binary
 * or a core). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counter { long hits; long misses; };

static struct counter table[4];

__attribute__((noinline)) struct counter *lookup(int k) { return &table[k & 3]; }

long tally(int k)
{
    struct { char tag[16]; struct counter *c; } f;
    f.c = lookup(k);
    f.c->hits++;
    memset(f.tag, 0, 24);          /* BUG: 24 is not sizeof f.tag */
    f.c->misses++;
    return f.c->hits + f.tag[0];
}

int main(void)
{
    printf("%ld\n", tally(2));
    return 0;
}
