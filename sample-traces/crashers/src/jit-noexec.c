/* A JIT that forgot PROT_EXEC: the buffer is mapped read/write only, so the call faults at
 * the first instruction (pc = the buffer, SEGV_ACCERR). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
    static const unsigned char code[] = {0x48, 0x8d, 0x04, 0x37, 0xc3}; /* lea (%rdi,%rsi),%rax; ret */
    unsigned char *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(buf, code, sizeof code);
    long (*fn)(long, long) = (long (*)(long, long))buf;
    printf("%ld\n", fn(40, 2));
    return 0;
}
