/* gcc -O2 look-alike: a callee-saved register legally reused after a call. route() keeps the
 * first hop in a callee-saved register across `log_hop`, then the same register gets the
 * result of `find_next` (a new write after the call, by the caller itself), which is NULL for
 * the last hop, and the read through it faults.
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed must
 * stay quiet (the register's last writer is the caller's own instruction after the call). */
#include <stdio.h>
#include <stdlib.h>

struct hop { struct hop *next; long cost; };

__attribute__((noinline)) void log_hop(const struct hop *h) { printf("hop %ld\n", h->cost); }
__attribute__((noinline)) struct hop *find_next(struct hop *h) { return h->next; }

__attribute__((noinline)) long route(struct hop *h)
{
    long c = h->cost;
    log_hop(h);
    h = find_next(h);          /* the register is rewritten here, after the call */
    return c + h->cost;        /* NULL for a one-hop route */
}

int main(void)
{
    struct hop *h = calloc(1, sizeof *h);
    h->cost = 5;
    printf("%ld\n", route(h));
    return 0;
}
