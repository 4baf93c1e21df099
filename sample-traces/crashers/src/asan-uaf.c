/* gcc -O0 -fsanitize=address, ASAN_OPTIONS=abort_on_error=1: a session table entry is freed on
 * logout, then its name is read; ASan's heap-use-after-free report, then SIGABRT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session { char user[16]; int id; };

__attribute__((noinline)) void logout(struct session *s)
{
    free(s);
}

__attribute__((noinline)) int audit(const struct session *s)
{
    return s->id + (int)strlen(s->user);
}

int main(void)
{
    struct session *s = malloc(sizeof *s);
    strcpy(s->user, "alice");
    s->id = 7;
    logout(s);
    printf("%d\n", audit(s));
    return 0;
}
