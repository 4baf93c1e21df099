/* gcc -O2 -fomit-frame-pointer look-alike: with enough values live across calls the compiler
 * uses rbp as an ordinary callee-saved register (saved by push, restored by pop). One of the
 * pointers it keeps there is legitimately NULL (a missing optional part) and is read through.
 *
 * Expected (written before running tracecheck): null-dereference; callee-saved-changed must
 * stay quiet (rbp is no frame pointer here, and nothing changed it behind the caller's back). */
#include <stdio.h>
#include <stdlib.h>

struct part { long a, b; };

__attribute__((noinline)) long probe(long x) { return x * 7 + 1; }

__attribute__((noinline)) long combine(struct part *p1, struct part *p2, struct part *p3,
                                       struct part *p4, struct part *p5, struct part *p6)
{
    long s = probe(p1->a) + probe(p2->a) + probe(p3->a) + probe(p4->a) + probe(p5->a);
    s += probe(s);
    return s + p1->b + p2->b + p3->b + p4->b + p5->b + p6->b;   /* p6 is NULL */
}

int main(void)
{
    struct part *p = calloc(5, sizeof *p);
    printf("%ld\n", combine(&p[0], &p[1], &p[2], &p[3], &p[4], NULL));
    return 0;
}
