/* A session object is released twice (once by the error path, once by the normal
 * cleanup): glibc's tcache sees the block already on its free list and aborts with
 * "free(): double free detected in tcache 2". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
    int fd;
    char user[24];
};

__attribute__((noinline)) void drop_session(struct session *s)
{
    free(s);
}

__attribute__((noinline)) int login(struct session *s, const char *user)
{
    if (strlen(user) >= sizeof s->user) {
        drop_session(s); /* error path frees ... */
        return -1;
    }
    strcpy(s->user, user);
    return 0;
}

int main(void)
{
    struct session *s = calloc(1, sizeof *s);
    if (login(s, "a-user-name-that-is-far-too-long") < 0)
        puts("login failed");
    drop_session(s); /* ... and the cleanup frees again */
    return 0;
}
