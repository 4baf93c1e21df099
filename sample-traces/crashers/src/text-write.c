/* gcc -O2: a "hot patch" writes a byte into the program's own code without mprotect(): the
 * write faults in the executable's r-x text segment (SEGV_ACCERR). */
#include <stdio.h>

__attribute__((noipa)) int answer(void) { return 42; }

__attribute__((noipa)) void patch(volatile unsigned char *at, unsigned char byte)
{
    *at = byte;
}

int main(void)
{
    printf("%d\n", answer());
    patch((volatile unsigned char *)answer + 1, 0x90);
    printf("%d\n", answer());
    return 0;
}
