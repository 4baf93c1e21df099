/* An index of -1 into a large (mmap'ed) block writes over the malloc chunk header just
 * before it; free() then sees an mmap'ed chunk with a nonsense size and glibc aborts with
 * "munmap_chunk(): invalid pointer". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void fill_samples(long *samples, long n, long first)
{
    for (long i = first; i < n; i++)
        samples[i] = 0x4242424242424242;
}

__attribute__((noinline)) void release_samples(long *samples)
{
    free(samples);
}

int main(void)
{
    long n = 64 * 1024; /* 512 KiB: above the mmap threshold */
    long *samples = malloc(n * sizeof *samples);
    fill_samples(samples, n, -1); /* off by one below the block */
    printf("%lx\n", samples[0]);
    release_samples(samples);
    return 0;
}
