//! Peak memory of one parse, measured in its own process.
//!
//! ```text
//! cargo run --release --example parse_mem -- target/bench/gdb-3000.bench.txt
//! ```
//!
//! Reads the file (that buffer is the "input"), then parses it with
//! `tracecheck::input::parse_bytes` and keeps the result alive. Prints:
//! - heap bytes: a counting global allocator's peak while parsing, on top of the input
//!   buffer, and what the finished model still holds;
//! - RSS: `VmHWM` from /proc/self/status for the whole process (input included), and the
//!   peak reached during the parse after resetting the high-water mark
//!   (`echo 5 > /proc/self/clear_refs`).
//!
//! The acceptance criterion is "peak memory under 3x the input size"; the ratio printed is
//! (whole-process peak RSS) / (input size), which counts the input buffer itself.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static CUR: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let c = CUR.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(c, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        CUR.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let c = CUR.fetch_add(new - l.size(), Relaxed) + (new - l.size());
                PEAK.fetch_max(c, Relaxed);
            } else {
                CUR.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static A: Counting = Counting;

fn status_kb(key: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with(key))?;
    l[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/target/bench/gdb-3000.bench.txt").to_string());
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let input = bytes.len() as f64;
    let mb = |b: f64| b / 1e6;

    let rss_before = status_kb("VmRSS:").unwrap_or(0) * 1024;
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let heap_before = CUR.load(Relaxed);
    PEAK.store(heap_before, Relaxed);

    let parsed = tracecheck::input::parse_bytes(&bytes);

    let heap_peak = PEAK.load(Relaxed);
    let heap_after = CUR.load(Relaxed);
    let hwm = status_kb("VmHWM:").unwrap_or(0) * 1024;
    let frames: usize = parsed.trace.stops.iter().flat_map(|s| &s.threads).map(|t| t.frames.len()).sum();

    println!("input: {path}: {} bytes ({:.1} MB), {frames} frames", bytes.len(), mb(input));
    println!(
        "heap: peak during parse {:.1} MB above the input buffer ({:.2}x input); model retained {:.1} MB ({:.2}x input)",
        mb((heap_peak - heap_before) as f64),
        (heap_peak - heap_before) as f64 / input,
        mb((heap_after - heap_before) as f64),
        (heap_after - heap_before) as f64 / input
    );
    println!(
        "rss: before parse {:.1} MB; process peak (VmHWM{}) {:.1} MB = {:.2}x input; peak above pre-parse RSS {:.1} MB = {:.2}x input",
        mb(rss_before as f64),
        if reset { ", reset before parse" } else { ", NOT reset: includes startup" },
        mb(hwm as f64),
        hwm as f64 / input,
        mb(hwm.saturating_sub(rss_before) as f64),
        hwm.saturating_sub(rss_before) as f64 / input
    );
    println!("size_of::<Frame>() = {}", std::mem::size_of::<tracecheck::model::Frame>());
    let ratio = hwm as f64 / input;
    println!(
        "criterion: peak memory < 3x input (whole process, input included): {ratio:.2}x -> {}",
        if ratio < 3.0 { "PASS" } else { "FAIL" }
    );
    std::hint::black_box(&parsed);
}
