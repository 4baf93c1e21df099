/* The C side of rust-ffi-null: counts a record's fields through its header. */
#include <stddef.h>

struct header {
    int version;
    int nfields;
};

struct record {
    long id;
    struct header *hdr;
};

int record_field_count(const struct record *r)
{
    return r->hdr->nfields;
}
