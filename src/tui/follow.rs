//! `tracecheck tui --follow FILE`: reads a log that gdb (or `rr replay`) is still writing.
//!
//! [`Follow`] is the file side only: each [`Follow::poll`] looks at the file's metadata and
//! reads just the bytes appended since the last poll. Only complete lines come out; a last
//! line without its newline waits in `partial` until the newline arrives. A file that got
//! shorter, was replaced (another inode) or whose first bytes changed is read again from the
//! start ([`Polled::reset`]). The App keeps the text and decides when to ask for a parse
//! (`App::follow_tick`, see docs/tui.md "Following a live session" for the design and the
//! measured costs).
//!
//! [`Worker`] is the parse side: a thread that owns an [`Incremental`] parser, is handed the
//! new complete lines as they are read, and on request finishes a snapshot through the same
//! pipeline as batch mode (symbolize, rules) and sends the finished analysis back over a
//! channel. The UI thread never parses.

use crate::input::Incremental;
use crate::pipeline::{self, Analysis, LoadOptions};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// How often the event loop polls the file.
pub const POLL_INTERVAL: Duration = Duration::from_millis(200);
/// A user who pressed a key this recently, on a stop other than the last one, is not moved
/// to a new stop; the footer says a new stop arrived instead.
pub const GRACE: Duration = Duration::from_secs(5);
/// After a re-parse that took `t`, the next one starts at least `PARSE_GAP_FACTOR * t` after
/// it ended, so parsing uses at most 1 / (1 + PARSE_GAP_FACTOR) of a core (25%) however
/// large the log grows. Below about 15 MB a parse takes under 200 / (1 + 3) = 50 ms… 70 ms
/// and this never delays one (see docs/tui.md for the figures).
pub const PARSE_GAP_FACTOR: u32 = 3;
/// At most this many bytes are read in one poll, so a huge log arriving at once does not
/// freeze the keys; the rest comes in the next polls.
pub const MAX_READ_PER_POLL: u64 = 64 << 20;
/// Bytes of the file's start remembered to notice that it was rewritten.
const HEAD: usize = 64;

/// What one poll found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Polled {
    /// The file was truncated, replaced or rewritten: everything read so far is void.
    /// `text` then holds the new file's complete lines from its start.
    pub reset: bool,
    /// Newly completed lines (each ending in `\n`), decoded like `String::from_utf8_lossy`.
    pub text: String,
    /// Some of `text` was not valid UTF-8 and was replaced.
    pub lossy: bool,
}

enum Job {
    /// Complete lines read from the file.
    Append(String),
    /// The file was truncated or replaced: start a new parse.
    Reset,
    /// Finish a snapshot of everything appended so far (tagged with the UI's generation).
    Parse(u64),
    /// An analysis the UI no longer shows: freeing a large model takes time, so the worker
    /// does it.
    Discard(Box<Analysis>),
}

/// A finished analysis from the worker.
#[derive(Debug)]
pub struct Done {
    /// The generation (number of resets) the request was made in.
    pub generation: u64,
    pub analysis: Analysis,
    /// The address classifier's facts about it, gathered here rather than on the UI thread.
    pub facts: crate::classify::TraceFacts,
    /// Time the worker spent on it (snapshot, symbolize, rules).
    pub cost: Duration,
}

/// The parse thread of follow mode (see the module documentation).
#[derive(Debug)]
pub struct Worker {
    tx: Sender<Job>,
    rx: Receiver<Done>,
    /// A parse was requested and its answer not yet taken.
    pub in_flight: bool,
    generation: u64,
    /// The thread is gone (it cannot panic on input, but a channel can break).
    pub dead: bool,
}

impl Worker {
    pub fn spawn(name: String, options: LoadOptions) -> Worker {
        let (tx, jobs) = mpsc::channel::<Job>();
        let (done_tx, rx) = mpsc::channel::<Done>();
        let spawned = std::thread::Builder::new().name("tracecheck-follow-parse".into()).spawn(move || {
            let mut inc = Incremental::new(options.limits);
            while let Ok(job) = jobs.recv() {
                match job {
                    Job::Append(text) => inc.push(text.as_bytes()),
                    Job::Reset => inc = Incremental::new(options.limits),
                    Job::Discard(old) => drop(old),
                    Job::Parse(generation) => {
                        let started = Instant::now();
                        let deadline = options.symbolize_timeout.map(|d| started + d);
                        let analysis = pipeline::finish(&name, inc.snapshot(), &options, deadline);
                        let facts = crate::classify::TraceFacts::of(&analysis.parsed.trace);
                        let done = Done { generation, analysis, facts, cost: started.elapsed() };
                        if done_tx.send(done).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Worker { tx, rx, in_flight: false, generation: 0, dead: spawned.is_err() }
    }

    /// Hands complete lines to the parser (they are fed at once, in the background).
    pub fn append(&mut self, text: String) {
        self.dead |= self.tx.send(Job::Append(text)).is_err();
    }

    /// Forgets everything appended; answers to earlier requests are dropped.
    pub fn reset(&mut self) {
        self.generation += 1;
        self.in_flight = false;
        self.dead |= self.tx.send(Job::Reset).is_err();
    }

    /// Hands an analysis the UI replaced to the worker, which frees it.
    pub fn discard(&mut self, old: Analysis) {
        if let Err(mpsc::SendError(job)) = self.tx.send(Job::Discard(Box::new(old))) {
            self.dead = true;
            drop(job);
        }
    }

    /// Asks for an analysis of everything appended so far.
    pub fn request(&mut self) {
        self.dead |= self.tx.send(Job::Parse(self.generation)).is_err();
        self.in_flight = !self.dead;
    }

    /// The answer to the request in flight, if it is ready (never blocks).
    pub fn try_take(&mut self) -> Option<Done> {
        loop {
            match self.rx.try_recv() {
                Ok(d) if d.generation == self.generation => {
                    self.in_flight = false;
                    return Some(d);
                }
                Ok(_) => continue,
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.dead = true;
                    self.in_flight = false;
                    return None;
                }
            }
        }
    }

    /// Waits up to `timeout` for the request in flight (tests, benchmarks and the first
    /// screen use it; the event loop never does).
    pub fn wait(&mut self, timeout: Duration) -> Option<Done> {
        let end = Instant::now() + timeout;
        while self.in_flight {
            match self.rx.recv_timeout(end.saturating_duration_since(Instant::now())) {
                Ok(d) if d.generation == self.generation => {
                    self.in_flight = false;
                    return Some(d);
                }
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => {
                    self.dead = true;
                    self.in_flight = false;
                }
            }
        }
        None
    }
}

/// The state of following one file.
#[derive(Debug)]
pub struct Follow {
    pub path: PathBuf,
    /// The pipeline's options for each re-parse: the same as batch mode's (`--rule`,
    /// `--exe`, the `--max-*` limits…). `--max-input-bytes`: following stops reading past it.
    pub options: LoadOptions,
    /// Bytes of the file consumed so far (complete lines plus `partial`).
    offset: u64,
    /// The last line read, still without its newline.
    partial: Vec<u8>,
    /// (device, inode) of the file read so far.
    identity: Option<(u64, u64)>,
    /// The first bytes of the file as read.
    head: Vec<u8>,
    /// A FIFO being followed: kept open (non-blocking) between polls, since what was read
    /// from it cannot be read again.
    pipe: Option<File>,
    /// The parse thread.
    pub worker: Worker,
    /// Complete lines arrived since the last parse request.
    pub dirty: bool,
    /// Earliest time for the next parse (the last parse's start + (1 + `PARSE_GAP_FACTOR`) ×
    /// its cost).
    pub next_parse: Option<Instant>,
    /// The file does not exist (yet): gdb creates it at `set logging enabled on`.
    pub missing: bool,
    /// The file is over `max_bytes`; nothing more is read.
    pub over_limit: bool,
    /// How many parses ran, and the last one's cost (snapshot + analyze), for the header and
    /// for `TRACECHECK_TIMING=1`.
    pub parses: u64,
    pub last_parse: Duration,
    pub total_parse: Duration,
    /// Some input so far was not valid UTF-8.
    pub lossy: bool,
}

impl Follow {
    pub fn new(path: PathBuf, options: LoadOptions) -> Follow {
        Follow {
            worker: Worker::spawn(path.to_string_lossy().into_owned(), options.clone()),
            path,
            options,
            offset: 0,
            partial: Vec::new(),
            pipe: None,
            identity: None,
            head: Vec::new(),
            dirty: false,
            next_parse: None,
            missing: false,
            over_limit: false,
            parses: 0,
            last_parse: Duration::ZERO,
            total_parse: Duration::ZERO,
            lossy: false,
        }
    }

    /// Bytes consumed so far, including an incomplete last line.
    pub fn offset(&self) -> u64 {
        self.offset
    }
    /// The incomplete last line waiting for its newline.
    pub fn partial(&self) -> &[u8] {
        &self.partial
    }

    fn forget(&mut self) {
        self.offset = 0;
        self.partial.clear();
        self.head.clear();
        self.identity = None;
        self.over_limit = false;
        self.lossy = false;
    }

    /// Reads what was appended since the last poll. A missing file is not an error (it may
    /// not have been created yet, or is being rotated): what was read stays.
    pub fn poll(&mut self) -> io::Result<Polled> {
        let mut out = Polled::default();
        let meta = match std::fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                self.missing = true;
                return Ok(out);
            }
            Err(e) => return Err(e),
        };
        self.missing = false;
        if meta.is_dir() {
            return Err(io::Error::other(format!("{} is a directory", self.path.display())));
        }
        if is_fifo(&meta) {
            self.read_fifo()?;
            self.complete_lines(&mut out);
            return Ok(out);
        }
        let identity = file_identity(&meta);
        let len = meta.len();
        let replaced = self.identity.is_some() && identity.is_some() && self.identity != identity;
        if replaced || len < self.offset {
            self.forget();
            out.reset = true;
        }
        if len == self.offset || self.over_limit {
            return Ok(out);
        }
        let mut f = File::open(&self.path)?;
        // Same size or larger but rewritten from the start (`set logging overwrite on` and a
        // quick burst of output): the remembered first bytes differ.
        if !out.reset && !self.head.is_empty() {
            let mut now = vec![0; self.head.len()];
            if f.read_exact(&mut now).is_err() || now != self.head {
                self.forget();
                out.reset = true;
            }
        }
        if self.offset == 0 {
            self.identity = identity;
        }
        if len > self.options.max_input_bytes {
            self.over_limit = true;
            return Ok(out);
        }
        f.seek(SeekFrom::Start(self.offset))?;
        let want = (len - self.offset).min(MAX_READ_PER_POLL);
        let before = self.partial.len();
        // `len` may be stale by now; read what is there up to `want`.
        let got = f.take(want).read_to_end(&mut self.partial)?;
        // `head` is always the first min(HEAD, offset) bytes of the file.
        if (self.offset as usize) < HEAD {
            let take = (HEAD - self.offset as usize).min(got);
            self.head.extend_from_slice(&self.partial[before..before + take]);
        }
        self.offset += got as u64;
        self.complete_lines(&mut out);
        Ok(out)
    }

    /// Reads what a followed FIFO holds now, without blocking: the FIFO is opened
    /// `O_NONBLOCK` once (which never waits for a writer) and read until it would block; a
    /// writer closing it is not the end (gdb may open it again).
    fn read_fifo(&mut self) -> io::Result<()> {
        if self.pipe.is_none() {
            use std::os::unix::fs::OpenOptionsExt;
            self.pipe = Some(std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&self.path)?);
        }
        let Some(f) = self.pipe.as_mut() else { return Ok(()) };
        let mut buf = [0u8; 64 << 10];
        let mut got_now = 0u64;
        while got_now < MAX_READ_PER_POLL && !self.over_limit {
            match f.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let before = self.partial.len();
                    self.partial.extend_from_slice(&buf[..n]);
                    if (self.offset as usize) < HEAD {
                        let take = (HEAD - self.offset as usize).min(n);
                        self.head.extend_from_slice(&self.partial[before..before + take]);
                    }
                    self.offset += n as u64;
                    got_now += n as u64;
                    self.over_limit = self.offset > self.options.max_input_bytes;
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock || e.kind() == io::ErrorKind::Interrupted => break,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Hands the complete lines read so far to `out`, keeping the unfinished last one.
    fn complete_lines(&mut self, out: &mut Polled) {
        if let Some(nl) = memchr::memrchr(b'\n', &self.partial) {
            let rest = self.partial.split_off(nl + 1);
            let complete = std::mem::replace(&mut self.partial, rest);
            out.text = match String::from_utf8(complete) {
                Ok(s) => s,
                Err(e) => {
                    out.lossy = true;
                    self.lossy = true;
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
        }
    }
}

#[cfg(unix)]
fn is_fifo(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    m.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(unix)]
fn file_identity(m: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_identity(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tracecheck-follow-unit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d.join("log.txt")
    }
    fn append(p: &std::path::Path, s: &[u8]) {
        std::fs::OpenOptions::new().create(true).append(true).open(p).unwrap().write_all(s).unwrap();
    }

    /// `tui --follow` on a FIFO: each poll returns at once (the UI keeps drawing and reading
    /// keys) and hands over the lines written into the FIFO, across writers.
    #[test]
    fn follows_a_fifo_without_blocking() {
        use std::os::unix::fs::OpenOptionsExt;
        let p = temp("fifo");
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let mut f = Follow::new(p.clone(), LoadOptions { max_input_bytes: 1 << 30, ..Default::default() });
        let t = Instant::now();
        let first = f.poll().unwrap();
        assert!(first.text.is_empty());
        assert!(t.elapsed() < Duration::from_secs(5), "poll blocked on a FIFO with no writer");
        // A writer (gdb's log) opens it, writes a line and a half, then closes.
        let mut w = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&p).unwrap();
        w.write_all(b"Program received signal SIGSEGV, Segmentation fault.\n#0  0x0000").unwrap();
        drop(w);
        let got = f.poll().unwrap();
        assert_eq!(got.text, "Program received signal SIGSEGV, Segmentation fault.\n");
        let mut w = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&p).unwrap();
        w.write_all(b"555555555139 in main () at t.c:2\n").unwrap();
        let got = f.poll().unwrap();
        assert_eq!(got.text, "#0  0x0000555555555139 in main () at t.c:2\n");
        assert!(f.poll().unwrap().text.is_empty());
    }

    #[test]
    fn complete_lines_only_and_resets() {
        let p = temp("lines");
        let mut f = Follow::new(p.clone(), LoadOptions { max_input_bytes: 1 << 30, ..Default::default() });
        assert_eq!(f.poll().unwrap(), Polled::default());
        assert!(f.missing);
        append(&p, b"one\ntw");
        let r = f.poll().unwrap();
        assert!(!f.missing);
        assert_eq!(r.text, "one\n");
        assert_eq!(f.partial(), b"tw");
        assert_eq!(f.poll().unwrap(), Polled::default());
        append(&p, b"o\nthree");
        assert_eq!(f.poll().unwrap().text, "two\n");
        // A multi-byte character split between two writes comes out whole.
        append(&p, "\n\u{e9}".as_bytes().split_at(2).0);
        assert_eq!(f.poll().unwrap().text, "three\n");
        append(&p, &"\u{e9}\n".as_bytes()[1..]);
        let r = f.poll().unwrap();
        assert_eq!((r.text.as_str(), r.lossy), ("\u{e9}\n", false));
        // Truncation: read again from the start.
        std::fs::write(&p, b"new\n").unwrap();
        let r = f.poll().unwrap();
        assert!(r.reset);
        assert_eq!(r.text, "new\n");
        // Rewritten to a longer file with other first bytes: also a reset.
        std::fs::write(&p, b"other start, longer than before\n").unwrap();
        let r = f.poll().unwrap();
        assert!(r.reset, "{r:?}");
        assert_eq!(r.text, "other start, longer than before\n");
        // Replaced by another file (log rotation).
        let q = p.with_extension("new");
        std::fs::write(&q, b"rotated\n").unwrap();
        std::fs::rename(&q, &p).unwrap();
        let r = f.poll().unwrap();
        assert!(r.reset);
        assert_eq!(r.text, "rotated\n");
        // Invalid UTF-8 is replaced, as in the batch path.
        append(&p, b"bad \xff byte\n");
        let r = f.poll().unwrap();
        assert!(r.lossy);
        assert_eq!(r.text, "bad \u{fffd} byte\n");
    }
}
