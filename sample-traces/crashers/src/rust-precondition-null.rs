// Rust debug build: slice::from_raw_parts on a null pointer. The standard library's
// precondition check (debug assertions) panics without unwinding: 'unsafe precondition(s)
// violated: slice::from_raw_parts requires the pointer to be aligned and non-null ...',
// then aborts (SIGABRT).
use std::hint::black_box;

#[repr(C)]
struct Samples {
    ptr: *const f64,
    len: usize,
}

#[inline(never)]
fn mean(s: &Samples) -> f64 {
    let v = unsafe { std::slice::from_raw_parts(s.ptr, s.len) };
    v.iter().sum::<f64>() / v.len() as f64
}

fn main() {
    let data = [1.0, 2.0, 3.0];
    let ok = Samples { ptr: data.as_ptr(), len: 3 };
    println!("{}", mean(&ok));
    let empty = Samples { ptr: black_box(std::ptr::null()), len: 4 };
    println!("{}", mean(&empty));
}
