// g++ -O0: a std::string built from a NULL const char* (a missing environment variable):
// libstdc++ throws std::logic_error ('basic_string: construction from null is not valid');
// nothing catches it.
#include <cstdio>
#include <cstdlib>
#include <string>

static std::string config_dir()
{
    const char *home = std::getenv("TRACECHECK_NO_SUCH_VAR");
    return std::string(home) + "/.config";
}

int main()
{
    std::printf("%s\n", config_dir().c_str());
}
