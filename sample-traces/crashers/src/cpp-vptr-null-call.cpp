// g++ -O2: an object's storage is cleared with memset (vtable pointer included), then a
// virtual call loads the slot through the NULL vtable pointer: `call *0x10(%rax)` with
// rax = 0 faults reading 0x10 (a data read, not a jump to 0).
#include <cstdio>
#include <cstring>
#include <new>

struct Shape {
    virtual ~Shape() {}
    virtual double area() const = 0;
    virtual double scale(double k) const { return area() * k; }
};
struct Square : Shape {
    double side;
    explicit Square(double s) : side(s) {}
    double area() const override { return side * side; }
};

__attribute__((noinline)) double measure(const Shape *s) { return s->scale(2.0); }

__attribute__((noinline)) void reset(void *p, std::size_t n) { std::memset(p, 0, n); }

int main()
{
    alignas(Square) unsigned char buf[sizeof(Square)];
    Square *sq = new (buf) Square(3.0);
    std::printf("%f\n", measure(sq));
    reset(buf, sizeof buf);
    std::printf("%f\n", measure(sq));
    return 0;
}
