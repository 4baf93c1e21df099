// Two std::shared_ptr control blocks own one raw pointer: the second owner's destructor
// deletes the object again ('free(): double free detected in tcache 2'); the frames between
// main and free are libstdc++'s header templates (_Sp_counted_ptr::_M_dispose).
#include <cstdio>
#include <memory>

struct Session { int id; char name[24]; };

__attribute__((noinline)) static void share(Session *raw)
{
    std::shared_ptr<Session> other(raw); // a second, independent owner
    std::printf("sharing %d\n", other->id);
} // deletes raw

int main()
{
    std::shared_ptr<Session> s(new Session{7, "alpha"});
    share(s.get());
    std::printf("%d\n", s->id);
    return 0; // s deletes it again
}
