/* Legal large frames: with an 8 MiB stack, a function takes 7 MiB with alloca and
 * touches all of it, so sp is a few hundred KiB above the end of the stack's reach.
 * Nothing overflows; the crash is an unrelated NULL read in a callee. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

struct stats { long n, sum; };

__attribute__((noinline)) long mean_of(const struct stats *st)
{
    return st->sum / (st->n ? st->n : 1);
}

__attribute__((noinline)) long process(size_t bytes, const struct stats *st)
{
    char *scratch = alloca(bytes);
    memset(scratch, 1, bytes);
    return scratch[bytes / 2] + mean_of(st);
}

int main(int argc, char **argv)
{
    (void)argv;
    static struct stats st = {2, 10};
    printf("%ld\n", process(7 << 20, argc > 5 ? &st : NULL));
    return 0;
}
