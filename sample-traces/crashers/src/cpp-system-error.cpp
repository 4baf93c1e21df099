// g++ -O2 -pthread: a worker is joined twice (once in a cleanup helper, once by main);
// the second join throws std::system_error ('Invalid argument'), which nothing catches.
#include <cstdio>
#include <thread>

static void work(int *out) { *out = 42; }

__attribute__((noinline)) static void finish(std::thread &t)
{
    t.join();
}

int main()
{
    int result = 0;
    std::thread t(work, &result);
    finish(t);
    t.join(); // already joined
    std::printf("%d\n", result);
}
