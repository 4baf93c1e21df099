// Rust: a raw pointer to a Vec kept after the Box that owned it was dropped (unsafe code).
// The freed block's first word is now malloc's free-list link, so the Vec's data pointer read
// through the stale pointer is garbage and the read through it faults.
struct Table {
    rows: Vec<u64>,
    name: &'static str,
}

#[inline(never)]
fn first_row(t: *const Table) -> u64 {
    unsafe { *(&(*t).rows).as_ptr() }
}

fn main() {
    let b = Box::new(Table { rows: vec![7; 4096], name: "t" });
    let p: *const Table = &*b;
    println!("{} {}", first_row(p), b.name);
    drop(b); // frees the Table and its rows
    let _reuse: Vec<Box<[u64; 4]>> = (0..8).map(|i| Box::new([i; 4])).collect();
    println!("{}", first_row(p));
}
