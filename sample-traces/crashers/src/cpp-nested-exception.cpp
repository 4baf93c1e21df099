// g++ -O0: load_config() catches a parse error and rethrows it wrapped with
// std::throw_with_nested; nothing catches the wrapper, so terminate reports
// 'std::_Nested_exception<std::runtime_error>'.
#include <exception>
#include <stdexcept>
#include <string>
#include <cstdio>

static int parse_port(const std::string &s)
{
    if (s.empty() || s[0] < '0' || s[0] > '9')
        throw std::invalid_argument("port is not a number: " + s);
    return std::stoi(s);
}

__attribute__((noinline)) int load_config(const std::string &port)
{
    try {
        return parse_port(port);
    } catch (const std::exception &) {
        std::throw_with_nested(std::runtime_error("cannot load config"));
    }
}

int main()
{
    std::printf("port %d\n", load_config("http"));
    return 0;
}
