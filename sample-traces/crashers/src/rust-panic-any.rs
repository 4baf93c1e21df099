// A Rust program panics with a non-string payload (std::panic::panic_any with an error code):
// the report says "Box<dyn Any>" instead of a message; panic=abort makes it SIGABRT.
#[derive(Debug)]
struct ErrorCode(u32);

fn check_quota(used: u64, limit: u64) {
    if used > limit {
        std::panic::panic_any(ErrorCode(507));
    }
}

fn main() {
    check_quota(9000, 4096);
    println!("ok");
}
