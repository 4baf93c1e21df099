/* A tiny JIT: machine code written into an mmap'ed RWX buffer, called through a function
 * pointer. The generated code reads a field through a NULL pointer; the pc is in an
 * anonymous executable mapping, which is legal for JIT code. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
    /* mov 0x18(%rdi),%rax ; add %rsi,%rax ; ret */
    static const unsigned char code[] = {0x48, 0x8b, 0x47, 0x18, 0x48, 0x01, 0xf0, 0xc3};
    unsigned char *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(buf, code, sizeof code);
    long (*fn)(long *, long) = (long (*)(long *, long))buf;
    long table[4] = {1, 2, 3, 4};
    printf("%ld\n", fn(table, 1));
    printf("%ld\n", fn(NULL, 2));
    return 0;
}
