// Rust that panics on purpose and recovers (issue 11, fifth pass). Built with `rustc --test`:
// a #[should_panic] test whose panic message the harness prints before the test passes, then a
// long test that keeps the process busy (the debugger interrupts it). Built as a program,
// a payload thrown with std::panic::resume_unwind (no panic hook, no message)
// and caught with catch_unwind, again and again.
use std::panic;

#[allow(dead_code)]
fn parse_port(s: &str) -> u16 {
    s.parse().expect("port must be a number")
}

#[allow(dead_code)]
fn spin(n: u64) -> u64 {
    let mut x = 1u64;
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
    }
    x
}

#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(expected = "port must be a number")]
    fn rejects_bad_port() {
        super::parse_port("http");
    }
    #[test]
    fn z_long_running() {
        assert!(super::spin(u64::MAX / 4) != 7);
    }
}

#[cfg(not(test))]
fn main() {
    let mut caught = 0u64;
    loop {
        let r = panic::catch_unwind(|| {
            if spin(10_000) != 3 {
                panic::resume_unwind(Box::new(caught));
            }
        });
        if r.is_err() {
            caught += 1;
        }
    }
}
