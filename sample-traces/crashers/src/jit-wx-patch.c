/* gcc -O0: a JIT that keeps its code W^X: it writes a function into a read-write buffer,
 * flips it to read-execute with mprotect, calls it, and later patches the immediate in place
 * without flipping the buffer back to writable: SEGV_ACCERR on a write into the anonymous
 * r-x mapping (pc in the program's patch routine). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static const unsigned char ret_imm[] = { 0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3 }; /* mov $42,%eax; ret */

__attribute__((noinline)) void patch_imm(unsigned char *code, int value)
{
    memcpy(code + 1, &value, 4);
}

int main(void)
{
    unsigned char *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(buf, ret_imm, sizeof ret_imm);
    mprotect(buf, 4096, PROT_READ | PROT_EXEC);
    int (*fn)(void) = (int (*)(void))buf;
    printf("%d\n", fn());
    patch_imm(buf, 7); /* forgot mprotect(PROT_WRITE) */
    printf("%d\n", fn());
    return 0;
}
