// An exception is thrown and caught (its message is printed), then the program reads through
// a NULL pointer. The exception is not the cause of the crash.
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

struct Account { long balance; Account *parent; };

__attribute__((noinline)) long parent_balance(const Account *a) { return a->parent->balance; }

int main()
{
    std::map<std::string, Account> accounts{{"alice", {10, nullptr}}};
    try {
        accounts.at("bob");
    } catch (const std::out_of_range &e) {
        std::fprintf(stderr, "lookup failed: %s\n", e.what());
    }
    std::printf("%ld\n", parent_balance(&accounts["alice"]));
}
