/* gcc -O2: a function upper-cases a string in place and is handed a string literal;
 * the write faults in the read-only .rodata of the executable (SEGV_ACCERR). */
#include <ctype.h>
#include <stdio.h>

__attribute__((noinline)) void upcase(char *s)
{
    for (; *s; s++)
        *s = (char)toupper((unsigned char)*s);
}

int main(void)
{
    char *greeting = (char *)"hello";
    upcase(greeting);
    puts(greeting);
    return 0;
}
