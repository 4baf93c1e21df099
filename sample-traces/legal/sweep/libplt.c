// A shared library whose exported functions call each other through the PLT (default
// semantic interposition), loaded RTLD_LAZY by sys.c so each call binds lazily.
#include <math.h>
#include <string.h>
long plt_a(long x) { return x * 3 + (long)strlen("abc"); }
long plt_b(long x) { return plt_a(x) ^ (long)sqrt((double)(x & 0xffff)); }
long plt_c(long x) { return plt_b(x) + plt_a(x + 1); }
long plt_entry(long x) { return plt_c(x) + plt_b(x) + (long)cos((double)x); }
