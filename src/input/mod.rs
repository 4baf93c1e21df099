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

mod ahead;
pub use ahead::{HELPER_STACK, second_core};
pub mod clean;
pub mod companion;
pub mod context;
pub mod crashdumps;
pub mod dumps;
pub mod gdb;
pub mod go;
pub mod handlers;
pub mod julia;
pub mod kernel;
pub mod lexemes;
pub mod lldb;
pub mod rr;
pub mod runtimes;
pub mod rust;
pub mod sanitizer;
mod shell;
pub mod stream;
pub mod toolreports;
pub mod valgrind;

mod commands;
mod finish;
mod records;
mod route;

use finish::*;

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
    // A big input: a helper thread computes the per-line work ahead on the second core; the
    // model is the same (`ahead.rs`).
    if text.len() >= ahead::PARALLEL_ABOVE && ahead::second_core() {
        return ahead::parse_with(text, limits, ahead::Handover::Race, ahead::BLOCK);
    }
    parse_one_thread(text, limits)
}

/// [`parse_with`] on the calling thread alone.
fn parse_one_thread(text: &str, limits: Limits) -> Parsed {
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
    /// The thread (stop, thread) the last frame went to, and the first thread not yet cut to
    /// length: a thread left for another has its frame list cut to its length once
    /// (`shrink_to_fit`, in order, so a thread visited again costs nothing more and the work
    /// stays linear), so the frames of a big dump do not keep up to twice their room while
    /// the rest is parsed.
    frames_of: Option<(usize, usize)>,
    cut_from: (usize, usize),
    /// How many frames the last thread left (when frames moved on to another thread) had:
    /// what a new thread's frame list reserves at its first frame, so the threads of a
    /// `thread apply all bt` (alike, as a rule) are not grown by doubling and copying.
    frames_hint: usize,
    formats: u32,
    /// Index of the current stop in `trace.stops`.
    stop: Option<usize>,
    /// Index of the selected thread: registers, `frame N` output and bare `bt` go to it.
    thread: Option<usize>,
    /// The thread whose `thread apply all bt` section is running (frames go here).
    bt_thread: Option<usize>,
    /// The thread bare output (`bt`, `info registers`) went to only because nothing had named
    /// the selected thread yet (gdb's thread 1 by default); `info threads`' current row moves
    /// that output to the thread it names.
    default_thread: Option<usize>,
    /// The `info threads` row frame of the default thread, not kept while the bare output
    /// held its place (it is that thread's frame once the output moves away).
    default_row_frame: Option<Frame>,
    /// A thread was selected by name in this stop (`thread N`, `[Switching to thread N …]`):
    /// `info threads`' current row then shows that selection, not the stopped thread.
    selected_by_name: bool,
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
    /// The text before gdb's pager prompt on the last line (`…at futex-i--Type <RET> for
    /// more, q to quit, c to continue without paging--`): the line goes on on the next one.
    pager_head: Option<String>,
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
    /// V8's `Uncaught …` was just read: the one blank line before its `FROM` stack belongs to it.
    v8_blank: bool,
    /// Continuation lines of a multi-line gdb warning still expected.
    warning_lines: u8,
    pub(crate) julia: julia::JuliaState,
    pub(crate) rr: rr::RrState,
    pub(crate) companion: companion::CompanionState,
    pub(crate) go: go::GoState,
    pub(crate) san: sanitizer::SanState,
    pub(crate) vg: valgrind::VgState,
    pub(crate) kernel: kernel::KernelState,
    pub(crate) dumps: dumps::DumpState,
    pub(crate) handlers: handlers::HandlerState,
    /// `p $_siginfo._sifields._sigfault.si_addr` values: (stop, address), applied at the end
    /// when the stop's si_code says it is a fault address.
    pub(crate) printed_si_addr: Vec<(usize, u64)>,
    /// Lines left of gdb's note after a signal inside a debugger-called function.
    pub(crate) called_function_note: u8,
    /// The gdb extension pane (PEDA, pwndbg, GEF) being read.
    pub(crate) context: context::Pane,
    pub(crate) rust: rust::RustState,
    pub(crate) lldb: lldb::LldbState,
    /// The verb of the last echoed command (`bt`, `x`, `watch`…).
    last_verb: String,
    dropped_frames: u64,
    /// Register lines past `MAX_REGISTERS` distinct names in one frame's set.
    pub(crate) dropped_registers: u64,
    /// Model-size limits and the thread index (`stream.rs`).
    pub(crate) guard: stream::Guard,
    /// The per-line results a helper thread computed ahead (`ahead.rs`; empty when parsing
    /// on one thread).
    pub(crate) ahead: ahead::Ahead,
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

/// The most frames a new thread's list reserves up front (`Builder::frames_hint`); a
/// deeper backtrace grows from there.
const FRAMES_HINT_MAX: usize = 4096;

impl Builder {
    fn new(limits: Limits) -> Self {
        Builder {
            trace: Trace::default(),
            diag: Diagnostics::default(),
            limits,
            interner: FxHashSet::default(),
            frames_of: None,
            cut_from: (0, 0),
            frames_hint: 0,
            formats: 0,
            stop: None,
            thread: None,
            bt_thread: None,
            default_thread: None,
            default_row_frame: None,
            selected_by_name: false,
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
            pager_head: None,
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
            v8_blank: false,
            warning_lines: 0,
            julia: julia::JuliaState::default(),
            rr: rr::RrState::default(),
            companion: Default::default(),
            go: Default::default(),
            san: Default::default(),
            vg: Default::default(),
            kernel: Default::default(),
            dumps: Default::default(),
            handlers: Default::default(),
            printed_si_addr: Vec::new(),
            called_function_note: 0,
            context: Default::default(),
            rust: Default::default(),
            lldb: Default::default(),
            last_verb: String::new(),
            dropped_frames: 0,
            dropped_registers: 0,
            guard: Default::default(),
            ahead: Default::default(),
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

    pub(crate) fn formats_has(&self, f: Format) -> bool {
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

    /// A report's decoration printed before its first line (HotSpot's and V8's bare `#`): the
    /// lines just before line `n` that are exactly `mark` and were left unread are the report's.
    pub(crate) fn reclaim_decoration(&mut self, n: u32, mark: &str) {
        let mut want = n.saturating_sub(1);
        while want > 0
            && let Some(last) = self.diag.unrecognized.last()
            && last.line == want
            && last.text.trim() == mark
        {
            self.diag.unrecognized.pop();
            self.diag.lines_unrecognized = self.diag.lines_unrecognized.saturating_sub(1);
            self.diag.lines_recognized += 1;
            want -= 1;
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
            // A Rust panic report without a backtrace, then the debugger's stop for its abort.
            let bare_panic = s.reason.kind == StopKind::RuntimeError
                && s.reason.description.as_deref() == Some("Rust panic")
                && reason.kind == StopKind::Signal;
            (s.reason.kind == StopKind::Unknown || bare_panic)
                && s.threads.iter().all(|t| t.frames.is_empty() && t.registers.is_empty())
                && s.memory.is_empty()
                && s.disassembly.is_empty()
        });
        let i = match reuse {
            Some(i) => {
                let s = &mut self.trace.stops[i];
                let was_panic = s.reason.kind == StopKind::RuntimeError;
                s.reason = reason;
                s.span.extend_to(s.reason.span.first);
                // The panic report's thread (named after the Rust thread, without frames) is not
                // the one the debugger stops in.
                if was_panic {
                    for t in s.threads.iter_mut() {
                        t.crashed = false;
                    }
                }
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
        self.forget_default_thread();
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
        self.forget_default_thread();
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
        let named = self.stop_thread[si].clone();
        let t = self.thread_by_id(named.as_deref().unwrap_or("1"));
        self.thread = Some(t);
        if named.is_none() && !self.selected_by_name {
            self.default_thread = Some(t);
        }
        t
    }

    fn forget_default_thread(&mut self) {
        self.default_thread = None;
        self.default_row_frame = None;
        self.selected_by_name = false;
    }

    /// `info threads` marks thread `to` current while nothing named the stop's thread: the
    /// output filed under the default thread `from` (frames, registers, and the selection
    /// recorded with dumps and disassembly) is `to`'s. `from` keeps its own `info threads`
    /// row frame.
    fn move_default_output(&mut self, si: usize, from: usize, to: usize) {
        self.flush_locals();
        self.locals_target = None;
        self.frame_cont = None;
        let threads = &mut self.trace.stops[si].threads;
        if from >= threads.len() || to >= threads.len() || threads[to].frames.len() > 1 {
            return;
        }
        let frames = std::mem::take(&mut threads[from].frames);
        let registers = std::mem::take(&mut threads[from].registers);
        let stopped = threads[from].backtrace_stopped.take();
        let stop = threads[from].backtrace_stop.take();
        let t = &mut threads[to];
        if !frames.is_empty() {
            t.frames = frames;
        }
        for (k, v) in registers {
            t.registers.entry(k).or_insert(v);
        }
        t.backtrace_stopped = t.backtrace_stopped.take().or(stopped);
        t.backtrace_stop = t.backtrace_stop.take().or(stop);
        if let Some(f) = self.default_row_frame.take() {
            threads[from].frames.push(f);
        }
        let from_id = threads[from].id.clone();
        let to_name = threads[to].id.clone();
        let to_id = self.intern(&to_name);
        let s = &mut self.trace.stops[si];
        let relabel = |th: &mut Option<Sym>| {
            if th.as_deref() == Some(&*from_id) {
                *th = Some(to_id.clone());
            }
        };
        s.memory.iter_mut().for_each(|m| relabel(&mut m.thread));
        s.disassembly.iter_mut().for_each(|m| relabel(&mut m.thread));
        s.printed.iter_mut().for_each(|m| relabel(&mut m.thread));
        s.frame_info.iter_mut().for_each(|m| relabel(&mut m.thread));
        s.symbols.iter_mut().for_each(|m| relabel(&mut m.thread));
    }

    pub(crate) fn select_thread(&mut self, id: &str) {
        self.flush_locals();
        let t = self.thread_by_id(id);
        self.thread = Some(t);
        self.selected_by_name = true;
        self.default_thread = None;
        self.default_row_frame = None;
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
        if self.frames_of != Some((si, ti))
            && let Some(left) = self.frames_of.replace((si, ti))
            && left >= self.cut_from
        {
            self.cut_from = (left.0, left.1 + 1);
            if let Some(th) = self.trace.stops.get_mut(left.0).and_then(|s| s.threads.get_mut(left.1)) {
                th.frames.shrink_to_fit();
                self.frames_hint = th.frames.len().min(FRAMES_HINT_MAX);
            }
        }
        let hint = self.frames_hint;
        let Some(th) = self.trace.stops[si].threads.get_mut(ti) else { return 0 };
        if th.frames.capacity() == 0 {
            th.frames.reserve_exact(hint.min(max));
        }
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
            // A bare `#1 0x… in ?? ()` at another pc than the named frame a backtrace already
            // gave that index (gdb re-unwound after `info threads` reread the thread through
            // libthread_db, and got garbage): the named frame of the full backtrace stands.
            if old.function.is_some()
                && f.function.is_none()
                && f.file.is_none()
                && old.pc.is_some()
                && f.pc.is_some()
                && old.pc != f.pc
            {
                return pos;
            }
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

    /// A frame's function as gdb names it: a D or GNAT symbol the debugger printed is decoded
    /// (`symbolize::demangle::language_symbol`), any other name kept.
    pub(crate) fn intern_function(&mut self, s: &str, file: Option<&str>) -> Sym {
        match crate::symbolize::demangle::language_symbol(s, file) {
            Some(d) => self.intern(&d),
            None => self.intern(s),
        }
    }

    pub(crate) fn frame_from_gdb(&mut self, g: &GdbFrameLine<'_>, n: u32) -> Frame {
        Frame {
            index: g.index,
            pc: g.pc.map(Address),
            function: g.function.map(|s| self.intern_function(s, g.file)),
            args: g.args.map(Box::from),
            file: g.file.map(|s| self.intern(s)),
            line: g.line,
            column: None,
            module: g.module.map(|s| self.intern(s)),
            inlined: false,
            signal_handler: g.signal_handler,
            locals: None,
            span: Span::line(n),
            ..Default::default()
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
            && let Some(p) = t.bytes().position(|c| c == b'=')
            && t[p + 1..].starts_with(" warning: ")
        {
            self.locals_warning = true;
        }
    }

    fn track_locals_depth(&mut self, t: &str) {
        if let Some(d) = self.brace_depth_ahead(t) {
            self.locals_depth = (self.locals_depth + d).max(0);
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
        if !set.set(Register { name, value, natural: natural.map(Natural::from), span: Span::line(n) }) {
            self.dropped_registers += 1;
        }
        self.extend_stop_span(n);
    }

    // ---- the line loop -----------------------------------------------------------------
}
#[cfg(test)]
mod tests {
    //! The builder's bookkeeping, on excerpts of the real transcripts in `sample-traces/`.
    use super::*;

    fn crashed(p: &Parsed) -> &Thread {
        p.trace.main_stop().and_then(|s| s.crashed_thread()).expect("thread")
    }

    #[test]
    fn a_signal_inside_a_function_gdb_called_is_not_a_crash() {
        let t = "(gdb) p jl_(o->type)

Program received signal SIGSEGV, Segmentation fault.
0x00007a41c2e4fa1d in jl_is_cpointer_type (t=0xe000000000000000) at src/julia.h:1440
1440\t    return (jl_is_datatype(t) &&
The program being debugged was signaled while in a function called from GDB.
GDB has restored the context to what it was before the call.
To change this behavior use \"set unwindonsignal off\".
Evaluation of the expression containing the function
(jl_) will be abandoned.
When the function is done executing, GDB will silently stop it.
";
        let p = parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let stop = p.trace.stops.iter().find(|s| s.reason.signo == Some(11)).expect("the SIGSEGV stop");
        assert!(stop.reason.in_called_function && stop.reason.is_non_crash());
        assert!(stop.threads.iter().all(|t| !t.crashed));
    }

    #[test]
    fn siginfo_printed_one_field_at_a_time() {
        let t = "Program received signal SIGSEGV, Segmentation fault.
0x0000555555558010 in compute_foo ()
(gdb) p $_siginfo._sifields._sigfault.si_addr
$1 = (void *) 0x555555558010 <compute_foo>
(gdb) p $_siginfo.si_code
$2 = 2
";
        let p = parse(t);
        let r = &p.trace.stops[0].reason;
        assert_eq!((r.si_code, r.address), (Some(2), Some(Address(0x555555558010))));
        // A #GP: si_code 128 (SI_KERNEL) makes si_addr 0 meaningless, and without si_code the
        // printed word is not taken as a fault address either.
        let gp = t.replace("0x555555558010 <compute_foo>", "0x0").replace("$2 = 2", "$2 = 128");
        let p = parse(&gp);
        assert_eq!((p.trace.stops[0].reason.si_code, p.trace.stops[0].reason.address), (Some(128), None));
        let p = parse(&gp.replace("(gdb) p $_siginfo.si_code\n$2 = 128\n", ""));
        assert_eq!(p.trace.stops[0].reason.address, None);
    }

    #[test]
    fn python_exception_inside_a_frame_argument() {
        let p = parse(
            "Thread 1 \"indexer\" received signal SIGSEGV, Segmentation fault.
0x0000555555556b2e in Index::lookup (this=0x0, key=\"alpha\") at index.cc:42
(gdb) bt
#0  0x0000555555556b2e in Index::lookup (this=0x0, key=\"alpha\") at index.cc:42
#1  0x0000555555557c10 in Query::run (this=0x7fffffffd9c0, terms=std::vector of length 2, capacity 2 = {Python Exception <class 'gdb.MemoryError'>: Cannot access memory at address 0x20
) at query.cc:77
#2  0x00005555555582f4 in main () at main.cc:19
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let t = crashed(&p);
        assert_eq!(t.frames.len(), 3);
        assert_eq!((t.frames[1].file.as_deref(), t.frames[1].line), (Some("query.cc"), Some(77)));
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
