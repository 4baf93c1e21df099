// g++ -O2: look-alike of cpp-bad-variant-access: std::bad_variant_access is thrown and caught
// (the program logs "caught std::bad_variant_access: …" and uses a default); later a lookup
// that returned nullptr is dereferenced: SIGSEGV, no uncaught exception.
#include <cstdio>
#include <string>
#include <variant>
#include <map>

using Value = std::variant<long, std::string>;

__attribute__((noinline)) long port_of(const Value &v)
{
    try {
        return std::get<long>(v);
    } catch (const std::bad_variant_access &e) {
        std::fprintf(stderr, "caught std::bad_variant_access: %s (using 80)\n", e.what());
        return 80;
    }
}

struct Route {
    long weight;
};

static std::map<std::string, Route *> routes;

__attribute__((noinline)) long weight_of(const std::string &name)
{
    return routes[name]->weight;
}

int main()
{
    Value port = std::string("8080");
    std::printf("port %ld\n", port_of(port));
    std::printf("weight %ld\n", weight_of("edge"));
}
