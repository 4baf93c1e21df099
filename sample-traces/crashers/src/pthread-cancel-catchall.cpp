// g++ -O2 -pthread: a worker thread is cancelled while blocked in a cancellation point; the
// cancellation unwinds the thread with a forced-unwind exception, which a catch (...) in the
// worker swallows instead of rethrowing. glibc aborts with 'FATAL: exception not rethrown'.
#include <cstdio>
#include <pthread.h>
#include <unistd.h>

static int pipefd[2];

__attribute__((noinline)) static int read_command() {
    char c;
    try {
        if (read(pipefd[0], &c, 1) == 1) return c; // cancellation point
    } catch (...) {
        std::fputs("read_command: error ignored\n", stderr); // bug: must rethrow
    }
    return -1;
}

static void *worker(void *) {
    for (;;)
        if (read_command() < 0) break;
    return nullptr;
}

int main() {
    pthread_t t;
    if (pipe(pipefd) != 0) return 1;
    pthread_create(&t, nullptr, worker, nullptr);
    usleep(100000);
    pthread_cancel(t);
    pthread_join(t, nullptr);
    std::puts("joined");
    return 0;
}
