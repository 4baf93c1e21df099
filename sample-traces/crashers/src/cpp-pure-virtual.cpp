// A virtual call from a base-class constructor (through a helper, so the compiler cannot
// see it) reaches the pure virtual slot: "pure virtual method called", then std::terminate.
#include <cstdio>

struct Shape {
    Shape() { describe(this); }
    virtual ~Shape() {}
    virtual double area() const = 0;
    static void describe(const Shape *s);
};

__attribute__((noinline)) void Shape::describe(const Shape *s) { std::printf("area %f\n", s->area()); }

struct Circle : Shape {
    double r = 2;
    double area() const override { return 3.14159 * r * r; }
};

int main()
{
    Circle c;
    std::printf("%f\n", c.area());
}
