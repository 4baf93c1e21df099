// rustc -O -C panic=abort: a slice range past the end inside a closure passed to map():
// 'range end index 10 out of range for slice of length 6' (the panic is in the closure).
use std::hint::black_box;

fn main() {
    let rows: Vec<Vec<u8>> = vec![vec![1; 12], vec![2; 6]];
    let width = black_box(10usize);
    let sums: Vec<u32> = rows
        .iter()
        .map(|r| r[..width].iter().map(|&b| b as u32).sum())
        .collect();
    println!("{sums:?}");
}
