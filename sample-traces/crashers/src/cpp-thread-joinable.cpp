// g++ -O2 -pthread: a std::thread goes out of scope still joinable (an early return skips the
// join); its destructor calls std::terminate: 'terminate called without an active exception'.
#include <chrono>
#include <cstdio>
#include <thread>

static void poll_sensor(int id)
{
    std::this_thread::sleep_for(std::chrono::seconds(5));
    std::printf("sensor %d\n", id);
}

__attribute__((noinline)) int start_monitor(int sensors)
{
    std::thread t(poll_sensor, sensors);
    if (sensors > 2)
        return -1; // early return: t is never joined
    t.join();
    return 0;
}

int main()
{
    std::printf("%d\n", start_monitor(3));
}
