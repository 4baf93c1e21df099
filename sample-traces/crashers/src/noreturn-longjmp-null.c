/* gcc -O2 -fomit-frame-pointer -falign-functions=1: validate() ends in a call to the noreturn
 * longjmp() through a recovery pointer that was never set (NULL jmp_buf). gcc emits the call
 * as the function's last instruction, so validate's return address is the first byte of the
 * next function (check_rest) -- symbolizing it without stepping back one byte names the wrong
 * function. The fault is inside libc's longjmp, reading NULL; the culprit is validate. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf *recover_to; /* never set */
int errors;

__attribute__((noinline)) void validate(const char *s) {
    if (s[0] == '#') {
        errors++;
        longjmp(*recover_to, 1);
    }
}

__attribute__((noinline)) int check_rest(const char *s) {
    int n = 0;
    while (*s) n += *s++ == ',';
    return n;
}

int main(int argc, char **argv) {
    (void)argv;
    const char *line = argc > 5 ? "a,b" : "#bad,line";
    validate(line);
    printf("%d\n", check_rest(line));
    return 0;
}
