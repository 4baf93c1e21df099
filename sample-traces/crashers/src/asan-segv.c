/* clang -O1 -fsanitize=address, abort_on_error=1: a NULL dereference in an ASan build: ASan's
 * own SIGSEGV handler prints "AddressSanitizer: SEGV on unknown address 0x000000000008" with
 * its stack, then aborts (the debugger passes SIGSEGV to it). */
#include <stdio.h>
#include <stdlib.h>

struct session {
    int id;
    int pad;
    long bytes_in;
};

static struct session *sessions[4];

__attribute__((noinline)) static long bytes_of(int slot)
{
    return sessions[slot]->bytes_in;
}

int main(int argc, char **argv)
{
    (void)argv;
    sessions[0] = calloc(1, sizeof(struct session));
    printf("%ld\n", bytes_of(argc)); /* slot 1 was never opened */
    return 0;
}
