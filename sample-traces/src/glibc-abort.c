/* glibc-abort: double free detected by glibc's tcache -> abort(). -O0 -g. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct buffer { char *data; size_t len; };

__attribute__((noinline)) static void buffer_release(struct buffer *b)
{
    free(b->data);                 /* second call frees the same pointer again */
}

int main(void)
{
    struct buffer b = { malloc(48), 48 };
    strcpy(b.data, "payload");
    buffer_release(&b);
    buffer_release(&b);            /* b.data was not cleared */
    puts("unreachable");
    return 0;
}
