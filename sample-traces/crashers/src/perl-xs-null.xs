/* A Perl XS module: total() sums a histogram through the module's current pointer, which
 * nothing has set (issue #11: a crash in native code under the perl interpreter). */
#include "EXTERN.h"
#include "perl.h"
#include "XSUB.h"

struct histogram {
    int buckets;
    long *counts;
};

static struct histogram *current;

static long bucket_total(const struct histogram *h)
{
    long s = 0;
    for (int i = 0; i < h->buckets; i++)
        s += h->counts[i];
    return s;
}

MODULE = PerlXsNull    PACKAGE = PerlXsNull    PREFIX = pxn_

PROTOTYPES: DISABLE

long
pxn_total()
    CODE:
        RETVAL = bucket_total(current);
    OUTPUT:
        RETVAL
