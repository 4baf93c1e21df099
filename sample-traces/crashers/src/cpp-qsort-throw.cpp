// g++ -O2: a C++ comparator given to the C library's qsort throws on a malformed key; nothing
// catches it, so std::terminate aborts with the comparator and glibc's sort frames on the stack.
#include <cstdlib>
#include <cstdio>
#include <stdexcept>

struct Row { const char *key; int value; };

__attribute__((noinline)) int compare_rows(const void *a, const void *b)
{
    const Row *x = static_cast<const Row *>(a), *y = static_cast<const Row *>(b);
    if (!x->key[0] || !y->key[0])
        throw std::invalid_argument("empty sort key");
    return x->key[0] - y->key[0];
}

int main()
{
    Row rows[] = { {"delta", 4}, {"alpha", 1}, {"", 0}, {"charlie", 3}, {"bravo", 2} };
    std::qsort(rows, 5, sizeof(Row), compare_rows);
    for (auto &r : rows) std::printf("%s=%d\n", r.key, r.value);
    return 0;
}
