// A panic caught with catch_unwind in worker threads, and threads that end normally:
// stopped at breakpoints in the panic machinery (rust_panic) and in a worker after the catch.
use std::panic;
use std::thread;

#[inline(never)]
fn risky(i: u64) -> u64 {
    if i % 3 == 0 {
        panic!("worker {} gave up", i);
    }
    i * 7
}

#[inline(never)]
fn after_catch(i: u64, r: &Result<u64, Box<dyn std::any::Any + Send>>) -> u64 {
    std::hint::black_box(match r { Ok(v) => *v, Err(_) => i })
}

fn main() {
    panic::set_hook(Box::new(|_| {}));
    let hs: Vec<_> = (0..6u64)
        .map(|i| {
            thread::Builder::new()
                .name(format!("w{i}"))
                .spawn(move || {
                    let r = panic::catch_unwind(|| risky(i));
                    after_catch(i, &r)
                })
                .unwrap()
        })
        .collect();
    let s: u64 = hs.into_iter().map(|h| h.join().unwrap()).sum();
    println!("{s}");
}
