/* gcc -O2 look-alike, Julia-like: a "task" pointer (like Julia's pgcstack) and seven other
 * values are live across calls, so every callee-saved register, r13 included, is used and
 * some values are spilled to the stack and reloaded after calls (legal reuse of r13 between
 * calls). The last field read goes through a pointer that is legitimately NULL.
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed and
 * pinned-register must stay quiet (no Julia runtime; nothing changed a register behind the
 * caller's back; a reload from a spill slot is no clobber). */
#include <stdio.h>
#include <stdlib.h>

struct task { long world; long *gcstack; };
struct frame { long n; struct frame *prev; };

__attribute__((noinline)) long safepoint(struct task *t, long x) { return t->world + x; }

__attribute__((noinline)) long run(struct task *t, struct frame *a, struct frame *b,
                                   struct frame *c, struct frame *d, struct frame *e)
{
    long s = safepoint(t, a->n);
    s += safepoint(t, b->n) * c->n;
    s += safepoint(t, d->n) + e->n;
    s += safepoint(t, s);
    s += a->n + b->n + c->n + d->n;
    return s + safepoint(t, e->prev->n);   /* e->prev is NULL */
}

int main(void)
{
    struct task *t = calloc(1, sizeof *t);
    struct frame *f = calloc(5, sizeof *f);
    printf("%ld\n", run(t, &f[0], &f[1], &f[2], &f[3], &f[4]));
    return 0;
}
