// Rust: the program's panic hook writes the report to a log file it expects to be open; the
// log was never opened, so the hook's own expect() panics while the first panic ('quota
// exceeded') is being processed: Rust aborts ('panicked while processing panic').
use std::panic;
use std::sync::Mutex;

static LOG: Mutex<Option<String>> = Mutex::new(None);

fn report_panic(info: &panic::PanicHookInfo<'_>) {
    let mut log = LOG.lock().unwrap_or_else(|e| e.into_inner());
    let path = log.as_mut().expect("panic log not open");
    path.push_str(&info.to_string());
}

#[inline(never)]
fn charge(used: u64, quota: u64) -> u64 {
    if used > quota {
        panic!("quota exceeded: {} > {}", used, quota);
    }
    quota - used
}

fn main() {
    panic::set_hook(Box::new(report_panic));
    let left = charge(std::env::args().count() as u64 + 10, 5);
    println!("{left}");
}
