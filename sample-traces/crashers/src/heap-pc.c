/* A function pointer loaded from a heap object that was overwritten with a pointer to
 * another heap object: the call jumps into the (non-executable) heap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ops { long (*apply)(long); char name[24]; };

static long twice(long x) { return 2 * x; }

__attribute__((noinline)) long run_op(struct ops *o, long x)
{
    return o->apply(x);
}

int main(void)
{
    struct ops *o = malloc(sizeof *o);
    o->apply = twice;
    strcpy(o->name, "twice");
    char *scratch = malloc(64);
    memset(scratch, 0x90, 64);
    memcpy(&o->apply, &scratch, sizeof scratch); /* stray store */
    printf("%ld\n", run_op(o, 21));
    return 0;
}
