// Many threads in many kinds of waits (issue 11, fifth pass): futex waits on condition
// variables and a contended mutex, read(2) on a pipe, epoll_wait, sigwaitinfo, nanosleep, and
// a thread that spends its time in a SIGUSR1 handler (the main thread sends storms of them).
// sweep5.sh stops it at random, so threads are caught inside syscalls, futexes and handlers.
// Nothing in it is wrong.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, hot = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long ticket, shared_counter;
static int pipefd[2];
static volatile sig_atomic_t in_handler;
static pthread_t sig_thread, waiter_thread;

__attribute__((noinline)) static long handler_work(long x) {
    long s = 0;
    for (int i = 0; i < 2000; i++) s += (x * 31 + i) ^ (s >> 3);
    return s;
}
static void on_usr1(int sig) {
    (void)sig;
    in_handler++;
    shared_counter += handler_work(in_handler) & 1;
}
static void *cond_waiter(void *arg) {
    long seen = 0;
    for (;;) {
        pthread_mutex_lock(&mu);
        while (ticket == seen) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 50 * 1000 * 1000;
            if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
            pthread_cond_timedwait(&cv, &mu, &ts);
        }
        seen = ticket;
        pthread_mutex_unlock(&mu);
        (void)arg;
    }
    return NULL;
}
static void *contender(void *arg) {
    for (long i = 0;; i++) {
        pthread_mutex_lock(&hot);
        shared_counter += handler_work(i) & (long)arg;
        pthread_mutex_unlock(&hot);
    }
    return NULL;
}
static void *pipe_reader(void *arg) {
    char b[64];
    (void)arg;
    for (;;) if (read(pipefd[0], b, sizeof b) <= 0) usleep(1000);
    return NULL;
}
static void *epoller(void *arg) {
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN}, out[4];
    (void)arg;
    int p[2];
    pipe(p);
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    for (;;) epoll_wait(ep, out, 4, 20);
    return NULL;
}
static void *sig_waiter(void *arg) {
    sigset_t s;
    siginfo_t si;
    (void)arg;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR2);
    for (;;) sigwaitinfo(&s, &si);
    return NULL;
}
static void *handler_thread(void *arg) {
    (void)arg;
    for (;;) pause();
    return NULL;
}
static void *sleeper(void *arg) {
    (void)arg;
    for (;;) {
        struct timespec ts = {0, 3 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}
int main(void) {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &s, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    pipe(pipefd);
    pthread_t t;
    for (int i = 0; i < 4; i++) pthread_create(&t, NULL, cond_waiter, NULL);
    pthread_create(&t, NULL, contender, (void *)1L);
    pthread_create(&t, NULL, contender, (void *)3L);
    pthread_create(&t, NULL, pipe_reader, NULL);
    pthread_create(&t, NULL, epoller, NULL);
    pthread_create(&sig_thread, NULL, sig_waiter, NULL);
    pthread_create(&waiter_thread, NULL, handler_thread, NULL);
    pthread_create(&t, NULL, sleeper, NULL);
    for (long r = 0;; r++) {
        pthread_mutex_lock(&mu);
        ticket++;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
        for (int k = 0; k < 20; k++) pthread_kill(waiter_thread, SIGUSR1);
        pthread_kill(sig_thread, SIGUSR2);
        write(pipefd[1], "x", 1);
        usleep(2000);
    }
}
