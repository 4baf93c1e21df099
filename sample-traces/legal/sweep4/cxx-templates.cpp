// Legal heavy-template C++ (issue 11, fourth pass), built with -O3 -flto (g++ and clang++):
// std::map/unordered_map churn, std::sort with a lambda, std::variant visitation,
// shared_ptr/weak_ptr, std::function, a small expression-template vector and std::string
// building; everything inlines into a few big frames with callee-saved registers full of
// iterators and counts.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

template <class L, class R> struct Add {
    const L &l; const R &r;
    double operator[](size_t i) const { return l[i] + r[i]; }
    size_t size() const { return l.size(); }
};
struct Vec {
    std::vector<double> v;
    explicit Vec(size_t n, double x) : v(n, x) {}
    double operator[](size_t i) const { return v[i]; }
    size_t size() const { return v.size(); }
    template <class E> Vec &operator=(const E &e) { for (size_t i = 0; i < v.size(); i++) v[i] = e[i]; return *this; }
};
template <class L, class R> Add<L, R> operator+(const L &l, const R &r) { return {l, r}; }

using Val = std::variant<long, double, std::string>;
struct Visit {
    long operator()(long x) const { return x * 3; }
    long operator()(double d) const { return (long)(d * 2); }
    long operator()(const std::string &s) const { return (long)s.size(); }
};

struct Node { long v; std::weak_ptr<Node> parent; std::vector<std::shared_ptr<Node>> kids; };

__attribute__((noinline)) long round_(long r) {
    std::map<std::string, long> m;
    std::unordered_map<long, std::string> u;
    for (long i = 0; i < 300; i++) {
        std::string k = "key" + std::to_string((i * 7919 + r) % 211);
        m[k] += i;
        u.emplace(i ^ r, k);
    }
    std::vector<long> xs;
    for (auto &[k, v] : m) xs.push_back(v * (long)k.size());
    std::sort(xs.begin(), xs.end(), [r](long a, long b) { return (a ^ r) < (b ^ r); });
    std::vector<Val> vals{1L, 2.5, std::string("abc"), r, (double)r, std::to_string(r)};
    long s = 0;
    for (auto &v : vals) s += std::visit(Visit{}, v);
    auto root = std::make_shared<Node>(Node{r, {}, {}});
    for (int i = 0; i < 20; i++) { auto k = std::make_shared<Node>(Node{i, root, {}}); root->kids.push_back(k); }
    for (auto &k : root->kids) if (auto p = k->parent.lock()) s += p->v + k->v;
    std::function<long(long)> f = [&](long x) { return x + (long)u.size(); };
    Vec a(256, 1.0), b(256, 2.0), c(256, 0.0);
    c = a + b + a;
    return s + f((long)xs.size()) + (long)c[r % 256] + (long)u.size();
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000000L;
    long acc = 0;
    for (long r = 0; r < rounds; r++) acc += round_(r);
    std::printf("%ld\n", acc);
    return 0;
}
