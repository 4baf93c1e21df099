// g++ -std=c++20 -O2: a generator coroutine whose frame was destroyed is resumed through a
// copied handle. The frame is freed memory: its resume pointer (the first word) now holds the
// heap allocator's free-list link, and resume() calls through it.
#include <coroutine>
#include <cstdio>

struct Gen {
    struct promise_type {
        int value = 0;
        Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        std::suspend_always yield_value(int v) { value = v; return {}; }
        void return_void() {}
        void unhandled_exception() {}
    };
    std::coroutine_handle<promise_type> h;
};

Gen counter(int n) {
    for (int i = 0; i < n; i++) co_yield i;
}

__attribute__((noinline)) int next_value(std::coroutine_handle<Gen::promise_type> h) {
    h.resume();
    return h.promise().value;
}

int main() {
    Gen g = counter(100);
    auto stale = g.h;
    std::printf("%d\n", next_value(g.h));
    g.h.destroy();
    std::printf("%d\n", next_value(stale));
    return 0;
}
