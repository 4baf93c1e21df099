/* gcc -static -O1: a buffer is freed by a helper and again by its caller; glibc (linked
 * into the executable) aborts with "free(): double free detected in tcache 2". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int parse_line(char *line)
{
    int fields = 1;
    for (char *p = line; *p; p++)
        fields += *p == ',';
    if (fields > 3)
        free(line); /* "consumes" the line on error ... */
    return fields;
}

__attribute__((noinline)) void handle(const char *text)
{
    char *line = strdup(text);
    printf("%d fields\n", parse_line(line));
    free(line); /* ... and the caller frees it as well */
}

int main(void)
{
    handle("a,b");
    handle("a,b,c,d,e");
    return 0;
}
