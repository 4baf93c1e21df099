/* gcc -O0: alloca() of a size computed as a negative int (the header says the body is shorter
 * than the header): converted to size_t, the subtraction moves rsp *up* by 8 MiB, above the
 * top of the stack; the first write to the buffer faults above every stack frame. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int copy_body(const char *msg, int total, int header)
{
    int body = total - header; /* negative */
    char *buf = alloca(body);
    memset(buf, 0, 64);
    memcpy(buf, msg + header, 16);
    return buf[0];
}

int main(int argc, char **argv)
{
    (void)argv;
    static const char msg[64] = "header..body";
    printf("%d\n", copy_body(msg, 8 + argc, (8 << 20) + 9 + argc));
    return 0;
}
