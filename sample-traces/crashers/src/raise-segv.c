/* SIGSEGV sent with raise() (si_code SI_TKILL, no memory access): a watchdog that "crashes"
 * on purpose. si_addr is not a fault address. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void watchdog_expired(int seconds)
{
    fprintf(stderr, "watchdog: no progress for %d s, crashing on purpose\n", seconds);
    raise(SIGSEGV);
}

int main(void)
{
    watchdog_expired(30);
    return 0;
}
