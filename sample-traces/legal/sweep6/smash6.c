/* True-positive controls of the sixth pass: real crashes in C functions called from a
 * runtime (SBCL's alien-funcall, LuaJIT's FFI). smash6 overwrites its own return address
 * with 0x4141…; load6 reads through the pointer it is given. */
__attribute__((noinline)) void smash6(long n) {
    volatile long buf[2];
    volatile long *volatile p = buf;
    for (long i = 0; i < n; i++) p[i] = 0x4141414141414141L;
}

__attribute__((noinline)) long load6(const long *p) {
    return p[1] + 1;
}
