/* gcc -O2 -D_FORTIFY_SOURCE=2: a record header says its body is 128 bytes; read_body() reads
 * that many into a 64-byte stack buffer. The fortified read (__read_chk, the buffer's size
 * known at compile time) aborts with '*** buffer overflow detected ***' before any byte is
 * written. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long read_body(int fd, size_t announced)
{
    char body[64];
    ssize_t n = read(fd, body, announced);
    if (n <= 0) return -1;
    long sum = 0;
    for (ssize_t i = 0; i < n && i < 64; i++) sum += body[i];
    return sum;
}

int main(int argc, char **argv)
{
    (void)argv;
    int fd = open("/dev/zero", O_RDONLY);
    size_t announced = 64 + 64 * (size_t)argc;  /* 128 for the header's value */
    printf("%ld\n", read_body(fd, announced));
    return 0;
}
