// The library dl.c opens and closes: a constructor, a destructor, thread-local storage (so
// ld.so sets up a TLS block), and calls through the PLT into libm (lazy binding when opened
// RTLD_LAZY).
#include <math.h>
static __thread long tls_count;
static long ctor_runs;
__attribute__((constructor)) static void dl4_init(void) { ctor_runs++; }
__attribute__((destructor)) static void dl4_fini(void) { ctor_runs--; }
long dl4_entry(long x) { tls_count++; return (long)(sqrt((double)x) + cbrt((double)x)) + tls_count + ctor_runs; }
