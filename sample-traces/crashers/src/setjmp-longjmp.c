/* Error recovery with setjmp/longjmp (gcc -O2): longjmp restores callee-saved registers from
 * the jmp_buf, legally. Afterwards a NULL field is read. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf recover;
struct token { int kind; const char *text; };

__attribute__((noinline)) void expect(int kind, int want)
{
    if (kind != want) longjmp(recover, kind);
}

__attribute__((noinline)) int parse(struct token *toks, int n)
{
    for (int i = 0; i < n; i++) expect(toks[i].kind, 1);
    return n;
}

__attribute__((noinline)) int first_char(struct token *t)
{
    return t->text[0]; /* text == NULL */
}

int main(void)
{
    struct token *toks = calloc(4, sizeof *toks);
    toks[0].kind = 1; toks[1].kind = 1; toks[2].kind = 5;
    volatile int err = setjmp(recover);
    if (err == 0) {
        parse(toks, 4);
    } else {
        printf("parse error %d\n", err);
        printf("%d\n", first_char(&toks[2]));
    }
    return 0;
}
