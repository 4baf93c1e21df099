//! Triage throughput and memory on generated CI logs (bench/triage.sh runs it).
//!
//! ```text
//! triage_bench run N DB [KB] [CRASH_EVERY]   generate N logs in memory and index them into DB
//! triage_bench write N DIR [KB] [CRASH_EVERY] write the same logs as files (for the CLI and the peers)
//! ```
//!
//! A log is ~KB kilobytes of ordinary CI lines (timestamps, compiler lines, passing tests);
//! every CRASH_EVERY-th log has one real gdb transcript from sample-traces/triage/runs/ in
//! its middle. `run` is the `tracecheck triage` pipeline without the file reads: rayon over a
//! batch of 256 inputs (generate, hash, parse, analyze, records), one SQLite transaction per
//! batch, clustering at the end; it prints inputs per minute and the peak RSS.

use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::time::Instant;
use tracecheck::triage::{self, TriageOptions, db};

fn transcripts() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces/triage/runs");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    v.sort();
    v.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Deterministic xorshift.
fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn generate(i: usize, kb: usize, crash_every: usize, crashes: &[Vec<u8>], out: &mut Vec<u8>) {
    out.clear();
    let mut s = 0x9e37_79b9_7f4a_7c15u64 ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let target = kb * 1024;
    let mut crash_at = if crash_every > 0 && i.is_multiple_of(crash_every) { target / 2 } else { usize::MAX };
    let mut line = 0u64;
    while out.len() < target {
        line += 1;
        let t = 36_000_000 + line * 37;
        let _ = write!(
            out,
            "2026-11-{:02}T{:02}:{:02}:{:02}.{:07}Z ",
            1 + i % 28,
            (t / 3_600_000) % 24,
            (t / 60_000) % 60,
            (t / 1000) % 60,
            next(&mut s) % 10_000_000
        );
        match next(&mut s) % 6 {
            0 => writeln!(
                out,
                "   Compiling crate-{} v0.{}.{} (/home/runner/work/proj/proj/crates/c{})",
                next(&mut s) % 400,
                i % 10,
                line % 30,
                line % 17
            ),
            1 => writeln!(out, "test module_{}::case_{} ... ok", next(&mut s) % 90, line),
            2 => writeln!(
                out,
                "[{:>5}/{}] CXX obj/src/part_{}.o -O2 -g -fPIC -Wall -Iinclude",
                line,
                9000,
                next(&mut s) % 800
            ),
            3 => writeln!(out, "##[debug]Evaluating condition for step: 'Run tests' ({} ms)", next(&mut s) % 5000),
            4 => writeln!(
                out,
                "    Finished test [unoptimized + debuginfo] target(s) in {}.{}s",
                next(&mut s) % 90,
                line % 10
            ),
            _ => writeln!(out, "info: downloading component 'rust-std' {} KiB / {} KiB", next(&mut s) % 20_000, 20_000),
        }
        .unwrap();
        if out.len() >= crash_at {
            out.extend_from_slice(&crashes[(i / crash_every.max(1)) % crashes.len()]);
            crash_at = usize::MAX;
        }
    }
}

fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: triage_bench run|write N DB|DIR [KB] [CRASH_EVERY]");
        std::process::exit(2);
    }
    let n: usize = args[2].parse().expect("N");
    let kb: usize = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(200);
    let crash_every: usize = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(4);
    let crashes = transcripts();
    match args[1].as_str() {
        "write" => {
            let dir = Path::new(&args[3]);
            std::fs::create_dir_all(dir).unwrap();
            let mut buf = Vec::new();
            for i in 0..n {
                generate(i, kb, crash_every, &crashes, &mut buf);
                std::fs::write(dir.join(format!("job-{i:06}.log")), &buf).unwrap();
            }
        }
        "run" => {
            let path = Path::new(&args[3]);
            let _ = std::fs::remove_file(path);
            let mut dbh = db::Db::open(path).expect("open db");
            let opts = TriageOptions::default();
            dbh.check_frames(opts.frames).unwrap();
            let start = Instant::now();
            let (mut bytes, mut ncrash) = (0u64, 0usize);
            let batch = 256;
            let mut i0 = 0;
            while i0 < n {
                let ids: Vec<usize> = (i0..(i0 + batch).min(n)).collect();
                let inputs: Vec<db::NewInput> = ids
                    .par_iter()
                    .map_init(Vec::new, |buf, &i| {
                        generate(i, kb, crash_every, &crashes, buf);
                        let hash = triage::content_hash(buf);
                        let (records, format, _) = triage::analyze_bytes("gen", buf, &opts);
                        db::NewInput {
                            path: format!("gen/job-{i:06}.log"),
                            hash,
                            size: buf.len() as u64,
                            mtime: Some(1_796_083_200),
                            format,
                            records,
                        }
                    })
                    .collect();
                bytes += inputs.iter().map(|x| x.size).sum::<u64>();
                ncrash += inputs.iter().map(|x| x.records.len()).sum::<usize>();
                dbh.insert_batch(&inputs).unwrap();
                i0 += batch;
            }
            let indexed = start.elapsed();
            dbh.recluster().unwrap();
            let total = start.elapsed();
            println!(
                "inputs {n} ({:.0} MB, {kb} KB each, a crash in 1 of {crash_every}): crashes {ncrash}, indexed in {:.2} s, clustered by {:.2} s",
                bytes as f64 / 1e6,
                indexed.as_secs_f64(),
                total.as_secs_f64()
            );
            println!(
                "throughput: {:.0} inputs/min ({:.0} MB/s) on {} threads; peak RSS {} MB",
                n as f64 / total.as_secs_f64() * 60.0,
                bytes as f64 / 1e6 / total.as_secs_f64(),
                rayon::current_num_threads(),
                peak_rss_kb().map_or("?".into(), |k| format!("{:.0}", k as f64 / 1024.0))
            );
        }
        other => panic!("unknown mode {other}"),
    }
}
