/* cs-overflow-saved-reg-gcc-o2 / -clang-o2 (-fno-stack-protector): label_len keeps a value
 * live across a call, so its prologue saves a callee-saved register; its 16-byte buffer is
 * filled with memcpy of a length the caller gets wrong (the name's length, 40 'A's here), which
 * runs past the buffer over the saved registers but stops short of the return address
 * (regenerate.sh checks the distance in the built code and passes it as LABEL_COPY). The
 * restore puts 0x4141414141414141 into the caller's register, which held the record pointer
 * the caller read through before the call; the next read faults (non-canonical).
 *
 * Expected (written before running tracecheck): callee-saved-changed (core: the callee's CFI
 * save slot in its dead frame holds the bad value while the caller's earlier read through the
 * register proves it held another; transcript with --exe: the same from `x/8gx $sp-64`);
 * noncanonical-address; stack-buffer-overflow may fire (the 0x41 pattern). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LABEL_COPY
#define LABEL_COPY 24
#endif

struct rec { long id; long len; const char *name; };

__attribute__((noinline)) long weigh(const char *s) { return (long)strlen(s); }

__attribute__((noinline)) long label_len(const char *name, long n)
{
    char buf[16];
    long w = weigh(name);          /* live across the memcpy call: kept in a saved register */
    memcpy(buf, name, n);          /* BUG: n is the name's length, not sizeof buf */
    return w + weigh(buf);
}

__attribute__((noinline)) long report(struct rec *r)
{
    long id = r->id;               /* a read through the register before the call */
    long l = label_len(r->name, LABEL_COPY);
    return id + l + r->len;        /* the read after it faults */
}

int main(void)
{
    static char name[64];
    memset(name, 'A', sizeof name - 1);
    struct rec *r = malloc(sizeof *r);
    r->id = 7;
    r->len = 3;
    r->name = name;
    printf("%ld\n", report(r));
    return 0;
}
