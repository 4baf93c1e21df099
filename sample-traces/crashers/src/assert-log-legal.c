/* gcc -O0: look-alike for assertion-failure: a unit-test runner reports a failed check in
 * glibc's own assert format (the program printed it; nothing aborted) and goes on to the next
 * test, which reads a fixture through a NULL pointer: the stop is a SIGSEGV, not an abort. */
#include <stdio.h>

struct fixture { const char *name; int rows; };
static struct fixture *loaded; /* the loader test failed */

static int check(int ok, const char *expr, const char *file, int line, const char *func)
{
    if (!ok)
        fprintf(stderr, "tests: %s:%d: %s: Assertion `%s' failed.\n", file, line, func, expr);
    return ok;
}
#define CHECK(e) check((e), #e, __FILE__, __LINE__, __func__)

static void test_load(void) { CHECK(loaded != NULL); }

__attribute__((noinline)) static int test_rows(void) { return loaded->rows == 3; }

int main(void)
{
    test_load();
    printf("rows ok: %d\n", test_rows());
    return 0;
}
