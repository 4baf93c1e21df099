// g++ -O2: an exception escapes a noexcept function. gcc's personality routine finds the
// noexcept boundary during the search phase and calls std::terminate from inside __cxa_throw
// (no __clang_call_terminate frame, unlike clang's).
#include <cstdio>
#include <stdexcept>
#include <string>

__attribute__((noinline)) int parse_level(const std::string &s)
{
    if (s.empty() || s[0] < '0' || s[0] > '9')
        throw std::invalid_argument("level is not a number: " + s);
    return s[0] - '0';
}

__attribute__((noinline)) int load_config(const std::string &s) noexcept
{
    return parse_level(s) * 10;
}

int main(int argc, char **)
{
    std::string v = argc > 5 ? "7" : "high";
    std::printf("%d\n", load_config(v));
}
