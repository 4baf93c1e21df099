/* A registry of sessions in a singly linked list. close_session() frees a session but forgets
 * to unlink it; the next walk follows the freed node's `next`. The program runs with
 * MALLOC_PERTURB_=165: glibc fills a freed chunk that does not go to the tcache with 0xa5
 * (the sessions are 1.6 KB, past the tcache's 1032-byte limit), so the walk loads
 * 0xa5a5a5a5a5a5a5a5 and faults on it. The list link sits after the first 64 bytes, which the
 * unsorted bin's own links overwrite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
    char peer[64];
    struct session *next;
    long bytes_in;
    char log[1536];
};

static struct session *sessions;

__attribute__((noinline)) static struct session *open_session(const char *peer, long bytes) {
    struct session *s = calloc(1, sizeof *s);
    if (!s) abort();
    snprintf(s->peer, sizeof s->peer, "%s", peer);
    s->bytes_in = bytes;
    s->next = sessions;
    sessions = s;
    return s;
}

__attribute__((noinline)) static void close_session(struct session *s) {
    /* BUG: still linked from its predecessor */
    free(s);
}

__attribute__((noinline)) long traffic_total(void) {
    long t = 0;
    for (struct session *s = sessions; s; s = s->next) t += s->bytes_in;
    return t;
}

int main(void) {
    open_session("10.0.0.1", 100);
    struct session *mid = open_session("10.0.0.2", 250);
    open_session("10.0.0.3", 75);
    void *keep = malloc(64); /* keeps the freed chunk away from the top chunk */
    close_session(mid);
    printf("total %ld\n", traffic_total());
    free(keep);
    return 0;
}
