/* clang -O2: a pointer tagged in its high bits (tag | ptr) is used without removing the tag:
 * the load uses a non-canonical address (#GP, si_code 128). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct obj { long refs; long value; };
#define TAG_SHIFT 52

__attribute__((noinline)) long obj_value(uintptr_t tagged)
{
    struct obj *o = (struct obj *)tagged; /* forgot: tagged & ((1ul << TAG_SHIFT) - 1) */
    return o->value;
}

int main(void)
{
    struct obj *o = calloc(1, sizeof *o);
    o->value = 42;
    uintptr_t tagged = (uintptr_t)o | (0x7ul << TAG_SHIFT);
    printf("%ld\n", obj_value(tagged));
    return 0;
}
