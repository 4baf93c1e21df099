/* Crashers and non-crash stops for the wild corpus (tests/wild/record.sh).
 * One program, one mode per argv[1], so that every transcript comes from a real run. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct session {
    long id;
    long flags;
    long pad;
    char *bytes; /* offset 0x18 */
};

volatile long counter;

__attribute__((noinline)) long session_len(struct session *s) {
    return (long)strlen(s->bytes);
}

__attribute__((noinline)) void parse_header(const char *in, size_t n) {
    char buf[24];
    memcpy(buf, in, n); /* no bound check: the overflow */
    counter += buf[0];
}

static inline void bump(long by) {
    counter += by;
}

__attribute__((noinline)) void tick_a(void) { bump(1); }
__attribute__((noinline)) void tick_b(void) { bump(2); }

typedef int (*handler_fn)(int);
struct ops {
    handler_fn on_close;
};

__attribute__((noinline)) int close_all(struct ops *o, int fd) {
    return o->on_close(fd);
}

__attribute__((noinline)) int ratio(int a, int b) {
    return a / b;
}

static void *worker(void *arg) {
    long k = (long)arg;
    for (int i = 0; i < 3; i++) {
        tick_a();
        usleep(1000);
    }
    if (k == 2) {
        struct session *s = NULL;
        usleep(20000);
        return (void *)session_len(s);
    }
    sleep(5);
    return NULL;
}

__attribute__((noinline)) void copy_name(char *dst, const char *src) {
    strcpy(dst, src);
}

static void on_usr1(int sig) {
    (void)sig;
    tick_b();
}

long load_session(struct session *s, int depth);
long describe(const char *prefix, struct session *s);

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "null";
    if (!strcmp(mode, "null")) {
        struct session *s = NULL;
        printf("len %ld\n", session_len(s));
    } else if (!strcmp(mode, "pattern")) {
        /* a cyclic pattern like the ones exploit tools print: 4-byte groups aaaa baaa caaa ... */
        char in[96];
        for (int i = 0; i < 24; i++) {
            in[4 * i] = (char)('a' + i);
            in[4 * i + 1] = 'a';
            in[4 * i + 2] = 'a';
            in[4 * i + 3] = 'a';
        }
        parse_header(in, sizeof in);
    } else if (!strcmp(mode, "repeat")) {
        char in[80];
        memset(in, 'A', sizeof in);
        parse_header(in, sizeof in);
    } else if (!strcmp(mode, "fnptr")) {
        struct ops o = {0};
        return close_all(&o, 3);
    } else if (!strcmp(mode, "div")) {
        return ratio(argc, argc - 2);
    } else if (!strcmp(mode, "abort")) {
        abort();
    } else if (!strcmp(mode, "fortify")) {
        char small[8];
        strcpy(small, argc > 2 ? argv[2] : "x"); /* fortified: __strcpy_chk */
        puts(small);
    } else if (!strcmp(mode, "handler")) {
        signal(SIGUSR1, on_usr1);
        raise(SIGUSR1);
    } else if (!strcmp(mode, "usr1")) {
        tick_a();
        raise(SIGUSR1);
    } else if (!strcmp(mode, "trap")) {
        tick_a();
#if defined(__x86_64__) || defined(__i386__)
        __asm__ volatile("int3");
#else
        raise(SIGTRAP);
#endif
        tick_b();
    } else if (!strcmp(mode, "int")) {
        tick_b();
        raise(SIGINT);
    } else if (!strcmp(mode, "ticks")) {
        for (int i = 0; i < 4; i++) {
            tick_a();
            tick_b();
        }
    } else if (!strcmp(mode, "threads")) {
        pthread_t t[3];
        for (long i = 0; i < 3; i++)
            pthread_create(&t[i], NULL, worker, (void *)i);
        for (int i = 0; i < 3; i++)
            pthread_join(t[i], NULL);
    } else if (!strcmp(mode, "zeroret")) {
        /* frame #1's return address zeroed in the middle of the stack, then a NULL access */
        printf("len %ld\n", load_session(NULL, 2));
    } else if (!strcmp(mode, "nullok")) {
        /* a legal NULL argument (optional prefix) in the faulting frame; the fault is a
         * non-NULL wild pointer */
        printf("len %ld\n", describe(NULL, (struct session *)0x10000));
    }
    printf("counter %ld\n", counter);
    return 0;
}

/* Appended after main so that the code of the modes above keeps its addresses. */
__attribute__((noinline)) long drop_return(struct session *s) {
    void **fp = __builtin_frame_address(0);
    fp[1] = 0; /* the saved return address, zeroed as a stray memset would */
    return (long)strlen(s->bytes);
}

__attribute__((noinline)) long load_session(struct session *s, int depth) {
    long n = depth > 0 ? load_session(s, depth - 1) : drop_return(s);
    return n + 1;
}

__attribute__((noinline)) long describe(const char *prefix, struct session *s) {
    free((void *)prefix); /* free(NULL) is a no-op */
    if (prefix)
        printf("%s: ", prefix);
    return (long)strlen(s->bytes);
}
