//! The parser keeps the program's fatal messages on the stop they explain, including the
//! Rust panic payload that follows a `panicked at …:` line.

use tracecheck::input;

fn messages(text: &str) -> Vec<(String, u32)> {
    let p = input::parse(text);
    let stop = p.trace.main_stop().expect("a stop");
    stop.messages.iter().map(|m| (m.text.to_string(), m.span.first)).collect()
}

#[test]
fn rust_panic_payload_follows_the_header() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-traces/rust-panic.gdb.txt");
    let bytes = std::fs::read(path).expect("sample");
    let p = input::parse_bytes(&bytes);
    let stop = p.trace.main_stop().expect("a stop");
    let got: Vec<(&str, u32)> = stop.messages.iter().map(|m| (&*m.text, m.span.first)).collect();
    assert_eq!(
        got,
        vec![
            ("thread 'main' (26319) panicked at src/rust-panic.rs:23:28:", 8),
            ("called `Result::unwrap()` on an `Err` value: ParseIntError { kind: PosOverflow }", 9),
            ("note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", 10),
        ]
    );
    assert!(p.diagnostics.unrecognized.iter().all(|u| u.line != 8 && u.line != 9), "{:?}", p.diagnostics.unrecognized);
}

#[test]
fn multi_line_payload_ends_at_blank_line() {
    let t = "\
thread 'main' panicked at src/main.rs:2:5:
assertion `left == right` failed
  left: 1
 right: 2

Program received signal SIGABRT, Aborted.
0x00007ffff7e3feec in __pthread_kill_implementation () from /lib/x86_64-linux-gnu/libc.so.6
";
    assert_eq!(
        messages(t),
        vec![
            ("thread 'main' panicked at src/main.rs:2:5:".into(), 1),
            ("assertion `left == right` failed".into(), 2),
            ("left: 1".into(), 3),
            ("right: 2".into(), 4),
        ]
    );
}

#[test]
fn old_one_line_panic_takes_no_continuation() {
    let t = "\
thread 'main' panicked at 'explicit panic', src/main.rs:2:5
some unrelated line
Program received signal SIGABRT, Aborted.
";
    assert_eq!(messages(t), vec![("thread 'main' panicked at 'explicit panic', src/main.rs:2:5".into(), 1)]);
}

#[test]
fn payload_stops_at_the_stop_line() {
    let t = "\
thread 'worker' (77) panicked at src/lib.rs:9:1:
index out of bounds: the len is 3 but the index is 7
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  0x00007ffff7e3feec in __pthread_kill_implementation () from /lib/x86_64-linux-gnu/libc.so.6
";
    let p = input::parse(t);
    let stop = p.trace.main_stop().expect("a stop");
    assert_eq!(stop.messages.len(), 2);
    assert_eq!(stop.reason.signal.as_deref(), Some("SIGABRT"));
    assert_eq!(stop.crashed_thread().map(|t| t.frames.len()), Some(1));
}

#[test]
fn cpp_what_line_is_kept() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-traces/cpp-uncaught.gdb.txt");
    let p = input::parse_bytes(&std::fs::read(path).expect("sample"));
    let stop = p.trace.main_stop().expect("a stop");
    let got: Vec<&str> = stop.messages.iter().map(|m| &*m.text).collect();
    assert_eq!(
        got,
        vec![
            "terminate called after throwing an instance of 'std::out_of_range'",
            "what():  vector::_M_range_check: __n (which is 10) >= this->size() (which is 3)"
        ]
    );
}
