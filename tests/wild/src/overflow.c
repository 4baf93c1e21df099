/* Unbounded recursion (a stack overflow) for the shapes ASan, valgrind and gdb print for it. */
#include <stdio.h>
#include <string.h>

static unsigned long walk(const char *name, unsigned long depth) {
    char frame[256];
    memset(frame, (int)(depth & 0x7f), sizeof frame);
    if (name[0] == '\0')
        return frame[3];
    return walk(name, depth + 1) + (unsigned char)frame[depth % sizeof frame];
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "tree";
    printf("%lu\n", walk(name, 0));
    return 0;
}
