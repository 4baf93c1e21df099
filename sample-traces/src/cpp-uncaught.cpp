// cpp-uncaught: std::vector::at out of range, never caught -> std::terminate
// -> abort().  Built with g++ -O0 -g.
#include <cstdio>
#include <string>
#include <vector>

struct Inventory {
    std::vector<int> counts{3, 1, 4};
    int lookup(std::size_t slot) const { return counts.at(slot); }
};

__attribute__((noinline)) static int restock(const Inventory &inv, std::size_t slot)
{
    return inv.lookup(slot) + 10;
}

int main()
{
    Inventory inv;
    std::printf("%d\n", restock(inv, 1));
    std::printf("%d\n", restock(inv, 10));
    return 0;
}
