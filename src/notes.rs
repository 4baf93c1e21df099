//! Notes: what a person wrote about a frame, a register, a finding or the whole trace, kept in
//! a sidecar file next to the dump (`dump.txt.tracecheck-notes.json`, format in `docs/notes.md`).
//!
//! Notes are anchored by stable keys (stop index, thread id, frame index, function name, file
//! and line), never by screen position, so they survive re-parsing; [`resolve_frame`] finds
//! the frame again and re-anchors by function name when the frame index shifted. The markdown
//! report and the TUI read notes through [`load`] and place them with [`resolve`].
//!
//! Writing is safe against crashes and against other writers: [`add`] and [`remove`] take an
//! exclusive lock on `<sidecar>.lock`, re-read the sidecar under the lock, merge, then write
//! a temporary file in the same directory, flush and fsync it and rename it over the sidecar.
//! A sidecar that does not parse, or that comes from a newer format version, is reported and
//! never overwritten.

use crate::model::Finding;
use crate::model::InputReport;
use crate::model::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The sidecar format version this build writes. Older versions are read; newer are refused.
pub const VERSION: u32 = 1;

/// File-name suffix of the sidecar, appended to the dump's file name.
pub const SUFFIX: &str = ".tracecheck-notes.json";

/// The whole sidecar file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotesFile {
    pub version: u32,
    #[serde(default)]
    pub notes: Vec<Note>,
}

impl Default for NotesFile {
    fn default() -> Self {
        NotesFile { version: VERSION, notes: Vec::new() }
    }
}

/// One note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Unique within the file; used to remove a note.
    pub id: String,
    pub target: Target,
    pub text: String,
    /// Seconds since the Unix epoch.
    #[serde(default)]
    pub created: u64,
}

/// What a note is attached to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// The whole trace.
    Trace,
    Frame {
        frame: FrameAnchor,
    },
    /// A register as seen in one frame.
    Register {
        register: String,
        frame: FrameAnchor,
    },
    /// A finding, by rule id and (when the finding names one) its frame.
    Finding {
        rule: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        frame: Option<FrameAnchor>,
    },
}

/// Stable keys for one frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameAnchor {
    /// Index of the stop in `trace.stops`.
    pub stop: usize,
    /// Thread id as the debugger printed it.
    pub thread: String,
    /// gdb's frame number (`#3`).
    pub index: u32,
    /// Function name as printed (`??` when unknown).
    pub function: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl FrameAnchor {
    pub fn of(stop: usize, thread: &Thread, frame: &Frame) -> Self {
        FrameAnchor {
            stop,
            thread: thread.id.to_string(),
            index: frame.index,
            function: frame.function_name().to_string(),
            file: frame.file.as_deref().map(str::to_string),
            line: frame.line,
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Trace => f.write_str("the whole trace"),
            Target::Frame { frame } => write!(f, "frame #{} {} (thread {})", frame.index, frame.function, frame.thread),
            Target::Register { register, frame } => {
                write!(f, "register {register} at frame #{} {}", frame.index, frame.function)
            }
            Target::Finding { rule, frame: Some(fr) } => write!(f, "finding {rule} (frame #{})", fr.index),
            Target::Finding { rule, frame: None } => write!(f, "finding {rule}"),
        }
    }
}

/// Why notes could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NotesError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("notes file {path} is broken ({reason}); it was left as it is and nothing was saved — fix or move it away")]
    Broken { path: PathBuf, reason: String },
    #[error(
        "notes file {path} has format version {found}, newer than this tracecheck reads ({VERSION}); it was left as it is and nothing was saved — use a newer tracecheck"
    )]
    NewerVersion { path: PathBuf, found: u32 },
    #[error("notes need a dump file on disk (standard input has no place for a sidecar)")]
    NoFile,
    #[error("{0}")]
    Target(String),
}

impl NotesError {
    /// A stable name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            NotesError::Io { .. } => "io",
            NotesError::Broken { .. } => "broken",
            NotesError::NewerVersion { .. } => "newer-version",
            NotesError::NoFile => "no-file",
            NotesError::Target(_) => "target",
        }
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> NotesError + '_ {
    move |source| NotesError::Io { path: path.to_path_buf(), source }
}

/// `dump.txt` → `dump.txt.tracecheck-notes.json`, in the same directory.
pub fn sidecar_path(dump: &Path) -> PathBuf {
    let mut name = dump.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(SUFFIX);
    dump.with_file_name(name)
}

fn lock_path(sidecar: &Path) -> PathBuf {
    let mut name = sidecar.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".lock");
    sidecar.with_file_name(name)
}

/// Parses sidecar text. Rejects newer versions and anything that is not a notes file.
pub fn parse(text: &str, path: &Path) -> Result<NotesFile, NotesError> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| NotesError::Broken { path: path.to_path_buf(), reason: e.to_string() })?;
    let version = v.get("version").and_then(|x| x.as_u64());
    match version {
        None => return Err(NotesError::Broken { path: path.to_path_buf(), reason: "no \"version\" field".into() }),
        Some(n) if n > VERSION as u64 => {
            return Err(NotesError::NewerVersion {
                path: path.to_path_buf(),
                found: u32::try_from(n).unwrap_or(u32::MAX),
            });
        }
        Some(_) => {}
    }
    serde_json::from_value(v).map_err(|e| NotesError::Broken { path: path.to_path_buf(), reason: e.to_string() })
}

/// Reads the notes of a dump. A missing sidecar is an empty set of notes.
pub fn load(dump: &Path) -> Result<NotesFile, NotesError> {
    load_sidecar(&sidecar_path(dump))
}

fn load_sidecar(path: &Path) -> Result<NotesFile, NotesError> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| NotesError::Broken { path: path.to_path_buf(), reason: "not UTF-8".into() })?;
            parse(&text, path)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(NotesFile::default()),
        Err(e) => Err(NotesError::Io { path: path.to_path_buf(), source: e }),
    }
}

/// Runs `change` on the current notes under the sidecar's lock and writes the result
/// atomically. Nothing is written when the sidecar is broken or newer.
pub fn update(dump: &Path, change: impl FnOnce(&mut NotesFile)) -> Result<NotesFile, NotesError> {
    let path = sidecar_path(dump);
    let lock = lock_path(&path);
    // Neither the lock nor the sidecar is written through a symlink (one planted beside a
    // dump someone sent would otherwise create or replace a file elsewhere).
    crate::fsutil::check_destination(&path).map_err(io_err(&path))?;
    let lock_file = lock_current(&lock)?;
    let mut file = load_sidecar(&path)?;
    change(&mut file);
    file.version = VERSION;
    if file.notes.is_empty() {
        // The last note is gone: leave nothing behind. The sidecar goes first, then the lock
        // file, still under the lock; a writer waiting on the old lock inode sees that the
        // path no longer names it and retries on a new one (`lock_current`).
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(NotesError::Io { path, source: e }),
        }
        std::fs::remove_file(&lock).ok();
    } else {
        write_atomically(&path, &file)?;
    }
    drop(lock_file);
    Ok(file)
}

/// Opens and flocks the lock file, retrying while the path no longer names the inode that was
/// locked (another writer removed the lock file with the last note between our open and our
/// lock): two writers must never hold locks on two different inodes.
fn lock_current(lock: &Path) -> Result<std::fs::File, NotesError> {
    use std::os::unix::fs::MetadataExt;
    for _ in 0..1000 {
        let f = crate::fsutil::open_lock(lock).map_err(io_err(lock))?;
        // flock: released when the file is dropped (also if this process dies).
        f.lock().map_err(io_err(lock))?;
        let mine = f.metadata().map_err(io_err(lock))?;
        match std::fs::symlink_metadata(lock) {
            Ok(now) if now.dev() == mine.dev() && now.ino() == mine.ino() => return Ok(f),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(NotesError::Io { path: lock.to_path_buf(), source: e }),
        }
    }
    Err(NotesError::Io { path: lock.to_path_buf(), source: io::Error::other("the lock file keeps being replaced") })
}

/// Adds one note (merging with whatever other processes wrote meanwhile).
pub fn add(dump: &Path, note: Note) -> Result<NotesFile, NotesError> {
    update(dump, |f| f.notes.push(note))
}

/// What `remove_prefix` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Removed {
    /// The full id of the note removed.
    One(String),
    NotFound,
    /// More than one note starts with the prefix: nothing removed; their short ids.
    Ambiguous(Vec<String>),
}

/// The note ids a prefix names: an exact id wins, else every id starting with the prefix.
pub fn matching_ids<'a>(file: &'a NotesFile, prefix: &str) -> Vec<&'a str> {
    if let Some(n) = file.notes.iter().find(|n| n.id == prefix) {
        return vec![&n.id];
    }
    if prefix.is_empty() {
        return Vec::new();
    }
    file.notes.iter().filter(|n| n.id.starts_with(prefix)).map(|n| n.id.as_str()).collect()
}

/// Removes the note a unique id prefix names (resolved under the lock, against what other
/// writers left). An ambiguous prefix removes nothing.
pub fn remove_prefix(dump: &Path, prefix: &str) -> Result<Removed, NotesError> {
    let mut out = Removed::NotFound;
    update(dump, |f| {
        let ids: Vec<String> = matching_ids(f, prefix).into_iter().map(str::to_string).collect();
        match ids.len() {
            0 => {}
            1 => {
                f.notes.retain(|n| n.id != ids[0]);
                out = Removed::One(ids[0].clone());
            }
            _ => {
                let short = short_ids(f);
                out = Removed::Ambiguous(
                    f.notes.iter().zip(short).filter(|(n, _)| ids.contains(&n.id)).map(|(_, s)| s).collect(),
                );
            }
        }
    })?;
    Ok(out)
}

/// Shortest unique prefix of each note's id (at least 4 characters), in note order.
pub fn short_ids(file: &NotesFile) -> Vec<String> {
    const MIN: usize = 4;
    file.notes
        .iter()
        .map(|n| {
            let id = n.id.as_str();
            let mut len = MIN.min(id.len());
            while len < id.len()
                && file.notes.iter().any(|o| o.id != id && o.id.as_bytes().starts_with(&id.as_bytes()[..len]))
            {
                len += 1;
            }
            // ids are ASCII when tracecheck made them; keep a char boundary for others.
            while !id.is_char_boundary(len) {
                len += 1;
            }
            id[..len].to_string()
        })
        .collect()
}

/// Removes the note with this id; `Ok(false)` when there was none.
pub fn remove(dump: &Path, id: &str) -> Result<bool, NotesError> {
    let mut found = false;
    update(dump, |f| {
        let before = f.notes.len();
        f.notes.retain(|n| n.id != id);
        found = f.notes.len() != before;
    })?;
    Ok(found)
}

/// What [`edit`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edited {
    /// The note's text was replaced (id, target and creation time kept).
    Replaced,
    /// The note was gone (removed meanwhile by another process): the new text was added as a
    /// new note on the same target, so it is not lost.
    ReAdded,
}

/// Replaces the text of the note with this id, under the sidecar's lock. When the note is no
/// longer there, the text is kept as a new note on `target` instead of being dropped.
pub fn edit(dump: &Path, id: &str, target: &Target, text: &str) -> Result<(NotesFile, Edited), NotesError> {
    let mut what = Edited::Replaced;
    let text = text.trim();
    let file = update(dump, |f| match f.notes.iter_mut().find(|n| n.id == id) {
        Some(n) => n.text = text.to_string(),
        None => {
            what = Edited::ReAdded;
            f.notes.push(new_note(target.clone(), text));
        }
    })?;
    Ok((file, what))
}

fn write_atomically(path: &Path, file: &NotesFile) -> Result<(), NotesError> {
    let mut json = serde_json::to_string_pretty(file)
        .map_err(|e| NotesError::Broken { path: path.to_path_buf(), reason: e.to_string() })?;
    json.push('\n');
    crate::fsutil::write_file(path, json.as_bytes()).map_err(io_err(path))
}

fn unique() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{nanos:x}{:x}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// A new note with a fresh id and the current time.
pub fn new_note(target: Target, text: &str) -> Note {
    let created = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    Note { id: new_id(), target, text: text.trim().to_string(), created }
}

/// 16 hex digits, mixed (splitmix64) from the time, the process and a counter, so ids differ
/// from their first characters and a short prefix names a note.
fn new_id() -> String {
    let mut x = unique().bytes().fold(std::process::id() as u64, |h, b| h.rotate_left(5) ^ b as u64);
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    format!("{:016x}", x ^ (x >> 31))
}

/// Where a frame anchor points in the current parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedFrame {
    pub stop: usize,
    /// Position of the thread in `stop.threads`.
    pub thread: usize,
    /// Position of the frame in `thread.frames`.
    pub position: usize,
    /// The frame's index now (`#N`).
    pub index: u32,
    /// The frame index changed (the note was re-anchored by function name).
    pub moved: bool,
}

/// Finds the frame an anchor names: the same index and function; else the frame of that
/// function (and file) nearest to the old index in the same thread; else `None`.
pub fn resolve_frame(trace: &Trace, a: &FrameAnchor) -> Option<ResolvedFrame> {
    let mut order: Vec<usize> = Vec::with_capacity(trace.stops.len());
    if a.stop < trace.stops.len() {
        order.push(a.stop);
    }
    order.extend((0..trace.stops.len()).rev().filter(|&s| s != a.stop));
    let same_fn =
        |f: &Frame| f.function_name() == a.function && (a.file.is_none() || f.file.as_deref() == a.file.as_deref());
    for si in order {
        let stop = &trace.stops[si];
        let Some(ti) = stop.threads.iter().position(|t| *t.id == *a.thread) else { continue };
        let th = &stop.threads[ti];
        if let Some(p) =
            th.frames.iter().position(|f| f.index == a.index && same_fn(f) && (a.line.is_none() || f.line == a.line))
        {
            return Some(ResolvedFrame { stop: si, thread: ti, position: p, index: a.index, moved: false });
        }
        if let Some(p) = th.frames.iter().position(|f| f.index == a.index && same_fn(f)) {
            return Some(ResolvedFrame { stop: si, thread: ti, position: p, index: a.index, moved: false });
        }
        let best = th
            .frames
            .iter()
            .enumerate()
            .filter(|(_, f)| same_fn(f))
            .min_by_key(|(_, f)| (f.index.abs_diff(a.index), f.line != a.line));
        if let Some((p, f)) = best {
            return Some(ResolvedFrame { stop: si, thread: ti, position: p, index: f.index, moved: true });
        }
    }
    None
}

/// Lookups for placing many notes at once, built in one pass over the report: thread by id,
/// frames by index and by function, findings by rule. Placing N notes then costs hash
/// lookups per note instead of scans of every thread, frame and finding (which made a
/// sidecar of thousands of notes on a dump of thousands of frames quadratic).
struct Index<'a> {
    /// Per stop: thread id → position of its first thread with that id.
    threads: Vec<FxHashMap<&'a str, usize>>,
    /// (stop, thread position) → frame index → positions.
    by_index: FxHashMap<(usize, usize), FxHashMap<u32, Vec<usize>>>,
    /// (stop, thread position) → function name → positions.
    by_fn: FxHashMap<(usize, usize), FxHashMap<&'a str, Vec<usize>>>,
    /// Rule id → positions in `findings`.
    findings: FxHashMap<&'a str, Vec<usize>>,
}

impl<'a> Index<'a> {
    fn new(ir: &'a InputReport) -> Self {
        let t = &ir.parsed.trace;
        let mut ix = Index {
            threads: Vec::with_capacity(t.stops.len()),
            by_index: Default::default(),
            by_fn: Default::default(),
            findings: Default::default(),
        };
        for (si, stop) in t.stops.iter().enumerate() {
            let mut ids: FxHashMap<&str, usize> = Default::default();
            for (ti, th) in stop.threads.iter().enumerate() {
                ids.entry(&th.id).or_insert(ti);
                let bi = ix.by_index.entry((si, ti)).or_default();
                let bf = ix.by_fn.entry((si, ti)).or_default();
                for (p, f) in th.frames.iter().enumerate() {
                    bi.entry(f.index).or_default().push(p);
                    bf.entry(f.function_name()).or_default().push(p);
                }
            }
            ix.threads.push(ids);
        }
        for (i, f) in ir.findings.iter().enumerate() {
            ix.findings.entry(f.rule).or_default().push(i);
        }
        ix
    }

    /// [`resolve_frame`] with the lookups.
    fn frame(&self, trace: &Trace, a: &FrameAnchor) -> Option<ResolvedFrame> {
        let n = trace.stops.len();
        let order = (a.stop < n).then_some(a.stop).into_iter().chain((0..n).rev().filter(|&s| s != a.stop));
        let same_file = |f: &Frame| a.file.is_none() || f.file.as_deref() == a.file.as_deref();
        for si in order {
            let Some(&ti) = self.threads[si].get(a.thread.as_str()) else { continue };
            let th = &trace.stops[si].threads[ti];
            let at = self.by_index.get(&(si, ti)).and_then(|m| m.get(&a.index)).map(Vec::as_slice).unwrap_or(&[]);
            let same_fn = |p: &usize| th.frames[*p].function_name() == a.function && same_file(&th.frames[*p]);
            let exact = at.iter().find(|p| same_fn(p) && (a.line.is_none() || th.frames[**p].line == a.line));
            if let Some(&p) = exact.or_else(|| at.iter().find(|p| same_fn(p))) {
                return Some(ResolvedFrame { stop: si, thread: ti, position: p, index: a.index, moved: false });
            }
            let named =
                self.by_fn.get(&(si, ti)).and_then(|m| m.get(a.function.as_str())).map(Vec::as_slice).unwrap_or(&[]);
            let best = named
                .iter()
                .map(|&p| (p, &th.frames[p]))
                .filter(|(_, f)| same_file(f))
                .min_by_key(|(_, f)| (f.index.abs_diff(a.index), f.line != a.line));
            if let Some((p, f)) = best {
                return Some(ResolvedFrame { stop: si, thread: ti, position: p, index: f.index, moved: true });
            }
        }
        None
    }
}

/// Places every note of `list` (see [`resolve`], which this equals note for note), with the
/// report indexed once.
pub fn resolve_all(list: &[Note], ir: &InputReport) -> Vec<Placement> {
    if list.is_empty() {
        return Vec::new();
    }
    let ix = Index::new(ir);
    let t = &ir.parsed.trace;
    list.iter()
        .map(|note| match &note.target {
            Target::Trace => Placement::Trace,
            Target::Frame { frame } => ix.frame(t, frame).map(Placement::Frame).unwrap_or(Placement::Orphan),
            Target::Register { register, frame } => ix
                .frame(t, frame)
                .map(|f| Placement::Register { register: register.clone(), frame: f })
                .unwrap_or(Placement::Orphan),
            Target::Finding { rule, frame } => {
                let want = frame.as_ref().and_then(|a| ix.frame(t, a));
                let of_rule = ix.findings.get(rule.as_str()).map(Vec::as_slice).unwrap_or(&[]);
                let matches_frame = |f: &Finding| match want {
                    Some(w) => f.frame == Some(w.index) && f.stop.is_none_or(|s| s == w.stop),
                    None => true,
                };
                of_rule
                    .iter()
                    .copied()
                    .find(|&i| matches_frame(&ir.findings[i]))
                    .or_else(|| of_rule.first().copied())
                    .map(Placement::Finding)
                    .unwrap_or(Placement::Orphan)
            }
        })
        .collect()
}

/// Where a note lands in the current report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    Trace,
    Frame(ResolvedFrame),
    Register {
        register: String,
        frame: ResolvedFrame,
    },
    /// Index into `InputReport::findings`.
    Finding(usize),
    /// The anchor no longer matches anything in the dump.
    Orphan,
}

/// Places a note in a report (see [`Placement`]).
pub fn resolve(note: &Note, ir: &InputReport) -> Placement {
    let t = &ir.parsed.trace;
    match &note.target {
        Target::Trace => Placement::Trace,
        Target::Frame { frame } => resolve_frame(t, frame).map(Placement::Frame).unwrap_or(Placement::Orphan),
        Target::Register { register, frame } => resolve_frame(t, frame)
            .map(|f| Placement::Register { register: register.clone(), frame: f })
            .unwrap_or(Placement::Orphan),
        Target::Finding { rule, frame } => {
            let want = frame.as_ref().and_then(|a| resolve_frame(t, a));
            let matches_frame = |f: &Finding| match want {
                Some(w) => f.frame == Some(w.index) && f.stop.is_none_or(|s| s == w.stop),
                None => true,
            };
            ir.findings
                .iter()
                .position(|f| f.rule == rule && matches_frame(f))
                .or_else(|| ir.findings.iter().position(|f| f.rule == rule))
                .map(Placement::Finding)
                .unwrap_or(Placement::Orphan)
        }
    }
}

/// The anchor for a finding: its rule and, when it names one, its frame.
pub fn finding_target(ir: &InputReport, f: &Finding) -> Target {
    let t = &ir.parsed.trace;
    let frame = (|| {
        let si = f.stop?;
        let stop = t.stops.get(si)?;
        let th = match &f.thread {
            Some(id) => stop.threads.iter().find(|th| *th.id == **id)?,
            None => stop.crashed_thread()?,
        };
        let fr = th.frames.iter().find(|x| Some(x.index) == f.frame)?;
        Some(FrameAnchor::of(si, th, fr))
    })();
    Target::Finding { rule: f.rule.to_string(), frame }
}

/// What `tracecheck note` was asked to annotate.
#[derive(Clone, Debug, Default)]
pub struct TargetSpec {
    pub frame: Option<u32>,
    pub register: Option<String>,
    pub finding: Option<String>,
    /// Thread id; default the crashed thread of the main stop.
    pub thread: Option<String>,
}

/// Turns command-line choices into an anchored target, checking that it exists in the dump.
pub fn target_for(ir: &InputReport, spec: &TargetSpec) -> Result<Target, NotesError> {
    let t = &ir.parsed.trace;
    if let Some(rule) = &spec.finding {
        if spec.register.is_some() || spec.frame.is_some() {
            return Err(NotesError::Target("--finding cannot be combined with --frame or --register".into()));
        }
        let Some(f) = ir.findings.iter().find(|f| f.rule == rule) else {
            let ids: Vec<&str> = ir.findings.iter().map(|f| f.rule).collect();
            return Err(NotesError::Target(if ids.is_empty() {
                format!("no finding '{rule}' in this dump (it has no findings)")
            } else {
                format!("no finding '{rule}' in this dump; its findings are: {}", ids.join(", "))
            }));
        };
        return Ok(finding_target(ir, f));
    }
    if spec.frame.is_none() && spec.register.is_none() {
        if spec.thread.is_some() {
            return Err(NotesError::Target("--thread needs --frame or --register".into()));
        }
        return Ok(Target::Trace);
    }
    let Some(stop) = t.main_stop() else { return Err(NotesError::Target("no stop in this dump".into())) };
    let si = t.stops.iter().position(|s| std::ptr::eq(s, stop)).unwrap_or(0);
    let th = match &spec.thread {
        Some(id) => stop
            .threads
            .iter()
            .find(|th| *th.id == **id)
            .ok_or_else(|| NotesError::Target(format!("no thread '{id}' in this dump")))?,
        None => stop.crashed_thread().ok_or_else(|| NotesError::Target("no thread in this dump".into()))?,
    };
    let index = spec.frame.unwrap_or(0);
    let Some(fr) = th.frames.iter().find(|f| f.index == index) else {
        let range = match (th.frames.first(), th.frames.last()) {
            (Some(a), Some(b)) => format!(" (it has #{}–#{})", a.index, b.index),
            _ => " (it has no frames)".to_string(),
        };
        return Err(NotesError::Target(format!("no frame #{index} in thread {}{range}", th.id)));
    };
    let anchor = FrameAnchor::of(si, th, fr);
    match &spec.register {
        None => Ok(Target::Frame { frame: anchor }),
        Some(r) => {
            if let Some(set) = th.registers.get(&index)
                && set.reg(r).is_none()
            {
                let names: Vec<&str> = set.regs.iter().map(|x| &*x.name).take(24).collect();
                return Err(NotesError::Target(format!(
                    "no register '{r}' at frame #{index}; registers printed there: {}",
                    names.join(" ")
                )));
            }
            Ok(Target::Register { register: r.clone(), frame: anchor })
        }
    }
}

/// One line per note for `tracecheck note FILE --list`, with where it lands now.
pub fn list_lines(file: &NotesFile, ir: &InputReport) -> Vec<String> {
    let short = short_ids(file);
    file.notes
        .iter()
        .zip(short)
        .zip(resolve_all(&file.notes, ir))
        .map(|((n, id), placement)| {
            let place = match placement {
                Placement::Trace => "trace".to_string(),
                Placement::Frame(f) => moved(format!("frame #{}", f.index), f),
                Placement::Register { register, frame } => moved(format!("{register} @ frame #{}", frame.index), frame),
                Placement::Finding(i) => format!("finding {}", ir.findings.get(i).map(|f| f.rule).unwrap_or("?")),
                Placement::Orphan => format!("UNANCHORED (was {})", n.target),
            };
            format!(
                "{}  [{}]  {}",
                crate::input::clean::visible(&id),
                crate::input::clean::visible(&place),
                crate::input::clean::visible(&n.text).replace('\n', " ")
            )
        })
        .collect()
}

fn moved(s: String, f: ResolvedFrame) -> String {
    if f.moved { format!("{s} (re-anchored)") } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Selection;

    const BT: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23
(gdb) bt
#0  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23
#1  0x0000555555555190 in registry_total (r=0x7fffffffec20, upto=2) at src/null-field.c:30
#2  0x00005555555551c0 in report (r=0x7fffffffec20) at src/null-field.c:38
#3  0x00005555555551f0 in main () at src/null-field.c:45
";

    fn ir(text: &str) -> InputReport {
        crate::analyze::analyze("t.txt", crate::input::parse(text), &Selection::default())
    }

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tracecheck-notes-{name}-{}-{}", std::process::id(), unique()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn sidecar_name() {
        assert_eq!(sidecar_path(Path::new("/a/b/dump.txt")), PathBuf::from("/a/b/dump.txt.tracecheck-notes.json"));
        assert_eq!(sidecar_path(Path::new("dump.txt")), PathBuf::from("dump.txt.tracecheck-notes.json"));
    }

    #[test]
    fn add_load_remove_round_trip() {
        let d = tmpdir("rt");
        let dump = d.join("dump.txt");
        std::fs::write(&dump, BT).unwrap();
        let r = ir(BT);
        let t = target_for(&r, &TargetSpec { frame: Some(2), ..Default::default() }).unwrap();
        let n = new_note(t, "off by one here");
        add(&dump, n.clone()).unwrap();
        add(&dump, new_note(Target::Trace, "whole")).unwrap();
        let f = load(&dump).unwrap();
        assert_eq!(f.version, VERSION);
        assert_eq!(f.notes.len(), 2);
        assert_eq!(f.notes[0], n);
        assert!(remove(&dump, &n.id).unwrap());
        assert!(!remove(&dump, &n.id).unwrap());
        assert_eq!(load(&dump).unwrap().notes.len(), 1);
        // No temporary files left behind.
        let left: Vec<_> = std::fs::read_dir(&d).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
        assert!(left.iter().all(|n| !n.to_string_lossy().contains(".tmp.")), "{left:?}");
    }

    #[test]
    fn broken_and_newer_sidecars_are_never_overwritten() {
        let d = tmpdir("broken");
        let dump = d.join("dump.txt");
        let side = sidecar_path(&dump);
        std::fs::write(&side, "{\"version\": 1, \"notes\": [").unwrap();
        let e = add(&dump, new_note(Target::Trace, "x")).unwrap_err();
        assert_eq!(e.name(), "broken");
        assert!(e.to_string().contains("nothing was saved"), "{e}");
        assert_eq!(std::fs::read_to_string(&side).unwrap(), "{\"version\": 1, \"notes\": [");
        std::fs::write(&side, "{\"version\": 99, \"notes\": [], \"future\": true}").unwrap();
        let e = add(&dump, new_note(Target::Trace, "x")).unwrap_err();
        assert_eq!(e.name(), "newer-version");
        assert!(std::fs::read_to_string(&side).unwrap().contains("99"));
        assert_eq!(load(&dump).unwrap_err().name(), "newer-version");
        std::fs::write(&side, "{\"notes\": []}").unwrap();
        assert_eq!(load(&dump).unwrap_err().name(), "broken");
    }

    #[test]
    fn concurrent_writers_keep_every_note() {
        let d = tmpdir("conc");
        let dump = d.join("dump.txt");
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let dump = dump.clone();
                std::thread::spawn(move || {
                    for j in 0..10 {
                        add(&dump, new_note(Target::Trace, &format!("{i}-{j}"))).unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let f = load(&dump).unwrap();
        assert_eq!(f.notes.len(), 80);
    }

    #[test]
    fn frame_notes_reanchor_when_the_index_shifts() {
        let r = ir(BT);
        let Target::Frame { frame } = target_for(&r, &TargetSpec { frame: Some(2), ..Default::default() }).unwrap()
        else {
            panic!()
        };
        assert_eq!(frame.function, "report");
        // Same dump: exact.
        let rf = resolve_frame(&r.parsed.trace, &frame).unwrap();
        assert_eq!((rf.index, rf.moved), (2, false));
        // One more frame on top: `report` is now #3.
        let shifted = BT.replace(
            "#0  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n#1  0x0000555555555190",
            "#0  0x0000555555555100 in helper () at src/null-field.c:10\n#1  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n#2  0x0000555555555190",
        )
        .replace("#2  0x00005555555551c0 in report", "#3  0x00005555555551c0 in report")
        .replace("#3  0x00005555555551f0 in main", "#4  0x00005555555551f0 in main");
        let r2 = ir(&shifted);
        let rf = resolve_frame(&r2.parsed.trace, &frame).unwrap();
        assert_eq!((rf.index, rf.moved), (3, true));
        // Function gone: orphan.
        let gone = BT.replace("in report (", "in other (");
        assert_eq!(resolve(&new_note(Target::Frame { frame: frame.clone() }, "x"), &ir(&gone)), Placement::Orphan);
    }

    #[test]
    fn target_errors_are_helpful() {
        let r = ir(BT);
        let e = target_for(&r, &TargetSpec { frame: Some(9), ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("#0–#3"), "{e}");
        let e =
            target_for(&r, &TargetSpec { finding: Some("pinned-register".into()), ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("no finding"), "{e}");
        assert_eq!(target_for(&r, &TargetSpec::default()).unwrap(), Target::Trace);
    }

    #[test]
    fn format_is_stable() {
        let n = Note {
            id: "a1".into(),
            target: Target::Register {
                register: "r13".into(),
                frame: FrameAnchor {
                    stop: 0,
                    thread: "1".into(),
                    index: 0,
                    function: "f".into(),
                    file: None,
                    line: None,
                },
            },
            text: "stale thunk".into(),
            created: 5,
        };
        let f = NotesFile { version: 1, notes: vec![n] };
        let s = serde_json::to_string(&f).unwrap();
        assert_eq!(
            s,
            r#"{"version":1,"notes":[{"id":"a1","target":{"kind":"register","register":"r13","frame":{"stop":0,"thread":"1","index":0,"function":"f"}},"text":"stale thunk","created":5}]}"#
        );
        assert_eq!(parse(&s, Path::new("x")).unwrap(), f);
    }
}
