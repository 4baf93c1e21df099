//! CASR's gdb stack-trace parsing next to tracecheck's, on the same transcript, in one process.
//!
//! ```text
//! cargo run --release -- PATH [CASR_ITERS [TRACECHECK_ITERS]]
//! ```
//!
//! CASR (libcasr 2.13.0, which delegates to gdb-command 0.7.8) is called through its public
//! `ParseStacktrace` trait, the way `casr-gdb` does it:
//! `GdbStacktrace::extract_stacktrace(&text)` keeps every line that starts with optional
//! spaces, `#` and digits; `GdbStacktrace::parse_stacktrace(&lines)` turns them into
//! `StacktraceEntry`s (regexes tried in order, compiled again for every line). It keeps no
//! thread split, no locals, no registers: strictly less work than tracecheck's full model.
//!
//! tracecheck is `tracecheck::input::parse_bytes` into the full model.

use std::hint::black_box;
use std::time::{Duration, Instant};

use libcasr::gdb::GdbStacktrace;
use libcasr::stacktrace::ParseStacktrace;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: casr-compare PATH [CASR_ITERS [TRACECHECK_ITERS]]");
    let casr_iters: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(1);
    let tc_iters: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(5);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mb = bytes.len() as f64 / 1e6;
    println!("input: {path} ({} bytes, {mb:.1} MB)", bytes.len());

    // CASR. Its API takes &str; the UTF-8 check is counted (tracecheck's parse_bytes does it too).
    let mut casr_extract = Vec::new();
    let mut casr_parse = Vec::new();
    let mut casr_frames = 0;
    for _ in 0..casr_iters.max(1) {
        let t = Instant::now();
        let text = std::str::from_utf8(&bytes).expect("UTF-8 transcript");
        let lines = GdbStacktrace::extract_stacktrace(text).expect("extract_stacktrace");
        let t1 = t.elapsed();
        let st = GdbStacktrace::parse_stacktrace(&lines).expect("parse_stacktrace");
        let t2 = t.elapsed();
        casr_frames = st.len();
        black_box(&st);
        casr_extract.push(t1);
        casr_parse.push(t2);
    }
    let casr_total = median(&mut casr_parse);
    let casr_ext = median(&mut casr_extract);

    // tracecheck.
    black_box(tracecheck::input::parse_bytes(&bytes));
    let mut tc = Vec::new();
    let mut tc_frames = 0;
    let mut tc_threads = 0;
    for _ in 0..tc_iters.max(1) {
        let t = Instant::now();
        let p = tracecheck::input::parse_bytes(black_box(&bytes));
        tc.push(t.elapsed());
        tc_frames = p.trace.stops.iter().flat_map(|s| &s.threads).map(|t| t.frames.len()).sum();
        tc_threads = p.trace.stops.iter().map(|s| s.threads.len()).sum();
        drop(p);
    }
    let tc_med = median(&mut tc);

    let s = |d: Duration| d.as_secs_f64();
    println!();
    println!("| parser | what it produces | time (median) | MB/s | frames/s |");
    println!("| --- | --- | ---: | ---: | ---: |");
    println!(
        "| libcasr 2.13.0 `GdbStacktrace::extract_stacktrace` + `parse_stacktrace` ({} run{}) | {casr_frames} frames in one flat list (threads merged) | {:.2} s (extract {:.3} s) | {:.2} | {:.0} |",
        casr_iters.max(1),
        if casr_iters > 1 { "s" } else { "" },
        s(casr_total),
        s(casr_ext),
        mb / s(casr_total),
        casr_frames as f64 / s(casr_total)
    );
    println!(
        "| tracecheck `input::parse_bytes` ({} runs) | full model: {tc_threads} threads, {tc_frames} frames with args and locals | {:.3} s | {:.0} | {:.0} |",
        tc_iters.max(1),
        s(tc_med),
        mb / s(tc_med),
        tc_frames as f64 / s(tc_med)
    );
    println!();
    println!("tracecheck is {:.0}x faster than libcasr on this input", s(casr_total) / s(tc_med));
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}
