// Exceptions thrown and caught in a loop: a signal sent from outside lands inside the
// unwinder (__cxa_throw, _Unwind_RaiseException, the personality routine), with nothing wrong.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
__attribute__((noinline)) int parse_digit(int c) {
    if (c % 5 == 0) throw std::invalid_argument("not a digit");
    return c % 10;
}
__attribute__((noinline)) int deeper(int c, int d) { return d == 0 ? parse_digit(c) : deeper(c, d - 1) + 1; }
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 50000000;
    long ok = 0, bad = 0;
    for (long r = 0; r < rounds; r++) {
        try {
            ok += deeper((int)r, 6);
        } catch (const std::invalid_argument &) {
            bad++;
        }
    }
    std::printf("%ld %ld\n", ok, bad);
    return 0;
}
