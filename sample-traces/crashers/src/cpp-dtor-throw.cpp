// g++ -O0: a destructor throws while the stack unwinds for another exception: C++ calls
// std::terminate ("terminate called after throwing an instance of 'std::runtime_error'").
#include <cstdio>
#include <stdexcept>

struct Journal {
    int pending;
    explicit Journal(int p) : pending(p) {}
    ~Journal() noexcept(false)
    {
        if (pending) throw std::runtime_error("journal not flushed");
    }
};

__attribute__((noinline)) void apply_batch(int n)
{
    Journal j(n);
    if (n > 2) throw std::length_error("batch too large");
}

int main()
{
    try {
        apply_batch(1 - 1);
        apply_batch(5);
    } catch (const std::exception &e) {
        std::printf("caught %s\n", e.what());
    }
    return 0;
}
