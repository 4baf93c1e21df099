// A global's constructor throws during dynamic initialization, before main: nothing can
// catch it, std::terminate aborts ('terminate called after throwing an instance of
// std::runtime_error').
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

struct Config {
    std::string home;
    Config();
};

__attribute__((noinline)) Config::Config()
{
    const char *h = std::getenv("TRACECHECK_DEMO_HOME");
    if (!h) throw std::runtime_error("TRACECHECK_DEMO_HOME is not set");
    home = h;
}

Config config;

int main()
{
    std::printf("%s\n", config.home.c_str());
}
