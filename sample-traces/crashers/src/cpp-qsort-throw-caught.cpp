// g++ -O2: look-alike of cpp-qsort-throw: the comparator's exception passes through glibc's
// qsort (which has unwind tables) and is caught in main, legally; the program then falls back
// to the unsorted rows and reads through a NULL label of one of them.
#include <cstdlib>
#include <cstdio>
#include <stdexcept>

struct Row { const char *key; int value; const char *label; };

__attribute__((noinline)) int compare_rows(const void *a, const void *b)
{
    const Row *x = static_cast<const Row *>(a), *y = static_cast<const Row *>(b);
    if (!x->key[0] || !y->key[0])
        throw std::invalid_argument("empty sort key");
    return x->key[0] - y->key[0];
}

__attribute__((noinline)) int label_width(const Row *r) { return r->label[0] == 'x' ? 2 : 1; }

int main()
{
    Row rows[] = { {"delta", 4, "d"}, {"alpha", 1, "a"}, {"", 0, nullptr}, {"bravo", 2, "b"} };
    try {
        std::qsort(rows, 4, sizeof(Row), compare_rows);
    } catch (const std::exception &e) {
        std::printf("sort failed (%s), keeping input order\n", e.what());
    }
    int w = 0;
    for (auto &r : rows) w += label_width(&r);
    std::printf("%d\n", w);
    return 0;
}
