/* A small "inventory service" with four real bugs, for the triage labelled set.
 *
 * Usage: inventory MODE THREADS SEED
 *   MODE  null-config  NULL record dereferenced in parse_field, reached from load_config
 *         null-user    the same NULL dereference in parse_field, reached from load_user
 *         assert-len   a different bug in the same function: parse_field's length assertion
 *         double-free  release_buffer frees a buffer twice (glibc aborts)
 *         wild-index   checksum reads through a corrupted (non-canonical) pointer
 *   THREADS worker threads started before the crash (the crash happens in the last one)
 *   SEED    varies heap layout (allocations before the crash), so addresses differ run to run
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct record {
    char name[24];
    size_t len;
    const char *value;
};

static struct record table[4] = {
    {"host", 9, "localhost"},
    {"port", 4, "8080"},
    {"user", 5, "alice"},
    {"mode", 200, "overlong"},
};

static const char *mode;

static struct record *lookup(const char *key) {
    for (int i = 0; i < 4; i++)
        if (strcmp(table[i].name, key) == 0)
            return &table[i];
    return NULL;
}

__attribute__((noinline)) static size_t parse_field(const char *key) {
    struct record *r = lookup(key);
    if (strcmp(mode, "assert-len") == 0)
        assert(r->len < 64);
    return r->len + strlen(r->value); /* r is NULL for an unknown key */
}

__attribute__((noinline)) static size_t load_config(void) {
    size_t n = parse_field("host");
    return n + parse_field(strcmp(mode, "null-config") == 0 ? "timeout" : "port");
}

__attribute__((noinline)) static size_t load_user(void) {
    size_t n = parse_field("user");
    return n + parse_field(strcmp(mode, "null-user") == 0 ? "group" : strcmp(mode, "assert-len") == 0 ? "mode" : "user");
}

__attribute__((noinline)) static void release_buffer(char *buf) {
    free(buf);
    if (strcmp(mode, "double-free") == 0)
        free(buf);
}

__attribute__((noinline)) static uint64_t checksum(const uint64_t *words, size_t n) {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += words[i];
    return sum;
}

__attribute__((noinline)) static uint64_t verify_blocks(void) {
    uint64_t *blocks = calloc(8, sizeof *blocks);
    const uint64_t *p = blocks;
    if (strcmp(mode, "wild-index") == 0)
        p = (const uint64_t *)((uintptr_t)blocks ^ 0xdead000000000000ull);
    uint64_t s = checksum(p, 8);
    free(blocks);
    return s;
}

static void *serve(void *arg) {
    (void)arg;
    size_t total = 0;
    if (strcmp(mode, "null-config") == 0)
        total += load_config();
    else if (strcmp(mode, "null-user") == 0 || strcmp(mode, "assert-len") == 0)
        total += load_user();
    else if (strcmp(mode, "double-free") == 0)
        release_buffer(malloc(64));
    else
        total += verify_blocks();
    printf("total %zu\n", total);
    return NULL;
}

static void *idle(void *arg) {
    (void)arg;
    sleep(30);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODE THREADS SEED\n", argv[0]);
        return 2;
    }
    mode = argv[1];
    int threads = atoi(argv[2]);
    int seed = atoi(argv[3]);
    /* Heap layout differs with the seed. */
    for (int i = 0; i < seed; i++)
        (void)malloc((size_t)(16 * (i + 1)));
    pthread_t t[16];
    if (threads > 16)
        threads = 16;
    for (int i = 0; i + 1 < threads; i++)
        pthread_create(&t[i], NULL, idle, NULL);
    usleep(20000);
    if (threads > 0) {
        pthread_t w;
        pthread_create(&w, NULL, serve, NULL);
        pthread_join(w, NULL);
    } else {
        serve(NULL);
    }
    return 0;
}
