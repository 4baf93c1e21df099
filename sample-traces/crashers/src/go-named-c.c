/* Plain C, no Go runtime: functions given Go-looking symbol names (main.work, main.run) with
 * asm labels, and r14 holding a C heap pointer (a plain C callee-saved register use). The
 * crash is a NULL read. */
#include <stdio.h>
#include <stdlib.h>

struct job { long id; long *slots; };

long work(struct job *j, long k) __asm__("main.work");
long run(struct job *j) __asm__("main.run");

__attribute__((noinline)) long work(struct job *j, long k)
{
    return j->slots[k]; /* slots == NULL */
}

__attribute__((noinline)) long run(struct job *j)
{
    register struct job *keep asm("r14") = malloc(64);
    asm volatile("" : "+r"(keep));
    long r = work(j, 2);
    asm volatile("" : "+r"(keep));
    free(keep);
    return r;
}

int main(void)
{
    struct job *j = calloc(1, sizeof *j);
    printf("%ld\n", run(j));
    return 0;
}
