/* Threads whose stacks the program provides itself (pthread_attr_setstack): one in a 64 KiB
   malloc'ed block (in [heap], below the mmap threshold) and one in a static array in .bss.
   Both spin legally; stopped from outside and at a breakpoint in the worker. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#define STK (64 * 1024)
static char bss_stack[STK] __attribute__((aligned(4096)));
volatile unsigned long spins[2];
__attribute__((noinline)) void spin_step(int id, unsigned long i) { spins[id] += i ^ (unsigned long)id; }
static void *spinner(void *arg) {
    int id = (int)(long)arg;
    for (unsigned long i = 0; i < 4000000000ul && spins[id] != 1; i++) spin_step(id, i);
    return NULL;
}
int main(void) {
    void *heap_stack = malloc(STK + 4096);
    void *aligned = (void *)(((unsigned long)heap_stack + 4095) & ~4095ul);
    pthread_attr_t a, b;
    pthread_t t[2];
    pthread_attr_init(&a);
    pthread_attr_setstack(&a, aligned, STK);
    pthread_attr_init(&b);
    pthread_attr_setstack(&b, bss_stack, STK);
    pthread_create(&t[0], &a, spinner, (void *)0L);
    pthread_create(&t[1], &b, spinner, (void *)1L);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    printf("%lu\n", spins[0] + spins[1]);
    return 0;
}
