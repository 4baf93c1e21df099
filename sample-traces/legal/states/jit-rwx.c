/* A tiny JIT: machine code written into an mmap'ed read-write-execute buffer, with no unwind
   information, that loops and calls back into C through a register. Nothing is wrong:
   stopped at a breakpoint in the callback (the JIT frame is #1) and from outside. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
volatile long total;
__attribute__((noinline)) long jit_callback(long i) { total += i; return total & 1; }
int main(int argc, char **argv) {
    (void)argv;
    uint8_t *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) return 1;
    uint8_t *p = buf;
    uint64_t cb = (uint64_t)(uintptr_t)jit_callback, n = argc > 1 ? 400000000ull : 50000000ull;
    *p++ = 0x53;                                   /* push %rbx */
    *p++ = 0x48; *p++ = 0xbb; memcpy(p, &n, 8); p += 8;  /* movabs $n,%rbx */
    uint8_t *loop = p;
    *p++ = 0x48; *p++ = 0x89; *p++ = 0xdf;         /* mov %rbx,%rdi */
    *p++ = 0x48; *p++ = 0xb8; memcpy(p, &cb, 8); p += 8; /* movabs $cb,%rax */
    *p++ = 0xff; *p++ = 0xd0;                      /* call *%rax (rsp = 0 mod 16 after push) */
    *p++ = 0x48; *p++ = 0xff; *p++ = 0xcb;         /* dec %rbx */
    *p++ = 0x75; *p = (uint8_t)(loop - (p + 1)); p++; /* jnz loop */
    *p++ = 0x5b;                                   /* pop %rbx */
    *p++ = 0xc3;                                   /* ret */
    ((void (*)(void))buf)();
    printf("%ld\n", total);
    return 0;
}
