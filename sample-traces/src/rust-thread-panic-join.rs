// Rust (panic=unwind, the default): a worker thread panics on an index out of bounds; main's
// join().unwrap() then panics too, and the process exits with status 101 (no signal).
use std::thread;

fn bucket_of(counts: &[u32], key: usize) -> u32 {
    counts[key % 8]
}

fn main() {
    let handle = thread::Builder::new()
        .name("tally".into())
        .spawn(|| {
            let counts = vec![1u32, 2, 3, 4];
            let mut s = 0;
            for k in 0..6 {
                s += bucket_of(&counts, k);
            }
            s
        })
        .unwrap();
    let total = handle.join().unwrap();
    println!("{total}");
}
