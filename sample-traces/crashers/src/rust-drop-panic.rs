// A panic while unwinding from another panic: the Drop of a guard panics during the
// first panic's cleanup, and Rust aborts ("panic in a destructor during cleanup").
struct FlushOnDrop {
    pending: usize,
}

impl Drop for FlushOnDrop {
    #[inline(never)]
    fn drop(&mut self) {
        if self.pending > 0 && std::thread::panicking() {
            panic!("flush failed with {} pending writes", self.pending);
        }
    }
}

#[inline(never)]
fn write_all(items: &[u32]) {
    let _guard = FlushOnDrop { pending: items.len() };
    let total: u32 = items.iter().sum();
    if total > 10 {
        panic!("batch too large: {}", total);
    }
}

fn main() {
    write_all(&[1, 2]);
    write_all(&[5, 6, 7]); // panics; the guard's drop panics again during the cleanup
}
