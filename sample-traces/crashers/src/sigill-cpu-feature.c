/* gcc -O2 -mamx-tile: a code path compiled for a CPU feature (Intel AMX) that this CPU lacks
 * runs without a cpuid check: `tilerelease` is an illegal instruction here (SIGILL,
 * ILL_ILLOPN), a real instruction at a real code address, not a trap the compiler put there. */
#include <immintrin.h>
#include <stdio.h>

__attribute__((noinline)) static void release_tiles(void)
{
    _tile_release();
}

int main(void)
{
    puts("releasing tiles");
    release_tiles();
    return 0;
}
