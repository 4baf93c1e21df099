/* gcc -O2: a job under a 1-second CPU-time limit (setrlimit RLIMIT_CPU) spins in a search
 * loop: the kernel sends SIGXCPU (si_code SI_KERNEL), whose default action dumps core. No
 * memory error. */
#include <stdio.h>
#include <sys/resource.h>

__attribute__((noinline)) static unsigned long search(unsigned long seed)
{
    unsigned long x = seed;
    for (;;) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        if (x == 0) /* never */
            return x;
    }
}

int main(void)
{
    struct rlimit rl = {1, 2};
    setrlimit(RLIMIT_CPU, &rl);
    printf("%lu\n", search(7));
    return 0;
}
