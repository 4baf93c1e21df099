/* null-field: read a struct field at offset 0x18 through a NULL pointer,
 * three frames below main.  Built with -O0 -g. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
    const char *user;      /* +0x00 */
    int fd;                /* +0x08 */
    int flags;             /* +0x0c */
    long started;          /* +0x10 */
    long bytes_in;         /* +0x18  <- the field that is read */
    char tag[16];          /* +0x20 */
};

struct registry {
    struct session *slots[4];
    int count;
};

__attribute__((noinline)) static long session_bytes(const struct session *s)
{
    return s->bytes_in;                     /* s == NULL -> fault at 0x18 */
}

__attribute__((noinline)) static long registry_total(const struct registry *r, int upto)
{
    long total = 0;
    for (int i = 0; i <= upto; i++)
        total += session_bytes(r->slots[i]);  /* slots[2] was never filled */
    return total;
}

__attribute__((noinline)) static int report(struct registry *r, const char *label)
{
    long t = registry_total(r, r->count);
    printf("%s: %ld bytes\n", label, t);
    return t > 0;
}

int main(int argc, char **argv)
{
    static struct session a = { "alice", 3, 0, 1700000000, 4096, "primary" };
    static struct session b = { "bob",   4, 1, 1700000100, 512,  "backup" };
    struct registry reg;
    memset(&reg, 0, sizeof reg);
    reg.slots[0] = &a;
    reg.slots[1] = &b;
    reg.count = 2;                          /* off by one: slots[2] is NULL */
    (void)argc; (void)argv;
    return report(&reg, "traffic") ? 0 : 1;
}
