/* i386 (i686-linux-gnu-gcc -O0, static): a buffer freed by an error path and again by the
 * caller; glibc aborts with 'free(): double free detected in tcache 2' in a 32-bit process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(char *line)
{
    if (strchr(line, '=') == NULL) {
        free(line); /* error path frees it ... */
        return -1;
    }
    return 0;
}

int main(void)
{
    char *line = strdup("no-equals-sign");
    if (parse(line) < 0)
        fprintf(stderr, "bad line\n");
    free(line); /* ... and the caller frees it again */
    return 0;
}
