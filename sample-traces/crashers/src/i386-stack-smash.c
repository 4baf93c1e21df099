/* i386 (i686-linux-gnu-gcc -O0 -fstack-protector-all, static): a name copied into an 8-byte
 * local with strcpy smashes the canary; __stack_chk_fail aborts with
 * '*** stack smashing detected ***' in a 32-bit process. */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int greet(const char *name)
{
    char buf[8];
    strcpy(buf, name); /* bug: no bound */
    return printf("hello %s\n", buf);
}

int main(void)
{
    return greet("a-visitor-with-a-long-name") < 0;
}
