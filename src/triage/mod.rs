//! `tracecheck triage`: many CI logs and dumps into crash records, signatures and clusters,
//! kept in an SQLite index (docs/triage.md).
//!
//! ```text
//!  paths ─► sources::enumerate ─► (rayon) load → hash → skip known → input::parse → analyze
//!        ─► record::records (signature, quality, cluster key) ─► db::insert_batch (one transaction per batch)
//!        ─► db::recluster ─► query (list / show, text / JSON / markdown)
//! ```

pub mod cli;
pub mod cluster;
pub mod db;
pub mod diff;
pub mod quality;
pub mod query;
pub mod record;
pub mod signature;
pub mod sources;

use rayon::prelude::*;
use sources::{Item, ReadLimits, Skipped};
use std::collections::HashSet;

#[derive(Clone, Debug)]
pub struct TriageOptions {
    /// Meaningful frames in a signature.
    pub frames: usize,
    pub limits: ReadLimits,
    /// Model limits for one input (stops kept bound the crashes of one log).
    pub parse_limits: crate::input::Limits,
    /// Inputs analysed between two database transactions.
    pub batch: usize,
    /// Show a progress bar (only when stderr is a terminal).
    pub progress: bool,
}

impl Default for TriageOptions {
    fn default() -> Self {
        TriageOptions {
            frames: signature::DEFAULT_FRAMES,
            limits: ReadLimits::default(),
            parse_limits: crate::input::Limits::default(),
            batch: 256,
            progress: false,
        }
    }
}

/// What one run did, for the summary.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Summary {
    pub inputs: usize,
    pub indexed: usize,
    pub already_indexed: usize,
    pub duplicates: usize,
    pub crashes: usize,
    pub without_crash: usize,
    /// One line per input that was skipped or only partly read, with the reason.
    pub problems: Vec<Skipped>,
    pub notes: Vec<String>,
}

enum Outcome {
    Known,
    Failed(String),
    Ready(db::NewInput, Vec<String>),
}

/// Reads, analyses and indexes `items` into `db`; inputs whose content hash is already there
/// are skipped. Memory stays bounded: one batch of inputs is in flight at a time.
pub fn run(
    db: &mut db::Db,
    items: Vec<Item>,
    skipped: Vec<Skipped>,
    opts: &TriageOptions,
) -> Result<Summary, db::DbError> {
    db.check_frames(opts.frames)?;
    let known = db.known_hashes()?;
    let mut summary = Summary { inputs: items.len(), problems: skipped, ..Default::default() };
    let bar = if opts.progress {
        let b = indicatif::ProgressBar::new(items.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} inputs, {per_sec}, eta {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    for chunk in items.chunks(opts.batch.max(1)) {
        let outcomes: Vec<Outcome> = chunk.par_iter().map(|item| process(item, &known, opts)).collect();
        let mut batch = Vec::new();
        for (item, o) in chunk.iter().zip(outcomes) {
            match o {
                Outcome::Known => summary.already_indexed += 1,
                Outcome::Failed(reason) => summary.problems.push(Skipped { display: item.display.clone(), reason }),
                Outcome::Ready(inp, notes) => {
                    for n in notes {
                        summary.problems.push(Skipped { display: item.display.clone(), reason: n });
                    }
                    batch.push(inp);
                }
            }
        }
        let res = db.insert_batch(&batch)?;
        for (inp, r) in batch.iter().zip(res) {
            match r {
                None => {
                    summary.indexed += 1;
                    summary.crashes += inp.records.len();
                    if inp.records.is_empty() {
                        summary.without_crash += 1;
                    }
                }
                Some(first) => {
                    summary.duplicates += 1;
                    summary.problems.push(Skipped {
                        display: inp.path.clone(),
                        reason: format!("duplicate: same content as {first} (indexed once)"),
                    });
                }
            }
        }
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    summary.notes = db.recluster()?;
    Ok(summary)
}

fn process(item: &Item, known: &HashSet<String>, opts: &TriageOptions) -> Outcome {
    let loaded = match sources::load(item, &opts.limits) {
        Ok(l) => l,
        Err(reason) => return Outcome::Failed(reason),
    };
    let hash = content_hash(&loaded.bytes);
    if known.contains(&hash) {
        return Outcome::Known;
    }
    if loaded.bytes.is_empty() {
        return Outcome::Failed("empty file".into());
    }
    if let Some(reason) = sources::binary_reason(&loaded.bytes) {
        return Outcome::Failed(reason);
    }
    let (records, format, notes) = analyze_bytes(&item.display, &loaded.bytes, opts);
    let input = db::NewInput {
        path: item.display.clone(),
        hash,
        size: loaded.bytes.len() as u64,
        mtime: loaded.mtime,
        format,
        records,
    };
    Outcome::Ready(input, notes)
}

/// Words without which no parser makes a crash stop: every gdb/rr/lldb signal stop says
/// `signal` or `SIG…` or `stop reason`, a pasted backtrace starts at `#0`, Julia prints
/// `signal (N)` or `ERROR:`…`Stacktrace:`, Go `panic:`/`fatal error:`/`SIG…`, Rust `panicked`, rr `FATAL`; cores are not
/// text. A log with none of them is read once by memchr's SIMD search and not parsed
/// (`tests/triage.rs` checks every bundled sample with a crash passes this filter).
const CRASH_MARKERS: &[&[u8]] = &[
    b"signal",
    b"SIG",
    b"#0",
    b"stop reason",
    b"panic",
    b"fatal",
    b"FATAL",
    b"Assertion",
    b"abort",
    b"Abort",
    b"Stacktrace",
    b"ERROR:",
];

/// Whether the text can hold a crash (see [`CRASH_MARKERS`]).
pub fn may_hold_crash(bytes: &[u8]) -> bool {
    CRASH_MARKERS.iter().any(|m| memchr::memmem::find(bytes, m).is_some())
}

/// SHA-256 of the content, hex.
pub fn content_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in d.iter() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Parses and analyses one input's text into its crash records, its formats, and notes for
/// the summary (limits reached).
pub fn analyze_bytes(
    path: &str,
    bytes: &[u8],
    opts: &TriageOptions,
) -> (Vec<record::CrashRecord>, String, Vec<String>) {
    if !may_hold_crash(bytes) {
        return (Vec::new(), String::new(), Vec::new());
    }
    // The library pipeline, as for a single dump (no binaries: nothing to symbolize).
    let load = crate::pipeline::LoadOptions { limits: opts.parse_limits, ..Default::default() };
    let report = crate::pipeline::analyze_text(path, bytes, &load);
    let notes = crate::pipeline::limit_notes(&report)
        .map(|n| format!("partly read: {}", crate::report::safe_line(&n.message)))
        .collect();
    let format = report.parsed.trace.formats.iter().map(|f| f.name()).collect::<Vec<_>>().join(",");
    let version = record::find_version(bytes);
    let records = record::records(&report, opts.frames, version.as_deref());
    (records, format, notes)
}
