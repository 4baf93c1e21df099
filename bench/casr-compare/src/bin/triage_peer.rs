//! Triage peers side by side on the same CI logs (bench/triage.sh writes them):
//! libcasr (`GdbStacktrace::extract_stacktrace` + `parse_stacktrace` per log, then
//! `cluster_stacktraces` over the crashing ones) and tracecheck (`triage::analyze_bytes` per
//! log: parse, analyze, signature, quality; then the same clustering the index uses).
//!
//! cargo run --release --bin triage_peer -- DIR

use std::time::Instant;

use libcasr::gdb::GdbStacktrace;
use libcasr::stacktrace::{ParseStacktrace, Stacktrace, cluster_stacktraces};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: triage_peer DIR");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let logs: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let mb = logs.iter().map(|l| l.len()).sum::<usize>() as f64 / 1e6;
    println!("inputs: {} logs, {mb:.0} MB (read before timing)", logs.len());

    // libcasr, one thread.
    let t = Instant::now();
    let mut stacks: Vec<Stacktrace> = Vec::new();
    for l in &logs {
        let text = String::from_utf8_lossy(l);
        let Ok(lines) = GdbStacktrace::extract_stacktrace(&text) else { continue };
        if lines.is_empty() {
            continue;
        }
        if let Ok(st) = GdbStacktrace::parse_stacktrace(&lines) {
            stacks.push(st);
        }
    }
    let parsed = t.elapsed();
    // kodama's linkage needs at least two observations; 0 or 1 stack is 0 or 1 cluster.
    let clusters = match stacks.len() {
        0 | 1 => stacks.len(),
        _ => match cluster_stacktraces(&stacks) {
            Ok(c) => c.iter().max().copied().unwrap_or(0),
            Err(e) => {
                eprintln!("cluster_stacktraces: {e}");
                0
            }
        },
    };
    let total = t.elapsed();
    println!(
        "libcasr 2.13 (1 thread): parse {:.2} s, cluster_stacktraces {:.3} s, total {:.2} s = {:.0} logs/min; {} stacks, {} clusters",
        parsed.as_secs_f64(),
        (total - parsed).as_secs_f64(),
        total.as_secs_f64(),
        logs.len() as f64 / total.as_secs_f64() * 60.0,
        stacks.len(),
        clusters
    );

    // tracecheck, one thread, same logs, no database.
    let opts = tracecheck::triage::TriageOptions::default();
    let t = Instant::now();
    let mut keys = Vec::new();
    for l in &logs {
        let (records, _, _) = tracecheck::triage::analyze_bytes("x", l, &opts);
        keys.extend(records.iter().map(|r| r.cluster_key()));
    }
    let parsed = t.elapsed();
    let (ids, _) = tracecheck::triage::cluster::cluster_ids(&keys);
    let total = t.elapsed();
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    println!(
        "tracecheck (1 thread): parse+analyze+signature {:.2} s, clustering {:.3} s, total {:.2} s = {:.0} logs/min; {} crashes, {} clusters",
        parsed.as_secs_f64(),
        (total - parsed).as_secs_f64(),
        total.as_secs_f64(),
        logs.len() as f64 / total.as_secs_f64() * 60.0,
        keys.len(),
        distinct.len()
    );
}
