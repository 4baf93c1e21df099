/* A plugin loaded with dlopen(): its run() writes the result through the context's
 * output pointer, which the host left NULL. */
struct output {
    long count;
    long total;
};

struct context {
    const char *name;
    struct output *out;
};

long plugin_run(struct context *cx, const long *v, long n)
{
    long t = 0;
    for (long i = 0; i < n; i++)
        t += v[i];
    cx->out->total = t;
    cx->out->count = n;
    return t;
}
