// Panics raised and caught with catch_unwind in a loop, on the main thread and in a worker:
// a signal sent from outside lands inside the panic machinery, with nothing wrong.
use std::panic;

#[inline(never)]
fn checked(i: u64) -> u64 {
    if i % 4 == 0 {
        panic!("{} is a multiple of four", i);
    }
    i
}

fn churn(rounds: u64) -> u64 {
    let mut s = 0;
    for i in 0..rounds {
        s += panic::catch_unwind(|| checked(i)).unwrap_or(1);
    }
    s
}

fn main() {
    panic::set_hook(Box::new(|_| {}));
    let rounds: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000_000);
    let h = std::thread::Builder::new().name("churn".into()).spawn(move || churn(rounds)).unwrap();
    let a = churn(rounds);
    println!("{}", a + h.join().unwrap());
}
