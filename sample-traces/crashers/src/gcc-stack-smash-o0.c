/* gcc -O0 -fstack-protector-all: strcpy of a long argument into an 8-byte local; the
 * canary check at return aborts with "*** stack smashing detected ***". */
#include <stdio.h>
#include <string.h>

void copy_label(const char *in)
{
    char label[8];
    strcpy(label, in);
    printf("label %s\n", label);
}

int main(int argc, char **argv)
{
    (void)argv;
    copy_label(argc > 5 ? "x" : "a-label-longer-than-eight-bytes");
    return 0;
}
