// C++ exceptions in flight through frames with destructors, catch-and-rethrow, nested
// try blocks and std::function: stops inside __cxa_throw, _Unwind_RaiseException,
// _Unwind_RaiseException_Phase2, the personality routine and the landing pads are legal.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
struct Guard { std::string name; long *n; Guard(const char *s, long *c) : name(s), n(c) {} ~Guard() { *n += name.size(); } };
__attribute__((noinline)) long leaf(long x, long *n) {
    Guard g("leaf", n);
    std::vector<int> v(8, (int)x);
    if (x % 3 == 0) throw std::runtime_error("leaf " + std::to_string(x));
    if (x % 7 == 0) throw 42;
    return v[3] + x;
}
__attribute__((noinline)) long middle(long x, long d, long *n) {
    Guard g("middle", n);
    auto p = std::make_unique<long>(x);
    if (d == 0) return leaf(*p, n);
    try { return middle(x, d - 1, n) + 1; } catch (const std::runtime_error &e) { if (d == 2) throw; return -1; }
}
__attribute__((noinline)) long outer(long x, long *n) {
    std::function<long(long)> f = [n](long y) { return middle(y, 4, n); };
    try { return f(x); } catch (const std::exception &e) { return (long)e.what()[0]; } catch (int i) { return i; }
}
int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 2000000000L, n = 0, acc = 0;
    for (long r = 0; r < rounds; r++) acc += outer(r, &n);
    std::printf("%ld %ld\n", acc, n);
}
