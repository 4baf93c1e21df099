// A `throw;` (rethrow) outside any handler: "terminate called without an active exception".
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) void rethrow_last_error(int code)
{
    if (code != 0) throw; // meant to rethrow inside a catch block
}

int main(int argc, char **)
{
    std::puts("starting");
    rethrow_last_error(argc);
}
