// g++ -O2: a config value held in a std::variant is read as the wrong alternative with
// std::get: std::bad_variant_access is thrown and nothing catches it.
#include <cstdio>
#include <string>
#include <variant>

using Value = std::variant<long, std::string>;

__attribute__((noinline)) long port_of(const Value &v)
{
    return std::get<long>(v) + 0;
}

int main()
{
    Value port = std::string("8080");
    std::printf("port %ld\n", port_of(port));
}
