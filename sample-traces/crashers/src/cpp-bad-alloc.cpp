// g++ -O0: a size computed from a negative count wraps to a huge value; operator new[]
// throws std::bad_alloc and nothing catches it.
#include <cstdio>
#include <cstring>

struct image {
    unsigned char *pixels;
    long w, h;
};

image make_image(long w, long h)
{
    image im{nullptr, w, h};
    im.pixels = new unsigned char[(size_t)(w * h * 4)];
    std::memset(im.pixels, 0, (size_t)(w * h * 4));
    return im;
}

int main(int argc, char **)
{
    image im = make_image(640, -(long)argc); // height from a failed parse: -1
    std::printf("%p\n", (void *)im.pixels);
}
