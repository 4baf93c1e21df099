// g++ -O2: a C++ callback throws through a C library frame that has no unwind
// information; the unwinder cannot reach main's catch and calls std::terminate.
#include <cstdio>
#include <stdexcept>

extern "C" {
typedef int (*record_cb)(int id, void *ctx);
int for_each_record(int n, record_cb cb, void *ctx);
}

static int limit = 3;

extern "C" int on_record(int id, void *)
{
    if (id >= limit)
        throw std::runtime_error("record id out of range");
    return id;
}

int main()
{
    try {
        std::printf("%d\n", for_each_record(5, on_record, nullptr));
    } catch (const std::exception &e) {
        std::printf("caught: %s\n", e.what());
    }
}
