/* Plain C functions named like Julia's (julia_*, jl_*, jfptr_*): no Julia runtime is loaded.
   r13 holds whatever C left there. Stopped at a breakpoint in the innermost one. */
#include <stdio.h>
volatile long sink;
__attribute__((noinline)) long julia_sum_12(const long *v, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    sink = s;
    return s;
}
__attribute__((noinline)) long jl_apply_sum(const long *v, int n) { return julia_sum_12(v, n) + 1; }
__attribute__((noinline)) long jfptr_sum_13(const long *v, int n) { return jl_apply_sum(v, n) * 2; }
int main(void) {
    long v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    printf("%ld\n", jfptr_sum_13(v, 8));
    return 0;
}
