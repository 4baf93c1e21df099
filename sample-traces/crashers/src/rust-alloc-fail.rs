// Rust: a buffer sized from a corrupted header (32 TiB) cannot be allocated; the default
// allocation error handler prints 'memory allocation of N bytes failed' and aborts (no panic).
use std::hint::black_box;

fn read_body(declared_len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(declared_len);
    v.push(1);
    v
}

fn main() {
    let len = black_box(1usize << 45);
    println!("{}", read_body(len).len());
}
