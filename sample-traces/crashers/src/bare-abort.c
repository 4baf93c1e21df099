/* abort() called directly on an unexpected state, with no message at all. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int decode_opcode(unsigned char op)
{
    switch (op >> 4) {
    case 0: return 1;
    case 1: return 2;
    case 2: return 3;
    default: abort();
    }
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", decode_opcode(0x10) + decode_opcode((unsigned char)(0x70 + argc)));
    return 0;
}
