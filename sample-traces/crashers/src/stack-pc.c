/* A callback pointer that ends up pointing at a local buffer: the call jumps into the
 * (non-executable) stack. */
#include <stdio.h>
#include <string.h>

typedef int (*cb_t)(int);

__attribute__((noinline)) int dispatch(cb_t cb, int v)
{
    return cb(v);
}

int main(int argc, char **argv)
{
    (void)argv;
    unsigned char buf[32];
    memset(buf, 0xc3, sizeof buf);
    cb_t cb = (cb_t)(void *)buf; /* meant to be a function from a table */
    printf("%d\n", dispatch(cb, argc));
    return 0;
}
