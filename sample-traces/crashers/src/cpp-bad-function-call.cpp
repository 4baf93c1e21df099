// g++ -O2: a handler table entry left empty; calling the empty std::function throws
// std::bad_function_call, which nothing catches.
#include <cstdio>
#include <functional>
#include <map>
#include <string>

static std::map<std::string, std::function<int(int)>> handlers;

__attribute__((noinline)) int run_handler(const std::string &name, int arg)
{
    return handlers[name](arg); // operator[] inserts an empty std::function
}

int main()
{
    handlers["double"] = [](int x) { return 2 * x; };
    std::printf("%d\n", run_handler("double", 4));
    std::printf("%d\n", run_handler("triple", 4));
    return 0;
}
