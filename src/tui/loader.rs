//! `tracecheck tui FILE` on a big file: the file is read and parsed on a loader thread, a
//! chunk at a time ([`pipeline::Chunked`]), while the UI already shows what is there.
//!
//! The loader sends at most one [`Loaded::Partial`] (the analysis of the lines of the first
//! chunk, with their line index) when the whole load will not be done within
//! [`PARTIAL_UNLESS_LEFT`], then one [`Loaded::Done`] (the same model batch mode gives for
//! the file) or [`Loaded::Failed`]. Everything that walks the whole input (the parse, the
//! raw text's line index, the classifier's facts) runs here; taking a message on the UI
//! thread only moves it into the `App`. The bytes read so far are published in
//! [`Loading::read`] for the header's progress.
//!
//! Memory: the text itself is not kept. The analyses carry a [`RawFile`] that reads the
//! lines back from the file when the raw pane, search or the export ask, so the TUI holds the
//! model and the line index (8 bytes a line), not a copy of the file (docs/tui.md).
//!
//! In a gdb session the crashed thread's backtrace and registers come first (`bt`, `info
//! registers` after the stop, then `thread apply all bt full`), so the partial analysis shows
//! the crash, its registers and the findings on them while the other threads are read.

use crate::classify::TraceFacts;
use crate::pipeline::{Analysis, Chunked, RawFile};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// Bytes read and parsed per step (a few ms of parsing; the progress moves at this grain).
pub const CHUNK: usize = 1 << 20;
/// A partial analysis is sent after the first chunk read once the load has run this long
/// (zero: after the first chunk, so that the partial model, alive beside the whole one while
/// that is finished, covers at most one chunk of the file whatever the machine's speed)…
pub const PARTIAL_AFTER: Duration = Duration::ZERO;
/// …unless what is left would take less than this at the speed so far (then the whole
/// analysis is about to come and a partial one would only cost time).
pub const PARTIAL_UNLESS_LEFT: Duration = Duration::from_millis(20);
/// How long the first screen waits for the loader's first analysis (the whole file, or the
/// lines of the first chunk) before it shows an empty model and the progress.
pub const FIRST_WAIT: Duration = Duration::from_millis(250);

/// The loader's timing ([`Pace::default`] is the constants above; tests shrink the chunks
/// and send the partial analysis at once, so that what they see does not depend on time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    pub chunk: usize,
    pub partial_after: Duration,
    pub partial_unless_left: Duration,
    pub first_wait: Duration,
}

impl Default for Pace {
    fn default() -> Self {
        Pace {
            chunk: CHUNK,
            partial_after: PARTIAL_AFTER,
            partial_unless_left: PARTIAL_UNLESS_LEFT,
            first_wait: FIRST_WAIT,
        }
    }
}

const LOADER_GONE: &str = "reading the file stopped (the loader thread ended)";

/// One analysis from the loader, with what the UI needs to show it without walking it.
#[derive(Debug)]
pub struct Part {
    pub analysis: Analysis,
    /// Byte offset where each line of the text starts (`App::raw_lines`).
    pub raw_lines: Vec<usize>,
    /// The text, read back from the file when shown (the analysis holds no raw text).
    pub raw: Option<RawFile>,
    pub facts: TraceFacts,
    /// Bytes of the file this analysis covers.
    pub bytes: u64,
}

#[derive(Debug)]
pub enum Loaded {
    /// The lines read so far; more is coming.
    Partial(Box<Part>),
    /// Everything.
    Done(Box<Part>),
    /// Reading failed (the message for the footer); what was shown stays.
    Failed(String),
}

/// A load running on the loader thread, as the App sees it.
#[derive(Debug)]
pub struct Loading {
    rx: Receiver<Loaded>,
    /// Bytes read so far (the loader updates it after every chunk).
    pub read: Arc<AtomicU64>,
    /// The file's size when it was opened.
    pub total: u64,
    pub started: Instant,
    /// What the view shows is a partial analysis.
    pub partial: bool,
}

impl Loading {
    /// Starts the loader thread on an opened file.
    pub fn start(chunked: Chunked, pace: Pace) -> Loading {
        let (tx, rx) = mpsc::channel();
        let read = Arc::new(AtomicU64::new(0));
        let total = chunked.total();
        let progress = read.clone();
        let spawned = std::thread::Builder::new()
            .name("tracecheck-load".into())
            .spawn(move || run(chunked, pace, &progress, |m| tx.send(m).is_ok()));
        let rx = match spawned {
            Ok(_) => rx,
            Err(e) => {
                let (tx, rx) = mpsc::channel();
                let _ = tx.send(Loaded::Failed(format!("cannot start the loader thread: {e}")));
                rx
            }
        };
        Loading { rx, read, total, started: Instant::now(), partial: false }
    }

    /// The next message, if one is ready (never blocks). A loader gone without a word (it
    /// cannot panic on input, but a thread can die) reads as [`Loaded::Failed`].
    pub fn try_take(&self) -> Option<Loaded> {
        match self.rx.try_recv() {
            Ok(m) => Some(m),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Loaded::Failed(LOADER_GONE.into())),
        }
    }

    /// Waits up to `timeout` for the next message (the first screen, tests and benchmarks).
    pub fn wait(&self, timeout: Duration) -> Option<Loaded> {
        match self.rx.recv_timeout(timeout) {
            Ok(m) => Some(m),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Loaded::Failed(LOADER_GONE.into())),
        }
    }

    /// `reading 45% of 104.9 MB` for the header.
    pub fn label(&self) -> String {
        let read = self.read.load(Ordering::Relaxed);
        let total = self.total.max(read).max(1);
        let size = if self.total >= 1_000_000 {
            format!("{:.1} MB", self.total as f64 / 1e6)
        } else {
            format!("{:.1} kB", self.total as f64 / 1e3)
        };
        format!("reading {}% of {size}", read * 100 / total)
    }
}

/// The loader: reads and parses chunk by chunk, sends a partial analysis when the whole will
/// take a while, then the whole. `send` returns false when the UI is gone (then it stops).
pub fn run(mut c: Chunked, pace: Pace, progress: &AtomicU64, mut send: impl FnMut(Loaded) -> bool) {
    let started = Instant::now();
    let mut partial_sent = false;
    loop {
        let got = match c.step(pace.chunk.max(1)) {
            Ok(n) => n,
            Err(e) => {
                send(Loaded::Failed(e.to_string()));
                return;
            }
        };
        progress.store(c.read_bytes(), Ordering::Relaxed);
        if got == 0 {
            break;
        }
        let elapsed = started.elapsed();
        if !partial_sent && elapsed >= pace.partial_after {
            partial_sent = true;
            let read = c.read_bytes().max(1);
            let left = c.total().saturating_sub(read);
            let eta = elapsed.mul_f64(left as f64 / read as f64);
            if eta >= pace.partial_unless_left && !send(Loaded::Partial(Box::new(partial(&c)))) {
                return;
            }
        }
    }
    let bytes = c.read_bytes();
    let (analysis, raw, raw_lines) = c.finish();
    let facts = TraceFacts::of(&analysis.parsed.trace);
    send(Loaded::Done(Box::new(Part { analysis, raw_lines, raw: Some(raw), facts, bytes })));
}

fn partial(c: &Chunked) -> Part {
    let (analysis, raw) = c.snapshot();
    let upto = c.parsed_bytes();
    let lines = c.line_starts();
    let raw_lines = lines[..lines.partition_point(|&s| (s as u64) < upto)].to_vec();
    let facts = TraceFacts::of(&analysis.parsed.trace);
    Part { analysis, raw_lines, raw: Some(raw), facts, bytes: upto }
}

/// Byte offset where each line of `text` starts (the first is 0; a final newline does not
/// start another line).
pub fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut v = Vec::with_capacity(text.len() / 40 + 1);
    v.push(0);
    v.extend(memchr::memchr_iter(b'\n', text).map(|i| i + 1).filter(|&i| i < text.len()));
    v
}

/// Runs a whole load on this thread and returns its messages (tests).
pub fn load_here(c: Chunked, pace: Pace) -> Vec<Loaded> {
    let progress = AtomicU64::new(0);
    let mut out = Vec::new();
    run(c, pace, &progress, |m| {
        out.push(m);
        true
    });
    out
}
