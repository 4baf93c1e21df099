// g++ -O0: a function-local static whose initializer calls back into the same function: the
// guard (__cxa_guard_acquire) detects the recursive initialization and throws
// __gnu_cxx::recursive_init_error, which nothing catches.
#include <cstdio>
#include <string>

struct Registry;
Registry &registry();

struct Registry {
    std::string name;
    int entries;
    Registry() : name("main"), entries(0) { entries = count_defaults(); }
    int count_defaults() { return registry().entries + 3; }
};

Registry &registry()
{
    static Registry r;
    return r;
}

int main()
{
    std::printf("%d entries\n", registry().entries);
}
