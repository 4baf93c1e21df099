// g++ -O0: an array of objects with a destructor allocated with new[] (the count is stored
// in a cookie word before the first element) and released with plain delete: operator
// delete gets the address after the cookie, not the block's start. free() reads the cookie
// (4) as the chunk's size word, where 4 is the NON_MAIN_ARENA bit, so it looks up the chunk's
// arena through a heap header that does not exist and faults inside libc's free
// (arena_for_chunk): SIGSEGV in the allocator, caused by the caller's mismatched delete.
#include <cstdio>
#include <cstring>

struct Cell {
    char *text;
    Cell() : text(new char[8]) { std::strcpy(text, "cell"); }
    ~Cell() { delete[] text; }
};

static Cell *make_row(int n) { return new Cell[n]; }

__attribute__((noinline)) void drop_row(Cell *row) {
    delete row; // bug: allocated with new[]
}

int main() {
    Cell *row = make_row(4);
    std::printf("%s\n", row[1].text);
    drop_row(row);
    return 0;
}
