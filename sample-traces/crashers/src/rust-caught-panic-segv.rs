// A panic is caught with catch_unwind (its message is printed by the default hook), the
// program carries on, and later an unsafe read through a NULL-based pointer faults. The
// panic is not what killed the process.
use std::panic;

#[repr(C)]
struct Header {
    magic: u64,
    len: u64,
}

#[inline(never)]
fn header_len(h: *const Header) -> u64 {
    unsafe { std::ptr::read_volatile(&(*h).len) }
}

fn main() {
    let r = panic::catch_unwind(|| {
        let v: Vec<u32> = Vec::new();
        v[3]
    });
    println!("recovered: {}", r.is_err());
    let p: *const Header = std::hint::black_box(std::ptr::null());
    println!("{}", header_len(p));
}
