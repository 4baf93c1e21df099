/* A small shared library, built twice: the crash happens in build 1, and the debugger is
 * later given build 2 (different code layout, as after a package upgrade). */
#include <stddef.h>

struct shape {
    const char *name;
    double w, h;
};

#if SHAPE_VERSION == 2
/* Build 2 adds code and a table before the crashing function, so every address moves. */
const double shape_table[4099] = {1.0, 2.0, 3.0};

static double scale(double v, int times) {
    for (int i = 0; i < times; i++)
        v = v * 1.5 + (double)i;
    return v;
}

double shape_perimeter(const struct shape *s) {
    return 2 * (scale(s->w, 3) + scale(s->h, 3));
}
#endif

double shape_area(const struct shape *s) {
    return s->w * s->h;
}
