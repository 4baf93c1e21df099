/* AArch64 gcc -O0 -fstack-protector-all (qemu-user, static): strcpy into an 8-byte local
 * smashes the canary: '*** stack smashing detected ***: terminated', SIGABRT. */
#include <stdio.h>
#include <string.h>

static int copy_label(const char *src)
{
    char label[8];
    strcpy(label, src);
    return label[0];
}

int main(void)
{
    printf("%d\n", copy_label("ok"));
    printf("%d\n", copy_label("a label far longer than eight bytes"));
    return 0;
}
