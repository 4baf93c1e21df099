// g++ -O2: std::vector::at() with an index one past the end throws std::out_of_range;
// nothing catches it: "terminate called after throwing an instance of 'std::out_of_range'".
#include <cstdio>
#include <vector>

__attribute__((noinline)) int nth_score(const std::vector<int> &scores, size_t n)
{
    return scores.at(n) * 2;
}

int main(int argc, char **)
{
    std::vector<int> scores{90, 75, 60};
    int total = 0;
    for (size_t i = 0; i <= scores.size() + (size_t)argc - 1; i++) // <= : off by one
        total += nth_score(scores, i);
    std::printf("%d\n", total);
}
