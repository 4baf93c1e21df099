/* gcc -O0: a log file closed on an error path and again by the cleanup; the second fclose()
 * frees the FILE again: glibc aborts ('free(): double free detected in tcache 2') from inside
 * fclose. */
#include <stdio.h>
#include <stdlib.h>

static int write_header(FILE *f, int version)
{
    if (version < 2) {
        fclose(f); /* error path closes it ... */
        return -1;
    }
    return fprintf(f, "v%d\n", version);
}

int main(void)
{
    FILE *f = fopen("/dev/null", "w");
    if (!f)
        return 1;
    if (write_header(f, 1) < 0)
        fprintf(stderr, "old version\n");
    fclose(f); /* ... and the cleanup closes it again */
    return 0;
}
