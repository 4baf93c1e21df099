/* gcc -O0: a tiny JIT keeps a function pointer into its code buffer after releasing the
 * buffer with munmap(): the call jumps into an unmapped page (pc = fault address, anonymous
 * memory that was executable). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*fn_t)(long);

int main(void)
{
    static const unsigned char code[] = {0x48, 0x8d, 0x47, 0x01, 0xc3}; /* lea 1(%rdi),%rax; ret */
    unsigned char *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return 1;
    memcpy(buf, code, sizeof code);
    fn_t inc = (fn_t)buf;
    printf("%ld\n", inc(41));
    munmap(buf, 4096); /* the cache is flushed ... */
    printf("%ld\n", inc(1)); /* ... but the stale entry is still called */
    return 0;
}
