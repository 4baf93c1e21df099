// g++ -O2 -pthread: a worker is handed a std::promise and returns without setting it; the
// promise's destructor stores std::future_error(broken_promise), and future::get() rethrows
// it in main, where nothing catches it.
#include <cstdio>
#include <future>
#include <thread>

static void load_index(std::promise<int> p, int shard)
{
    if (shard > 2)
        return; // forgot p.set_value
    p.set_value(shard * 10);
}

__attribute__((noinline)) int wait_index(int shard)
{
    std::promise<int> p;
    std::future<int> f = p.get_future();
    std::thread t(load_index, std::move(p), shard);
    t.join();
    return f.get();
}

int main()
{
    std::printf("index %d\n", wait_index(5));
}
