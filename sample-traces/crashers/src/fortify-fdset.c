/* gcc -O2 -D_FORTIFY_SOURCE=2: a server that dup2()s its listening socket to fd 1100 uses
 * FD_SET on it; select()'s fd_set holds 1024 descriptors, and glibc's fortified FD_SET
 * (__fdelt_chk) aborts with '*** buffer overflow detected ***'. No copy at all. */
#include <stdio.h>
#include <sys/select.h>
#include <unistd.h>
#include <fcntl.h>

__attribute__((noinline)) int wait_readable(int fd)
{
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(fd, &rd);
    struct timeval tv = { 0, 1000 };
    return select(fd + 1, &rd, NULL, NULL, &tv);
}

int main(void)
{
    int fd = open("/dev/null", O_RDONLY);
    int high = dup2(fd, 1100);
    if (high < 0) { perror("dup2"); return 1; }
    printf("ready: %d\n", wait_readable(high));
    return 0;
}
