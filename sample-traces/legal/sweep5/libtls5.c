// The library half of tls5.c (issue 11, fifth pass): global-dynamic TLS, reached through
// __tls_get_addr.
__thread long lib_tls = 3;
__thread char lib_buf[256] = "lib";
long tls5_touch(long x) {
    lib_tls += x;
    lib_buf[x & 255] = (char)lib_tls;
    return lib_tls + lib_buf[0];
}
