/* write-rodata: write into a string literal (lives in .rodata, mapped r--)
 * -> SIGSEGV SEGV_ACCERR.  -O0 -g. */
#include <ctype.h>
#include <stdio.h>

__attribute__((noinline)) static void upcase(char *s)
{
    for (; *s; s++)
        *s = (char)toupper((unsigned char)*s);
}

int main(void)
{
    char *greeting = "hello, world";   /* should have been char greeting[] */
    upcase(greeting);
    puts(greeting);
    return 0;
}
