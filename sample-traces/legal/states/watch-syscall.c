/* A counter written in a loop and a write(2) on a pipe: stopped by a watchpoint on the counter
   and by `catch syscall write`. Registers hold fill-like values (0xdeadbeef, 0xaaaaaaaa). */
#include <stdio.h>
#include <unistd.h>
volatile unsigned long counter;
volatile unsigned long patterns[4];
__attribute__((noinline)) void bump(unsigned long v) { counter += v; }
int main(void) {
    int fds[2];
    if (pipe(fds)) return 1;
    register unsigned long a asm("r12") = 0xdeadbeefUL;
    register unsigned long b asm("r15") = 0xaaaaaaaaaaaaaaaaUL;
    asm volatile("" : "+r"(a), "+r"(b));
    for (int i = 0; i < 5; i++) bump((unsigned long)i + 1);
    patterns[0] = a; patterns[1] = b;
    write(fds[1], "ok\n", 3);
    asm volatile("" ::"r"(a), "r"(b));
    printf("%lu %lx\n", counter, patterns[1]);
    return 0;
}
