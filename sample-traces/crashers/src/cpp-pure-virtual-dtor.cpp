// g++ -O0: a base destructor flushes through a non-virtual helper that makes a virtual call;
// during ~Sink the object is already a Sink (the derived part is gone), so the call reaches the
// pure virtual write(): 'pure virtual method called', then terminate.
#include <cstdio>

struct Sink {
    virtual ~Sink() { flush(); }
    void flush() { write("bye\n"); }
    virtual void write(const char *s) = 0;
};

struct FileSink : Sink {
    std::FILE *f = stdout;
    void write(const char *s) override { std::fputs(s, f); }
};

__attribute__((noinline)) void run_job(Sink *s)
{
    s->write("job\n");
    delete s;
}

int main()
{
    run_job(new FileSink);
}
