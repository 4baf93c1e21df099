// A thread_local object's destructor (run by __call_tls_dtors when the thread exits)
// reports its count to a statistics sink that main has already reset to nullptr.
#include <cstdio>
#include <thread>

struct Sink { long total; long threads; };
static Sink *g_sink;

struct Counter {
    long hits = 0;
    ~Counter();
};

__attribute__((noinline)) Counter::~Counter()
{
    g_sink->total += hits; // the sink is gone
    g_sink->threads++;
}

thread_local Counter tl_counter;

static void work(int n)
{
    for (int i = 0; i < n; i++) tl_counter.hits += i;
}

int main()
{
    static Sink sink{};
    g_sink = &sink;
    std::thread t([] {
        work(100);
        g_sink = nullptr; // a shutdown path resets the sink before the worker is done
    });
    t.join();
    std::printf("%ld\n", sink.total);
}
