// Rust panics unwinding through frames with Drop, caught with catch_unwind, in threads that
// are spawned and joined in a loop: stops in rust_panic, the unwinder, thread start and
// join are legal. The panic hook is silenced so the output stays small.
use std::panic;
use std::thread;
struct Noisy(u64, std::sync::Arc<std::sync::atomic::AtomicU64>);
impl Drop for Noisy {
    fn drop(&mut self) { self.1.fetch_add(self.0, std::sync::atomic::Ordering::Relaxed); }
}
#[inline(never)]
fn risky(x: u64, c: &std::sync::Arc<std::sync::atomic::AtomicU64>) -> u64 {
    let _n = Noisy(x, c.clone());
    let v: Vec<u64> = (0..16).map(|i| i * x).collect();
    if x % 3 == 0 { panic!("bad {x}"); }
    v.iter().sum()
}
#[inline(never)]
fn layer(x: u64, d: u32, c: &std::sync::Arc<std::sync::atomic::AtomicU64>) -> u64 {
    let _n = Noisy(d as u64, c.clone());
    if d == 0 { risky(x, c) } else { layer(x, d - 1, c) + 1 }
}
fn main() {
    panic::set_hook(Box::new(|_| {}));
    let rounds: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(u64::MAX);
    let c = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut acc = 0u64;
    for r in 0..rounds {
        let hs: Vec<_> = (0..3).map(|t| {
            let c = c.clone();
            thread::Builder::new().name(format!("w{t}")).spawn(move || {
                let mut s = 0u64;
                for i in 0..50u64 { s = s.wrapping_add(panic::catch_unwind(|| layer(r * 50 + i + t, 5, &c)).unwrap_or(7)); }
                s
            }).unwrap()
        }).collect();
        for h in hs { acc = acc.wrapping_add(h.join().unwrap()); }
    }
    println!("{acc}");
}
