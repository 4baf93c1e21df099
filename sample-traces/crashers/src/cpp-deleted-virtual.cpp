// A virtual call on an object that was deleted: glibc's tcache reuses the object's first word
// (the vtable pointer) for its free-list link (safe-linked: the slot's address >> 12 when the
// list was empty), so the call loads a "vtable" from a small unmapped address.
#include <cstdio>

struct Shape {
    virtual ~Shape() {}
    virtual double area() const = 0;
};
struct Square : Shape {
    double side;
    explicit Square(double s) : side(s) {}
    double area() const override { return side * side; }
};

__attribute__((noinline)) double total_area(Shape **shapes, int n)
{
    double t = 0;
    for (int i = 0; i < n; i++) t += shapes[i]->area();
    return t;
}

int main()
{
    Shape *shapes[2] = {new Square(2), new Square(3)};
    std::printf("%g\n", total_area(shapes, 2));
    delete shapes[1]; // but the array still holds it
    std::printf("%g\n", total_area(shapes, 2));
    return 0;
}
