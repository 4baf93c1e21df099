// rustc -O -C panic=abort: an index out of bounds in a named worker thread; with
// panic=abort the panic message is printed and the whole process aborts.
use std::hint::black_box;
use std::thread;

#[inline(never)]
fn checksum(block: &[u8], stride: usize) -> u32 {
    let mut s = 0u32;
    let mut i = 0;
    while i <= block.len() {
        s = s.wrapping_mul(31).wrapping_add(block[i] as u32); // i == len: out of bounds
        i += stride;
    }
    s
}

fn main() {
    let h = thread::Builder::new()
        .name("hasher".into())
        .spawn(|| {
            let block = vec![1u8; 64];
            checksum(black_box(&block), black_box(8))
        })
        .unwrap();
    println!("{}", h.join().unwrap());
}
