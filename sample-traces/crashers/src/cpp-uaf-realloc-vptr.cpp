// Use after free: a Shape is deleted, its block is reused by a text buffer of the same size
// filled with 'A's, and a virtual call through the stale pointer loads the vtable pointer
// 0x4141414141414141 (non-canonical): #GP, SIGSEGV with si_addr 0.
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Shape {
    virtual double area() const = 0;
    virtual ~Shape() = default;
    double w = 2, h = 3;
};
struct Rect : Shape {
    double area() const override { return w * h; }
};

__attribute__((noinline)) double measure(const Shape *s) { return s->area(); }

int main()
{
    Shape *s = new Rect;
    std::printf("%.1f\n", measure(s));
    delete s;
    char *text = static_cast<char *>(std::malloc(sizeof(Rect))); // same tcache bin: same block
    std::memset(text, 'A', sizeof(Rect));
    __asm__ volatile("" : : "r"(text) : "memory"); // the text escapes: the allocation stays
    std::printf("%.1f %c\n", measure(s), text[0]); // stale pointer
}
