// A Rust program that calls std::process::abort() itself on a failed invariant, after
// printing its own message: SIGABRT without any panic.
use std::process;

#[inline(never)]
fn check_ledger(balance: i64, entries: &[i64]) {
    let sum: i64 = entries.iter().sum();
    if sum != balance {
        eprintln!("ledger invariant broken: sum {} != balance {}", sum, balance);
        process::abort();
    }
}

fn main() {
    let entries = vec![100, -30, 20];
    check_ledger(90, &entries);
    check_ledger(91, &entries);
}
