//! Text input: turns a pasted transcript (gdb, rr, Julia, Go, lldb; any mix, in any order)
//! into a [`Trace`] plus [`Diagnostics`]. Never fails and never panics: a line that is not
//! understood is kept as a diagnostic with its line number.
//!
//! The work is one pass over the lines. [`clean`] undoes pasting damage, then the
//! [`Builder`] routes each line by the command that produced it (when the transcript echoes
//! `(gdb) cmd`) or by its shape. The dialect modules hold the line parsers; the builder
//! owns the state (current stop, selected thread and frame) and the model under
//! construction.
//!
//! What the builder keeps track of, because the text alone does not say it:
//! * the **selected thread and frame** (`thread N`, `frame N`, `up`, a lone `#N` line, `info
//!   frame`'s `Stack level N`): registers, memory dumps, disassembly and printed values are
//!   recorded against them, so `frame 1` + `info registers` lands in `registers[&1]`;
//! * the **`thread apply all bt` section** whose frames are arriving (frames go to that
//!   thread, while registers still go to the selected one);
//! * the **stop location** printed after a stop line, which for cores (`#0 …` after `Program
//!   terminated with signal`) identifies the crashing thread among the backtraces;
//! * **continuations**: old gdb wraps long frame lines at 80 columns, `bt full` values span
//!   lines, and `p` values open braces over several lines.

pub mod clean;
pub mod companion;
pub mod gdb;
pub mod go;
pub mod julia;
pub mod kernel;
pub mod lexemes;
pub mod lldb;
pub mod rr;
pub mod sanitizer;
pub mod stream;
pub mod valgrind;

pub use stream::{Incremental, StreamOptions, Streamed, parse_bytes_with, parse_reader};

use crate::model::*;
/// Re-exported from the model, where the boundary types live.
pub use crate::model::{Diagnostics, Note, Parsed, UnrecognizedLine};
use gdb::{GdbFrameLine, GdbStopLine};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// How many lines of a panic payload are kept as messages.
const MAX_MESSAGE_CONTINUATION: u8 = 16;

/// How many unrecognized lines are kept verbatim in the diagnostics.
pub const MAX_UNRECOGNIZED_KEPT: usize = 50;

/// Limits that keep hostile input bounded.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Frames kept per thread; later frames are counted but dropped.
    pub max_frames_per_thread: usize,
    /// Characters kept of one line; longer lines are cut (and noted).
    pub max_line_len: usize,
    /// Frames kept in the whole trace (all stops and threads); later frames are dropped.
    pub max_frames: usize,
    /// Threads kept in the whole trace; frames of later threads are dropped.
    pub max_threads: usize,
    /// Stops kept; later stop lines add to the last stop kept.
    pub max_stops: usize,
    /// Bytes of recognized lines that may grow the model (a catch-all for registers,
    /// memory rows, disassembly, mappings, messages…); later lines are counted, not read.
    pub max_model_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frames_per_thread: 100_000,
            max_line_len: 64 * 1024,
            max_frames: 1_000_000,
            max_threads: 100_000,
            max_stops: 10_000,
            max_model_bytes: 256 << 20,
        }
    }
}

/// Parses raw bytes (any encoding damage is replaced, NULs dropped).
pub fn parse_bytes(bytes: &[u8]) -> Parsed {
    // Clean input, the common case: parse the bytes where they are.
    if let (None, Ok(text)) = (memchr::memchr(0, bytes), std::str::from_utf8(bytes)) {
        return parse(text);
    }
    // Damaged input: decode line by line, so that only damaged lines are copied (decoding the
    // whole text first would put a second copy of the input on the peak). The lines are the
    // same: '\n' is never part of a UTF-8 sequence, and NULs are dropped within a line.
    let mut b = Builder::new(Limits::default());
    let mut n: u32 = 0;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        n = n.saturating_add(1);
        b.feed(&clean::decode(&bytes[start..end]), n);
        start = end + 1;
    }
    n = n.saturating_add(1);
    let last = clean::decode(&bytes[start..]);
    b.feed(&last, n);
    // The decoded text ends with '\n' when its last line decoded to nothing.
    let mut p = b.finish_lines(n > 1 && last.is_empty());
    p.diagnostics.notes.insert(
        0,
        Note { line: None, message: "input is not valid UTF-8 or holds NUL bytes; bad bytes were replaced".into() },
    );
    p
}

/// Parses a transcript.
pub fn parse(text: &str) -> Parsed {
    parse_with(text, Limits::default())
}

pub fn parse_with(text: &str, limits: Limits) -> Parsed {
    let mut b = Builder::new(limits);
    let mut n: u32 = 0;
    // The same lines as `text.split('\n')`, found with the memchr crate's SIMD search.
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
        n = n.saturating_add(1);
        b.feed_bounded(&text[start..end], n);
        start = end + 1;
    }
    n = n.saturating_add(1);
    b.feed_bounded(&text[start..], n);
    b.finish_lines(text.ends_with('\n'))
}

/// What the last echoed command asked for, which tells how to read its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    None,
    Backtrace {
        full: bool,
    },
    Registers,
    Memory {
        unit: Option<u8>,
        expr: Option<Box<str>>,
        insns: bool,
    },
    Disasm,
    Mappings,
    Libraries,
    InfoThreads,
    FrameInfo,
    /// `info locals` (`store`: the selected frame has no `bt full` locals yet).
    Locals,
    /// `info args`: the values are already on the frame line.
    Args,
    /// `info symbol EXPR`.
    Symbol,
    /// `show environment [VAR]`.
    Environment,
    /// `info breakpoints` (rows are kept as messages).
    Breakpoints,
    /// A `p` command whose value continues over several lines.
    Print,
    JuliaNative,
    JuliaStacktrace,
}

#[derive(Clone)]
pub(crate) struct PendingPrint {
    pub expr: Option<Box<str>>,
    pub history: Option<u32>,
    pub buf: String,
    pub depth: i32,
    pub span: Span,
}

/// A recognized line that a paste cut inside a token (see `Builder::wrap_tail`).
#[derive(Clone)]
enum WrapTail {
    /// gdb chatter with an unclosed `"` (`Using host libthread_db library "/lib/…/libth`).
    Quote,
    /// A register whose natural column has an unclosed `<` (`<session_l`): stop, thread,
    /// frame, register name and the text so far.
    Natural { si: usize, ti: usize, frame: u32, name: Sym, text: String },
}

/// A frame line that may continue on the next line (old gdb wraps at 80 columns:
/// `#1  0x… in f (a=1, ` / `    b=2) at x.c:5`).
#[derive(Clone)]
struct FrameCont {
    /// The frame it became: (thread index, position), when it became one.
    frame: Option<(usize, usize)>,
    /// It is the current stop's location.
    location: bool,
    /// The parentheses were not closed yet.
    open: bool,
    index: u32,
}

/// The state of one parse. Dialect modules drive it through its methods.
#[derive(Clone)]
pub struct Builder {
    pub(crate) trace: Trace,
    pub(crate) diag: Diagnostics,
    limits: Limits,
    interner: FxHashSet<Arc<str>>,
    formats: u16,
    /// Index of the current stop in `trace.stops`.
    stop: Option<usize>,
    /// Index of the selected thread: registers, `frame N` output and bare `bt` go to it.
    thread: Option<usize>,
    /// The thread whose `thread apply all bt` section is running (frames go here).
    bt_thread: Option<usize>,
    /// The selected frame: registers, memory dumps and disassembly are recorded against it.
    selected_frame: u32,
    pub(crate) ctx: Ctx,
    /// Echoed command's expression, for `x/`, `p` and `info symbol`.
    cmd_expr: Option<Box<str>>,
    /// Indented (`bt full`) or `name = value` (`info locals`) lines are locals now.
    locals_active: bool,
    /// Where they go: (thread index, frame position); `None` reads and drops them.
    locals_target: Option<(usize, usize)>,
    locals_buf: String,
    /// Brace depth of the local being read (a value spanning lines).
    locals_depth: i32,
    /// The last local's value was a gdb `warning:`; its real value follows unindented.
    locals_warning: bool,
    /// A frame line that may continue on the next line, and its text so far.
    frame_cont: Option<FrameCont>,
    frame_text: String,
    /// The last line was cut by a paste inside a token that the next line may close.
    wrap_tail: Option<WrapTail>,
    /// Index of the last frame line in a running backtrace.
    last_frame_index: Option<u32>,
    /// A lone frame line waiting to learn whether a backtrace follows.
    lone_frame: Option<u32>,
    /// The location printed right after a stop line (`0x… in main () at t.c:2`).
    expect_location: bool,
    /// A frame or location line was the previous line: a source line may follow.
    after_frame_line: bool,
    /// The previous line was a source line saying the file is missing: `\tin file` may follow.
    after_missing_source: bool,
    stop_location: Vec<Option<GdbOwnedLocation>>,
    /// Thread named by the stop line (or `[Current thread is N …]`), per stop.
    stop_thread: Vec<Option<Box<str>>>,
    /// The current stop came from a core (`Program terminated with signal`): its thread is
    /// not named, so the location must not be guessed onto thread 1.
    core_stop: bool,
    pending_print: Option<PendingPrint>,
    /// Lines that are a stop's explanatory messages (abort/panic text) seen before the stop.
    pending_messages: Vec<Message>,
    /// How many more lines may continue the last message: a Rust panic line ending in `:`
    /// (`thread 'main' panicked at src/main.rs:13:5:`) is followed by the panic payload,
    /// which is arbitrary text.
    message_follow: u8,
    /// Continuation lines of a multi-line gdb warning still expected.
    warning_lines: u8,
    pub(crate) julia: julia::JuliaState,
    pub(crate) rr: rr::RrState,
    pub(crate) companion: companion::CompanionState,
    pub(crate) go: go::GoState,
    pub(crate) san: sanitizer::SanState,
    pub(crate) vg: valgrind::VgState,
    pub(crate) kernel: kernel::KernelState,
    pub(crate) lldb: lldb::LldbState,
    /// The verb of the last echoed command (`bt`, `x`, `watch`…).
    last_verb: String,
    dropped_frames: u64,
    /// Register lines past `MAX_REGISTERS` distinct names in one frame's set.
    pub(crate) dropped_registers: u64,
    /// Model-size limits and the thread index (`stream.rs`).
    pub(crate) guard: stream::Guard,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct GdbOwnedLocation {
    pc: Option<u64>,
    function: Option<Sym>,
    file: Option<Sym>,
    line: Option<u32>,
    module: Option<Sym>,
    args: Option<Box<str>>,
    span: Span,
}

impl Builder {
    fn new(limits: Limits) -> Self {
        Builder {
            trace: Trace::default(),
            diag: Diagnostics::default(),
            limits,
            interner: FxHashSet::default(),
            formats: 0,
            stop: None,
            thread: None,
            bt_thread: None,
            selected_frame: 0,
            ctx: Ctx::None,
            cmd_expr: None,
            locals_active: false,
            locals_target: None,
            locals_buf: String::new(),
            locals_depth: 0,
            locals_warning: false,
            frame_cont: None,
            frame_text: String::new(),
            wrap_tail: None,
            last_frame_index: None,
            lone_frame: None,
            expect_location: false,
            after_frame_line: false,
            after_missing_source: false,
            stop_location: Vec::new(),
            stop_thread: Vec::new(),
            core_stop: false,
            pending_print: None,
            pending_messages: Vec::new(),
            message_follow: 0,
            warning_lines: 0,
            julia: julia::JuliaState::default(),
            rr: rr::RrState::default(),
            companion: Default::default(),
            go: Default::default(),
            san: Default::default(),
            vg: Default::default(),
            kernel: Default::default(),
            lldb: Default::default(),
            last_verb: String::new(),
            dropped_frames: 0,
            dropped_registers: 0,
            guard: Default::default(),
        }
    }

    pub(crate) fn intern(&mut self, s: &str) -> Sym {
        if let Some(v) = self.interner.get(s) {
            return v.clone();
        }
        let v: Arc<str> = Arc::from(s);
        self.interner.insert(v.clone());
        v
    }

    pub(crate) fn saw(&mut self, f: Format) {
        self.formats |= 1 << (f as u8);
    }

    fn formats_has(&self, f: Format) -> bool {
        self.formats & (1 << (f as u8)) != 0
    }

    fn recognized(&mut self) {
        self.diag.lines_recognized += 1;
    }

    pub(crate) fn note(&mut self, line: Option<u32>, message: impl Into<String>) {
        if self.diag.notes.len() < 200 {
            self.diag.notes.push(Note { line, message: message.into() });
        }
    }

    fn unrecognized(&mut self, text: &str, n: u32) {
        self.diag.lines_unrecognized += 1;
        if self.diag.unrecognized.len() < MAX_UNRECOGNIZED_KEPT {
            let mut t: String = clean::strip_escapes(text).into_owned();
            if t.len() > 200 {
                let mut cut = 200;
                while !t.is_char_boundary(cut) {
                    cut -= 1;
                }
                t.truncate(cut);
                t.push('…');
            }
            self.diag.unrecognized.push(UnrecognizedLine { line: n, text: t });
        }
    }

    /// A message that explains a stop (abort text, runtime error). Before any stop with a
    /// reason it waits and joins the next stop.
    pub(crate) fn add_message(&mut self, text: &str, n: u32) {
        let msg = Message::new(text, Span::line(n));
        match self.stop {
            Some(i) if self.trace.stops[i].reason.kind != StopKind::Unknown => self.trace.stops[i].messages.push(msg),
            _ => self.pending_messages.push(msg),
        }
    }

    // ---- stops and threads -------------------------------------------------------------

    pub(crate) fn stop_mut(&mut self) -> &mut Stop {
        let i = self.ensure_stop();
        &mut self.trace.stops[i]
    }

    pub(crate) fn ensure_stop(&mut self) -> usize {
        match self.stop {
            Some(i) => i,
            None => self.push_stop(StopReason::default()),
        }
    }

    /// Starts a new stop (or reuses the current one when it holds nothing yet).
    pub(crate) fn new_stop(&mut self, reason: StopReason, thread: Option<&str>) -> usize {
        self.flush_locals();
        self.frame_cont = None;
        let reuse = self.stop.filter(|&i| {
            let s = &self.trace.stops[i];
            s.reason.kind == StopKind::Unknown
                && s.threads.iter().all(|t| t.frames.is_empty() && t.registers.is_empty())
                && s.memory.is_empty()
                && s.disassembly.is_empty()
        });
        let i = match reuse {
            Some(i) => {
                let s = &mut self.trace.stops[i];
                s.reason = reason;
                s.span.extend_to(s.reason.span.first);
                i
            }
            None => self.push_stop(reason),
        };
        self.stop = Some(i);
        self.stop_thread[i] = thread.map(Box::from);
        self.stop_location[i] = None;
        self.core_stop = false;
        self.thread = None;
        self.bt_thread = None;
        self.selected_frame = 0;
        self.last_frame_index = None;
        self.lone_frame = None;
        self.trace.stops[i].reverse = self.rr.reverse;
        // Thread indices of the previous stop mean nothing here.
        self.julia.forget_thread();
        if matches!(self.ctx, Ctx::JuliaNative | Ctx::JuliaStacktrace) {
            self.ctx = Ctx::None;
        }
        let msgs = std::mem::take(&mut self.pending_messages);
        self.trace.stops[i].messages.extend(msgs);
        if let Some(t) = thread {
            let ti = self.thread_by_id(t);
            self.trace.stops[i].threads[ti].crashed = true;
            self.thread = Some(ti);
        }
        i
    }

    fn push_stop(&mut self, reason: StopReason) -> usize {
        if let Some(i) = self.stop_over_limit() {
            return i;
        }
        let mut s = Stop { reason, ..Default::default() };
        s.span = s.reason.span;
        if let Some(ev) = self.rr.pending_event.take() {
            s.rr_event = Some(ev);
        }
        self.trace.stops.push(s);
        self.stop_location.push(None);
        self.stop_thread.push(None);
        let i = self.trace.stops.len() - 1;
        self.stop = Some(i);
        self.thread = None;
        // The Go reader's thread indices (goroutine being read, register block owner, frame
        // awaiting its location) belong to the previous stop: a Julia or lldb line between
        // a goroutine and its registers starts a stop with other threads.
        self.go.thread = None;
        self.go.regs_thread = None;
        self.go.pending = None;
        i
    }

    /// Finds or creates the thread with this id in the current stop.
    pub(crate) fn thread_by_id(&mut self, id: &str) -> usize {
        let si = self.ensure_stop();
        // Indexed lookup and the thread limit: `stream.rs`.
        self.find_or_add_thread(si, id)
    }

    /// The selected thread: the one frames without a thread header, registers and `frame N`
    /// output belong to.
    pub(crate) fn current_thread(&mut self) -> usize {
        let si = self.ensure_stop();
        if let Some(t) = self.thread
            && t < self.trace.stops[si].threads.len()
        {
            return t;
        }
        let id: Box<str> = self.stop_thread[si].clone().unwrap_or_else(|| "1".into());
        let t = self.thread_by_id(&id);
        self.thread = Some(t);
        t
    }

    pub(crate) fn select_thread(&mut self, id: &str) {
        self.flush_locals();
        let t = self.thread_by_id(id);
        self.thread = Some(t);
        self.bt_thread = None;
        self.selected_frame = 0;
        self.last_frame_index = None;
    }

    /// Records an inferior environment variable (the later value wins).
    fn set_env(&mut self, k: &str, v: &str) {
        // Bounded: the lookup below is a scan.
        let full = self.trace.environment.len() >= stream::MAX_ENVIRONMENT;
        match self.trace.environment.iter_mut().find(|(n, _)| &**n == k) {
            Some(e) => e.1 = v.into(),
            None if full => {}
            None => self.trace.environment.push((k.into(), v.into())),
        }
    }

    /// A location line follows (after a watchpoint's `Old value` / `New value`).
    pub(crate) fn extend_expect_location(&mut self) {
        self.expect_location = true;
    }

    /// The thread frame lines go to: the running `thread apply` section's, else the selected.
    fn frame_thread(&mut self) -> usize {
        let si = self.ensure_stop();
        match self.bt_thread {
            Some(t) if t < self.trace.stops[si].threads.len() => t,
            _ => self.current_thread(),
        }
    }

    /// The selected thread's id and frame, recorded with memory dumps, disassembly and
    /// printed values.
    pub(crate) fn selection(&mut self) -> (Option<Sym>, u32) {
        let ti = self.current_thread();
        let si = self.ensure_stop();
        let id = self.trace.stops[si].threads[ti].id.clone();
        (Some(self.intern(&id)), self.selected_frame)
    }

    fn extend_stop_span(&mut self, n: u32) {
        if let Some(i) = self.stop {
            self.trace.stops[i].span.extend_to(n);
        }
    }

    // ---- frames ------------------------------------------------------------------------

    /// Adds or merges a frame into thread `ti` of the current stop. Returns its position.
    pub(crate) fn put_frame(&mut self, ti: usize, f: Frame) -> usize {
        self.flush_locals();
        let si = self.ensure_stop();
        self.trace.stops[si].span.extend_to(f.span.last);
        let max = self.limits.max_frames_per_thread;
        if self.frame_over_limit(si, ti) {
            return usize::MAX;
        }
        let Some(th) = self.trace.stops[si].threads.get_mut(ti) else { return 0 };
        th.span.extend_to(f.span.first);
        // Fast path: the next frame of a running backtrace.
        let appending = th.frames.last().is_none_or(|l| l.index < f.index);
        // Frames are kept sorted by unique index: a binary search, not a scan (a hostile
        // dump repeats `#0` after 100,000 frames).
        let found = || {
            let p = th.frames.partition_point(|x| x.index < f.index);
            th.frames.get(p).filter(|x| x.index == f.index).map(|_| p)
        };
        if !appending && let Some(pos) = found() {
            let old = &mut th.frames[pos];
            let same = old.function == f.function || old.function.is_none() || f.function.is_none();
            if same {
                merge_frame(old, f);
                return pos;
            }
            // A different backtrace for the same thread: the newer one wins from here on.
            th.frames.truncate(pos);
            th.frames.push(f);
            let keep = th.frames.len() as u32 - 1;
            th.registers.retain(|&k, _| k < keep);
            return th.frames.len() - 1;
        }
        // A dropped frame has no position (`usize::MAX`): its locals and continuation lines
        // must not land on another frame.
        if th.frames.len() >= max {
            self.dropped_frames += 1;
            return usize::MAX;
        }
        if self.guard.frames >= self.limits.max_frames as u64 {
            self.guard.dropped_frames += 1;
            return usize::MAX;
        }
        self.guard.frames += 1;
        if appending {
            th.frames.push(f);
            return th.frames.len() - 1;
        }
        // Keep frames ordered by index.
        let pos = th.frames.partition_point(|x| x.index < f.index);
        th.frames.insert(pos, f);
        pos
    }

    pub(crate) fn frame_from_gdb(&mut self, g: &GdbFrameLine<'_>, n: u32) -> Frame {
        Frame {
            index: g.index,
            pc: g.pc.map(Address),
            function: g.function.map(|s| self.intern(s)),
            args: g.args.map(Box::from),
            file: g.file.map(|s| self.intern(s)),
            line: g.line,
            column: None,
            module: g.module.map(|s| self.intern(s)),
            inlined: false,
            signal_handler: g.signal_handler,
            locals: None,
            string_args: Vec::new(),
            span: Span::line(n),
        }
    }

    /// gdb prints no address for a frame whose callee was inlined into it: mark the callee.
    fn mark_inlined_callee(&mut self, ti: usize, pos: usize) {
        let Some(si) = self.stop else { return };
        let th = &mut self.trace.stops[si].threads[ti];
        let Some(f) = th.frames.get(pos) else { return };
        if f.index == 0 || f.pc.is_some() || f.signal_handler || (f.file.is_none() && f.module.is_none()) {
            return;
        }
        let idx = f.index;
        // The frame interrupted by a signal is printed without a pc too; a signal trampoline
        // (`<signal handler called>`) is never inlined into it.
        if pos > 0 && th.frames[pos - 1].index + 1 == idx && !th.frames[pos - 1].signal_handler {
            th.frames[pos - 1].inlined = true;
        }
    }

    fn flush_locals(&mut self) {
        self.locals_active = false;
        if let Some((ti, fi)) = self.locals_target.take()
            && !self.locals_buf.is_empty()
            && let Some(si) = self.stop
            && let Some(f) = self.trace.stops[si].threads.get_mut(ti).and_then(|t| t.frames.get_mut(fi))
            && f.locals.is_none()
        {
            f.locals = Some(self.locals_buf.as_str().into());
        }
        self.locals_buf.clear();
        self.locals_depth = 0;
        self.locals_warning = false;
    }

    /// One `name = value` line (or a continuation of a value spanning lines) of `bt full` or
    /// `info locals`.
    fn push_local(&mut self, t: &str) {
        if self.locals_warning {
            self.locals_warning = false;
            // `v = warning: bits 64-128 … replacing with zeroes` then `{x = 0, …}` on its own
            // line: keep the value, drop the warning.
            if looks_like_value(t) {
                if let Some(p) = self.locals_buf.rfind("= warning: ") {
                    self.locals_buf.truncate(p + 2);
                }
                self.locals_buf.push_str(t);
                self.track_locals_depth(t);
                return;
            }
        }
        if !self.locals_buf.is_empty() {
            self.locals_buf.push(if self.locals_depth > 0 { ' ' } else { '\n' });
        }
        self.locals_buf.push_str(t);
        self.track_locals_depth(t);
        // `name = warning: …`: gdb printed a warning where the value goes.
        if self.locals_depth == 0
            && let Some(p) = memchr::memchr(b'=', t.as_bytes())
            && t[p + 1..].starts_with(" warning: ")
        {
            self.locals_warning = true;
        }
    }

    fn track_locals_depth(&mut self, t: &str) {
        if memchr::memchr2(b'{', b'}', t.as_bytes()).is_some() {
            self.locals_depth = (self.locals_depth + brace_depth(t)).max(0);
        }
    }

    // ---- registers ---------------------------------------------------------------------

    pub(crate) fn put_register(&mut self, name: &str, value: Option<u64>, natural: Option<&str>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        let ti = self.current_thread();
        let si = self.ensure_stop();
        let name = self.intern(name);
        let frame = self.selected_frame;
        let th = &mut self.trace.stops[si].threads[ti];
        let set = th.registers.entry(frame).or_default();
        set.span.extend_to(n);
        if !set.set(Register { name, value, natural: natural.map(Box::from), span: Span::line(n) }) {
            self.dropped_registers += 1;
        }
        self.extend_stop_span(n);
    }

    // ---- the line loop -----------------------------------------------------------------

    fn feed(&mut self, raw: &str, n: u32) {
        self.diag.lines_total += 1;
        let raw = if raw.len() > self.limits.max_line_len {
            let mut cut = self.limits.max_line_len;
            while !raw.is_char_boundary(cut) {
                cut -= 1;
            }
            self.note(Some(n), format!("line is {} bytes long; only the first {} were read", raw.len(), cut));
            &raw[..cut]
        } else {
            raw
        };
        let (line, marks) = clean::clean_line(raw);
        if marks.fence {
            self.recognized();
            return;
        }
        if self.line(&line, n) {
            self.recognized();
        } else {
            self.unrecognized(&line, n);
        }
    }

    /// Routes one clean line. Returns whether it was recognized.
    fn line(&mut self, l: &str, n: u32) -> bool {
        if let Some(w) = self.wrap_tail.take()
            && self.wrap_tail_closes(w, l, n)
        {
            return true;
        }
        let after_frame = std::mem::replace(&mut self.after_frame_line, false);
        let after_missing = std::mem::replace(&mut self.after_missing_source, false);
        // Hot path: backtrace lines and bt-full locals.
        let first = l.as_bytes().first().copied().unwrap_or(b'\n');
        if first == b'#' && self.san.active && sanitizer::line(self, l, n) {
            return true;
        }
        if first == b'#'
            && let Some(f) = gdb::frame_line(l)
        {
            self.end_frame_cont(n);
            self.gdb_frame(f, l, n);
            return true;
        }
        // A paste hard-wrapped in the middle of a token: the tail starts at column 0.
        if first != b' ' && first != b'\t' && self.frame_cont.is_some() && self.frame_continues(l, n) {
            return true;
        }
        if first == b' ' || first == b'\t' {
            if self.frame_cont.is_some() && self.frame_continues(l, n) {
                return true;
            }
            if self.locals_active {
                let t = l.trim_ascii();
                if !t.is_empty() {
                    self.end_frame_cont(n);
                    self.push_local(t);
                    return true;
                }
            }
        }
        self.end_frame_cont(n);
        if self.locals_active {
            if self.locals_warning && looks_like_value(l) {
                self.push_local(l.trim());
                return true;
            }
            if l.starts_with("No locals.")
                || l.starts_with("No symbol table info available.")
                || l.starts_with("No arguments.")
            {
                return true;
            }
        }
        // A multi-line printed value.
        if self.pending_print.is_some() {
            self.print_continue(l, n);
            return true;
        }
        // A lone frame line followed by something that is not a frame: a frame selection.
        if let Some(k) = self.lone_frame.take() {
            self.selected_frame = k;
            self.last_frame_index = None;
        }
        let trimmed = l.trim_start();
        if self.message_follow > 0 {
            if trimmed.is_empty() {
                self.message_follow = 0;
            } else if self.message_continuation(trimmed, n) {
                return true;
            }
        }
        if trimmed.is_empty() {
            self.flush_locals();
            self.last_frame_index = None;
            if matches!(self.ctx, Ctx::JuliaNative | Ctx::JuliaStacktrace) {
                julia::blank(self);
            }
            return true;
        }
        if let Some((dialect, cmd)) = gdb::prompt(trimmed) {
            self.flush_locals();
            self.command(dialect, cmd, n);
            return true;
        }
        // The shell command or REPL input that started it all (`$ rr replay`, `julia> f()`).
        if let Some(cmd) = trimmed.strip_prefix("$ ") {
            match cmd.split_whitespace().next() {
                Some("rr") => self.saw(Format::Rr),
                Some("gdb") => self.saw(Format::Gdb),
                Some("julia") => self.saw(Format::Julia),
                _ => {}
            }
            return true;
        }
        if trimmed.starts_with("julia> ") {
            self.saw(Format::Julia);
            return true;
        }
        if self.warning_lines > 0 {
            self.warning_lines -= 1;
            if trimmed.starts_with("of file ")
                || trimmed.starts_with("Use `info auto-load")
                || trimmed.starts_with("To enable execution of this file")
                || trimmed.starts_with("add-auto-load-safe-path")
                || trimmed.starts_with("line to your configuration file")
                || trimmed.starts_with("For more information about this security")
                || trimmed.starts_with("\"Auto-loading safe path\"")
                || trimmed.starts_with("info \"(gdb)Auto-loading")
                || trimmed.starts_with("set auto-load safe-path /")
            {
                return true;
            }
            self.warning_lines = 0;
        }
        if after_frame && gdb::is_spaced_source_line(trimmed) {
            self.source_line_seen(trimmed);
            return true;
        }
        if after_missing && trimmed.starts_with("in ") {
            return true;
        }
        // Context-directed output of `info locals` / `info args`.
        if matches!(self.ctx, Ctx::Locals | Ctx::Args) && (self.locals_depth > 0 || is_local_line(l)) {
            self.locals_active = true;
            self.push_local(l.trim());
            return true;
        }
        // rr's and Julia's own lines are distinctive; try them before gdb's shapes.
        if rr::line(self, trimmed, n) {
            return true;
        }
        if companion::line(self, trimmed, n) || go::line(self, l, n) || lldb::line(self, l, n) {
            return true;
        }
        // Checker reports, the kernel log and strace (issue #17).
        if valgrind::line(self, l, n) || sanitizer::line(self, l, n) || kernel::line(self, l, n) {
            return true;
        }
        if julia::line(self, l, n) {
            return true;
        }
        if self.gdb_line(l, trimmed, n) {
            return true;
        }
        if julia::fallback(self, trimmed, n) {
            return true;
        }
        // Not understood: reported, and otherwise ignored (an interleaved log line must not
        // end a `bt full` locals block or a `thread apply` section).
        false
    }

    fn gdb_frame(&mut self, g: GdbFrameLine<'_>, l: &str, n: u32) {
        self.saw(Format::Gdb);
        // A `#0` right after a stop line is the stop location (gdb prints it so for cores).
        if self.expect_location && g.index == 0 && !matches!(self.ctx, Ctx::Backtrace { .. }) {
            self.put_stop_location(&g, n, Some(l));
            // A `#1` that follows continues this backtrace; it selects nothing (registers
            // printed after it are frame #0's, the frame a stop selects).
            self.last_frame_index = Some(0);
            return;
        }
        self.expect_location = false;
        // Is this a continuation of a running backtrace?
        let continuing = matches!(self.last_frame_index, Some(k) if g.index == k + 1);
        self.lone_frame = None;
        if !continuing
            && !matches!(self.ctx, Ctx::Backtrace { .. })
            && (g.index != 0 || self.last_frame_index.is_none())
        {
            // `frame 3` / `up` output (or a bt that starts mid-way): remember as lone.
            self.lone_frame = Some(g.index);
        }
        let ti = self.frame_thread();
        let frame = self.frame_from_gdb(&g, n);
        let pos = self.put_frame(ti, frame);
        self.mark_inlined_callee(ti, pos);
        if g.index == 0 && self.bt_thread.is_some() {
            self.match_stop_location(ti);
        }
        self.last_frame_index = Some(g.index);
        self.locals_active = true;
        self.locals_target = Some((ti, pos));
        self.locals_buf.clear();
        self.locals_depth = 0;
        self.locals_warning = false;
        if g.truncated
            || (g.file.is_none() && g.module.is_none() && !g.signal_handler)
            || (g.file.is_some() && g.line.is_none())
        {
            self.frame_text.clear();
            self.frame_text.push_str(l.trim_end());
            self.frame_cont =
                Some(FrameCont { frame: Some((ti, pos)), location: false, open: g.truncated, index: g.index });
        }
        self.after_frame_line = true;
        self.extend_stop_span(n);
    }

    /// Joins a wrapped frame line's continuation (`    at ../x.c:42`, `    b=2) at …`) and
    /// re-reads the whole frame. Returns whether the line was a continuation.
    fn frame_continues(&mut self, l: &str, n: u32) -> bool {
        let Some(c) = self.frame_cont.as_ref() else { return false };
        let t = l.trim();
        let indented = l.starts_with([' ', '\t']);
        let mid_token = !indented && self.frame_wrapped_mid_token(c.open, t);
        if !(mid_token || (indented && (c.open || t.starts_with("at ") || t.starts_with("from ")))) {
            return false;
        }
        let (target, location, index) = (c.frame, c.location, c.index);
        let mut text = std::mem::take(&mut self.frame_text);
        if !mid_token && !text.ends_with(' ') && !text.ends_with('(') {
            text.push(' ');
        }
        text.push_str(if mid_token { l.trim_end() } else { t });
        if text.len() > self.limits.max_line_len {
            // A runaway continuation: stop joining.
            self.frame_cont = None;
            self.frame_text = text;
            return true;
        }
        let parsed = gdb::frame_line(&text).map(|g| (self.frame_from_gdb(&g, n), g.truncated));
        if let Some((f, open)) = parsed {
            let done = !open && (f.file.is_some() || f.module.is_some());
            if let Some((ti, pos)) = target {
                if let Some(si) = self.stop
                    && let Some(old) = self.trace.stops[si].threads.get_mut(ti).and_then(|t| t.frames.get_mut(pos))
                    && old.index == index
                {
                    old.function = f.function.clone();
                    old.args = f.args.clone();
                    old.file = f.file.clone();
                    old.line = f.line;
                    old.module = f.module.clone();
                    old.span.extend_to(n);
                }
                self.mark_inlined_callee(ti, pos);
            }
            if location
                && let Some(si) = self.stop
                && let Some(loc) = self.stop_location[si].as_mut()
            {
                loc.function = f.function.clone();
                loc.args = f.args.clone();
                loc.file = f.file.clone();
                loc.line = f.line;
                loc.module = f.module.clone();
                loc.span.extend_to(n);
            }
            match self.frame_cont.as_mut() {
                Some(c) if !done => c.open = open,
                _ => self.frame_cont = None,
            }
        }
        self.frame_text = text;
        self.after_frame_line = true;
        self.extend_stop_span(n);
        true
    }

    /// The rest of a line that a paste cut inside a token: one word at column 0 that closes
    /// the open quote or `<…>` of the line before. Returns whether `l` was that rest.
    fn wrap_tail_closes(&mut self, w: WrapTail, l: &str, n: u32) -> bool {
        if l.is_empty() || l.contains(char::is_whitespace) {
            return false;
        }
        match w {
            WrapTail::Quote => l.contains('"'),
            WrapTail::Natural { si, ti, frame, name, text } => {
                if !l.ends_with('>') || l.contains('<') {
                    return false;
                }
                let Some(set) = self
                    .trace
                    .stops
                    .get_mut(si)
                    .and_then(|st| st.threads.get_mut(ti))
                    .and_then(|t| t.registers.get_mut(&frame))
                else {
                    return false;
                };
                let value = set.reg(&name).and_then(|r| r.value);
                let mut span = set.reg(&name).map(|r| r.span).unwrap_or(Span::line(n));
                span.extend_to(n);
                set.set(Register { name, value, natural: Some(format!("{text}{l}").into()), span });
                set.span.extend_to(n);
                self.extend_stop_span(n);
                true
            }
        }
    }

    /// Is `t`, a line at column 0 after a frame line, the rest of that frame line cut in the
    /// middle of a token by a paste? Only when that is unambiguous: the frame's `at FILE`
    /// lacks its `:LINE` and `t` is `:LINE`, or the frame is inside an unclosed string
    /// argument and `t` either has no blank (more of the string) or closes the string and
    /// the argument list so that the joined line is a whole frame.
    fn frame_wrapped_mid_token(&self, open: bool, t: &str) -> bool {
        let text = &self.frame_text;
        if let Some(d) = t.strip_prefix(':') {
            return !d.is_empty()
                && d.bytes().all(|b| b.is_ascii_digit())
                && gdb::frame_line(text).is_some_and(|g| g.file.is_some() && g.line.is_none() && !g.truncated);
        }
        if !open
            || text.bytes().filter(|&b| b == b'"').count() % 2 == 0
            || ["(gdb)", "(lldb)", "(rr)"].iter().any(|p| t.starts_with(p))
        {
            return false;
        }
        if !t.contains(char::is_whitespace) {
            return true;
        }
        let joined = format!("{text}{t}");
        gdb::frame_line(&joined).is_some_and(|g| !g.truncated && (g.file.is_some() || g.module.is_some()))
    }

    /// The frame line did not continue: a cut-off argument list is final now.
    fn end_frame_cont(&mut self, n: u32) {
        if let Some(c) = self.frame_cont.take()
            && c.open
        {
            self.note(Some(n.saturating_sub(1)), format!("frame #{} is cut off (argument list not closed)", c.index));
        }
    }

    /// A `#0` frame of a `thread apply all bt` section: when it is the stop's location, that
    /// thread is the one that stopped (how cores say which thread crashed).
    fn match_stop_location(&mut self, ti: usize) {
        let Some(si) = self.stop else { return };
        if self.stop_thread[si].is_some() {
            return;
        }
        let Some(loc) = self.stop_location[si].as_ref() else { return };
        let th = &self.trace.stops[si].threads[ti];
        let Some(f) = th.frames.first().filter(|f| f.index == 0) else { return };
        let hit = match (loc.pc, f.pc) {
            (Some(a), Some(b)) => a == b.0,
            _ => loc.function.is_some() && f.function == loc.function && f.file == loc.file && f.line == loc.line,
        };
        if hit {
            let id = th.id.clone();
            self.stop_thread[si] = Some(id);
            self.trace.stops[si].threads[ti].crashed = true;
            if self.thread.is_none() {
                self.thread = Some(ti);
            }
        }
    }

    /// A source line echoed after a frame (`42\tx = 1;`): the frame is selected.
    fn source_line_seen(&mut self, t: &str) {
        if let Some(k) = self.lone_frame.take() {
            self.selected_frame = k;
            self.last_frame_index = None;
        }
        if t.ends_with("No such file or directory.") {
            self.after_missing_source = true;
        }
    }

    fn gdb_line(&mut self, l: &str, t: &str, n: u32) -> bool {
        // gdb's notes while it stops: kept with the stop (`p $_siginfo` failed; debuginfod
        // fetched a source file).
        if t.starts_with("Unable to read siginfo") || t.starts_with("Downloading source file ") {
            self.add_message(t, n);
            return true;
        }
        if let Some(r) = t.strip_prefix("Backtrace stopped: ") {
            let ti = self.frame_thread();
            let si = self.ensure_stop();
            let th = &mut self.trace.stops[si].threads[ti];
            th.backtrace_stopped = Some(r.trim().into());
            th.backtrace_stop = Some(backtrace_stop(r.trim()));
            self.flush_locals();
            return true;
        }
        // Context-directed shapes first.
        match self.ctx {
            Ctx::Mappings => {
                if let Some(m) = gdb::mapping_row(l) {
                    self.put_mapping(m, n);
                    return true;
                }
            }
            Ctx::Libraries => {
                if let Some(s) = gdb::sharedlib_row(l) {
                    self.put_library(s, n);
                    return true;
                }
            }
            Ctx::InfoThreads => {
                if let Some(r) = gdb::info_threads_row(l) {
                    self.put_info_threads_row(r, n);
                    return true;
                }
            }
            Ctx::Symbol => {
                if let Some(s) = gdb::symbol_line(t) {
                    self.put_symbol(s, n);
                    return true;
                }
            }
            Ctx::Breakpoints => {
                // `1       breakpoint     keep y   0x… in f at x.c:3`, `1.2   y   0x… in …`,
                // `\tbreakpoint already hit 2 times`, `\tstop only if x > 3`.
                let first = t.split_whitespace().next().unwrap_or("");
                let numbered = !first.is_empty() && first.bytes().all(|c| c.is_ascii_digit() || c == b'.');
                if numbered
                    || t.starts_with("breakpoint already hit ")
                    || t.starts_with("stop only if ")
                    || t.starts_with("silent")
                {
                    self.add_message(t, n);
                    return true;
                }
            }
            Ctx::Environment => {
                if let Some((k, v)) = t.split_once(" = ")
                    && !k.is_empty()
                    && !k.contains(' ')
                {
                    self.set_env(k, v);
                    return true;
                }
                if t.starts_with("Environment variable \"") {
                    return true;
                }
            }
            _ => {}
        }
        let first = t.as_bytes()[0];
        if first == b'0' {
            // Memory rows, or the location line printed after a stop.
            if let Some(m) = gdb::memory_row(t) {
                self.put_memory(m, n);
                return true;
            }
            if t.starts_with("0x") && t.contains(" in ") {
                let mut f = GdbFrameLine::default();
                if gdb::location(t, &mut f).is_some() {
                    self.put_stop_location(&f, n, Some(t));
                    return true;
                }
            }
            if let Some(m) = gdb::mapping_row(l) {
                self.put_mapping(m, n);
                return true;
            }
            if let Some(s) = gdb::sharedlib_row(l) {
                self.put_library(s, n);
                return true;
            }
        }
        if (first == b'=' || first == b'-' || (l.starts_with([' ', '\t']) && t.starts_with("0x")))
            && let Some(i) = gdb::insn_line(l)
        {
            if i.text.is_empty() && gdb::sourced_file_error(t) {
                self.note(
                    Some(n),
                    "the gdb command file stopped at a failing command (memory at the pc is unreadable)",
                );
            }
            self.put_insn(i, n);
            return true;
        }
        if self.ctx == Ctx::Disasm
            && let Some(address) = gdb::cut_insn_line(l)
        {
            self.note(Some(n), "disassembly line cut off: only its address was read");
            let current = l.starts_with("=>");
            self.put_insn(gdb::GdbInsnLine { current, address, location: None, text: "" }, n);
            return true;
        }
        if first == b'$'
            && let Some((h, v)) = gdb::history_value(t)
        {
            self.start_print(Some(h), v, n);
            return true;
        }
        if let Some(r) = gdb::register_line(t) {
            let in_block = self.ctx == Ctx::Registers;
            if in_block || gdb::is_core_register_name(r.name) {
                self.saw(Format::Gdb);
                self.ctx = Ctx::Registers;
                self.put_register(r.name, r.value, r.natural, n);
                if let Some(nat) = r.natural
                    && nat.contains('<')
                    && !nat.contains('>')
                    && let Some(si) = self.stop
                {
                    let ti = self.current_thread();
                    let name = self.intern(r.name);
                    let (frame, text) = (self.selected_frame, nat.to_string());
                    self.wrap_tail = Some(WrapTail::Natural { si, ti, frame, name, text });
                }
                return true;
            }
        }
        if let Some(s) = gdb::stop_line(t) {
            self.put_stop_line(s, n);
            return true;
        }
        if let Some(h) = gdb::thread_header(t) {
            self.saw(Format::Gdb);
            self.flush_locals();
            let ti = self.thread_by_id(h.id);
            self.bt_thread = Some(ti);
            self.last_frame_index = None;
            let si = self.ensure_stop();
            let th = &mut self.trace.stops[si].threads[ti];
            th.lwp = h.lwp.or(th.lwp);
            th.handle = h.handle.map(Address).or(th.handle);
            if let Some(name) = h.name {
                th.name = Some(name.into());
            }
            th.span.extend_to(n);
            self.ctx = Ctx::Backtrace { full: matches!(self.ctx, Ctx::Backtrace { full: true }) };
            return true;
        }
        if let Some(r) = t.strip_prefix("[Switching to thread ") {
            // `thread N` output: `[Switching to thread 2 (Thread 0x… (LWP 5))]`
            let id = thread_id_prefix(r);
            if !id.is_empty() {
                self.select_thread(id);
            }
            return true;
        }
        if let Some(r) = t.strip_prefix("[Switching to ") {
            // After `Thread N "x" received signal`: `[Switching to Thread 0x… (LWP n)]` names
            // the stopped thread's handle and LWP.
            let mut h = gdb::GdbThreadHeader::default();
            gdb::target_id(r.trim_end_matches(']'), &mut h);
            let ti = self.current_thread();
            let si = self.ensure_stop();
            let th = &mut self.trace.stops[si].threads[ti];
            th.handle = th.handle.or(h.handle.map(Address));
            th.lwp = th.lwp.or(h.lwp);
            return true;
        }
        if let Some(r) = t.strip_prefix("[Current thread is ") {
            // Cores: the thread that received the signal.
            let id = thread_id_prefix(r);
            if !id.is_empty() {
                let si = self.ensure_stop();
                if self.stop_thread[si].is_none() {
                    self.stop_thread[si] = Some(id.into());
                    let ti = self.thread_by_id(id);
                    self.trace.stops[si].threads[ti].crashed = true;
                    self.thread = Some(ti);
                }
            }
            return true;
        }
        if let Some(r) = t.strip_prefix("Core was generated by `") {
            self.saw(Format::Core);
            let cmd = r.trim_end().trim_end_matches('.').trim_end_matches('\'');
            self.trace.core_command = Some(cmd.into());
            if self.trace.program.is_none()
                && let Some(p) = cmd.split_whitespace().next()
            {
                self.trace.program = Some(p.into());
            }
            self.ensure_stop();
            return true;
        }
        if t.starts_with("Stack level ") {
            self.ctx = Ctx::FrameInfo;
            return self.frame_info_line(t, n);
        }
        if self.ctx == Ctx::FrameInfo && self.frame_info_line(t, n) {
            return true;
        }
        if gdb::is_source_line(t) {
            // gdb echoes the source line after a stop or `frame N`: the frame is selected.
            self.source_line_seen(t);
            return true;
        }
        if let Some(r) = t.strip_prefix("Starting program: ") {
            self.trace.program = Some(r.split_whitespace().next().unwrap_or(r).into());
            // A new process: what it prints belongs to its own stop, not to the last one (a CI
            // log runs several programs under gdb one after another).
            self.stop = None;
            return true;
        }
        // Table headers select how the rows that follow are read, also without an echoed
        // command.
        if t.starts_with("Start Addr") || t.starts_with("Mapped address spaces:") {
            self.ctx = Ctx::Mappings;
            return true;
        }
        if t.starts_with("From") && t.contains("Syms Read") {
            self.ctx = Ctx::Libraries;
            return true;
        }
        if t.starts_with("Id") && t.contains("Target Id") {
            self.ctx = Ctx::InfoThreads;
            return true;
        }
        if t.starts_with("Num") && t.contains("Disp Enb") {
            self.ctx = Ctx::Breakpoints;
            self.add_message(t, n);
            return true;
        }
        if t.starts_with("Dump of assembler code") {
            self.ctx = Ctx::Disasm;
            return true;
        }
        // The shell's report of the signal that killed the process.
        if let Some(d) = t.strip_suffix(" (core dumped)")
            && crate::model::signals::from_description(d).is_some()
        {
            self.add_message(t, n);
            return true;
        }
        // Program messages that explain an abort.
        if crate::messages::is_abort_message(t) {
            let panic_header = crate::messages::classify(t) == Some(crate::messages::MessageKind::Panic)
                && t.trim_end().ends_with(':');
            self.push_message(Message::new(t, Span::line(n)));
            if panic_header {
                self.message_follow = MAX_MESSAGE_CONTINUATION;
            }
            return true;
        }
        if self.expect_location && !t.starts_with('[') {
            // `main () at t.c:2` (pc at the start of a line: no address printed).
            let mut f = GdbFrameLine::default();
            if gdb::location(t, &mut f).is_some()
                && f.function.is_some()
                && (f.file.is_some() || f.module.is_some() || f.args.is_some())
            {
                self.put_stop_location(&f, n, Some(t));
                return true;
            }
        }
        if gdb::sourced_file_error(t) {
            // Batch mode: a failing command ends the script. The error text follows.
            self.note(Some(n), "the gdb command file stopped at a failing command");
            return true;
        }
        if t.starts_with("warning: Missing auto-load script")
            || t.starts_with("warning: File \"") && t.contains("auto-loading has been declined")
        {
            self.warning_lines = 6;
            return true;
        }
        if t.starts_with("No more reverse-execution history.") {
            let reason = StopReason {
                kind: StopKind::Unknown,
                description: Some("No more reverse-execution history".into()),
                span: Span::line(n),
                ..Default::default()
            };
            let si = self.new_stop(reason, None);
            self.trace.stops[si].reverse = true;
            self.expect_location = true;
            return true;
        }
        if gdb::is_noise(t) {
            if t.bytes().filter(|&b| b == b'"').count() % 2 == 1 {
                self.wrap_tail = Some(WrapTail::Quote);
            }
            return true;
        }
        false
    }

    /// Keeps a message for the stop it explains: the current one when it is already known,
    /// else the next stop (program stderr comes before gdb's `Program received signal`).
    fn push_message(&mut self, msg: Message) {
        match self.stop {
            Some(i) if self.trace.stops[i].reason.kind != StopKind::Unknown => self.trace.stops[i].messages.push(msg),
            _ => self.pending_messages.push(msg),
        }
    }

    /// A line after a panic header: the payload, up to a blank line, a prompt, a stop line,
    /// Rust's `note:` / `stack backtrace:` lines or another fatal message.
    fn message_continuation(&mut self, t: &str, n: u32) -> bool {
        let ends = gdb::prompt(t).is_some()
            || t.starts_with("note: ")
            || t.starts_with("stack backtrace:")
            || gdb::stop_line(t).is_some()
            || julia::signal_header(t).is_some()
            || crate::messages::classify(t).is_some();
        if ends {
            self.message_follow = 0;
            return false;
        }
        self.message_follow -= 1;
        self.push_message(Message::new(t.trim_end(), Span::line(n)));
        true
    }

    fn frame_info_line(&mut self, t: &str, n: u32) -> bool {
        if let Some(r) = t.strip_prefix("Stack level ") {
            let level = r.split(',').next().and_then(|x| x.trim().trim_end_matches(':').parse().ok());
            if let Some(k) = level {
                // `info frame` describes the selected frame.
                self.selected_frame = k;
            }
            let (thread, _) = self.selection();
            let mut fi = FrameInfo { level, thread, span: Span::line(n), ..Default::default() };
            if let Some(p) = r.find("frame at ") {
                fi.frame_at = lexemes::hex_u64(&r[p + 9..]).ok().map(|(_, v)| Address(v));
            }
            let si = self.ensure_stop();
            self.trace.stops[si].frame_info.push(fi);
            self.extend_stop_span(n);
            return true;
        }
        let si = self.ensure_stop();
        let t = t.trim();
        let hex_after = |s: &str, key: &str| -> Option<Address> {
            let p = s.find(key)?;
            lexemes::hex_u64(&s[p + key.len()..]).ok().map(|(_, v)| Address(v))
        };
        let Some(fi) = self.trace.stops[si].frame_info.last_mut() else { return false };
        if let Some(r) =
            t.strip_prefix("rip = ").or_else(|| t.strip_prefix("pc = ")).or_else(|| t.strip_prefix("eip = "))
        {
            fi.pc = lexemes::hex_u64(r).ok().map(|(_, v)| Address(v));
            fi.saved_pc = hex_after(r, "saved rip = ")
                .or_else(|| hex_after(r, "saved pc = "))
                .or_else(|| hex_after(r, "saved eip = "));
            // `0x… in session_bytes (src/null-field.c:23); saved rip = …`
            if let Some(p) = r.find(" in ") {
                let f = &r[p + 4..];
                let end = f.find([' ', ';']).unwrap_or(f.len());
                let name = &f[..end];
                if !name.is_empty() {
                    let name: Sym = Arc::from(name);
                    fi.function = Some(name);
                }
            }
        } else if t.starts_with("called by frame at ") || t.starts_with("caller of frame at ") {
            for part in t.split(", ") {
                if let Some(a) = hex_after(part, "called by frame at ") {
                    fi.called_by_frame_at = Some(a);
                    fi.called_by = fi.level.map(|l| l + 1);
                }
                if let Some(a) = hex_after(part, "caller of frame at ") {
                    fi.caller_of_frame_at = Some(a);
                    fi.caller_of = fi.level.and_then(|l| l.checked_sub(1));
                }
            }
        } else if let Some(r) = t.strip_prefix("source language ") {
            fi.language = Some(r.trim_end_matches('.').into());
        } else if t.starts_with("Arglist at ") {
            fi.arglist_at = hex_after(t, "Arglist at ");
        } else if t.starts_with("Locals at ") {
            fi.locals_at = hex_after(t, "Locals at ");
            fi.previous_sp = hex_after(t, "Previous frame's sp is ");
        } else if t.starts_with("Previous frame's sp is ") {
            fi.previous_sp = hex_after(t, "Previous frame's sp is ");
        } else if t.starts_with("inlined into frame")
            || t.starts_with("Outermost frame")
            || t.starts_with("Saved registers:")
            || t.starts_with("frame at ")
        {
        } else {
            // `rbp at 0x7ffe…, rip at 0x7ffe…`
            let mut any = false;
            for part in t.split(',') {
                let part = part.trim();
                if let Some((name, at)) = part.split_once(" at ")
                    && let Some(a) = lexemes::parse_hex(at)
                    && !name.is_empty()
                    && !name.contains(' ')
                {
                    fi.saved_registers.push((Arc::from(name), Address(a)));
                    any = true;
                }
            }
            if !any {
                return false;
            }
        }
        fi.span.extend_to(n);
        self.extend_stop_span(n);
        true
    }

    fn put_stop_line(&mut self, s: GdbStopLine<'_>, n: u32) {
        self.saw(Format::Gdb);
        self.julia.end_report();
        let span = Span::line(n);
        let mut reason = StopReason { span, ..Default::default() };
        match s {
            GdbStopLine::Signal { thread: t, thread_name, signal, desc } => {
                fill_signal(&mut reason, signal, desc);
                reason.kind = StopKind::Signal;
                let si = self.new_stop(reason, t);
                if let (Some(_), Some(name)) = (t, thread_name) {
                    let ti = self.current_thread();
                    self.trace.stops[si].threads[ti].name = Some(name.into());
                }
                self.expect_location = true;
                self.rr.after_stop(si);
            }
            GdbStopLine::Terminated { signal, desc } => {
                fill_signal(&mut reason, signal, desc);
                reason.kind = StopKind::Signal;
                self.new_stop(reason, None);
                // A core: the next `#0 …` line is the crashing thread's frame 0, but which
                // thread that is only the backtraces (or `[Current thread is N]`) tell.
                self.core_stop = true;
                self.expect_location = true;
            }
            GdbStopLine::Breakpoint { thread: t, number, location } => {
                reason.kind = StopKind::Breakpoint;
                reason.number = Some(number);
                reason.description = Some(location.into());
                let si = self.new_stop(reason, t);
                self.rr.after_stop(si);
                // The location is on this line.
                let mut f = GdbFrameLine::default();
                if gdb::location(location, &mut f).is_some() {
                    self.put_stop_location(&f, n, None);
                }
                self.expect_location = true;
            }
            GdbStopLine::Watchpoint { thread: t, number, expr } => {
                reason.kind = StopKind::Watchpoint;
                reason.number = Some(number);
                if matches!(self.last_verb.as_str(), "watch" | "awatch" | "rwatch" | "wa") {
                    // The confirmation printed when a watchpoint is set, not a hit.
                    return;
                }
                reason.description = Some(expr.into());
                let si = self.new_stop(reason, t);
                self.rr.after_stop(si);
                self.rr.watch_values = true;
                self.expect_location = true;
            }
            GdbStopLine::Exited { code } => {
                reason.kind = StopKind::Exited;
                reason.number = Some(code);
                self.new_stop(reason, None);
            }
            GdbStopLine::Killed { signal } => {
                fill_signal(&mut reason, signal, "");
                reason.kind = StopKind::Exited;
                self.new_stop(reason, None);
            }
        }
    }

    /// The location printed with or after a stop line. `text` is the line, for a wrapped
    /// continuation.
    fn put_stop_location(&mut self, g: &GdbFrameLine<'_>, n: u32, text: Option<&str>) {
        self.expect_location = false;
        self.after_frame_line = true;
        let si = self.ensure_stop();
        let loc = GdbOwnedLocation {
            pc: g.pc,
            function: g.function.map(|s| self.intern(s)),
            file: g.file.map(|s| self.intern(s)),
            line: g.line,
            module: g.module.map(|s| self.intern(s)),
            args: g.args.map(Box::from),
            span: Span::line(n),
        };
        self.stop_location[si] = Some(loc);
        // When the stop names its thread (or there is only the one), the location is that
        // thread's frame 0.
        let mut target = None;
        if !self.core_stop && (self.stop_thread[si].is_some() || self.trace.stops[si].threads.is_empty()) {
            let ti = self.current_thread();
            let mut f = self.frame_from_gdb(g, n);
            f.index = 0;
            let pos = self.put_frame(ti, f);
            self.locals_target = None;
            target = Some((ti, pos));
        }
        if let Some(text) = text
            && (g.truncated
                || (g.file.is_none() && g.module.is_none() && !g.signal_handler)
                || (g.file.is_some() && g.line.is_none()))
        {
            self.frame_text.clear();
            if !text.starts_with('#') {
                self.frame_text.push_str("#0  ");
            }
            self.frame_text.push_str(text.trim_end());
            self.frame_cont = Some(FrameCont { frame: target, location: true, open: g.truncated, index: 0 });
        }
        self.extend_stop_span(n);
    }

    fn put_mapping(&mut self, m: gdb::GdbMappingRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let path = m.path.map(|p| self.intern(p));
        self.trace.mappings.push(Mapping {
            start: Address(m.start),
            end: Address(m.end),
            offset: m.offset,
            perms: m.perms.map(Box::from),
            path,
            span: Span::line(n),
        });
    }

    fn put_library(&mut self, s: gdb::GdbSharedLibRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let path = self.intern(s.path);
        self.trace.libraries.push(Library {
            from: s.from.map(Address),
            to: s.to.map(Address),
            syms_read: s.syms_read,
            path,
            span: Span::line(n),
        });
    }

    fn put_info_threads_row(&mut self, r: gdb::GdbInfoThreadsRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let ti = self.thread_by_id(r.id);
        let si = self.ensure_stop();
        {
            let th = &mut self.trace.stops[si].threads[ti];
            th.lwp = r.lwp.or(th.lwp);
            th.handle = r.handle.map(Address).or(th.handle);
            if let Some(name) = r.name {
                th.name = Some(name.into());
            }
            th.current |= r.current;
            th.span.extend_to(n);
        }
        if let Some(mut f) = r.frame {
            f.index = 0;
            let fr = self.frame_from_gdb(&f, n);
            let has = !self.trace.stops[si].threads[ti].frames.is_empty();
            if !has {
                self.put_frame(ti, fr);
                self.locals_target = None;
            }
        }
        if r.current {
            self.thread = Some(ti);
        }
        self.extend_stop_span(n);
    }

    fn put_symbol(&mut self, s: gdb::GdbSymbolLine<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let (thread, frame) = self.selection();
        let symbol = s.symbol.map(|x| self.intern(x));
        let objfile = s.objfile.map(|x| self.intern(x));
        let expr = self.cmd_expr.clone();
        let si = self.ensure_stop();
        self.trace.stops[si].symbols.push(SymbolLookup {
            expr,
            symbol,
            offset: s.offset,
            section: s.section.map(Box::from),
            objfile,
            thread,
            frame,
            span: Span::line(n),
        });
        self.extend_stop_span(n);
    }

    fn put_memory(&mut self, m: gdb::GdbMemoryRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let (unit_hint, expr) = match &self.ctx {
            Ctx::Memory { unit, expr, .. } => (*unit, expr.clone()),
            _ => (None, None),
        };
        let (thread, frame) = self.selection();
        let si = self.ensure_stop();
        let stop = &mut self.trace.stops[si];
        stop.span.extend_to(n);
        if let Some(s) = m.string {
            stop.memory.push(MemoryDump {
                expr,
                thread,
                frame,
                address: Address(m.address),
                unit: 0,
                words: Vec::new(),
                string: Some(s.into()),
                span: Span::line(n),
            });
            return;
        }
        let unit = unit_hint.unwrap_or_else(|| match m.words.first().map(|w| w.1).unwrap_or(16) {
            1..=2 => 1,
            3..=4 => 2,
            5..=8 => 4,
            _ => 8,
        });
        let words: Vec<u64> = m.words.iter().map(|w| w.0).collect();
        // Continue the previous row of the same dump when contiguous.
        if let Some(last) = stop.memory.last_mut() {
            let next = last.address.0.wrapping_add(last.unit as u64 * last.words.len() as u64);
            if last.unit == unit && last.string.is_none() && next == m.address && last.span.last + 1 == n {
                last.words.extend(words);
                last.span.extend_to(n);
                return;
            }
        }
        stop.memory.push(MemoryDump {
            expr,
            thread,
            frame,
            address: Address(m.address),
            unit,
            words,
            string: None,
            span: Span::line(n),
        });
    }

    fn put_insn(&mut self, i: gdb::GdbInsnLine<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let (thread, frame) = self.selection();
        let si = self.ensure_stop();
        self.trace.stops[si].disassembly.push(Instruction {
            address: Address(i.address),
            thread,
            frame,
            location: i.location.map(Box::from),
            text: i.text.into(),
            current: i.current,
            span: Span::line(n),
        });
        self.extend_stop_span(n);
    }

    // ---- printed values ----------------------------------------------------------------

    fn start_print(&mut self, history: Option<u32>, v: &str, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        let depth = brace_depth(v);
        let expr = self.cmd_expr.take();
        let p = PendingPrint { expr, history, buf: v.to_string(), depth, span: Span::line(n) };
        if depth > 0 {
            self.pending_print = Some(p);
        } else {
            self.finish_print(p);
        }
    }

    fn print_continue(&mut self, l: &str, n: u32) {
        let Some(mut p) = self.pending_print.take() else { return };
        p.buf.push('\n');
        p.buf.push_str(l);
        p.depth += brace_depth(l);
        p.span.extend_to(n);
        if p.depth <= 0 || p.buf.len() > 1 << 20 {
            self.finish_print(p);
        } else {
            self.pending_print = Some(p);
        }
    }

    fn finish_print(&mut self, p: PendingPrint) {
        self.saw(Format::Gdb);
        let si = self.ensure_stop();
        // $_siginfo fills the stop reason.
        if let Some(info) = gdb::siginfo(&p.buf) {
            let r = &mut self.trace.stops[si].reason;
            if r.signo.is_none() {
                r.signo = info.signo;
            }
            if r.signal.is_none()
                && let Some(name) = info.signo.and_then(crate::model::signals::name)
            {
                r.signal = Some(Arc::from(name));
            }
            if r.kind == StopKind::Unknown && info.signo.is_some() {
                r.kind = StopKind::Signal;
            }
            r.si_code = info.code.or(r.si_code);
            let signo = r.signo.unwrap_or(0);
            if crate::model::signals::has_fault_address(signo) {
                r.address = info.addr.map(Address).or(r.address);
            }
            r.span.extend_to(p.span.last);
        }
        // `p $reg` / `p/x $reg`: a register value of the selected frame.
        if let Some(reg) = p.expr.as_deref().and_then(|e| e.strip_prefix('$'))
            && !reg.is_empty()
            && !reg.starts_with('_')
            && reg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !reg.bytes().all(|b| b.is_ascii_digit())
        {
            let v = p.buf.trim();
            // `(void (*)()) 0x5555… <main+16>` or `0x7ffe…` or a decimal.
            let val = v.rsplit(") ").next().unwrap_or(v);
            let val_tok = val.split_whitespace().next().unwrap_or("");
            let num = lexemes::parse_hex(val_tok).or_else(|| val_tok.parse::<i64>().ok().map(|x| x as u64));
            if let Some(num) = num {
                let nat = if v != val_tok { Some(v.to_string()) } else { None };
                let name = self.register_alias(reg);
                // Only add when `info registers` did not already give it.
                let ti = self.current_thread();
                let have = self.trace.stops[si].threads[ti]
                    .registers
                    .get(&self.selected_frame)
                    .is_some_and(|s| s.get(&name).is_some());
                if !have {
                    self.put_register(&name, Some(num), nat.as_deref(), p.span.first);
                }
            }
        }
        let (thread, frame) = self.selection();
        self.trace.stops[si].printed.push(PrintedValue {
            expr: p.expr,
            thread,
            frame,
            history: p.history,
            value: p.buf.into_boxed_str(),
            span: p.span,
        });
        self.extend_stop_span(p.span.last);
    }

    /// gdb's `$pc`, `$sp`, `$fp` under their architecture names when the register dump
    /// shows which architecture this is.
    fn register_alias(&mut self, reg: &str) -> String {
        let x86 = self.trace.arch == Arch::X86_64 || {
            let ti = self.current_thread();
            let si = self.ensure_stop();
            self.trace.stops[si].threads[ti]
                .registers
                .values()
                .any(|s| s.reg("rip").is_some() || s.reg("rsp").is_some())
        };
        let t = &crate::arch::x86_64::TABLE;
        match reg {
            "pc" if x86 => t.pc,
            "sp" if x86 => t.sp,
            "fp" if x86 => t.fp,
            r => r,
        }
        .to_string()
    }

    // ---- commands ----------------------------------------------------------------------

    fn command(&mut self, dialect: &str, cmd: &str, n: u32) {
        match dialect {
            "rr" => self.saw(Format::Rr),
            "lldb" => self.saw(Format::Lldb),
            _ => self.saw(Format::Gdb),
        }
        self.pending_print = None;
        self.bt_thread = None;
        self.cmd_expr = None;
        self.last_frame_index = None;
        self.lone_frame = None;
        self.expect_location = false;
        self.frame_cont = None;
        self.flush_locals();
        self.julia.end_report();
        let mut words = cmd.split_whitespace();
        let head = words.next().unwrap_or("");
        let (verb, fmt) = match head.split_once('/') {
            Some((v, f)) => (v, Some(f)),
            None => (head, None),
        };
        let rest: Vec<&str> = words.collect();
        let arg = rest.join(" ");
        self.last_verb.clear();
        self.last_verb.push_str(verb);
        self.ctx = Ctx::None;
        match verb {
            "bt" | "backtrace" | "where" => {
                let full = rest.iter().any(|w| *w == "full" || *w == "-full");
                self.ctx = Ctx::Backtrace { full };
                // A plain `bt` belongs to the selected thread.
            }
            "thread" | "t" => {
                if rest.first() == Some(&"apply") {
                    let full = rest.contains(&"full");
                    self.ctx = Ctx::Backtrace { full };
                } else if let Some(id) = rest.first()
                    && id.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                {
                    self.select_thread(id);
                }
            }
            "taas" | "tfaas" => self.ctx = Ctx::Backtrace { full: false },
            "info" | "i" => {
                let what = rest.first().copied().unwrap_or("");
                match what {
                    "registers" | "reg" | "r" | "all-registers" | "registers-all" => {
                        self.ctx = Ctx::Registers;
                    }
                    "proc" if rest.get(1).is_some_and(|w| w.starts_with("map")) => {
                        self.ctx = Ctx::Mappings;
                    }
                    "sharedlibrary" | "shared" | "sharedlib" | "dll" => self.ctx = Ctx::Libraries,
                    "threads" | "thread" => self.ctx = Ctx::InfoThreads,
                    "breakpoints" | "break" | "b" | "br" | "watchpoints" => self.ctx = Ctx::Breakpoints,
                    "frame" | "f" => self.ctx = Ctx::FrameInfo,
                    "locals" | "lo" | "local" => {
                        self.ctx = Ctx::Locals;
                        self.locals_active = true;
                        self.locals_target = self.selected_frame_position();
                    }
                    "args" | "arg" => {
                        self.ctx = Ctx::Args;
                        self.locals_active = true;
                        self.locals_target = None;
                    }
                    "symbol" | "sym" => {
                        self.ctx = Ctx::Symbol;
                        let e = rest[1..].join(" ");
                        self.cmd_expr = if e.is_empty() { None } else { Some(e.into()) };
                    }
                    _ => {}
                }
            }
            "frame" | "f" | "up" | "down" | "select-frame" => {
                let k = rest.first().and_then(|w| w.parse::<u32>().ok());
                match (verb, k) {
                    ("up", k) => self.selected_frame = self.selected_frame.saturating_add(k.unwrap_or(1)),
                    ("down", k) => self.selected_frame = self.selected_frame.saturating_sub(k.unwrap_or(1)),
                    (_, Some(k)) => self.selected_frame = k,
                    _ => {}
                }
                // The frame line that follows must not start a new backtrace.
                self.ctx = Ctx::None;
            }
            "x" => {
                let f = fmt.unwrap_or("");
                let insns = f.contains('i');
                let unit = if f.contains('g') {
                    Some(8)
                } else if f.contains('w') {
                    Some(4)
                } else if f.contains('h') {
                    Some(2)
                } else if f.contains('b') {
                    Some(1)
                } else {
                    None
                };
                self.ctx =
                    Ctx::Memory { unit, expr: if arg.is_empty() { None } else { Some(arg.as_str().into()) }, insns };
            }
            "disassemble" | "disas" => self.ctx = Ctx::Disasm,
            "p" | "print" | "output" | "call" | "inspect" => {
                self.cmd_expr = if arg.is_empty() { None } else { Some(arg.as_str().into()) };
                self.ctx = Ctx::Print;
            }
            "show" if rest.first().is_some_and(|w| w.starts_with("env")) => self.ctx = Ctx::Environment,
            "set" if rest.first().is_some_and(|w| w.starts_with("env")) => {
                // `set environment X=Y`, `set env X Y`, `set env X = Y`
                let kv = rest[1..].join(" ");
                let (k, v) = match kv.split_once('=') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => match kv.split_once(' ') {
                        Some((k, v)) => (k.trim(), v.trim()),
                        None => (kv.trim(), ""),
                    },
                };
                if !k.is_empty() {
                    self.set_env(k, v);
                }
            }
            _ => {}
        }
        rr::command(self, verb, &rest, n);
        lldb::command(self, dialect, head, &rest);
    }

    /// Position of the selected frame in the selected thread, when that frame was printed.
    fn selected_frame_position(&mut self) -> Option<(usize, usize)> {
        let ti = self.current_thread();
        let si = self.ensure_stop();
        let k = self.selected_frame;
        let th = &self.trace.stops[si].threads[ti];
        let pos = th.frames.iter().position(|f| f.index == k)?;
        th.frames[pos].locals.is_none().then_some((ti, pos))
    }

    // ---- finishing ---------------------------------------------------------------------

    fn finish_lines(mut self, ends_with_newline: bool) -> Parsed {
        // A trailing newline does not make an extra line.
        if ends_with_newline {
            self.diag.lines_total = self.diag.lines_total.saturating_sub(1);
            self.diag.lines_recognized = self.diag.lines_recognized.saturating_sub(1);
        }
        self.finish()
    }

    fn finish(mut self) -> Parsed {
        let last = self.diag.lines_total;
        self.end_frame_cont(last + 1);
        self.flush_locals();
        if let Some(p) = self.pending_print.take() {
            self.finish_print(p);
        }
        julia::finish(&mut self);
        self.finish_limits();
        let mut formats = Vec::new();
        for f in Format::ALL {
            if self.formats & (1 << (f as u8)) != 0 {
                formats.push(f);
            }
        }
        self.trace.formats = formats;
        for si in 0..self.trace.stops.len() {
            let loc = self.stop_location.get(si).cloned().flatten();
            let stop = &mut self.trace.stops[si];
            pick_crashed_thread(stop, loc);
            // A breakpoint, watchpoint or non-fault signal stops a thread; nothing crashed.
            if stop.reason.is_non_crash() {
                let had_current = stop.threads.iter().any(|t| t.current);
                for t in &mut stop.threads {
                    if std::mem::take(&mut t.crashed) && !had_current {
                        t.current = true;
                    }
                }
            }
        }
        type_text_fields(&mut self.trace);
        self.trace.mappings.sort_by_key(|m| (m.start, m.end));
        self.trace.mappings.dedup_by(|a, b| a.start == b.start && a.end == b.end);
        if self.trace.arch == Arch::Unknown {
            self.trace.arch = infer_arch(&self.trace);
        }
        // A Go crash header's `pc=` (`[signal SIGSEGV: … pc=0x482d90]`, `PC=0x…`) is the
        // crashing thread's pc when no register dump was printed.
        if self.formats_has(Format::Go) {
            let pc_name = self.trace.arch.pc_register();
            for si in 0..self.trace.stops.len() {
                let Some(pc) = self.stop_location.get(si).cloned().flatten().and_then(|l| l.pc) else { continue };
                let st = &mut self.trace.stops[si];
                let Some(ti) = st.threads.iter().position(|t| t.crashed) else { continue };
                let set = st.threads[ti].registers.entry(0).or_default();
                if set.regs.is_empty() {
                    let span = st.reason.span;
                    set.span = span;
                    set.set(Register { name: pc_name.into(), value: Some(pc), natural: None, span });
                }
            }
        }
        if self.trace.arch == Arch::X86_64 {
            rename_generic_registers(&mut self.trace);
        }
        if self.dropped_frames > 0 {
            let msg = format!(
                "{} frames beyond the limit of {} per thread were dropped",
                self.dropped_frames, self.limits.max_frames_per_thread
            );
            self.note(None, msg);
        }
        if self.dropped_registers > 0 {
            // Not subject to the cap on notes: it says the result is partial.
            self.diag.notes.push(Note {
                line: None,
                message: format!(
                    "{}{} register lines beyond {} distinct names in one frame were ignored",
                    stream::LIMIT_NOTE,
                    self.dropped_registers,
                    crate::model::MAX_REGISTERS
                ),
            });
        }
        Parsed { trace: self.trace, diagnostics: self.diag }
    }
}

/// Marks the thread a stop happened on, when no stop line named it: the one whose frame 0 is
/// the printed stop location, else `info threads`' current one, else the only one, else 1.
fn pick_crashed_thread(stop: &mut Stop, loc: Option<GdbOwnedLocation>) {
    if stop.threads.iter().any(|t| t.crashed) {
        return;
    }
    if !matches!(
        stop.reason.kind,
        StopKind::Signal | StopKind::Breakpoint | StopKind::Watchpoint | StopKind::RuntimeError
    ) {
        return;
    }
    let frame0 = |t: &Thread| t.frames.first().filter(|f| f.index == 0).cloned();
    let by_loc = loc.as_ref().and_then(|loc| {
        let by_pc = loc
            .pc
            .and_then(|pc| stop.threads.iter().position(|t| frame0(t).is_some_and(|f| f.pc == Some(Address(pc)))));
        by_pc.or_else(|| {
            let same_fn = |t: &Thread| frame0(t).is_some_and(|f| f.function.is_some() && f.function == loc.function);
            let exact = |t: &Thread| frame0(t).is_some_and(|f| f.file == loc.file && f.line == loc.line);
            stop.threads.iter().position(|t| same_fn(t) && exact(t)).or_else(|| stop.threads.iter().position(same_fn))
        })
    });
    let pick = by_loc
        .or_else(|| stop.threads.iter().position(|t| t.current))
        .or(if stop.threads.len() == 1 { Some(0) } else { None })
        .or_else(|| stop.threads.iter().position(|t| &*t.id == "1"));
    match pick {
        Some(i) => {
            stop.threads[i].crashed = true;
            if stop.threads[i].frames.is_empty()
                && let Some(loc) = loc
            {
                stop.threads[i].frames.push(location_frame(loc));
            }
        }
        None => {
            // Only the stop location was printed (a core without `bt`).
            if let Some(loc) = loc {
                let span = loc.span;
                stop.threads.push(Thread {
                    id: "1".into(),
                    crashed: true,
                    frames: vec![location_frame(loc)],
                    span,
                    ..Default::default()
                });
            }
        }
    }
}

fn location_frame(loc: GdbOwnedLocation) -> Frame {
    Frame {
        index: 0,
        pc: loc.pc.map(Address),
        function: loc.function,
        args: loc.args,
        file: loc.file,
        line: loc.line,
        module: loc.module,
        span: loc.span,
        ..Default::default()
    }
}

fn merge_frame(old: &mut Frame, f: Frame) {
    if f.pc.is_some() {
        old.pc = f.pc;
    }
    if f.function.is_some() {
        old.function = f.function;
    }
    if f.args.is_some() {
        old.args = f.args;
    }
    if f.file.is_some() {
        old.file = f.file;
        old.line = f.line;
    }
    if f.module.is_some() {
        old.module = f.module;
    }
    old.inlined |= f.inlined;
    old.signal_handler |= f.signal_handler;
    if f.locals.is_some() && old.locals.is_none() {
        old.locals = f.locals;
    }
}

/// `p $pc` before any register dump is stored as `pc`; on x86-64 it is `rip`.
fn rename_generic_registers(t: &mut Trace) {
    for s in &mut t.stops {
        for th in &mut s.threads {
            for set in th.registers.values_mut() {
                let x = &crate::arch::x86_64::TABLE;
                for (generic, real) in [("pc", x.pc), ("sp", x.sp), ("fp", x.fp)] {
                    if let Some(i) = set.regs.iter().position(|r| &*r.name == generic) {
                        if set.reg(real).is_some() {
                            set.regs.remove(i);
                        } else {
                            set.regs[i].name = Arc::from(real);
                        }
                    }
                }
            }
        }
    }
}

/// The thread number at the start of `2 (Thread 0x… (LWP 5))]`.
fn thread_id_prefix(r: &str) -> &str {
    let d = r.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    &r[..d]
}

/// `name = value` as `info locals` prints it (also C++ `this`, `std::x`, `<anon>`).
fn is_local_line(l: &str) -> bool {
    let Some(p) = l.find(" = ") else { return false };
    let name = &l[..p];
    !name.is_empty()
        && name.len() < 200
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '<' || c == '$')
        && !name.contains(['(', '"', '\t', '#'])
}

/// The start of a value: what follows a `warning:` gdb printed in place of a local's value.
fn looks_like_value(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with(['{', '<', '"', '@', '\'', '-', '['])
        || t.starts_with("0x")
        || t.starts_with(|c: char| c.is_ascii_digit())
}

fn brace_depth(s: &str) -> i32 {
    let mut d = 0;
    let mut in_str = false;
    let mut esc = false;
    for b in s.bytes() {
        if in_str {
            if esc {
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else if b == b'"' {
                in_str = false;
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' => d += 1,
            b'}' => d -= 1,
            _ => {}
        }
    }
    d
}

pub(crate) fn fill_signal(reason: &mut StopReason, signal: &str, desc: &str) {
    let (name, no) = if let Ok(no) = signal.parse::<i32>() {
        (crate::model::signals::name(no).map(str::to_string), Some(no))
    } else {
        (Some(signal.to_string()), crate::model::signals::signo(signal))
    };
    reason.signal = name.map(|s| Arc::from(s.as_str()));
    reason.signo = no;
    if !desc.is_empty() {
        reason.description = Some(desc.into());
    }
}

/// Architecture from register names, else from instruction syntax.
fn infer_arch(t: &Trace) -> Arch {
    // Register names, most distinctive first (`r13`, `pc`, `lr` and `sp` exist on several).
    let names: FxHashSet<&str> = t
        .stops
        .iter()
        .flat_map(|s| s.threads.iter())
        .flat_map(|th| th.registers.values())
        .flat_map(|set| set.regs.iter())
        .map(|r| &*r.name)
        .collect();
    let has = |n: &str| names.contains(n);
    if has("pswm") || has("pswa") {
        return Arch::S390x;
    }
    if has("msr") && (has("ctr") || has("xer") || has("cr")) {
        return Arch::Ppc64;
    }
    if has("eip") || (has("eax") && !has("rax")) {
        return Arch::X86;
    }
    if has("rip") || has("rax") || has("rsp") || has("eflags") {
        return Arch::X86_64;
    }
    if has("x0") || has("x20") || has("x29") || has("x30") || has("cpsr") {
        return Arch::Aarch64;
    }
    if has("ra") && (has("a0") || has("t0") || has("gp") || has("tp")) {
        return Arch::Riscv64;
    }
    if has("r13") && !has("lr") && !has("cpsr") {
        return Arch::X86_64;
    }
    // Instruction syntax: 64-bit registers anywhere mean x86-64 (32-bit names appear in
    // x86-64 code too).
    let insns = || t.stops.iter().flat_map(|s| s.disassembly.iter()).map(|i| &*i.text);
    if insns().any(|t| t.contains("%r") || t.contains("rip") || t.contains("qword ptr") || t.contains("xmm")) {
        return Arch::X86_64;
    }
    if insns().any(|t| t.contains("%e") || t.contains("dword ptr [e")) {
        return Arch::X86;
    }
    if insns().any(|t| {
        t.contains(" x0") || t.contains(", x") || t.starts_with("ldr") || t.starts_with("stp") || t.starts_with("bl ")
    }) {
        return Arch::Aarch64;
    }
    // Addresses above 2^47 with 0x7f… are x86-64 user space; AArch64 user space is 0xffff….
    for s in &t.stops {
        for th in &s.threads {
            for f in &th.frames {
                if let Some(pc) = f.pc {
                    if (0x7f00_0000_0000..0x8000_0000_0000).contains(&pc.0)
                        || (0x5500_0000_0000..0x5700_0000_0000).contains(&pc.0)
                    {
                        return Arch::X86_64;
                    }
                    if (0xffff_0000_0000..0x1_0000_0000_0000).contains(&pc.0) {
                        return Arch::Aarch64;
                    }
                }
            }
        }
    }
    Arch::Unknown
}

#[cfg(test)]
mod tests {
    //! The builder's bookkeeping, on excerpts of the real transcripts in `sample-traces/`.
    use super::*;

    fn crashed(p: &Parsed) -> &Thread {
        p.trace.main_stop().and_then(|s| s.crashed_thread()).expect("thread")
    }

    #[test]
    fn frame_n_then_registers_go_to_frame_n() {
        // null-field.gdb.txt
        let p = parse(
            "Program received signal SIGSEGV, Segmentation fault.
0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23
23\t    return s->bytes_in;                     /* s == NULL -> fault at 0x18 */
(gdb) info registers rip
rip            0x555555555155      0x555555555155 <session_bytes+12>
(gdb) frame 1
#1  0x0000555555555191 in registry_total (r=0x7fffffffec20, upto=2) at src/null-field.c:30
30\t        total += session_bytes(r->slots[i]);  /* slots[2] was never filled */
(gdb) info registers rip rsp
rip            0x555555555191      0x555555555191 <registry_total+54>
rsp            0x7fffffffebb0      0x7fffffffebb0
(gdb) x/2gx $sp
0x7fffffffebb0:\t0x0000000200000000\t0x00007fffffffec20
",
        );
        let t = crashed(&p);
        assert_eq!(t.registers[&0].get("rip"), Some(0x555555555155));
        assert_eq!(t.registers[&1].get("rip"), Some(0x555555555191));
        assert_eq!(t.registers[&1].get("rsp"), Some(0x7fffffffebb0));
        let m = &p.trace.stops[0].memory[0];
        assert_eq!((m.expr.as_deref(), m.frame, m.words.len()), (Some("$sp"), 1, 2));
        assert_eq!(t.frames.len(), 2);
    }

    #[test]
    fn registers_after_thread_apply_all_go_to_the_stopped_thread() {
        // threads-crash.gdb.txt, shortened
        let p = parse(
            "Thread 6 \"crasher\" received signal SIGSEGV, Segmentation fault.
[Switching to Thread 0x7ffff5dcd6c0 (LWP 25997)]
0x0000555555555266 in store_result (j=0x7fffffffec00, value=42) at src/threads-crash.c:39
(gdb) thread apply all bt

Thread 6 (Thread 0x7ffff5dcd6c0 (LWP 25997) \"crasher\"):
#0  0x0000555555555266 in store_result (j=0x7fffffffec00, value=42) at src/threads-crash.c:39
#1  0x00005555555552ee in crasher (arg=0x7fffffffec00) at src/threads-crash.c:54

Thread 1 (Thread 0x7ffff7dd2740 (LWP 25990) \"threads-crash\"):
#0  __futex_abstimed_wait_common64 (private=128, cancel=true, abstime=0x0, op=265, expected=25993, futex_word=0x7ffff7dd1990) at ./nptl/futex-internal.c:57
#1  __futex_abstimed_wait_common (futex_word=futex_word@entry=0x7ffff7dd1990, expected=25993, clockid=clockid@entry=0, abstime=abstime@entry=0x0, private=private@entry=128, cancel=cancel@entry=true) at ./nptl/futex-internal.c:87
#2  0x00007ffff7e5af7b in __GI___futex_abstimed_wait_cancelable64 (futex_word=futex_word@entry=0x7ffff7dd1990, expected=<optimized out>, clockid=clockid@entry=0, abstime=abstime@entry=0x0, private=private@entry=128) at ./nptl/futex-internal.c:139
(gdb) info registers rdx
rdx            0x2a                42
",
        );
        let s = p.trace.main_stop().expect("stop");
        let t6 = s.threads.iter().find(|t| &*t.id == "6").expect("thread 6");
        let t1 = s.threads.iter().find(|t| &*t.id == "1").expect("thread 1");
        assert!(t6.crashed && !t1.crashed);
        assert_eq!((t6.lwp, t6.name.as_deref()), (Some(25997), Some("crasher")));
        assert_eq!(t6.registers[&0].get("rdx"), Some(0x2a));
        assert!(t1.registers.is_empty());
        assert_eq!(t1.frames.len(), 3);
        // #1 has no address: #0 was inlined into it.
        assert!(t1.frames[0].inlined && !t1.frames[1].inlined);
    }

    #[test]
    fn core_location_picks_the_crashing_thread() {
        // satyr rhbz-1032472, shortened: the location after `Program terminated` is thread
        // 1's frame 0 although thread 20 is listed first.
        let p = parse(
            "Core was generated by `epiphany http://i.imgur.com/TOI65jx.png'.
Program terminated with signal SIGSEGV, Segmentation fault.
#0  g_str_hash (v=v@entry=0x0) at ghash.c:1871
1871\t  for (p = v; *p != '\\0'; p++)

Thread 20 (Thread 0x7f557dffb700 (LWP 10039)):
#0  pthread_cond_timedwait@@GLIBC_2.3.2 () at ../sysdeps/unix/sysv/linux/x86_64/pthread_cond_timedwait.S:238
No locals.

Thread 1 (Thread 0x7f5640696a00 (LWP 5445)):
#0  g_str_hash (v=v@entry=0x0) at ghash.c:1871
        p = 0x0
        h = 5381
#1  0x000000000046ed20 in ephy_location_entry_set_location (entry=entry@entry=0x22ae6d0, address=<optimized out>) at ephy-location-entry.c:1349
rip            0x7f563913b630\t0x7f563913b630 <g_str_hash>
",
        );
        assert_eq!(p.trace.core_command.as_deref(), Some("epiphany http://i.imgur.com/TOI65jx.png"));
        let s = p.trace.main_stop().expect("stop");
        assert_eq!(s.threads.len(), 2);
        let t = s.crashed_thread().expect("thread");
        assert_eq!((&*t.id, t.frames.len()), ("1", 2));
        assert_eq!(t.frames[0].locals().collect::<Vec<_>>(), [("p", "0x0"), ("h", "5381")]);
        // Registers printed after the backtraces belong to the crashing thread.
        assert_eq!(t.registers[&0].get("rip"), Some(0x7f563913b630));
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
    }

    #[test]
    fn core_without_backtrace_keeps_the_location() {
        let p = parse("Program terminated with signal SIGABRT, Aborted.\n#0  0xb7792424 in __kernel_vsyscall ()\n");
        let t = crashed(&p);
        assert_eq!(
            (&*t.id, t.frames[0].function_name(), t.frames[0].pc),
            ("1", "__kernel_vsyscall", Some(Address(0xb7792424)))
        );
    }

    #[test]
    fn paste_wraps_inside_a_token_are_joined() {
        // A paste hard-wrapped at 60 columns (tests/wild/damage/gdb-null-wrap60.txt).
        let p = parse(
            "Using host libthread_db library \"/lib/x86_64-linux-gnu/libth
read_db.so.1\".

Program received signal SIGSEGV, Segmentation fault.
0x0000555555555219 in session_len (s=0x0) at src/crash.c:20
(gdb) bt
#0  0x0000555555555219 in session_len (s=0x0) at src/crash.c
:20
#1  0x00005555555553ec in main (argc=2, argv=0x7fffffffed78) at src/crash.c:77
(gdb) info registers
rip            0x555555555219      0x555555555219 <session_l
en+16>
rsp            0x7fffffffeb80      0x7fffffffeb80
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let t = crashed(&p);
        assert_eq!((t.frames[0].file.as_deref(), t.frames[0].line), (Some("src/crash.c"), Some(20)));
        assert_eq!(t.frames[1].line, Some(77));
        let regs = &t.registers[&0];
        assert_eq!(regs.reg("rip").and_then(|r| r.natural.as_deref()), Some("0x555555555219 <session_len+16>"));
        assert_eq!(regs.get("rsp"), Some(0x7fffffffeb80));
        // A string argument wrapped twice, the second time where the list closes.
        let p = parse(
            "#0  0x0000555555555269 in parse_header (in=0x7fffffffeba0 \"qaaar
aaasaaa
taaa\", n=96) at src/crash.c:27
#1  0x6161616c6161616b in ?? ()
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let t = crashed(&p);
        assert_eq!(t.frames[0].arg_string("in"), Some("qaaaraaasaaataaa"));
        assert_eq!(t.frames[0].line, Some(27));
        // Not a continuation: a word at column 0 after a complete frame, or one that does not
        // close the open token.
        let p = parse(
            "#0  0x0000555555555269 in parse_header (in=0x7fffffffeba0 \"qaaar
(gdb)
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert_eq!(crashed(&p).frames[0].arg_string("in"), None);
        let p = parse(
            "#0  0x0000555555555219 in session_len (s=0x0) at src/crash.c:20
:21
rip            0x555555555219      0x555555555219 <session_l
oops
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 2, "{:?}", p.diagnostics.unrecognized);
    }

    #[test]
    fn wrapped_frame_lines_and_values() {
        // satyr quality_100.txt
        let p = parse(
            "#1  0x0000003139e1f34e in nsProfileLock::FatalSignalHandler (signo=11, 
    info=<value optimized out>, context=<value optimized out>)
    at nsProfileLock.cpp:213
        unblock_sigs = {__val = {1024, 0 <repeats 15 times>}}
#4  0x00007f909544ebef in nsTreeBodyFrame::PaintColumn (this=0x7f909108c8a8, 
    aColumn=0x7f908861f760, aDirtyRect=<value optimized out>)
    at /usr/src/debug/nsTreeBodyFrame.cpp:2915
        colRect = {x = -1860605664, y = 32656, width = -1861695320, 
          height = 32656}
        viewRect = warning: bits 64-128 in computed object were optimized out; replacing with zeroes
{x = 0, y = 0, width = 0, height = 0}
        vtowoffset = {x = 0, y = 0}
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert!(p.diagnostics.notes.is_empty(), "{:?}", p.diagnostics.notes);
        let t = crashed(&p);
        assert_eq!(
            t.frames[0].args.as_deref(),
            Some("signo=11, info=<value optimized out>, context=<value optimized out>")
        );
        assert_eq!((t.frames[0].file.as_deref(), t.frames[0].line), (Some("nsProfileLock.cpp"), Some(213)));
        assert_eq!(t.frames[1].line, Some(2915));
        let locals: Vec<(&str, &str)> = t.frames[1].locals().collect();
        assert_eq!(locals[0], ("colRect", "{x = -1860605664, y = 32656, width = -1861695320, height = 32656}"));
        assert_eq!(locals[1], ("viewRect", "{x = 0, y = 0, width = 0, height = 0}"));
        assert_eq!(locals[2].0, "vtowoffset");
    }

    #[test]
    fn lone_frame_line_selects_the_frame() {
        // `up` without an echoed command: the frame line and source line select frame 2.
        let p = parse(
            "#0  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23
#1  0x0000555555555191 in registry_total (r=0x7fffffffec20, upto=2) at src/null-field.c:30
#2  0x00005555555551cc in report (r=0x7fffffffec20, label=0x555555556013 \"traffic\") at src/null-field.c:36

#2  0x00005555555551cc in report (r=0x7fffffffec20, label=0x555555556013 \"traffic\") at src/null-field.c:36
36\t    long t = registry_total(r, r->count);
rip            0x5555555551cc      0x5555555551cc <report+37>
",
        );
        let t = crashed(&p);
        assert_eq!(t.frames.len(), 3);
        assert_eq!(t.registers[&2].get("rip"), Some(0x5555555551cc));
    }

    #[test]
    fn registers_after_a_stop_backtrace_are_frame_0s() {
        // `run`, `bt`, `info registers` without echoed commands: the `#0` after the stop line is
        // the stop location and `#1` continues the backtrace, so nothing but #0 is selected and
        // the registers reach the model as frame #0's (they were counted, then lost on #1).
        let p = parse(
            "Program received signal SIGSEGV, Segmentation fault.
#0  0x0000555555555135 in get (p=0x0) at nd.c:2
#1  0x0000555555555148 in main () at nd.c:3
rax            0x0                 0
rip            0x555555555135      0x555555555135 <get+12>
",
        );
        let t = crashed(&p);
        assert_eq!(t.frames.len(), 2);
        assert_eq!(t.registers[&0].get("rax"), Some(0));
        assert_eq!(t.registers[&0].get("rip"), Some(0x555555555135));
        assert!(!t.registers.contains_key(&1));
    }

    #[test]
    fn limits_bound_the_model() {
        let mut text = String::new();
        for k in 0..50 {
            text.push_str(&format!("#{k}  0x0000000000401136 in f{k} () at t.c:{k}\n"));
        }
        let p = parse_with(&text, Limits { max_frames_per_thread: 10, ..Limits::default() });
        assert_eq!(crashed(&p).frames.len(), 10);
        assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("40 frames beyond the limit")));
    }
}

/// `Backtrace stopped: …` as a typed reason.
fn backtrace_stop(r: &str) -> BacktraceStop {
    if let Some(a) = r.strip_prefix("Cannot access memory at address ") {
        return lexemes::parse_hex(a.trim()).map_or(BacktraceStop::Other, |addr| BacktraceStop::Memory(Address(addr)));
    }
    if r.contains("corrupt stack") { BacktraceStop::CorruptStack } else { BacktraceStop::Other }
}

/// Parses, once, the text the rules need typed: each frame's C string arguments and each
/// message's kind and parts.
fn type_text_fields(trace: &mut Trace) {
    for stop in &mut trace.stops {
        for m in &mut stop.messages {
            crate::messages::typed(m);
        }
        for th in &mut stop.threads {
            for f in &mut th.frames {
                if let Some(a) = f.args.as_deref() {
                    f.string_args =
                        lexemes::string_args(a).into_iter().map(|(n, v)| (Sym::from(n), v.into())).collect();
                }
            }
        }
    }
}
