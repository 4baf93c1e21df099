//! `DUMP=path cargo test --test dump -- --ignored --nocapture` prints the snapshot rendering
//! of any file: a debugging aid for parser work.
mod common;

#[test]
#[ignore]
fn dump() {
    let Some(paths) = std::env::var_os("DUMP") else { return };
    for p in std::env::split_paths(&paths) {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let parsed = tracecheck::input::parse_bytes(&bytes);
        println!("==== {}\n{}", p.display(), common::render(&parsed));
    }
}

/// `DUMP=… cargo test --test dump culprits -- --ignored --nocapture`: culprit frame and
/// crash line of each file.
#[test]
#[ignore]
fn culprits() {
    let Some(paths) = std::env::var_os("DUMP") else { return };
    for p in std::env::split_paths(&paths) {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let parsed = tracecheck::input::parse_bytes(&bytes);
        let Some(stop) = parsed.trace.main_stop() else { continue };
        let c = tracecheck::analyze::culprit(stop);
        let th = stop.crashed_thread();
        let f = c.as_ref().and_then(|c| th.and_then(|t| t.frames.get(c.position)));
        println!(
            "{}: culprit #{} {} | crash line {}",
            p.display(),
            c.as_ref().map(|c| c.index).unwrap_or(0),
            f.map(|f| f.function_name()).unwrap_or("-"),
            tracecheck::analyze::crash_line(stop).unwrap_or_default()
        );
    }
}

/// `BENCH=/tmp/big.bench.txt cargo test --release --test dump bench -- --ignored --nocapture`:
/// parse throughput on a large transcript (see sample-traces/gen-bench.sh).
#[test]
#[ignore]
fn bench() {
    let Some(path) = std::env::var_os("BENCH") else { return };
    let bytes = std::fs::read(&path).expect("bench file");
    // On-CPU time of this thread (Linux schedstat, ns): wall time lies on a loaded machine.
    let cpu = || -> Option<f64> {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
    };
    let mut best_cpu = f64::MAX;
    let mut best = f64::MAX;
    let mut frames = 0;
    let mut summary = String::new();
    for _ in 0..5 {
        let (t, c) = (std::time::Instant::now(), cpu());
        let p = tracecheck::input::parse_bytes(&bytes);
        let dt = t.elapsed().as_secs_f64();
        if let (Some(a), Some(b)) = (c, cpu()) {
            best_cpu = best_cpu.min(b - a);
        }
        best = best.min(dt);
        frames = p.trace.stops.iter().flat_map(|s| &s.threads).map(|t| t.frames.len()).sum::<usize>();
        let stop = p.trace.main_stop();
        summary = format!(
            "{} threads, crashed {:?}, {} unrecognized lines",
            stop.map(|s| s.threads.len()).unwrap_or(0),
            stop.and_then(|s| s.crashed_thread()).map(|t| (t.id.to_string(), t.name.clone(), t.frames.len())),
            p.diagnostics.lines_unrecognized
        );
        std::hint::black_box(&p);
    }
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "{} bytes, {frames} frames: best wall {:.3} s = {:.0} MB/s, best on-CPU {:.3} s = {:.0} MB/s; {summary}",
        bytes.len(),
        best,
        mb / best,
        best_cpu,
        mb / best_cpu
    );
}
