// g++ -O2 -pthread: a std::thread's function throws and nothing in that thread catches it;
// std::terminate aborts in the worker thread while main waits in join().
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

__attribute__((noinline)) int parse_port(const char *s)
{
    int p = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            throw std::invalid_argument("port is not a number");
        p = p * 10 + (*s - '0');
    }
    return p;
}

int main()
{
    int port = 0;
    std::thread t([&] { port = parse_port("80a"); });
    t.join();
    std::printf("%d\n", port);
}
