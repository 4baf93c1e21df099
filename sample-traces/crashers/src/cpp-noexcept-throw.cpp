// clang++ -O2: an exception escapes a noexcept function, so std::terminate is called:
// "terminate called after throwing an instance of 'std::runtime_error'".
#include <cstdio>
#include <stdexcept>
#include <string>

__attribute__((noinline)) int parse_level(const std::string &s)
{
    if (s.empty() || s[0] < '0' || s[0] > '9') throw std::runtime_error("bad level: " + s);
    return s[0] - '0';
}

__attribute__((noinline)) int load_level(const std::string &s) noexcept { return parse_level(s); }

int main()
{
    std::printf("%d\n", load_level("3"));
    std::printf("%d\n", load_level("high"));
}
