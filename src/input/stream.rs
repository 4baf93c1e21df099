//! Bounded parsing: the model-size limits of [`Limits`](super::Limits) and a streaming entry
//! point, [`parse_reader`], that feeds a [`BufRead`] line by line to the same [`Builder`]
//! as [`parse_with`](super::parse_with) without holding the whole input.
//!
//! Memory while parsing is the model (bounded by the limits below) plus one line (at most
//! `max_line_len` bytes are kept of a line, however long it is) plus the raw text kept for
//! the markdown export (`keep_raw` bytes at most).
//!
//! The limits, each with a `limit reached:` diagnostics note when hit:
//! * `max_frames`: frames in the whole trace; later frames are dropped;
//! * `max_threads`: threads in the whole trace; later threads' frames are dropped and the
//!   threads themselves are left out;
//! * `max_stops`: stops; later stops are merged into the last one kept;
//! * `max_model_bytes`: bytes of recognized lines that grew the model (plus 64 per line
//!   for the records they made) — the catch-all for registers, memory rows, disassembly,
//!   mappings, messages; past it the remaining lines are counted, not read.

use super::{Builder, Diagnostics, Limits, Note, Parsed, clean};
use crate::model::Thread;
use rustc_hash::FxHashMap;
use std::io::{self, BufRead};

/// Environment variables kept (their lookup is a scan).
pub(crate) const MAX_ENVIRONMENT: usize = 10_000;

/// Threads of a stop looked up by a scan; more get a hash index.
const SCAN_THREADS: usize = 16;

/// Id of the thread that collects what belongs to threads beyond `max_threads` (removed
/// before the parse returns). A NUL cannot come from decoded input.
const OVERFLOW_ID: &str = "\0threads beyond the limit";

/// Prefix of every diagnostics note about a limit (the CLI repeats these on stderr); it
/// lives in the model so every stage can write one.
pub use crate::model::LIMIT_NOTE;

/// Estimated bytes of model records per recognized line, on top of its text.
const RECORD_OVERHEAD: u64 = 64;

/// Counters and indexes behind the limits.
#[derive(Clone, Default)]
pub(crate) struct Guard {
    /// Frames added to the model.
    pub frames: u64,
    /// Frames dropped by `max_frames`.
    pub dropped_frames: u64,
    threads: u64,
    dropped_threads: u64,
    /// Frames of threads beyond `max_threads`.
    overflow_frames: u64,
    dropped_stops: u64,
    model_bytes: u64,
    /// The line where `max_model_bytes` was reached.
    full_at: Option<u32>,
    skipped_lines: u64,
    /// Per stop: thread id → position, once a stop has more than [`SCAN_THREADS`] threads.
    index: Vec<Option<FxHashMap<Box<str>, usize>>>,
}

impl Builder {
    /// [`Builder::feed`] under the `max_model_bytes` budget.
    pub(crate) fn feed_bounded(&mut self, raw: &str, n: u32) {
        if self.guard.full_at.is_some() {
            self.diag.lines_total += 1;
            self.guard.skipped_lines += 1;
            if raw.is_empty() {
                // As `feed` would (and so the trailing-newline adjustment stays right).
                self.diag.lines_recognized += 1;
            }
            return;
        }
        let before =
            (self.diag.lines_recognized, self.dropped_frames, self.guard.dropped_frames, self.guard.overflow_frames);
        self.feed(raw, n);
        let grew = self.diag.lines_recognized != before.0
            && (self.dropped_frames, self.guard.dropped_frames, self.guard.overflow_frames)
                == (before.1, before.2, before.3);
        if grew && !raw.is_empty() {
            self.guard.model_bytes += (raw.len().min(self.limits.max_line_len) as u64) + RECORD_OVERHEAD;
            if self.guard.model_bytes > self.limits.max_model_bytes {
                self.guard.full_at = Some(n);
            }
        }
    }

    /// `Some(last stop)` when no more stops may be added.
    pub(crate) fn stop_over_limit(&mut self) -> Option<usize> {
        let len = self.trace.stops.len();
        if len == 0 || len < self.limits.max_stops.max(1) {
            return None;
        }
        self.guard.dropped_stops += 1;
        let i = len - 1;
        self.stop = Some(i);
        self.thread = None;
        Some(i)
    }

    /// The thread with this id in stop `si`, created when new (or the overflow thread when
    /// `max_threads` is reached).
    pub(crate) fn find_or_add_thread(&mut self, si: usize, id: &str) -> usize {
        let threads = &self.trace.stops[si].threads;
        let found = if threads.len() <= SCAN_THREADS {
            threads.iter().position(|t| &*t.id == id)
        } else {
            if self.guard.index.len() <= si {
                self.guard.index.resize_with(si + 1, || None);
            }
            let m = self.guard.index[si]
                .get_or_insert_with(|| threads.iter().enumerate().rev().map(|(i, t)| (Box::from(&*t.id), i)).collect());
            m.get(id).copied()
        };
        if let Some(i) = found {
            return i;
        }
        let id = if self.guard.threads >= self.limits.max_threads as u64 {
            self.guard.dropped_threads += 1;
            if let Some(i) = threads.len().checked_sub(1).filter(|&i| &*threads[i].id == OVERFLOW_ID) {
                return i;
            }
            OVERFLOW_ID
        } else {
            self.guard.threads += 1;
            id
        };
        let threads = &mut self.trace.stops[si].threads;
        threads.push(Thread { id: id.into(), ..Default::default() });
        let i = threads.len() - 1;
        if let Some(Some(m)) = self.guard.index.get_mut(si) {
            m.insert(id.into(), i);
        }
        i
    }

    /// Whether a frame for thread `ti` goes to the overflow thread (and is dropped).
    pub(crate) fn frame_over_limit(&mut self, si: usize, ti: usize) -> bool {
        let over = self.trace.stops[si].threads.get(ti).is_some_and(|t| &*t.id == OVERFLOW_ID);
        if over {
            self.guard.overflow_frames += 1;
        }
        over
    }

    /// Removes the overflow threads and says which limits were reached.
    pub(crate) fn finish_limits(&mut self) {
        for s in &mut self.trace.stops {
            if s.threads.last().is_some_and(|t| &*t.id == OVERFLOW_ID) {
                s.threads.pop();
            }
        }
        let g = &self.guard;
        let l = &self.limits;
        let mut notes = Vec::new();
        if g.dropped_frames > 0 {
            notes.push(format!(
                "{} frames beyond the limit of {} frames in the whole trace were dropped (--max-frames-kept)",
                g.dropped_frames, l.max_frames
            ));
        }
        if g.dropped_threads > 0 {
            notes.push(format!(
                "{} threads beyond the limit of {} were left out, with their {} frames (--max-threads)",
                g.dropped_threads, l.max_threads, g.overflow_frames
            ));
        }
        if g.dropped_stops > 0 {
            notes.push(format!(
                "{} stops beyond the limit of {} were merged into the last stop kept (--max-stops)",
                g.dropped_stops, l.max_stops
            ));
        }
        if let Some(at) = g.full_at {
            notes.push(format!(
                "the model reached its size limit ({} MiB of parsed lines) at line {at}; the {} lines after it were counted but not read",
                l.max_model_bytes >> 20,
                g.skipped_lines
            ));
        }
        // Not subject to the cap on notes: these say the result is partial.
        for m in notes {
            self.diag.notes.push(Note { line: None, message: format!("{LIMIT_NOTE}{m}") });
        }
    }
}

/// How to read a stream.
#[derive(Clone, Copy, Debug)]
pub struct StreamOptions {
    pub limits: Limits,
    /// Bytes of the input kept verbatim (for the markdown export's raw section).
    pub keep_raw: usize,
    /// Stop reading after this many bytes (`Streamed::over_max` says so).
    pub max_bytes: u64,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions { limits: Limits::default(), keep_raw: 0, max_bytes: u64::MAX }
    }
}

/// The result of [`parse_reader`].
#[derive(Debug, Default)]
pub struct Streamed {
    pub parsed: Parsed,
    /// The first `keep_raw` bytes of the input.
    pub raw: Vec<u8>,
    /// `raw` is the whole input.
    pub raw_complete: bool,
    /// Bytes read.
    pub bytes: u64,
    /// The input was longer than `max_bytes` (reading stopped there; `parsed` holds what came
    /// before).
    pub over_max: bool,
}

/// Parses a transcript from a reader, line by line, in bounded memory. Gives the same model
/// as [`parse_bytes`](super::parse_bytes) on the same bytes.
pub fn parse_reader<R: BufRead>(r: R, opts: &StreamOptions) -> io::Result<Streamed> {
    let cap = opts.limits.max_line_len;
    let mut lines = LineFeeder { b: Builder::new(opts.limits), cap, n: 0, bad_bytes: false };
    let mut input = Counted { inner: r, left: opts.max_bytes, keep: opts.keep_raw, raw: Vec::new(), read: 0 };
    let mut line: Vec<u8> = Vec::with_capacity(1024);
    let mut scratch: Vec<u8> = Vec::new();
    let mut seen_newline = false;
    loop {
        line.clear();
        let read = read_line(&mut input, &mut line, &mut scratch, cap)?;
        let empty = lines.feed(&line, &read);
        if !read.newline {
            // The text after the last newline, even when empty (as `split('\n')` gives).
            if seen_newline && empty {
                // A trailing newline does not make an extra line.
                let d = &mut lines.b.diag;
                d.lines_total = d.lines_total.saturating_sub(1);
                d.lines_recognized = d.lines_recognized.saturating_sub(1);
            }
            break;
        }
        seen_newline = true;
    }
    let over_max = input.left == 0 && input.inner.fill_buf().map(|b| !b.is_empty()).unwrap_or(false);
    let mut parsed = lines.b.finish();
    if lines.bad_bytes {
        parsed.diagnostics.notes.insert(
            0,
            Note { line: None, message: "input is not valid UTF-8 or holds NUL bytes; bad bytes were replaced".into() },
        );
    }
    let raw_complete = input.raw.len() as u64 == input.read && !over_max;
    Ok(Streamed { parsed, raw: input.raw, raw_complete, bytes: input.read, over_max })
}

/// One line as [`read_line`] read it.
struct LineRead {
    /// A newline ended it.
    newline: bool,
    /// Its real length in bytes (without the newline).
    len: u64,
    /// Bytes of it consumed into `line` (the rest of a longer line was skipped).
    consumed: u64,
    /// Known to hold no NUL byte (`false`: not known).
    nul_free: bool,
}

/// Reads one line into `line` (without its newline), skipping the rest of a longer line. At
/// most `cap` + 4 bytes of text are kept: NUL bytes, which decoding drops, do not count and
/// a run of them is kept as one NUL (which decodes the same: a NUL ends any byte sequence),
/// so the kept start of the line decodes to the same first `cap` bytes of text as the
/// whole line does in [`parse_bytes`](super::parse_bytes), in at most `2 × (cap + 4) + 1`
/// bytes. `read_until` uses std's memchr, which is fast in debug builds too.
fn read_line<R: BufRead>(r: &mut R, line: &mut Vec<u8>, scratch: &mut Vec<u8>, cap: usize) -> io::Result<LineRead> {
    let keep = cap as u64 + 4;
    // The common line: whole in the reader's buffer, shorter than `keep`, no NUL. One memchr2
    // finds its end (the crate's memchr, not std's); the loop below gives the same for it.
    // A failed fill (`Interrupted`, …) is left to the loop, whose reads retry as before.
    if line.is_empty()
        && let Ok(buf) = r.fill_buf()
        && let Some(k) = memchr::memchr2(b'\n', 0, buf)
        && buf[k] == b'\n'
        && (k as u64) < keep
    {
        line.extend_from_slice(&buf[..k]);
        r.consume(k + 1);
        return Ok(LineRead { newline: true, len: k as u64, consumed: k as u64, nul_free: true });
    }
    let mut text = 0u64;
    let mut consumed = 0u64;
    while text < keep {
        let start = line.len();
        let got = io::Read::take(&mut *r, keep - text).read_until(b'\n', line)? as u64;
        let newline = line.last() == Some(&b'\n');
        if newline {
            line.pop();
        }
        consumed += got - newline as u64;
        text += collapse_nuls(line, start);
        if newline || got == 0 {
            return Ok(LineRead { newline, len: consumed, consumed, nul_free: false });
        }
    }
    let mut len = consumed;
    loop {
        scratch.clear();
        let n = io::Read::take(&mut *r, 1 << 16).read_until(b'\n', scratch)? as u64;
        if n == 0 {
            return Ok(LineRead { newline: false, len, consumed, nul_free: false });
        }
        if scratch.last() == Some(&b'\n') {
            return Ok(LineRead { newline: true, len: len + n - 1, consumed, nul_free: false });
        }
        len += n;
    }
}

/// Keeps one NUL of each run of NUL bytes in `line[from..]` (joined with a NUL just before
/// `from`); returns the number of other bytes there.
fn collapse_nuls(line: &mut Vec<u8>, from: usize) -> u64 {
    if memchr::memchr(0, &line[from..]).is_none() {
        return (line.len() - from) as u64;
    }
    let mut w = from;
    let mut text = 0u64;
    for i in from..line.len() {
        let c = line[i];
        if c == 0 && w > 0 && line[w - 1] == 0 {
            continue;
        }
        text += (c != 0) as u64;
        line[w] = c;
        w += 1;
    }
    line.truncate(w);
    text
}

/// The input as read: at most `left` more bytes, the first `keep` of them kept.
struct Counted<R> {
    inner: R,
    left: u64,
    keep: usize,
    raw: Vec<u8>,
    read: u64,
}

impl<R: BufRead> io::Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.left == 0 {
            return Ok(&[]);
        }
        let buf = self.inner.fill_buf()?;
        let n = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        Ok(&buf[..n])
    }
    fn consume(&mut self, amt: usize) {
        if self.raw.len() < self.keep
            && let Ok(buf) = self.inner.fill_buf()
        {
            // No I/O here: the bytes being consumed are still in the buffer.
            let k = (self.keep - self.raw.len()).min(amt).min(buf.len());
            self.raw.extend_from_slice(&buf[..k]);
        }
        self.inner.consume(amt);
        self.left = self.left.saturating_sub(amt as u64);
        self.read += amt as u64;
    }
}

struct LineFeeder {
    b: Builder,
    cap: usize,
    n: u32,
    bad_bytes: bool,
}

impl LineFeeder {
    /// One line's bytes (perhaps only its start, NUL runs kept as one NUL) and how it was
    /// read. Returns whether the line is empty once decoded (NULs are dropped, as
    /// `parse_bytes` drops them).
    fn feed(&mut self, bytes: &[u8], line: &LineRead) -> bool {
        self.n = self.n.saturating_add(1);
        // `decode` without its NUL search when the reader saw none.
        let text = match line.nul_free.then(|| std::str::from_utf8(bytes).ok()).flatten() {
            Some(s) => std::borrow::Cow::Borrowed(s),
            None => clean::decode(bytes),
        };
        if matches!(text, std::borrow::Cow::Owned(_)) {
            self.bad_bytes = true;
        }
        let len = line.len;
        if line.consumed < len || text.len() > self.cap {
            let mut cut = self.cap.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            // Say what was read of the line, not what was left after NUL bytes were dropped
            // (a line of NULs once said "only the first 0 were read"). Without NULs that is
            // the `cap` bytes kept; with them, every byte up to where reading stopped.
            let read = if bytes.contains(&0) { line.consumed } else { line.consumed.min(self.cap as u64) };
            let kept = if (cut as u64) < read {
                format!(" ({cut} of them text once NUL and invalid bytes were dropped)")
            } else {
                String::new()
            };
            self.b.note(Some(self.n), format!("line is {len} bytes long; only the first {read} were read{kept}"));
            self.b.feed_bounded(&text[..cut], self.n);
        } else {
            self.b.feed_bounded(&text, self.n);
        }
        text.is_empty()
    }
}

/// [`parse_bytes`](super::parse_bytes) with limits.
pub fn parse_bytes_with(bytes: &[u8], limits: Limits) -> Parsed {
    let text = clean::decode(bytes);
    let mut p = super::parse_with(&text, limits);
    if matches!(text, std::borrow::Cow::Owned(_)) {
        p.diagnostics.notes.insert(
            0,
            Note { line: None, message: "input is not valid UTF-8 or holds NUL bytes; bad bytes were replaced".into() },
        );
    }
    p
}

/// A parse that grows with its input: complete lines are fed once, as they arrive, and
/// [`Incremental::snapshot`] finishes a copy of the parser state. Appending a new stop to a
/// followed log costs the new lines plus the finishing pass, not a re-parse of the whole log.
/// `snapshot()` after pushing text `t` gives what [`parse_bytes_with`] gives on `t`.
#[derive(Clone)]
pub struct Incremental {
    builder: Builder,
    /// Lines fed so far.
    lines: u32,
    /// Bytes fed so far.
    bytes: u64,
    /// Some input was not valid UTF-8 or held NUL bytes.
    damaged: bool,
}

impl Incremental {
    pub fn new(limits: Limits) -> Incremental {
        Incremental { builder: Builder::new(limits), lines: 0, bytes: 0, damaged: false }
    }

    /// Bytes fed so far.
    pub fn len(&self) -> u64 {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Feeds complete lines: `bytes` must end with `\n` (a last line without its newline
    /// waits with the caller until the newline arrives). Anything after the last `\n` is
    /// ignored and not counted.
    pub fn push(&mut self, bytes: &[u8]) {
        let Some(last) = memchr::memrchr(b'\n', bytes) else { return };
        let bytes = &bytes[..=last];
        self.bytes += bytes.len() as u64;
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', bytes) {
            let line = &bytes[start..end];
            start = end + 1;
            self.lines = self.lines.saturating_add(1);
            let text = clean::decode(line);
            if matches!(text, std::borrow::Cow::Owned(_)) {
                self.damaged = true;
            }
            self.builder.feed_bounded(&text, self.lines);
        }
    }

    /// The parse of everything pushed so far. The parser state is kept, so more lines can be
    /// pushed afterwards.
    pub fn snapshot(&self) -> Parsed {
        Self::finish_builder(self.builder.clone(), self.lines, self.bytes, self.damaged, b"")
    }

    /// The parse of everything pushed plus `tail`, the text after the last newline (empty
    /// when the input ends with one), without copying the parser state: what
    /// [`parse_bytes_with`] gives on the pushed bytes followed by `tail`.
    pub fn finish(self, tail: &[u8]) -> Parsed {
        Self::finish_builder(self.builder, self.lines, self.bytes, self.damaged, tail)
    }

    fn finish_builder(mut b: Builder, lines: u32, bytes: u64, mut damaged: bool, tail: &[u8]) -> Parsed {
        let text = clean::decode(tail);
        damaged |= matches!(text, std::borrow::Cow::Owned(_));
        // The line after the last newline (empty when the input ends with one), as
        // `parse_with` feeds it.
        b.feed_bounded(&text, lines.saturating_add(1));
        let mut p = b.finish_lines(bytes > 0 && text.is_empty());
        if damaged {
            p.diagnostics.notes.insert(
                0,
                Note {
                    line: None,
                    message: "input is not valid UTF-8 or holds NUL bytes; bad bytes were replaced".into(),
                },
            );
        }
        p
    }
}

/// Whether a diagnostics note is about a limit.
pub fn is_limit_note(d: &Diagnostics, i: usize) -> bool {
    d.notes.get(i).is_some_and(|n| n.message.starts_with(LIMIT_NOTE))
}
