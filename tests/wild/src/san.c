/* Sanitizer and valgrind crashers for the wild corpus (tests/wild/record.sh). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int shared_total;

__attribute__((noinline)) int sum_items(const int *items, int n) {
    int s = 0;
    for (int i = 0; i <= n; i++) /* off by one */
        s += items[i];
    return s;
}

__attribute__((noinline)) void fill_name(char *dst, int n) {
    for (int i = 0; i <= n; i++)
        dst[i] = 'x';
}

__attribute__((noinline)) char *make_label(const char *s) {
    char *p = malloc(strlen(s) + 1);
    strcpy(p, s);
    return p;
}

__attribute__((noinline)) int scale(int v) {
    return v * 65536 * 65536;
}

static void *adder(void *arg) {
    (void)arg;
    for (int i = 0; i < 1000; i++)
        shared_total++;
    return NULL;
}

__attribute__((noinline)) int pick(int flag) {
    int chosen;
    if (flag > 2)
        chosen = 7;
    return chosen;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "heap";
    if (!strcmp(mode, "heap")) {
        int *items = malloc(8 * sizeof(int));
        for (int i = 0; i < 8; i++)
            items[i] = i;
        printf("%d\n", sum_items(items, 8));
        free(items);
    } else if (!strcmp(mode, "stack")) {
        char name[16];
        fill_name(name, 16);
        printf("%c\n", name[0]);
    } else if (!strcmp(mode, "uaf")) {
        char *l = make_label("session");
        free(l);
        printf("%c\n", l[2]);
    } else if (!strcmp(mode, "double")) {
        char *l = make_label("session");
        free(l);
        free(l);
    } else if (!strcmp(mode, "leak")) {
        for (int i = 0; i < 3; i++)
            make_label("leaked label");
    } else if (!strcmp(mode, "ubsan")) {
        printf("%d\n", scale(argc + 1));
        int *p = NULL;
        if (argc > 5)
            p = &argc;
        printf("%d\n", *p);
    } else if (!strcmp(mode, "race")) {
        pthread_t a, b;
        pthread_create(&a, NULL, adder, NULL);
        pthread_create(&b, NULL, adder, NULL);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        printf("%d\n", shared_total);
    } else if (!strcmp(mode, "uninit")) {
        if (pick(argc))
            puts("chosen");
    }
    return 0;
}
