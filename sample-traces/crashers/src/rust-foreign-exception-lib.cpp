// The C++ half of rust-foreign-exception: throws on a negative length.
#include <stdexcept>

extern "C" int parse_manifest(int len)
{
    if (len < 0)
        throw std::length_error("manifest length is negative");
    return len / 4;
}
