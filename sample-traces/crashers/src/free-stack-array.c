/* gcc -O0: a function frees a message text it was handed, but one caller passes the text of
 * a message on its stack; the word before it (the length, 24, which glibc reads as the chunk
 * size) is smaller than any chunk: 'free(): invalid size'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct msg { long seq; long len; char text[32]; } __attribute__((aligned(16)));

__attribute__((noinline)) static void consume(char *text)
{
    printf("%s\n", text);
    free(text); /* callers must pass heap memory */
}

int main(void)
{
    struct msg m = { 1, 0, "" };
    strcpy(m.text, "reply from the stack 24b");
    m.len = (long)strlen(m.text);
    consume(strdup("heap line"));
    consume(m.text);
    return (int)m.seq;
}
