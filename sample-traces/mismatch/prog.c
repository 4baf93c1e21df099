/* Calls into libshape with a NULL shape: the fault is inside the library. */
#include <stdio.h>
#include <stdlib.h>

struct shape;
double shape_area(const struct shape *s);

static struct shape *lookup(const char *name) {
    (void)name;
    return NULL; /* not found */
}

int main(int argc, char **argv) {
    struct shape *s = lookup(argc > 1 ? argv[1] : "square");
    printf("area %f\n", shape_area(s));
    return 0;
}
