/* gcc -O0: an underflowing index writes 8 into the word before a buffer (the chunk's size
 * field); when the buffer grows, realloc() checks the old chunk and aborts with
 * 'realloc(): invalid old size'. */
#include <stdio.h>
#include <stdlib.h>

struct vec { long *data; long len, cap; };

__attribute__((noinline)) void vec_set(struct vec *v, long i, long x) { v->data[i] = x; }

__attribute__((noinline)) void vec_grow(struct vec *v) {
    v->cap *= 2;
    v->data = realloc(v->data, v->cap * sizeof(long));
}

int main(void) {
    struct vec v = { malloc(4 * sizeof(long)), 0, 4 };
    long at = 0;
    for (int k = 0; k < 3; k++) vec_set(&v, k, k);
    at = -1; /* "last element" of an empty view */
    vec_set(&v, at, 8); /* a "length" stored one slot too low */
    vec_grow(&v);
    printf("%ld\n", v.data[0]);
    return 0;
}
