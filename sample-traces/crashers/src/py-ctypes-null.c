/* A plain C library called from Python through ctypes: sum_samples() is handed None (NULL)
 * for its array; the frames below it are libffi's and the interpreter's. */
#include <stddef.h>

double sum_samples(const double *samples, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += samples[i];
    return s;
}
