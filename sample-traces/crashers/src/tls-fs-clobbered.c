/* gcc -O1 -fstack-protector-strong: a "fast context switch" sets the thread pointer (the fs
 * base) to the coroutine's control block with arch_prctl(ARCH_SET_FS), which is not a TCB;
 * the next function with a stack protector reads its canary at %fs:0x28 from that block's
 * page-aligned neighbour, which is unmapped. */
#include <asm/prctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct coro {
    char name[16];
    long regs[8];
};

static void switch_to(struct coro *c)
{
    /* meant to set the coroutine's TLS; passes the control block instead of its TLS area */
    syscall(SYS_arch_prctl, ARCH_SET_FS, (unsigned long)c + 4096 - 8);
}

__attribute__((noinline)) static int format_name(const char *src, char *out)
{
    char tmp[32];
    strncpy(tmp, src, sizeof tmp - 1);
    tmp[sizeof tmp - 1] = 0;
    return snprintf(out, 32, "<%s>", tmp);
}

int main(void)
{
    struct coro *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap((char *)c + 4096, 4096);
    strcpy(c->name, "worker");
    char out[32];
    switch_to(c);
    return format_name(c->name, out) > 0 ? 0 : 1;
}
