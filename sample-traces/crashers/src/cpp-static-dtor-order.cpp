// Static destruction order: `audit` is constructed first, so it is destroyed last; its
// destructor writes a summary to `journal`, which was already destroyed (its file handle
// member set to nullptr by its destructor).
#include <cstdio>
#include <cstring>

struct Journal {
    struct Buf { char text[64]; int used; } *buf;
    Journal() : buf(new Buf{}) {}
    ~Journal() { delete buf; buf = nullptr; }
    __attribute__((noinline)) void write(const char *s)
    {
        size_t n = std::strlen(s);
        std::memcpy(buf->text + buf->used, s, n); // buf is gone
        buf->used += (int)n;
    }
};

struct Audit {
    int events = 0;
    ~Audit();
};

Audit audit;     // constructed first, destroyed last
Journal journal; // destroyed before audit

__attribute__((noinline)) Audit::~Audit()
{
    journal.write(events > 0 ? "audit: events\n" : "audit: none\n");
}

int main()
{
    audit.events = 2;
    journal.write("start\n");
    std::puts("exiting");
    return 0;
}
