// A Rust callback exported with the C ABI panics; it is called through a function pointer
// like a C library would. A panic cannot unwind out of an `extern "C"` function: Rust aborts
// with 'panic in a function that cannot unwind'.
use std::hint::black_box;

extern "C" fn on_record(len: usize) -> i32 {
    let table = [10, 20, 30];
    table[len] // len 7: index out of bounds
}

fn for_each(cb: extern "C" fn(usize) -> i32, lens: &[usize]) -> i32 {
    lens.iter().map(|&l| cb(l)).sum()
}

fn main() {
    let lens = black_box(vec![1, 2, 7]);
    println!("{}", for_each(black_box(on_record), &lens));
}
