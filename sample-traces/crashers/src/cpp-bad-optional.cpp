// std::optional::value() on an empty optional throws std::bad_optional_access; nothing
// catches it: 'terminate called after throwing an instance of std::bad_optional_access'.
#include <cstdio>
#include <map>
#include <optional>
#include <string>

static std::optional<int> find_port(const std::map<std::string, int> &m, const std::string &k)
{
    auto it = m.find(k);
    if (it == m.end()) return std::nullopt;
    return it->second;
}

__attribute__((noinline)) int port_for(const std::map<std::string, int> &m, const char *service)
{
    return find_port(m, service).value();
}

int main()
{
    std::map<std::string, int> ports{{"http", 80}, {"ssh", 22}};
    std::printf("%d\n", port_for(ports, "http"));
    std::printf("%d\n", port_for(ports, "smtp"));
}
