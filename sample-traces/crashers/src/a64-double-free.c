/* AArch64 (gcc -O2 -static, qemu-user): a parser frees its token buffer on a syntax error and
 * the caller frees it again: glibc aborts with 'free(): double free detected in tcache 2'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int parse(char *tok)
{
    if (tok[0] != '(') {
        free(tok); /* error path releases the token */
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    (void)argv;
    char *tok = malloc(32);
    strcpy(tok, argc > 5 ? "(x)" : "x)");
    if (parse(tok) < 0)
        fprintf(stderr, "syntax error\n");
    free(tok);
    return 0;
}
