/* clang -O2 -fstack-protector-strong: a length taken from the input overflows a local buffer;
 * the canary check at return calls __stack_chk_fail ('*** stack smashing detected ***'). */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int parse_name(const char *in, size_t len)
{
    char name[16];
    memcpy(name, in, len); /* len is not checked against sizeof name */
    return (int)strlen(name);
}

int main(int argc, char **argv)
{
    (void)argv;
    static const char input[64] = "a-name-that-is-much-longer-than-sixteen-bytes";
    printf("%d\n", parse_name(input, 30 + (size_t)argc));
    return 0;
}
