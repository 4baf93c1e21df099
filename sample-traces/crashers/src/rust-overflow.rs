// Unbounded recursion in Rust's main thread: Rust's guard-page handler prints
// "thread 'main' has overflowed its stack" and aborts (SIGABRT).
use std::hint::black_box;

#[inline(never)]
fn nest(depth: u64, buf: &[u8; 64]) -> u64 {
    let local = [depth as u8; 64];
    black_box(&local);
    nest(depth + 1, &local) + buf[(depth % 64) as usize] as u64
}

fn main() {
    let root = [1u8; 64];
    println!("{}", nest(0, &root));
}
