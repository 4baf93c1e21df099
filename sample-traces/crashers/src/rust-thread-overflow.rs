// Unbounded recursion in a spawned Rust thread with a 128 KiB stack: the guard-page
// handler prints "thread 'walker' has overflowed its stack" and aborts (SIGABRT).
use std::hint::black_box;
use std::thread;

#[inline(never)]
fn walk(depth: u64, path: &[u8; 48]) -> u64 {
    let mut here = *path;
    here[(depth % 48) as usize] = depth as u8;
    black_box(&here);
    walk(depth + 1, &here) + here[0] as u64
}

fn main() {
    let h = thread::Builder::new()
        .name("walker".into())
        .stack_size(128 * 1024)
        .spawn(|| walk(0, &[0u8; 48]))
        .unwrap();
    println!("{:?}", h.join().is_ok());
}
