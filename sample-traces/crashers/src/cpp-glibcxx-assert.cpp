// g++ -O2 -D_GLIBCXX_ASSERTIONS: std::vector::operator[] one past the end; the library's own
// precondition check fails: "Assertion '__n < this->size()' failed." and aborts.
#include <cstdio>
#include <vector>

__attribute__((noinline)) static int last_score(const std::vector<int> &v)
{
    return v[v.size()]; // off by one
}

int main()
{
    std::vector<int> scores{3, 5, 8};
    std::printf("%d\n", last_score(scores));
}
