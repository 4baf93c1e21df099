//! The one loading pipeline: bytes or a core → parse → (cores, symbolize) → limits → analyze.
//!
//! Batch mode, `tracecheck -i`, `tracecheck tui` (with or without `--follow`) and `tracecheck
//! note` all call [`load`] (or, for text already in memory, [`analyze_text`]) with the same
//! [`LoadOptions`], so they see the same model for the same file.

use crate::analyze;
use crate::input::{self, Limits, StreamOptions};
use crate::model::{InputReport, Note, Parsed};
use crate::progress::Progress;
use crate::rules::Selection;
use crate::symbolize::dwarf::{DwarfSymbols, SymbolOptions};
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::time::{Duration, Instant};

/// What [`load`] produces: the parsed, symbolized and analyzed input.
pub type Analysis = InputReport;

/// Inputs bigger than this are streamed (not read into memory whole); standard input always is.
pub const STREAM_ABOVE: u64 = 64 << 20;

/// Bytes of a streamed input kept for the markdown report's raw transcript.
pub const RAW_KEPT_WHEN_STREAMING: usize = 16 << 20;

/// Where an input comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Standard input (always streamed; never a core).
    Stdin,
    /// A file: an ELF core (recognized by its header, whatever its name) or a transcript.
    Path(&'a str),
}

impl Source<'_> {
    /// The name shown for this input (`<stdin>` for standard input; a bare `-` reads as a typo).
    pub fn name(&self) -> &str {
        match self {
            Source::Stdin => "<stdin>",
            Source::Path(p) => p,
        }
    }
}

/// Everything that decides what model a file gives: the same for every mode.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Rules to run (`--rule`, `--skip-rule`).
    pub selection: Selection,
    /// Inputs larger than this are refused (`--max-input-bytes`).
    pub max_input_bytes: u64,
    /// Model limits (`--max-frames-kept`, `--max-threads`, `--max-stops`).
    pub limits: Limits,
    /// Stop symbolizing after this long (`--symbolize-timeout`; `None`: no limit).
    pub symbolize_timeout: Option<Duration>,
    /// Binaries and debug directories (`--exe`, `--sysroot`, `--debug-dir`).
    pub symbols: SymbolOptions,
    /// Symbolize transcripts too (cores always are): set when binaries were given.
    pub symbolize_text: bool,
    /// Keep the raw text (the markdown export and the TUI need it).
    pub keep_raw: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            selection: Selection::default(),
            max_input_bytes: 2 << 30,
            limits: Limits::default(),
            symbolize_timeout: Some(Duration::from_secs(60)),
            symbols: SymbolOptions::default(),
            symbolize_text: false,
            keep_raw: false,
        }
    }
}

/// Why an input could not be loaded. The message is one line, ready for `tracecheck: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The input could not be opened or read (or is a directory).
    #[error("{0}")]
    Io(String),
    /// The input is over `--max-input-bytes`.
    #[error("{0}")]
    TooLarge(String),
    /// An ELF file that is not a core, or an ELF file on standard input.
    #[error("{0}")]
    NotADump(String),
    /// The core could not be read.
    #[error("{0}")]
    Core(String),
}

/// Reads and analyzes one input.
pub fn load(source: Source<'_>, opts: &LoadOptions) -> Result<Analysis, LoadError> {
    let path = source.name();
    let deadline = opts.symbolize_timeout.map(|d| Instant::now() + d);
    // A file is opened once and its first bytes are sniffed from that same handle: a FIFO
    // or a pipe (`tracecheck <(cat dump)`) cannot be opened a second time, nor its first
    // bytes read twice. Regular files are read whole, mapped or streamed by size; anything
    // else (FIFO, pipe, character device) is streamed with the same limits as standard input.
    let (parsed, raw) = match source {
        Source::Stdin => stream_input(source, None, opts)?,
        Source::Path(path) => {
            let f = std::fs::File::open(path).map_err(|e| LoadError::Io(format!("cannot open {path}: {e}")))?;
            let meta = f.metadata().map_err(|e| LoadError::Io(format!("cannot read {path}: {e}")))?;
            if meta.is_dir() {
                return Err(LoadError::Io(format!("{path} is a directory")));
            }
            if !meta.is_file() {
                stream_input(source, Some(f), opts)?
            } else {
                let mut f = f;
                match elf_kind(&mut f) {
                    Some(true) => {
                        let copts = crate::core::CoreOptions {
                            symbols: opts.symbols.clone(),
                            symbolize_deadline: deadline,
                            ..Default::default()
                        };
                        let _progress = Progress::spinner(&format!("reading core {path}: modules, unwinding, symbols"));
                        return match crate::core::read_core_trace(Path::new(path), &copts) {
                            Ok(mut parsed) => {
                                attach_julia_layout(&mut parsed, opts);
                                Ok(analyze::analyze(path, parsed, &opts.selection))
                            }
                            Err(e) => Err(LoadError::Core(format!("{path}: {e}"))),
                        };
                    }
                    Some(false) => {
                        return Err(LoadError::NotADump(format!(
                            "{path} is an ELF executable or library, not a core; pass it with --exe next to a core or transcript"
                        )));
                    }
                    None => {}
                }
                let n = meta.len();
                if n > STREAM_ABOVE && n <= opts.max_input_bytes {
                    stream_input(source, Some(f), opts)?
                } else if !opts.keep_raw
                    && (MAP_ABOVE..=opts.max_input_bytes).contains(&n)
                    && let Some(map) = map_input(&f)
                    && !map.starts_with(b"\x7fELF")
                {
                    let parsed = input::parse_bytes_with(&map, opts.limits);
                    drop(map);
                    (parsed, None)
                } else {
                    let bytes = read_input(path, f, n, opts.max_input_bytes)?;
                    (input::parse_bytes_with(&bytes, opts.limits), opts.keep_raw.then_some(bytes))
                }
            }
        }
    };
    let mut ir = finish(path, parsed, opts, deadline);
    if let Some(bytes) = raw {
        ir.raw = Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
    }
    Ok(ir)
}

/// What [`load_progressive`] gives: a transcript to read a chunk at a time, or (for cores,
/// FIFOs, ELF files and anything that is not a regular file) the finished analysis of
/// [`load`].
#[allow(clippy::large_enum_variant)]
pub enum Progressive {
    Chunked(Chunked),
    Done(Analysis),
}

/// Opens an input for a progressive load (the TUI's): a regular file holding a transcript
/// comes back as a [`Chunked`] reader after one `open` and a look at its first bytes, so the
/// caller can show the start of a big file while the rest is read; anything else is loaded
/// whole with [`load`]. The errors are `load`'s (a file over `--max-input-bytes` is refused
/// here, before anything is read).
pub fn load_progressive(source: Source<'_>, opts: &LoadOptions) -> Result<Progressive, LoadError> {
    if let Source::Path(path) = source
        && std::fs::metadata(path).is_ok_and(|m| m.is_file())
    {
        let mut f = std::fs::File::open(path).map_err(|e| LoadError::Io(format!("cannot open {path}: {e}")))?;
        let meta = f.metadata().map_err(|e| LoadError::Io(format!("cannot read {path}: {e}")))?;
        if meta.is_file() && elf_kind(&mut f).is_none() {
            let n = meta.len();
            if n > opts.max_input_bytes {
                return Err(LoadError::TooLarge(format!(
                    "{path} is {n} bytes, over --max-input-bytes {}",
                    opts.max_input_bytes
                )));
            }
            let deadline = opts.symbolize_timeout.map(|d| Instant::now() + d);
            return Ok(Progressive::Chunked(Chunked {
                name: path.to_string(),
                file: std::sync::Arc::new(f),
                total: n,
                tail: Vec::new(),
                read: 0,
                fed: 0,
                lines: vec![0],
                inc: input::Incremental::new(opts.limits),
                opts: opts.clone(),
                deadline,
            }));
        }
    }
    load(source, opts).map(Progressive::Done)
}

/// A transcript file read and parsed a chunk at a time (see [`load_progressive`]). Complete
/// lines are fed once to an incremental parser, so [`Chunked::finish`] costs the finishing
/// pass, not a re-parse; its model is the one [`load`] gives for the same bytes. The text is
/// not kept in memory: only the incomplete last line waits for its newline, and the line
/// index says where each line starts, so [`RawFile`] reads any line back from the file.
pub struct Chunked {
    name: String,
    file: std::sync::Arc<std::fs::File>,
    /// The file's size when it was opened.
    total: u64,
    /// Bytes read after the last newline (the next line, still incomplete).
    tail: Vec<u8>,
    /// Bytes read so far.
    read: u64,
    /// The first `fed` bytes (complete lines) went to the parser.
    fed: u64,
    /// Byte offset where each line read so far starts (the first is 0).
    lines: Vec<usize>,
    inc: input::Incremental,
    opts: LoadOptions,
    deadline: Option<Instant>,
}

impl Chunked {
    /// The input's name (its path).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The file's size when it was opened (it may grow while it is read).
    pub fn total(&self) -> u64 {
        self.total
    }
    /// Bytes read so far.
    pub fn read_bytes(&self) -> u64 {
        self.read
    }
    /// Bytes parsed so far (complete lines).
    pub fn parsed_bytes(&self) -> u64 {
        self.fed
    }
    /// Where each line of the bytes read so far starts (a line may still be incomplete).
    pub fn line_starts(&self) -> &[usize] {
        &self.lines
    }

    /// Reads up to `max` more bytes and parses the complete lines among them. Returns how
    /// many bytes were read: 0 at the end of the file.
    pub fn step(&mut self, max: usize) -> Result<usize, LoadError> {
        let room = self.opts.max_input_bytes.saturating_add(1).saturating_sub(self.read);
        let want = (max as u64).min(room);
        // Read into exactly the room asked for (`read_to_end` would double the buffer, which
        // is kept from one step to the next).
        let buf = &mut self.tail;
        let kept = buf.len();
        let want = usize::try_from(want).unwrap_or(0);
        buf.reserve_exact(want);
        buf.resize(kept + want, 0);
        let mut got = 0;
        while kept + got < buf.len() {
            match (&*self.file).read(&mut buf[kept + got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(LoadError::Io(format!("cannot read {}: {e}", self.name))),
            }
        }
        buf.truncate(kept + got);
        self.read += got as u64;
        if self.read > self.opts.max_input_bytes {
            return Err(LoadError::TooLarge(format!(
                "{} is over --max-input-bytes {}",
                self.name, self.opts.max_input_bytes
            )));
        }
        // `buf` starts at byte `fed` of the file.
        let base = self.fed as usize;
        self.lines.extend(memchr::memchr_iter(b'\n', &buf[kept..]).map(|i| base + kept + i + 1));
        if let Some(nl) = memchr::memrchr(b'\n', buf) {
            self.inc.push(&buf[..=nl]);
            self.fed += nl as u64 + 1;
            buf.drain(..=nl);
        }
        Ok(got)
    }

    /// The file's text, read back a line at a time: the first `len` bytes.
    fn raw(&self, len: u64) -> RawFile {
        RawFile { file: self.file.clone(), len }
    }

    /// The analysis of the complete lines read so far, for a first look while the rest is
    /// read: the rules run, binaries are not read (no symbolization). Its text is those
    /// lines of the file.
    pub fn snapshot(&self) -> (Analysis, RawFile) {
        let quick = LoadOptions { symbolize_text: false, ..self.opts.clone() };
        (finish(&self.name, self.inc.snapshot(), &quick, None), self.raw(self.fed))
    }

    /// The analysis of everything read (what [`load`] gives for these bytes, without the raw
    /// text: [`RawFile`] reads it back), and where each line starts (a final newline does not
    /// start another line).
    pub fn finish(self) -> (Analysis, RawFile, Vec<usize>) {
        let raw = self.raw(self.read);
        let Chunked { name, tail, inc, opts, deadline, mut lines, read, .. } = self;
        let parsed = inc.finish(&tail);
        drop(tail);
        if lines.len() > 1 && lines.last().is_some_and(|&l| l as u64 == read) {
            lines.pop();
        }
        lines.shrink_to_fit();
        (finish(&name, parsed, &opts, deadline), raw, lines)
    }
}

/// The text of a file being shown (the TUI's raw pane, search and export), read back from
/// the file when asked instead of held in memory. Only the first `len` bytes (what was
/// parsed) are read. A file rewritten since gives what it holds now: shorter reads give
/// shorter lines, bad bytes are replaced (`U+FFFD`) line by line, nothing fails.
#[derive(Clone, Debug)]
pub struct RawFile {
    file: std::sync::Arc<std::fs::File>,
    len: u64,
}

impl RawFile {
    /// Bytes of the text.
    pub fn len(&self) -> u64 {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Bytes `start..end` (clamped to the text; fewer when the file shrank).
    pub fn bytes(&self, start: u64, end: u64) -> Vec<u8> {
        use std::os::unix::fs::FileExt;
        let end = end.min(self.len);
        let n = usize::try_from(end.saturating_sub(start)).unwrap_or(0);
        let mut buf = vec![0u8; n];
        let mut got = 0;
        while got < n {
            match self.file.read_at(&mut buf[got..], start + got as u64) {
                Ok(0) | Err(_) => break,
                Ok(k) => got += k,
            }
        }
        buf.truncate(got);
        buf
    }
    /// The whole text (the markdown export), bad bytes replaced.
    pub fn text(&self) -> String {
        let b = self.bytes(0, self.len);
        String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// Analyzes a transcript already in memory (follow mode): the same parse, symbolization and
/// rules as [`load`] on a file with these bytes. The raw text is not attached.
pub fn analyze_text(name: &str, bytes: &[u8], opts: &LoadOptions) -> Analysis {
    let deadline = opts.symbolize_timeout.map(|d| Instant::now() + d);
    finish(name, input::parse_bytes_with(bytes, opts.limits), opts, deadline)
}

/// Symbolizes (when binaries were given) and runs the rules.
pub fn finish(name: &str, mut parsed: Parsed, opts: &LoadOptions, deadline: Option<Instant>) -> Analysis {
    if opts.symbolize_text {
        let _progress = Progress::spinner(&format!("symbolizing {name}"));
        let sup = DwarfSymbols::new(opts.symbols.clone());
        rebuild_backtraces(&mut parsed, &sup);
        crate::symbolize::symbolize_trace_until(&mut parsed.trace, &sup, &mut parsed.diagnostics.notes, deadline);
        for e in sup.unused_exes() {
            parsed.diagnostics.notes.push(Note {
                line: None,
                message: format!(
                    "--exe {}: no module of the trace matches it (by path, same file or file name); it was not used",
                    e.display()
                ),
            });
        }
    }
    attach_julia_layout(&mut parsed, opts);
    analyze::analyze(name, parsed, &opts.selection)
}

/// A transcript read with `--exe` whose backtrace gdb could not follow through code without
/// CFI: the binary's code and the stack words the transcript dumped rebuild it
/// (`crate::unwind::dumps`), before the frames are named.
fn rebuild_backtraces(parsed: &mut Parsed, sup: &DwarfSymbols) {
    if parsed.trace.arch != crate::model::Arch::X86_64 {
        return;
    }
    let placed = crate::symbolize::attach_code(&mut parsed.trace, sup);
    let Some(code) = parsed.trace.memory.clone().filter(|_| !placed.is_empty()) else { return };
    for stop in &mut parsed.trace.stops {
        if let Some(k) = crate::unwind::dumps::rebuild_from_dumps(stop, &placed, &code) {
            parsed.diagnostics.notes.push(Note {
                line: None,
                message: format!(
                    "gdb's frames from #{k} on were not real (no function, no source): the backtrace from #{k} was rebuilt from the stack words the transcript dumped (x/) and the --exe binary's code (CFI, function prologues)"
                ),
            });
        }
    }
}

/// Reads the Julia runtime's task layout from its DWARF when the trace names the runtime and
/// the file is at hand (`--exe`, `--debug-dir`, `--sysroot` or its recorded path); the note
/// says which file was used, or that the version table will be.
fn attach_julia_layout(parsed: &mut Parsed, opts: &LoadOptions) {
    if let Some(message) = crate::symbolize::julia_layout::attach_layout(&mut parsed.trace, &opts.symbols) {
        parsed.diagnostics.notes.push(Note { line: None, message });
    }
}

/// The diagnostics notes that say a result is partial (limits reached), for stderr.
pub fn limit_notes(ir: &Analysis) -> impl Iterator<Item = &Note> {
    ir.parsed.diagnostics.notes.iter().filter(|n| n.message.starts_with(input::stream::LIMIT_NOTE))
}

fn not_on_stdin(path: &str) -> LoadError {
    LoadError::NotADump(format!(
        "{path} is an ELF file; give a core as a regular file path, not on standard input or through a pipe"
    ))
}

/// `Some(true)` for an ELF core, `Some(false)` for another ELF file, `None` otherwise. Reads
/// the head of a regular file and seeks back to its start.
fn elf_kind(f: &mut std::fs::File) -> Option<bool> {
    use std::io::{Seek, SeekFrom};
    let mut head = [0u8; 18];
    let got = f.read(&mut head).ok();
    f.seek(SeekFrom::Start(0)).ok()?;
    let head = &head[..got?];
    if !head.starts_with(b"\x7fELF") {
        return None;
    }
    Some(crate::core::is_core(head))
}

/// Files from this size on are mapped rather than read (below it a read costs less than a map).
const MAP_ABOVE: u64 = 1 << 20;

/// Maps the opened regular file for the parse: no copy into a fresh, zeroed buffer (about a
/// fifth of the CPU time of a 10 MB run went to faulting that buffer in). `None` when it
/// cannot be mapped; the caller then reads it.
fn map_input(f: &std::fs::File) -> Option<memmap2::Mmap> {
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    // SAFETY: the map is read-only and private, lives only for the parse, and is never handed
    // out. A file that shrinks while it is mapped would fault on the missing pages (SIGBUS);
    // transcripts are written once (or appended to, which a map of the old size ignores).
    unsafe { memmap2::MmapOptions::new().populate().map(f) }.ok()
}

fn read_input(path: &str, f: std::fs::File, len: u64, limit: u64) -> Result<Vec<u8>, LoadError> {
    if len > limit {
        return Err(LoadError::TooLarge(format!("{path} is {len} bytes, over --max-input-bytes {limit}")));
    }
    // One allocation of the right size (read_to_end would grow the buffer by doubling).
    let mut buf = Vec::with_capacity(len as usize + 1);
    f.take(limit + 1).read_to_end(&mut buf).map_err(|e| LoadError::Io(format!("cannot read {path}: {e}")))?;
    if buf.len() as u64 > limit {
        return Err(LoadError::TooLarge(format!("{path} is over --max-input-bytes {limit}")));
    }
    if buf.starts_with(b"\x7fELF") {
        return Err(not_on_stdin(path));
    }
    Ok(buf)
}

/// Streams standard input or a big file through the parser: memory stays bounded by the
/// model limits, and the raw text kept is cut at [`RAW_KEPT_WHEN_STREAMING`].
fn stream_input(
    source: Source<'_>,
    file: Option<std::fs::File>,
    opts: &LoadOptions,
) -> Result<(Parsed, Option<Vec<u8>>), LoadError> {
    let path = source.name();
    let sopts = StreamOptions {
        limits: opts.limits,
        keep_raw: if opts.keep_raw { RAW_KEPT_WHEN_STREAMING } else { 0 },
        max_bytes: opts.max_input_bytes,
    };
    let run = |r: &mut dyn BufRead| -> Result<input::Streamed, LoadError> {
        let what = if matches!(source, Source::Stdin) { "standard input".to_string() } else { path.to_string() };
        if r.fill_buf().map_err(|e| LoadError::Io(format!("cannot read {what}: {e}")))?.starts_with(b"\x7fELF") {
            return Err(not_on_stdin(path));
        }
        input::parse_reader(r, &sopts).map_err(|e| LoadError::Io(format!("cannot read {what}: {e}")))
    };
    let streamed = match file {
        None => {
            let progress = Progress::bytes("reading standard input", None);
            run(&mut io::BufReader::with_capacity(1 << 20, progress.reader(io::stdin().lock())))?
        }
        Some(f) => {
            let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            let progress = Progress::bytes(&format!("reading {path}"), len);
            run(&mut io::BufReader::with_capacity(1 << 20, progress.reader(f)))?
        }
    };
    if streamed.over_max {
        return Err(LoadError::TooLarge(format!("{path} is over --max-input-bytes {}", opts.max_input_bytes)));
    }
    let mut parsed = streamed.parsed;
    if opts.keep_raw && !streamed.raw_complete {
        parsed.diagnostics.raw_cut = Some((RAW_KEPT_WHEN_STREAMING as u64, streamed.bytes as u64));
        parsed.diagnostics.notes.push(Note {
            line: None,
            message: format!(
                "the raw transcript in the markdown report holds the first {} MiB of {} bytes",
                RAW_KEPT_WHEN_STREAMING >> 20,
                streamed.bytes
            ),
        });
    }
    Ok((parsed, opts.keep_raw.then_some(streamed.raw)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> String {
        format!("{}/sample-traces/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn file_and_text_give_the_same_model() {
        let p = sample("null-field.gdb.txt");
        let opts = LoadOptions { keep_raw: true, ..Default::default() };
        let a = load(Source::Path(&p), &opts).unwrap();
        let b = analyze_text(&p, &std::fs::read(&p).unwrap(), &opts);
        assert_eq!(a.parsed.trace, b.parsed.trace);
        assert_eq!(a.findings, b.findings);
        assert_eq!(a.findings[0].rule, "null-dereference");
        assert!(a.raw.as_deref().unwrap().contains("SIGSEGV"));
        assert!(b.raw.is_none());
    }

    /// The progressive reader does not keep what it parsed: its buffer holds one chunk and
    /// the incomplete line after it, whatever the file's size, and the line index is the
    /// text's. (The TUI reads the text back from the file: `RawFile`.)
    #[test]
    fn chunked_reader_keeps_one_chunk_not_the_file() {
        let p = sample("threads-crash.gdb.txt");
        let text = std::fs::read(&p).unwrap();
        let longest = text.split(|&b| b == b'\n').map(<[u8]>::len).max().unwrap();
        let opts = LoadOptions { keep_raw: true, ..Default::default() };
        let Ok(Progressive::Chunked(mut c)) = load_progressive(Source::Path(&p), &opts) else { panic!("not chunked") };
        let chunk = 1000;
        let mut most = 0;
        while c.step(chunk).unwrap() > 0 {
            most = most.max(c.tail.capacity());
            assert!(c.tail.len() <= longest, "{} bytes kept", c.tail.len());
        }
        assert!(most <= chunk + longest + 1, "buffer grew to {most}");
        assert_eq!(c.read_bytes(), text.len() as u64);
        let (ir, raw, lines) = c.finish();
        assert!(ir.raw.is_none());
        assert_eq!(raw.text().as_bytes(), &text[..]);
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.iter().enumerate().filter(|&(i, &b)| b == b'\n' && i + 1 < text.len()).map(|(i, _)| i + 1))
            .collect();
        assert_eq!(lines, starts);
        assert_eq!(raw.bytes(lines[1] as u64, lines[2] as u64), text[lines[1]..lines[2]].to_vec());
        assert_eq!(raw.bytes(text.len() as u64 - 1, u64::MAX), b"\n");
    }

    #[test]
    fn errors_are_one_line_and_typed() {
        let opts = LoadOptions::default();
        let e = load(Source::Path("/nonexistent/x.txt"), &opts).unwrap_err();
        assert!(matches!(e, LoadError::Io(_)), "{e:?}");
        assert!(e.to_string().starts_with("cannot open /nonexistent/x.txt"), "{e}");
        let dir = env!("CARGO_MANIFEST_DIR");
        let e = load(Source::Path(dir), &opts).unwrap_err();
        assert_eq!(e, LoadError::Io(format!("{dir} is a directory")));
        let p = sample("null-field.gdb.txt");
        let small = LoadOptions { max_input_bytes: 10, ..Default::default() };
        assert!(matches!(load(Source::Path(&p), &small).unwrap_err(), LoadError::TooLarge(_)));
    }
}
