/* A JIT that jumps into its RWX code buffer before writing the code: the buffer still holds
 * the fill byte 0x06 (`push %es`, invalid in 64-bit mode), so the first instruction raises
 * SIGILL inside the anonymous executable mapping. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*jit_fn)(long);

int main(void)
{
    unsigned char *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(buf, 0x06, 4096);
    jit_fn fn = (jit_fn)(buf + 64); /* code not emitted yet */
    printf("%ld\n", fn(41));
    return 0;
}
