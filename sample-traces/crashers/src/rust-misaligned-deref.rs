// Rust (debug build): a u64 read through a pointer cast from a byte offset of a packet buffer.
// The debug check panics with 'misaligned pointer dereference: address must be a multiple of
// 0x8 but is 0x…', a panic that cannot unwind: the process aborts.
#[inline(never)]
fn read_len(buf: &[u8], off: usize) -> u64 {
    let p = buf[off..].as_ptr() as *const u64;
    unsafe { *p }
}

fn main() {
    let buf = vec![1u8; 64];
    let off = std::env::args().count() + 2; // 3
    println!("{}", read_len(&buf, off));
}
