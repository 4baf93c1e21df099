// C++ exceptions that are caught (issue 11, fifth pass): an exception captured in a worker
// thread as std::exception_ptr and rethrown in the main thread (std::rethrow_exception), and a
// nested exception (std::throw_with_nested / std::rethrow_if_nested), each caught, in a loop.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

static std::exception_ptr captured;
static long handled;

__attribute__((noinline)) static void load_config(int i) {
    if (i % 2 == 0) throw std::runtime_error("config " + std::to_string(i) + " missing");
}
__attribute__((noinline)) static void start_service(int i) {
    try {
        load_config(i);
    } catch (...) {
        std::throw_with_nested(std::logic_error("service could not start"));
    }
}
int main() {
    for (int i = 0;; i++) {
        std::thread t([i] {
            try {
                load_config(i);
            } catch (...) {
                captured = std::current_exception();
            }
        });
        t.join();
        try {
            if (captured) std::rethrow_exception(captured);
        } catch (const std::exception &e) {
            handled += e.what()[0];
        }
        captured = nullptr;
        try {
            start_service(i);
        } catch (const std::exception &e) {
            try {
                std::rethrow_if_nested(e);
            } catch (const std::exception &inner) {
                handled += inner.what()[0];
            }
        }
    }
}
