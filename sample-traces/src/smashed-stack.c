/* smashed-stack / stack-chk: memcpy past a 16-byte local buffer overwrites the
 * saved rbp and the return address with 'A' bytes.
 *   smashed-stack: -O0 -g -fno-stack-protector -> `ret` to 0x4141414141414141
 *   stack-chk:     -O0 -g -fstack-protector-all -> __stack_chk_fail -> abort   */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int copy_name(const char *src, size_t n)
{
    char name[16];
    memcpy(name, src, n);               /* n is not checked against sizeof name */
    return name[0];
}

int main(void)
{
    char packet[64];
    memset(packet, 'A', sizeof packet);
    printf("%d\n", copy_name(packet, 8));
    printf("%d\n", copy_name(packet, 40));
    return 0;
}
