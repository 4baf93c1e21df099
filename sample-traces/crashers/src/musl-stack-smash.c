/* musl libc, static, -fstack-protector-all: strcpy past an 8-byte local smashes the canary;
 * musl's __stack_chk_fail prints nothing and crashes on purpose with `hlt` (a_crash),
 * a privileged instruction: SIGSEGV with si_code SI_KERNEL. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int copy_tag(const char *src)
{
    char tag[8];
    strcpy(tag, src);
    return tag[0];
}

int main(void)
{
    printf("%d\n", copy_tag("ok"));
    printf("%d\n", copy_tag("a tag much longer than eight bytes"));
    return 0;
}
