/* gcc -O2: a sandboxed worker installs a seccomp filter that traps uname(2) (SECCOMP_RET_TRAP),
 * then calls a helper that still uses it: the kernel sends SIGSYS (si_code SYS_SECCOMP) at
 * the syscall instruction inside libc's uname. No memory fault: si_addr is the address of
 * the syscall, and siginfo carries the syscall number instead of a fault address. */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static void sandbox(void) {
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_uname, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = { sizeof f / sizeof f[0], f };
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

__attribute__((noinline)) int host_tag(char *out, size_t n) {
    struct utsname u;
    if (uname(&u) != 0) return -1; /* forbidden by the sandbox */
    return snprintf(out, n, "%s", u.nodename);
}

int main(void) {
    char tag[64];
    sandbox();
    printf("%d\n", host_tag(tag, sizeof tag));
    return 0;
}
