// g++ -O2: std::stoi on a header value that is not a number throws std::invalid_argument
// ("stoi") from libstdc++'s inlined __stoa; nothing catches it.
#include <cstdio>
#include <string>

__attribute__((noinline)) int content_length(const std::string &header)
{
    std::string value = header.substr(header.find(':') + 1);
    return std::stoi(value);
}

int main()
{
    std::printf("%d\n", content_length("Content-Length: chunked"));
}
