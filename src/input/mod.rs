//! Text input: turns a pasted transcript (gdb, rr, Julia, Go, lldb; any mix, in any order)
//! into a [`Trace`] plus [`Diagnostics`]. Never fails and never panics: a line that is not
//! understood is kept as a diagnostic with its line number.
//!
//! The work is one pass over the lines. [`clean`] undoes pasting damage, then the
//! [`Builder`] routes each line by the command that produced it (when the transcript echoes
//! `(gdb) cmd`) or by its shape. The dialect modules hold the line parsers; the builder
//! owns the state (current stop, thread, selected frame) and the model under construction.

pub mod clean;
pub mod gdb;
pub mod julia;
pub mod lexemes;
pub mod rr;

use crate::model::*;
use gdb::{GdbFrameLine, GdbStopLine};
use rustc_hash::FxHashSet;
use serde::Serialize;
use std::sync::Arc;

/// How many unrecognized lines are kept verbatim in the diagnostics.
pub const MAX_UNRECOGNIZED_KEPT: usize = 50;

/// What the parser could not use, for the user and for tests.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Diagnostics {
    pub lines_total: u32,
    pub lines_recognized: u32,
    pub lines_unrecognized: u32,
    /// The first [`MAX_UNRECOGNIZED_KEPT`] unrecognized lines.
    pub unrecognized: Vec<UnrecognizedLine>,
    /// Other remarks: truncated lines, binary content, limits reached.
    pub notes: Vec<Note>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnrecognizedLine {
    pub line: u32,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub line: Option<u32>,
    pub message: String,
}

/// The result of parsing one input.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub trace: Trace,
    pub diagnostics: Diagnostics,
}

/// Limits that keep hostile input bounded.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Frames kept per thread; later frames are counted but dropped.
    pub max_frames_per_thread: usize,
    /// Characters kept of one line; longer lines are cut (and noted).
    pub max_line_len: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_frames_per_thread: 100_000, max_line_len: 64 * 1024 }
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
        b.feed(&text[start..end], n);
        start = end + 1;
    }
    n = n.saturating_add(1);
    b.feed(&text[start..], n);
    b.finish_lines(text.ends_with('\n'))
}

/// What the last echoed command asked for, which tells how to read its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ctx {
    None,
    Backtrace { full: bool },
    Registers,
    Memory { unit: Option<u8>, expr: Option<Box<str>>, insns: bool },
    Disasm,
    Mappings,
    Libraries,
    InfoThreads,
    FrameInfo,
    /// A `p` command whose value continues over several lines.
    Print,
    JuliaNative,
    JuliaStacktrace,
}

pub(crate) struct PendingPrint {
    pub expr: Option<Box<str>>,
    pub history: Option<u32>,
    pub buf: String,
    pub depth: i32,
    pub span: Span,
}

/// The state of one parse. Dialect modules drive it through its methods.
pub struct Builder {
    pub(crate) trace: Trace,
    pub(crate) diag: Diagnostics,
    limits: Limits,
    interner: FxHashSet<Arc<str>>,
    formats: u8,
    /// Index of the current stop in `trace.stops`.
    stop: Option<usize>,
    /// Index of the selected thread: registers, `frame N` output and bare `bt` go to it.
    thread: Option<usize>,
    /// Thread id -> position in the current stop's `threads`, so that `thread apply all bt`
    /// over thousands of threads does not search linearly per header (see [`ThreadIndex`]).
    thread_index: ThreadIndex,
    /// The thread whose `thread apply all bt` section is running (frames go here).
    bt_thread: Option<usize>,
    /// Frame whose registers `info registers` prints.
    selected_frame: u32,
    pub(crate) ctx: Ctx,
    /// Echoed command's expression, for `x/` and `p`.
    cmd_expr: Option<Box<str>>,
    /// Where `bt full` locals go: (thread index, frame position).
    locals_target: Option<(usize, usize)>,
    locals_buf: String,
    /// Index of the last frame line in a running backtrace.
    last_frame_index: Option<u32>,
    /// A lone frame line waiting to learn whether a backtrace follows.
    lone_frame: Option<u32>,
    /// The location printed right after a stop line (`0x… in main () at t.c:2`).
    expect_location: bool,
    stop_location: Vec<Option<GdbOwnedLocation>>,
    /// Thread named by the stop line, per stop.
    stop_thread: Vec<Option<Box<str>>>,
    pending_print: Option<PendingPrint>,
    /// Lines that are a stop's explanatory messages (abort/panic text) seen before the stop.
    pending_messages: Vec<Message>,
    pub(crate) julia: julia::JuliaState,
    pub(crate) rr: rr::RrState,
    /// The verb of the last echoed command (`bt`, `x`, `watch`…).
    last_verb: String,
    dropped_frames: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct GdbOwnedLocation {
    pc: Option<u64>,
    function: Option<Sym>,
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
            thread_index: ThreadIndex::default(),
            bt_thread: None,
            selected_frame: 0,
            ctx: Ctx::None,
            cmd_expr: None,
            locals_target: None,
            locals_buf: String::new(),
            last_frame_index: None,
            lone_frame: None,
            expect_location: false,
            stop_location: Vec::new(),
            stop_thread: Vec::new(),
            pending_print: None,
            pending_messages: Vec::new(),
            julia: julia::JuliaState::default(),
            rr: rr::RrState::default(),
            last_verb: String::new(),
            dropped_frames: 0,
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
        let reuse = self.stop.filter(|&i| {
            let s = &self.trace.stops[i];
            s.reason.kind == StopKind::Unknown && s.threads.iter().all(|t| t.frames.is_empty()) && s.memory.is_empty()
        });
        let i = match reuse {
            Some(i) => {
                let span = self.trace.stops[i].span;
                let s = &mut self.trace.stops[i];
                s.reason = reason;
                s.span = span;
                s.span.extend_to(s.reason.span.first);
                i
            }
            None => self.push_stop(reason),
        };
        self.stop_thread[i] = thread.map(Box::from);
        self.thread = None;
        self.bt_thread = None;
        self.selected_frame = 0;
        self.last_frame_index = None;
        self.lone_frame = None;
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
        i
    }

    /// Finds or creates the thread with this id in the current stop.
    pub(crate) fn thread_by_id(&mut self, id: &str) -> usize {
        let si = self.ensure_stop();
        let stop = &mut self.trace.stops[si];
        if let Some(i) = self.thread_index.find(si, &stop.threads, id) {
            return i;
        }
        stop.threads.push(Thread { id: id.into(), ..Default::default() });
        stop.threads.len() - 1
    }

    /// The thread that frames without a thread header belong to.
    pub(crate) fn current_thread(&mut self) -> usize {
        if let Some(t) = self.thread {
            return t;
        }
        let si = self.ensure_stop();
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

    fn extend_stop_span(&mut self, n: u32) {
        if let Some(i) = self.stop {
            self.trace.stops[i].span.extend_to(n);
        }
    }

    // ---- frames ------------------------------------------------------------------------

    /// Adds or merges a frame into thread `ti` of the current stop.
    pub(crate) fn put_frame(&mut self, ti: usize, f: Frame) -> usize {
        self.flush_locals();
        let si = self.ensure_stop();
        let max = self.limits.max_frames_per_thread;
        let th = &mut self.trace.stops[si].threads[ti];
        th.span.extend_to(f.span.first);
        // Frames stay sorted by index with no index twice (only this function adds frames
        // during a parse), so a frame numbered past the last one is new and goes at the end:
        // the common case of a running backtrace, without the search below.
        let appends = th.frames.last().is_none_or(|x| x.index < f.index);
        if appends {
            if th.frames.len() >= max {
                self.dropped_frames += 1;
                return th.frames.len().saturating_sub(1);
            }
            th.frames.push(f);
            return th.frames.len() - 1;
        }
        if let Some(pos) = th.frames.iter().rposition(|x| x.index == f.index) {
            let old = &mut th.frames[pos];
            let same = old.function == f.function || old.function.is_none() || f.function.is_none();
            if same {
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
            } else {
                // A different backtrace for the same thread: the newer one wins from here on.
                th.frames.truncate(pos);
                th.frames.push(f);
                th.registers.retain(|&k, _| k < th.frames.len() as u32 - 1);
                return th.frames.len() - 1;
            }
            return pos;
        }
        if th.frames.len() >= max {
            self.dropped_frames += 1;
            return th.frames.len().saturating_sub(1);
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
            inlined: g.pc.is_none() && g.index > 0 && !g.signal_handler,
            signal_handler: g.signal_handler,
            locals: None,
            span: Span::line(n),
        }
    }

    fn flush_locals(&mut self) {
        if let Some((ti, fi)) = self.locals_target.take() {
            if !self.locals_buf.is_empty() {
                if let Some(si) = self.stop {
                    if let Some(f) = self.trace.stops[si].threads.get_mut(ti).and_then(|t| t.frames.get_mut(fi)) {
                        // One exact-size copy; the buffer keeps its capacity for the next frame.
                        f.locals = Some(Box::from(self.locals_buf.as_str()));
                    }
                }
                self.locals_buf.clear();
            }
        }
    }

    // ---- registers ---------------------------------------------------------------------

    pub(crate) fn put_register(&mut self, name: &str, value: Option<u64>, natural: Option<&str>, n: u32) {
        let ti = self.current_thread();
        let si = self.ensure_stop();
        let name = self.intern(name);
        let frame = self.selected_frame;
        let th = &mut self.trace.stops[si].threads[ti];
        let set = th.registers.entry(frame).or_default();
        set.span.extend_to(n);
        set.set(Register { name, value, natural: natural.map(Box::from), span: Span::line(n) });
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
        // Hot path: backtrace lines and bt-full locals.
        let first = l.as_bytes().first().copied().unwrap_or(b'\n');
        if first == b'#' {
            if let Some(f) = gdb::frame_line(l) {
                self.gdb_frame(f, n);
                return true;
            }
        }
        if self.locals_target.is_some() && (first == b' ' || first == b'\t') {
            let t = clean::trim(l);
            if !t.is_empty() {
                if !self.locals_buf.is_empty() {
                    self.locals_buf.push('\n');
                }
                self.locals_buf.push_str(t);
                return true;
            }
        }
        if self.locals_target.is_some() && (l.starts_with("No locals.") || l.starts_with("No symbol table info available.")) {
            return true;
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
        // rr's and Julia's own lines are distinctive; try them before gdb's shapes.
        if rr::line(self, trimmed, n) {
            return true;
        }
        if julia::line(self, l, n) {
            return true;
        }
        if self.gdb_line(l, trimmed, n) {
            return true;
        }
        self.flush_locals();
        false
    }

    fn gdb_frame(&mut self, g: GdbFrameLine<'_>, n: u32) {
        self.saw(Format::Gdb);
        if g.truncated {
            self.note(Some(n), format!("frame #{} is cut off (argument list not closed)", g.index));
        }
        // Is this a continuation of a running backtrace?
        let continuing = matches!(self.last_frame_index, Some(k) if g.index == k + 1);
        if let Some(k) = self.lone_frame.take() {
            // The previous lone frame was the start of a backtrace after all.
            let _ = k;
        }
        if !continuing && g.index != 0 && !matches!(self.ctx, Ctx::Backtrace { .. }) {
            // `frame 3` / `up` output (or a bt that starts mid-way): remember as lone.
            self.lone_frame = Some(g.index);
        } else if !continuing && g.index == 0 && !matches!(self.ctx, Ctx::Backtrace { .. }) && self.last_frame_index.is_none() {
            self.lone_frame = Some(0);
        }
        let ti = match self.bt_thread {
            Some(t) => t,
            None => self.current_thread(),
        };
        let frame = self.frame_from_gdb(&g, n);
        let pos = self.put_frame(ti, frame);
        self.last_frame_index = Some(g.index);
        self.locals_target = Some((ti, pos));
        self.locals_buf.clear();
        self.expect_location = false;
        self.extend_stop_span(n);
    }

    fn gdb_line(&mut self, l: &str, t: &str, n: u32) -> bool {
        if let Some(r) = t.strip_prefix("Backtrace stopped: ") {
            let ti = match self.bt_thread {
                Some(t) => t,
                None => self.current_thread(),
            };
            let si = self.ensure_stop();
            self.trace.stops[si].threads[ti].backtrace_stopped = Some(r.trim().into());
            self.flush_locals();
            return true;
        }
        if !t.starts_with("Thread ") {
            // Any other output ends a `thread apply` section.
            self.bt_thread = None;
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
                    self.put_stop_location(f, n);
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
        if first == b'=' || l.starts_with("   0x") || first == b'-' {
            if let Some(i) = gdb::insn_line(l) {
                self.put_insn(i, n);
                return true;
            }
        }
        if first == b'$' {
            if let Some((h, v)) = gdb::history_value(t) {
                self.start_print(Some(h), v, n);
                return true;
            }
        }
        if let Some(r) = gdb::register_line(t) {
            let in_block = self.ctx == Ctx::Registers;
            if in_block || gdb::is_core_register_name(r.name) {
                self.saw(Format::Gdb);
                self.ctx = Ctx::Registers;
                self.put_register(r.name, r.value, r.natural, n);
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
            let id: String = r.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            if !id.is_empty() {
                self.select_thread(&id);
            }
            return true;
        }
        if let Some(r) = t.strip_prefix("Core was generated by `") {
            self.saw(Format::Gdb);
            let cmd = r.trim_end().trim_end_matches('.').trim_end_matches('\'');
            self.trace.core_command = Some(cmd.into());
            self.ensure_stop();
            return true;
        }
        if t.starts_with("Stack level ") || t.starts_with(" rip = ") || t.starts_with(" pc = ") {
            self.ctx = Ctx::FrameInfo;
            return self.frame_info_line(t, n);
        }
        if self.ctx == Ctx::FrameInfo && self.frame_info_line(t, n) {
            return true;
        }
        if gdb::is_source_line(t) {
            // gdb echoes the source line after a stop or `frame N`: the frame is selected.
            if let Some(k) = self.lone_frame.take() {
                self.selected_frame = k;
            }
            return true;
        }
        if let Some(r) = t.strip_prefix("Starting program: ") {
            self.trace.program = Some(r.split_whitespace().next().unwrap_or(r).into());
            return true;
        }
        // Program messages that explain an abort.
        if crate::messages::is_abort_message(t) {
            let msg = Message { text: t.into(), span: Span::line(n) };
            match self.stop {
                Some(i) if self.trace.stops[i].reason.kind != StopKind::Unknown => {
                    self.trace.stops[i].messages.push(msg)
                }
                _ => self.pending_messages.push(msg),
            }
            return true;
        }
        if self.expect_location && !t.starts_with('[') {
            // `main () at t.c:2` (pc at the start of a line: no address printed).
            let mut f = GdbFrameLine::default();
            if gdb::location(t, &mut f).is_some() && f.function.is_some() && (f.file.is_some() || f.module.is_some() || f.args.is_some()) {
                self.put_stop_location(f, n);
                return true;
            }
        }
        if gdb::is_noise(t) {
            return true;
        }
        false
    }

    fn frame_info_line(&mut self, t: &str, n: u32) -> bool {
        let si = self.ensure_stop();
        let stop = &mut self.trace.stops[si];
        if t.starts_with("Stack level ") {
            let mut fi = FrameInfo { span: Span::line(n), ..Default::default() };
            let r = &t[12..];
            fi.level = r.split(',').next().and_then(|x| x.trim().parse().ok());
            if let Some(p) = r.find("frame at ") {
                fi.frame_at = lexemes::hex_u64(&r[p + 9..]).ok().map(|(_, v)| Address(v));
            }
            stop.frame_info.push(fi);
            return true;
        }
        let Some(fi) = stop.frame_info.last_mut() else { return false };
        fi.span.extend_to(n);
        let t = t.trim();
        if let Some(r) = t.strip_prefix("rip = ").or_else(|| t.strip_prefix("pc = ")) {
            fi.pc = lexemes::hex_u64(r).ok().map(|(_, v)| Address(v));
            if let Some(p) = r.find("saved rip = ").or_else(|| r.find("saved pc = ")) {
                let q = &r[p..];
                let q = &q[q.find("= ").map(|x| x + 2).unwrap_or(0)..];
                fi.saved_pc = lexemes::hex_u64(q).ok().map(|(_, v)| Address(v));
            }
            return true;
        }
        if let Some(r) = t.strip_prefix("caller of frame at ") {
            let _ = r;
            return true;
        }
        if let Some(r) = t.strip_prefix("called by frame at ") {
            let _ = r;
            return true;
        }
        if t.starts_with("source language") || t.starts_with("Arglist at") || t.starts_with("Locals at") || t.starts_with("Previous frame") || t.starts_with("inlined into frame") || t.starts_with("Outermost frame") {
            return true;
        }
        if t.starts_with("Saved registers:") {
            return true;
        }
        // `rbp at 0x7ffe…, rip at 0x7ffe…`
        let mut any = false;
        for part in t.split(',') {
            let part = part.trim();
            if let Some((name, at)) = part.split_once(" at ") {
                if let Some(a) = lexemes::parse_hex(at) {
                    fi.saved_registers.push((Arc::from(name), Address(a)));
                    any = true;
                }
            }
        }
        any
    }

    fn put_stop_line(&mut self, s: GdbStopLine<'_>, n: u32) {
        self.saw(Format::Gdb);
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
                return;
            }
            GdbStopLine::Terminated { signal, desc } => {
                fill_signal(&mut reason, signal, desc);
                reason.kind = StopKind::Signal;
                let reuse = self.stop.filter(|&i| self.trace.stops[i].reason.kind == StopKind::Unknown);
                let si = match reuse {
                    Some(i) => {
                        self.trace.stops[i].reason = reason;
                        self.trace.stops[i].span.extend_to(n);
                        i
                    }
                    None => self.new_stop(reason, None),
                };
                let _ = si;
                self.expect_location = true;
                return;
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
                    self.put_stop_location(f, n);
                }
                self.expect_location = true;
            }
            GdbStopLine::Watchpoint { thread: t, number, expr } => {
                reason.kind = StopKind::Watchpoint;
                reason.number = Some(number);
                if matches!(self.last_verb.as_str(), "watch" | "awatch" | "rwatch") {
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

    fn put_stop_location(&mut self, g: GdbFrameLine<'_>, n: u32) {
        self.expect_location = false;
        let si = self.ensure_stop();
        let loc = GdbOwnedLocation { pc: g.pc, function: g.function.map(|s| self.intern(s)) };
        self.stop_location[si] = Some(loc);
        // When the stop names its thread, the location is that thread's frame 0.
        if self.stop_thread[si].is_some() || self.trace.stops[si].threads.is_empty() {
            let ti = self.current_thread();
            let mut f = self.frame_from_gdb(&g, n);
            f.index = 0;
            f.inlined = false;
            self.put_frame(ti, f);
            self.locals_target = None;
        }
        self.extend_stop_span(n);
    }

    fn put_mapping(&mut self, m: gdb::GdbMappingRow<'_>, n: u32) {
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
    }

    fn put_memory(&mut self, m: gdb::GdbMemoryRow<'_>, n: u32) {
        self.saw(Format::Gdb);
        let (unit_hint, expr) = match &self.ctx {
            Ctx::Memory { unit, expr, .. } => (*unit, expr.clone()),
            _ => (None, None),
        };
        let si = self.ensure_stop();
        let stop = &mut self.trace.stops[si];
        if let Some(s) = m.string {
            stop.memory.push(MemoryDump {
                expr,
                address: Address(m.address),
                unit: 0,
                words: Vec::new(),
                string: Some(s.into()),
                span: Span::line(n),
            });
            return;
        }
        let unit = unit_hint.unwrap_or_else(|| match m.words[0].1 {
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
        stop.memory.push(MemoryDump { expr, address: Address(m.address), unit, words, string: None, span: Span::line(n) });
        stop.span.extend_to(n);
    }

    fn put_insn(&mut self, i: gdb::GdbInsnLine<'_>, n: u32) {
        self.saw(Format::Gdb);
        let si = self.ensure_stop();
        self.trace.stops[si].disassembly.push(Instruction {
            address: Address(i.address),
            location: i.location.map(Box::from),
            text: i.text.into(),
            current: i.current,
            span: Span::line(n),
        });
        self.extend_stop_span(n);
    }

    // ---- printed values ----------------------------------------------------------------

    fn start_print(&mut self, history: Option<u32>, v: &str, n: u32) {
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
            if r.signal.is_none() {
                if let Some(name) = info.signo.and_then(crate::signals::name) {
                    r.signal = Some(Arc::from(name));
                }
            }
            if r.kind == StopKind::Unknown && info.signo.is_some() {
                r.kind = StopKind::Signal;
            }
            r.si_code = info.code.or(r.si_code);
            let signo = r.signo.unwrap_or(0);
            if crate::signals::has_fault_address(signo) {
                r.address = info.addr.map(Address).or(r.address);
            }
        }
        // `p $reg` / `p/x $reg`: a register value of the selected frame.
        if let Some(expr) = p.expr.as_deref() {
            if let Some(reg) = expr.strip_prefix('$') {
                if reg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !reg.starts_with('_') && !reg.is_empty() && !reg.bytes().all(|b| b.is_ascii_digit()) {
                    let v = p.buf.trim();
                    // `(void (*)()) 0x5555… <main+16>` or `0x7ffe…` or a decimal.
                    let val = v.rsplit(") ").next().unwrap_or(v);
                    let val_tok = val.split_whitespace().next().unwrap_or("");
                    let num = lexemes::parse_hex(val_tok).or_else(|| val_tok.parse::<i64>().ok().map(|x| x as u64));
                    if let Some(num) = num {
                        let nat = if v != val_tok { Some(v) } else { None };
                        let name = match reg {
                            "pc" if self.trace.arch == Arch::X86_64 => "rip",
                            "sp" if self.trace.arch == Arch::X86_64 => "rsp",
                            "fp" if self.trace.arch == Arch::X86_64 => "rbp",
                            r => r,
                        };
                        let name = name.to_string();
                        let nat = nat.map(str::to_string);
                        // Only add when `info registers` did not already give it.
                        let ti = self.current_thread();
                        let have = self.trace.stops[si].threads[ti]
                            .registers
                            .get(&self.selected_frame)
                            .map(|s| s.get(&name).is_some())
                            .unwrap_or(false);
                        if !have {
                            self.put_register(&name, Some(num), nat.as_deref(), p.span.first);
                        }
                    }
                }
            }
        }
        self.trace.stops[si].printed.push(PrintedValue {
            expr: p.expr,
            history: p.history,
            value: p.buf.into_boxed_str(),
            span: p.span,
        });
        self.extend_stop_span(p.span.last);
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
                // A plain `bt` belongs to the current thread.
            }
            "thread" | "t" => {
                if rest.first() == Some(&"apply") {
                    let full = rest.contains(&"full");
                    self.ctx = Ctx::Backtrace { full };
                } else if let Some(id) = rest.first() {
                    if id.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                        self.select_thread(id);
                    }
                }
            }
            "taas" | "tfaas" => self.ctx = Ctx::Backtrace { full: false },
            "info" | "i" => {
                let what = rest.first().copied().unwrap_or("");
                match what {
                    "registers" | "reg" | "r" | "all-registers" | "registers-all" => {
                        self.ctx = Ctx::Registers;
                    }
                    "proc" if rest.get(1).map(|w| w.starts_with("map")).unwrap_or(false) => {
                        self.ctx = Ctx::Mappings;
                    }
                    "sharedlibrary" | "shared" | "sharedlib" | "dll" => self.ctx = Ctx::Libraries,
                    "threads" | "thread" => self.ctx = Ctx::InfoThreads,
                    "frame" | "f" => self.ctx = Ctx::FrameInfo,
                    _ => {}
                }
            }
            "frame" | "f" | "up" | "down" | "select-frame" => {
                let k = rest.first().and_then(|w| w.parse::<u32>().ok());
                match (verb, k) {
                    ("up", k) => self.selected_frame += k.unwrap_or(1),
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
                self.ctx = Ctx::Memory { unit, expr: if arg.is_empty() { None } else { Some(arg.as_str().into()) }, insns };
            }
            "disassemble" | "disas" => self.ctx = Ctx::Disasm,
            "p" | "print" | "output" | "call" => {
                self.cmd_expr = if arg.is_empty() { None } else { Some(arg.as_str().into()) };
                self.ctx = Ctx::Print;
            }
            "run" | "r" | "start" | "continue" | "c" | "cont" | "next" | "n" | "step" | "s" | "stepi" | "si" | "nexti" | "ni" | "finish" | "until" | "advance" | "jump" | "signal" | "kill" => {
                // Output of the next stop follows.
            }
            _ => {}
        }
        rr::command(self, verb, &rest, n);
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
        self.flush_locals();
        if let Some(p) = self.pending_print.take() {
            self.finish_print(p);
        }
        julia::finish(&mut self);
        let mut formats = Vec::new();
        for f in [Format::Gdb, Format::Rr, Format::Julia, Format::Go, Format::Lldb, Format::Core] {
            if self.formats & (1 << (f as u8)) != 0 {
                formats.push(f);
            }
        }
        self.trace.formats = formats;
        // Crashed threads.
        for (si, stop) in self.trace.stops.iter_mut().enumerate() {
            if stop.threads.iter().any(|t| t.crashed) {
                continue;
            }
            if !matches!(stop.reason.kind, StopKind::Signal | StopKind::Breakpoint | StopKind::Watchpoint | StopKind::RuntimeError) {
                continue;
            }
            let loc = self.stop_location.get(si).cloned().flatten();
            let by_loc = loc.as_ref().and_then(|loc| {
                stop.threads.iter().position(|t| {
                    let f0 = t.frames.first();
                    match (f0, loc.pc) {
                        (Some(f), Some(pc)) if f.pc == Some(Address(pc)) => true,
                        _ => false,
                    }
                }).or_else(|| {
                    stop.threads.iter().position(|t| {
                        t.frames.first().map(|f| f.function.is_some() && f.function == loc.function).unwrap_or(false)
                    })
                })
            });
            let pick = stop
                .threads
                .iter()
                .position(|t| t.current)
                .or(by_loc)
                .or_else(|| if stop.threads.len() == 1 { Some(0) } else { None })
                .or_else(|| stop.threads.iter().position(|t| &*t.id == "1"));
            if let Some(i) = pick {
                stop.threads[i].crashed = true;
                if stop.threads[i].frames.is_empty() {
                    if let Some(loc) = loc {
                        stop.threads[i].frames.push(Frame {
                            index: 0,
                            pc: loc.pc.map(Address),
                            function: loc.function,
                            span: stop.reason.span,
                            ..Default::default()
                        });
                    }
                }
            }
        }
        self.trace.mappings.sort_by_key(|m| (m.start, m.end));
        self.trace.mappings.dedup_by(|a, b| a.start == b.start && a.end == b.end);
        if self.trace.arch == Arch::Unknown {
            self.trace.arch = infer_arch(&self.trace);
        }
        if self.dropped_frames > 0 {
            let msg = format!(
                "{} frames beyond the limit of {} per thread were dropped",
                self.dropped_frames, self.limits.max_frames_per_thread
            );
            self.note(None, msg);
        }
        Parsed { trace: self.trace, diagnostics: self.diag }
    }
}

/// Thread id -> position in one stop's `threads`, kept in step lazily: threads are only ever
/// appended during a parse, so the index catches up with the new ones on each lookup and is
/// rebuilt when the stop changes. Gives the same answer as the first `position` with that id.
#[derive(Default)]
struct ThreadIndex {
    stop: usize,
    indexed: usize,
    map: rustc_hash::FxHashMap<Box<str>, usize>,
}

impl ThreadIndex {
    fn find(&mut self, stop: usize, threads: &[Thread], id: &str) -> Option<usize> {
        if stop != self.stop || self.indexed > threads.len() {
            self.stop = stop;
            self.indexed = 0;
            self.map.clear();
        }
        for (i, t) in threads.iter().enumerate().skip(self.indexed) {
            self.map.entry(t.id.clone()).or_insert(i);
        }
        self.indexed = threads.len();
        self.map.get(id).copied()
    }
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
        (crate::signals::name(no).map(str::to_string), Some(no))
    } else {
        (Some(signal.to_string()), crate::signals::signo(signal))
    };
    reason.signal = name.map(|s| Arc::from(s.as_str()));
    reason.signo = no;
    if !desc.is_empty() {
        reason.description = Some(desc.into());
    }
}

/// Architecture from register names, else from instruction syntax.
fn infer_arch(t: &Trace) -> Arch {
    for s in &t.stops {
        for th in &s.threads {
            for set in th.registers.values() {
                for r in &set.regs {
                    match &*r.name {
                        "rip" | "rax" | "rsp" | "r13" | "eflags" => return Arch::X86_64,
                        "x0" | "x20" | "x29" | "x30" | "cpsr" => return Arch::Aarch64,
                        "eip" | "eax" | "esp" => return Arch::X86,
                        _ => {}
                    }
                }
            }
        }
        for i in &s.disassembly {
            let t = &i.text;
            if t.contains("%r") || t.contains("%e") || t.contains("rip") || t.contains("qword ptr") || t.contains("xmm") {
                return Arch::X86_64;
            }
            if t.contains(" x0") || t.contains(", x") || t.starts_with("ldr") || t.starts_with("stp") || t.starts_with("bl ") {
                return Arch::Aarch64;
            }
        }
    }
    // Addresses above 2^47 with 0x7f… are x86-64 user space; AArch64 user space is 0xffff….
    for s in &t.stops {
        for th in &s.threads {
            for f in &th.frames {
                if let Some(pc) = f.pc {
                    if (0x7f00_0000_0000..0x8000_0000_0000).contains(&pc.0) || (0x5500_0000_0000..0x5700_0000_0000).contains(&pc.0) {
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
