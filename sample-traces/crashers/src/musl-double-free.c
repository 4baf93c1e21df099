/* musl libc, static: a record freed by an error path and again by the cleanup. musl's
 * allocator (mallocng) checks its metadata on free and, finding the slot already free, calls
 * a_crash(): on x86-64 the privileged `hlt`, a SIGSEGV (SI_KERNEL, si_addr 0) inside free,
 * with no message at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { char name[24]; long size; };

__attribute__((noinline)) static int load(struct rec *r, const char *name)
{
    if (strlen(name) >= sizeof r->name) {
        free(r); /* error path frees the record ... */
        return -1;
    }
    strcpy(r->name, name);
    return 0;
}

__attribute__((noinline)) static void release(struct rec *r)
{
    free(r); /* ... and the cleanup frees it again */
}

int main(void)
{
    struct rec *keep = malloc(sizeof *keep); /* keeps the group alive */
    struct rec *r = malloc(sizeof *r);
    if (load(r, "a-name-that-is-far-too-long-for-the-field") < 0)
        fprintf(stderr, "load failed\n");
    release(r);
    printf("%p\n", (void *)keep);
    return 0;
}
