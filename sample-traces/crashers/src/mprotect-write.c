/* A configuration page is made read-only with mprotect() after loading; a later update
 * writes into it (SEGV_ACCERR in an anonymous r--p mapping). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

struct config { int version; int retries; char host[64]; };

__attribute__((noinline)) void set_retries(struct config *c, int n)
{
    c->retries = n;
}

int main(void)
{
    struct config *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    c->version = 2;
    strcpy(c->host, "localhost");
    mprotect(c, 4096, PROT_READ);
    set_retries(c, 5);
    printf("%d\n", c->retries);
    return 0;
}
