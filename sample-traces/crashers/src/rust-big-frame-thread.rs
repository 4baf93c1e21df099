// A spawned thread with a 256 KiB stack calls a function whose frame holds a 1 MiB array
// (one frame, no recursion): the first touch lands in the guard page, Rust's handler prints
// "thread 'loader' has overflowed its stack" and aborts (SIGABRT).
use std::hint::black_box;
use std::thread;

#[inline(never)]
fn parse_block(seed: u8) -> u64 {
    let mut block = [0u8; 1 << 20];
    for i in (0..block.len()).step_by(4096) {
        block[i] = seed.wrapping_add(i as u8);
    }
    black_box(&block);
    block.iter().step_by(4096).map(|&b| b as u64).sum()
}

fn main() {
    let h = thread::Builder::new()
        .name("loader".into())
        .stack_size(256 * 1024)
        .spawn(|| parse_block(black_box(7)))
        .unwrap();
    println!("{:?}", h.join().ok());
}
