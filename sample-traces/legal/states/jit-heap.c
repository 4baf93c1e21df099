/* JIT code in a malloc'ed buffer made executable with mprotect (the [heap] pages become rwx),
   looping and calling back into C: legal. Stopped from outside and at a breakpoint in the
   callback. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
volatile long total;
__attribute__((noinline)) long jit_callback(long i) { total += i; return total & 1; }
int main(int argc, char **argv) {
    (void)argv;
    uint8_t *raw = malloc(3 * 4096);
    uint8_t *buf = (uint8_t *)(((uintptr_t)raw + 4095) & ~(uintptr_t)4095);
    if (mprotect(buf, 4096, PROT_READ | PROT_WRITE | PROT_EXEC)) return 1;
    uint8_t *p = buf;
    uint64_t cb = (uint64_t)(uintptr_t)jit_callback, n = argc > 1 ? 2000000000ull : 50000000ull;
    *p++ = 0x53;                                         /* push %rbx */
    *p++ = 0x48; *p++ = 0xbb; memcpy(p, &n, 8); p += 8;  /* movabs $n,%rbx */
    uint8_t *loop = p;
    *p++ = 0x48; *p++ = 0x89; *p++ = 0xdf;               /* mov %rbx,%rdi */
    *p++ = 0x48; *p++ = 0xb8; memcpy(p, &cb, 8); p += 8; /* movabs $cb,%rax */
    *p++ = 0xff; *p++ = 0xd0;                            /* call *%rax */
    for (int k = 0; k < 40; k++) { *p++ = 0x48; *p++ = 0x31; *p++ = 0xc0; } /* xor %rax,%rax (filler) */
    *p++ = 0x48; *p++ = 0xff; *p++ = 0xcb;               /* dec %rbx */
    *p++ = 0x0f; *p++ = 0x85; int32_t rel = (int32_t)(loop - (p + 4)); memcpy(p, &rel, 4); p += 4; /* jnz loop */
    *p++ = 0x5b;                                         /* pop %rbx */
    *p++ = 0xc3;                                         /* ret */
    ((void (*)(void))buf)();
    printf("%ld\n", total);
    return 0;
}
