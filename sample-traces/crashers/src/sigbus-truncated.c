/* A shared, writable mapping of a file that another part of the program truncates:
 * the write lands past the file's new end and the kernel sends SIGBUS (BUS_ADRERR).
 * The page is mapped read-write: this is not a write to read-only memory. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) void append_record(char *log, long off, const char *rec)
{
    memcpy(log + off, rec, strlen(rec) + 1);
}

int main(void)
{
    char path[] = "/tmp/tracecheck-sigbus-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || ftruncate(fd, 16384) != 0)
        return 2;
    char *log = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (log == MAP_FAILED)
        return 3;
    append_record(log, 0, "first");
    if (ftruncate(fd, 4096) != 0) /* log rotation shrinks the file under the mapping */
        return 4;
    unlink(path);
    append_record(log, 8192, "second");
    puts(log);
    return 0;
}
