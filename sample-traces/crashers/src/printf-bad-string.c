/* A record written in layout v1 and read in layout v2: v2's name pointer lands on the word
 * after the v1 record (a length, 0x20), and printf("%s") reads it inside glibc's vfprintf. */
#include <stdio.h>
#include <string.h>

struct user_v1 { long id; const char *name; };
struct user_v2 { long id; long flags; const char *name; };

__attribute__((noinline)) static void report_user(const struct user_v2 *u)
{
    printf("user %ld: %s (flags %#lx)\n", u->id, u->name, u->flags);
}

int main(void)
{
    struct { struct user_v1 v1; long len; } raw = { { 7, "alice" }, 0x20 };
    struct user_v2 u;
    memcpy(&u, &raw, sizeof u); /* wrong layout */
    report_user(&u);
    return 0;
}
