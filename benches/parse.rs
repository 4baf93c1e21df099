//! Parse throughput on a big real `thread apply all bt full` transcript.
//!
//! ```text
//! cargo bench --bench parse                    # uses target/bench/gdb-3000.bench.txt, generating it if missing
//! cargo bench --bench parse -- PATH            # any transcript
//! TRACECHECK_BENCH_INPUT=PATH cargo bench --bench parse
//! TRACECHECK_BENCH_ITERS=15 cargo bench --bench parse
//! ```
//!
//! A plain `harness = false` benchmark (std::time::Instant, several iterations, best and
//! median). It measures, on the same bytes:
//! - a bare memchr line scan (the floor any line-oriented parser pays),
//! - `tracecheck::input::parse_bytes` into the full model (MB/s, lines/s, frames/s),
//! - `tracecheck::rules::run` with `Selection::default()` and with every registered rule
//!   enabled (it iterates `rules::RULES`, so new rules are picked up automatically),
//! - the text and JSON renderers over the analyzed report (informative).
//!
//! Peak memory is measured in a separate process: `examples/parse_mem.rs`. CASR's parser is
//! compared in `bench/casr-compare/` (a separate crate). `bench/run.sh` runs everything.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use tracecheck::analyze::{self, Report};
use tracecheck::report::text::TextOptions;
use tracecheck::rules::{self, Selection};

fn main() {
    let path = input_path();
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let iters: usize = std::env::var("TRACECHECK_BENCH_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(9);
    let mb = bytes.len() as f64 / 1e6;
    println!("input: {} ({} bytes, {:.1} MB), {} iterations per measurement", path.display(), bytes.len(), mb, iters);

    // 1. Baseline: a bare memchr line scan that looks at each line's first byte.
    let scan = measure(iters, || black_box(memchr_scan(black_box(&bytes))));
    let (lines, hash_lines) = memchr_scan(&bytes);
    // A second floor: UTF-8 validation plus `str::lines()` (what a naive parser starts with).
    let std_lines = measure(iters, || {
        let text = std::str::from_utf8(black_box(&bytes)).unwrap();
        black_box(text.lines().filter(|l| l.as_bytes().first() == Some(&b'#')).count())
    });

    // 2. Full parse into the model.
    let parse = measure(iters, || black_box(tracecheck::input::parse_bytes(black_box(&bytes))));
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let frames: usize = parsed.trace.stops.iter().flat_map(|s| &s.threads).map(|t| t.frames.len()).sum();
    let threads: usize = parsed.trace.stops.iter().map(|s| s.threads.len()).sum();
    let d = &parsed.diagnostics;

    // 3. Rules: the default selection and every registered rule.
    let default_sel = Selection::default();
    let all_sel = Selection { only: rules::RULES.iter().map(|r| r.info.id.to_string()).collect(), skip: vec![] };
    let n_default = rules::RULES.iter().filter(|r| default_sel.enabled(r.info)).count();
    let rules_default = measure(iters.max(5) * 3, || black_box(rules::run(black_box(&parsed.trace), &default_sel)));
    let rules_all = measure(iters.max(5) * 3, || black_box(rules::run(black_box(&parsed.trace), &all_sel)));
    let findings = rules::run(&parsed.trace, &default_sel).len();

    // 4. Renderers (informative): analyze once, render many times.
    let ir = analyze::analyze(&path.to_string_lossy(), parsed.clone(), &default_sel);
    let report = Report { inputs: vec![ir] };
    let mut buf = Vec::new();
    tracecheck::report::text::write(&report, &TextOptions::default(), &mut buf).unwrap();
    let text_len = buf.len();
    let text = measure(iters, || {
        buf.clear();
        tracecheck::report::text::write(&report, &TextOptions::default(), &mut buf).unwrap();
        black_box(buf.len())
    });
    buf.clear();
    tracecheck::report::json::write(&report, &mut buf).unwrap();
    let json_len = buf.len();
    let json_iters = iters.min(5);
    let json = measure(json_iters, || {
        buf.clear();
        tracecheck::report::json::write(&report, &mut buf).unwrap();
        black_box(buf.len())
    });

    println!();
    println!(
        "model: {} stops, {} threads, {} frames; {} lines ({} starting with '#'); {} recognized, {} unrecognized",
        parsed.trace.stops.len(),
        threads,
        frames,
        lines,
        hash_lines,
        d.lines_recognized,
        d.lines_unrecognized
    );
    println!(
        "size_of::<Frame>() = {} bytes, size_of::<Thread>() = {} bytes",
        std::mem::size_of::<tracecheck::model::Frame>(),
        std::mem::size_of::<tracecheck::model::Thread>()
    );
    println!();
    println!("| measurement | best | median | throughput (best / median) |");
    println!("| --- | ---: | ---: | --- |");
    row(
        "memchr line scan (baseline)",
        &scan,
        format!("{:.0} / {:.0} MB/s", mb / secs(scan.best), mb / secs(scan.median)),
    );
    row(
        "str::from_utf8 + str::lines() (baseline)",
        &std_lines,
        format!("{:.0} / {:.0} MB/s", mb / secs(std_lines.best), mb / secs(std_lines.median)),
    );
    row(
        "tracecheck::input::parse_bytes",
        &parse,
        format!(
            "{:.0} / {:.0} MB/s; {:.2} / {:.2} M frames/s; {:.1} M lines/s",
            mb / secs(parse.best),
            mb / secs(parse.median),
            frames as f64 / secs(parse.best) / 1e6,
            frames as f64 / secs(parse.median) / 1e6,
            lines as f64 / secs(parse.median) / 1e6
        ),
    );
    row(
        &format!("rules::run, Selection::default() ({n_default} of {} rules)", rules::RULES.len()),
        &rules_default,
        format!(
            "{:.2}% of parse (median); {findings} findings",
            100.0 * secs(rules_default.median) / secs(parse.median)
        ),
    );
    row(
        &format!("rules::run, all {} registered rules", rules::RULES.len()),
        &rules_all,
        format!("{:.2}% of parse (median)", 100.0 * secs(rules_all.median) / secs(parse.median)),
    );
    row("report::text::write (default options)", &text, format!("{} bytes of output", text_len));
    row(
        &format!("report::json::write ({json_iters} iterations)"),
        &json,
        format!("{:.1} MB of output, {:.0} MB/s", json_len as f64 / 1e6, json_len as f64 / 1e6 / secs(json.median)),
    );

    // The acceptance criteria of the performance issue (see docs/performance.md).
    println!();
    let parse_mbs = mb / secs(parse.median);
    let rules_pct = 100.0 * secs(rules_all.median) / secs(parse.median);
    println!(
        "criterion: parse >= 200 MB/s on one core (median): {parse_mbs:.0} MB/s -> {}",
        verdict(parse_mbs >= 200.0)
    );
    println!("criterion: all rules add < 10% to parse time (median): {rules_pct:.2}% -> {}", verdict(rules_pct < 10.0));
    println!("criterion: peak memory < 3x input: measured by examples/parse_mem.rs (bench/run.sh)");
}

fn verdict(ok: bool) -> &'static str {
    if ok { "PASS" } else { "FAIL" }
}

struct Timing {
    best: Duration,
    median: Duration,
}

fn measure<T>(iters: usize, mut f: impl FnMut() -> T) -> Timing {
    // One warm-up run (page faults, allocator growth), then the measured ones.
    drop(f());
    let mut v: Vec<Duration> = (0..iters.max(1))
        .map(|_| {
            let t = Instant::now();
            let r = f();
            let e = t.elapsed();
            drop(r);
            e
        })
        .collect();
    v.sort();
    Timing { best: v[0], median: v[v.len() / 2] }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn row(name: &str, t: &Timing, extra: String) {
    println!("| {name} | {} | {} | {extra} |", fmt(t.best), fmt(t.median));
}

fn fmt(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// Splits the input into lines with memchr and looks at each line's first byte: the least a
/// line-oriented parser must do.
fn memchr_scan(b: &[u8]) -> (usize, usize) {
    let mut lines = 0;
    let mut hashes = 0;
    let mut start = 0;
    while start < b.len() {
        let end = memchr::memchr(b'\n', &b[start..]).map(|i| start + i).unwrap_or(b.len());
        let line = &b[start..end];
        lines += 1;
        hashes += usize::from(line.first() == Some(&b'#'));
        start = end + 1;
    }
    (lines, hashes)
}

/// The transcript: first non-flag argument, else `TRACECHECK_BENCH_INPUT`, else
/// `target/bench/gdb-3000.bench.txt`, generated with `sample-traces/gen-bench.sh` when missing.
fn input_path() -> PathBuf {
    // `cargo bench` passes `--bench` to harness=false targets; skip flags.
    if let Some(p) = std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        return PathBuf::from(p);
    }
    if let Some(p) = std::env::var_os("TRACECHECK_BENCH_INPUT") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let p = root.join("target/bench/gdb-3000.bench.txt");
    if !p.exists() {
        eprintln!("{} is missing; generating it with sample-traces/gen-bench.sh (about 30 s)", p.display());
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let st = Command::new(root.join("sample-traces/gen-bench.sh"))
            .arg(&p)
            .status()
            .expect("run sample-traces/gen-bench.sh");
        assert!(st.success(), "gen-bench.sh failed");
    }
    p
}
