/* assert-fail: assert() failure -> __assert_fail -> abort(). -O0 -g. */
#include <assert.h>
#include <stdio.h>

struct range { int lo, hi; };

__attribute__((noinline)) static int range_width(const struct range *r)
{
    assert(r->lo <= r->hi && "range is inverted");
    return r->hi - r->lo;
}

int main(void)
{
    struct range ok = { 1, 10 }, bad = { 7, 3 };
    printf("%d\n", range_width(&ok));
    printf("%d\n", range_width(&bad));
    return 0;
}
