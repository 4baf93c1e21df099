/* gcc -O0: a producer writes into a pipe whose reader has closed its end: write() raises
 * SIGPIPE (si_code SI_USER from the kernel's send) inside libc's write. No memory error. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static long send_line(int fd, const char *line)
{
    return write(fd, line, strlen(line));
}

int main(void)
{
    int p[2];
    if (pipe(p) != 0)
        return 1;
    close(p[0]); /* the reader went away */
    printf("%ld\n", send_line(p[1], "record 1\n"));
    return 0;
}
