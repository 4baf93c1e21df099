/* An "unreachable" switch default reached with an unexpected value: __builtin_trap()
 * is ud2, SIGILL (ILL_ILLOPN) at a code address. */
#include <stdio.h>

enum color { RED, GREEN, BLUE };

__attribute__((noinline)) const char *color_name(enum color c)
{
    switch (c) {
    case RED: return "red";
    case GREEN: return "green";
    case BLUE: return "blue";
    }
    __builtin_trap();
}

int main(int argc, char **argv)
{
    (void)argv;
    puts(color_name(RED));
    puts(color_name((enum color)(argc + 6)));
    return 0;
}
