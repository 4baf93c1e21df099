//! The TUI's state and its Elm-shaped core: [`App`] holds everything the screen shows,
//! [`App::update`] applies one [`Action`], [`App::draw`] paints the whole screen into a frame.
//!
//! Nothing here touches the terminal: the event loop in `tui/mod.rs` turns key, mouse and
//! resize events into actions (through `keys.rs`), and tests drive `update` and `draw` against
//! ratatui's `TestBackend`. Each pane draws itself from a borrowed `&App` (one file per pane).

use super::common::matches;
use super::follow::{self, Follow};
use super::theme::Theme;
use super::{detail, findings, frames, header, memory, popup, raw, registers};
use crate::classify::Classifier;
use crate::model::Finding;
use crate::model::InputReport;
use crate::model::*;
use crate::notes::{self, Note, Placement, Target};
use crate::report::markdown::{self, MarkdownOptions};
use ratatui::Frame as TermFrame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use std::cell::{Cell, OnceCell};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The panes, in `Tab` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Frames,
    Registers,
    Findings,
    Detail,
    Memory,
    Raw,
}

pub const TAB_ORDER: [Pane; 6] = [Pane::Frames, Pane::Registers, Pane::Findings, Pane::Detail, Pane::Memory, Pane::Raw];

impl Pane {
    pub fn title(self) -> &'static str {
        match self {
            Pane::Frames => "Frames",
            Pane::Registers => "Registers",
            Pane::Findings => "Findings",
            Pane::Detail => "Detail",
            Pane::Memory => "Memory & disassembly",
            Pane::Raw => "Raw dump",
        }
    }
    /// Panes that share one slot on small terminals.
    fn is_viewer(self) -> bool {
        matches!(self, Pane::Detail | Pane::Memory | Pane::Raw)
    }
}

/// Everything the user can ask for. Keys and mouse events map to these in `keys.rs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Left,
    Right,
    NextPane,
    PrevPane,
    Focus(Pane),
    /// `Enter`: open the selected item (finding → its frame; frame → registers; raw line →
    /// the frame defined there; popup → choose).
    Open,
    /// `Esc`: close a popup or cancel a prompt.
    Back,
    SearchStart,
    SearchNext,
    SearchPrev,
    Threads,
    /// `s`: the list of stops (with rr event numbers).
    Stops,
    Help,
    NextStop,
    PrevStop,
    /// Note on the selected frame, register or finding.
    AddNote,
    /// Note on the whole trace.
    AddTraceNote,
    Export,
    ExportFile,
    ExportClipboard,
    /// Text typed into a prompt.
    Input(char),
    Backspace,
    /// Mouse click at a screen cell.
    Click {
        column: u16,
        row: u16,
    },
    /// Mouse wheel over a screen cell.
    Scroll {
        column: u16,
        row: u16,
        down: bool,
    },
    Resize(u16, u16),
    Quit,
}

/// What a prompt line is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Search,
    Note(Target),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help { scroll: u16 },
    Threads { selected: usize },
    Stops { selected: usize },
    Prompt { kind: PromptKind, text: String },
    Export,
}

/// Which kind of key handling applies (see `keys.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeKind {
    Normal,
    Popup,
    Prompt,
    Export,
}

/// Where each pane is on screen for one terminal size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    pub footer: Rect,
    pub frames: Rect,
    pub registers: Rect,
    pub findings: Rect,
    /// Each is `None` when the pane is not on screen (small terminals show one of the three).
    pub detail: Option<Rect>,
    pub memory: Option<Rect>,
    pub raw: Option<Rect>,
    pub too_small: bool,
}

impl Areas {
    pub fn of(&self, p: Pane) -> Option<Rect> {
        match p {
            Pane::Frames => Some(self.frames),
            Pane::Registers => Some(self.registers),
            Pane::Findings => Some(self.findings),
            Pane::Detail => self.detail,
            Pane::Memory => self.memory,
            Pane::Raw => self.raw,
        }
    }
}

/// Terminals at least this big show all six panes at once.
pub const WIDE: (u16, u16) = (160, 30);
/// Below this the screen only says it is too small.
pub const MIN: (u16, u16) = (40, 12);

/// The whole state of the TUI.
pub struct App {
    pub ir: InputReport,
    /// The dump on disk (its sidecar holds the notes); `None` when there is no file.
    pub dump: Option<PathBuf>,
    pub notes: Vec<Note>,
    /// Where each note lands (same order as `notes`).
    pub placements: Vec<Placement>,
    pub theme: Theme,
    pub stop: usize,
    /// Position of the selected thread in `stop.threads`.
    pub thread: usize,
    /// Position of the selected frame in `thread.frames`.
    pub frame: usize,
    /// Position of the selected register in the frame's register set.
    pub register: usize,
    /// Index of the selected finding in `ir.findings`.
    pub finding: usize,
    pub focus: Pane,
    /// Which of Detail / Memory / Raw the shared slot shows on small terminals.
    pub viewer: Pane,
    /// The last of Frames / Registers / Findings focused: its item is what Detail describes
    /// and what Raw highlights.
    pub item_pane: Pane,
    pub mode: Mode,
    pub last_search: Option<String>,
    /// A one-line message for the footer, and whether it is an error.
    pub status: Option<(String, bool)>,
    pub quit: bool,
    /// The terminal size, for mouse hit-testing.
    pub size: Rect,
    /// Byte offset where each raw line starts.
    pub raw_lines: Vec<usize>,
    /// The raw line (0-based) the Raw pane's cursor is on.
    pub raw_cursor: usize,
    pub raw_hscroll: usize,
    pub detail_scroll: u16,
    pub memory_scroll: usize,
    /// A report waiting to be put on the clipboard with OSC 52 by the event loop.
    pub clipboard: Option<String>,
    pub(crate) frames_offset: Cell<usize>,
    pub(crate) registers_offset: Cell<usize>,
    pub(crate) findings_offset: Cell<usize>,
    pub(crate) raw_top: Cell<usize>,
    pub(crate) threads_offset: Cell<usize>,
    pub(crate) stops_offset: Cell<usize>,
    raw_lower: OnceCell<Vec<u8>>,
    /// `tui --follow`: the file being followed (see `follow.rs` and [`App::follow_tick`]).
    pub follow: Option<Follow>,
    /// When the user last pressed a key or used the mouse.
    pub last_input: Option<Instant>,
    /// Follow mode: the selection is where the last jump put it and the user has not moved
    /// since, so re-parses keep it on the newest stop and its top finding.
    pub auto: bool,
    /// Follow mode: a stop arrived that the view did not jump to (the footer says so).
    pub new_stop: Option<usize>,
}

/// The selection, by identity rather than position, to put back after a re-parse.
struct SelectionKey {
    stop: usize,
    thread: Option<Box<str>>,
    frame: usize,
    register: Option<Sym>,
    finding: Option<FindingKey>,
}

/// A finding's identity across re-parses: rule, stop, thread, frame.
type FindingKey = (&'static str, Option<usize>, Option<String>, Option<u32>);

impl App {
    /// Opens on the crashing thread and the most important finding (`findings[0]`, ranked
    /// most likely first): its frame selected and its registers highlighted.
    pub fn new(ir: InputReport, dump: Option<PathBuf>, theme: Theme) -> App {
        let raw_lines = match &ir.raw {
            Some(r) => {
                let mut v = Vec::with_capacity(r.len() / 40 + 1);
                v.push(0);
                v.extend(memchr::memchr_iter(b'\n', r.as_bytes()).map(|i| i + 1).filter(|&i| i < r.len()));
                v
            }
            None => Vec::new(),
        };
        let t = &ir.parsed.trace;
        let stop = t.main_stop().and_then(|s| t.stops.iter().position(|x| std::ptr::eq(x, s))).unwrap_or(0);
        let mut app = App {
            dump,
            notes: Vec::new(),
            placements: Vec::new(),
            theme,
            stop,
            thread: 0,
            frame: 0,
            register: 0,
            finding: 0,
            focus: Pane::Findings,
            viewer: Pane::Detail,
            item_pane: Pane::Findings,
            mode: Mode::Normal,
            last_search: None,
            status: None,
            quit: false,
            size: Rect::new(0, 0, 80, 24),
            raw_lines,
            raw_cursor: 0,
            raw_hscroll: 0,
            detail_scroll: 0,
            memory_scroll: 0,
            clipboard: None,
            frames_offset: Cell::new(0),
            registers_offset: Cell::new(0),
            findings_offset: Cell::new(0),
            raw_top: Cell::new(0),
            threads_offset: Cell::new(0),
            stops_offset: Cell::new(0),
            raw_lower: OnceCell::new(),
            follow: None,
            last_input: None,
            auto: false,
            new_stop: None,
            ir,
        };
        app.select_stop(stop);
        if app.ir.findings.is_empty() {
            app.focus = Pane::Frames;
            app.item_pane = Pane::Frames;
        } else {
            app.select_finding(0);
        }
        app.reload_notes();
        app.follow_raw();
        app
    }

    // ----- model access -------------------------------------------------------------

    pub fn trace(&self) -> &Trace {
        &self.ir.parsed.trace
    }
    pub fn current_stop(&self) -> Option<&Stop> {
        self.trace().stops.get(self.stop)
    }
    pub fn current_thread(&self) -> Option<&Thread> {
        self.current_stop()?.threads.get(self.thread)
    }
    pub fn current_frame(&self) -> Option<&Frame> {
        self.current_thread()?.frames.get(self.frame)
    }
    pub fn current_finding(&self) -> Option<&Finding> {
        self.ir.findings.get(self.finding)
    }
    pub fn classifier(&self) -> Classifier<'_> {
        Classifier::new(self.trace())
    }
    /// Registers printed for the selected frame.
    pub fn frame_registers(&self) -> Option<&RegisterSet> {
        let th = self.current_thread()?;
        let f = self.current_frame()?;
        th.registers.get(&f.index)
    }
    pub fn current_register(&self) -> Option<&Register> {
        self.frame_registers()?.regs.get(self.register)
    }
    /// Registers of the nearest outer frame that has any, to mark what changed.
    pub fn outer_registers(&self) -> Option<&RegisterSet> {
        let th = self.current_thread()?;
        let f = self.current_frame()?;
        th.registers.range(f.index + 1..).next().map(|(_, r)| r)
    }
    /// The registers the selected finding is about, when it is about the selected frame.
    pub fn highlighted_registers(&self) -> Vec<&str> {
        let Some(f) = self.current_finding() else { return Vec::new() };
        if f.stop.unwrap_or(self.stop) != self.stop {
            return Vec::new();
        }
        let same_thread = match (&f.thread, self.current_thread()) {
            (Some(id), Some(th)) => **id == *th.id,
            (None, Some(th)) => {
                th.crashed || self.current_stop().and_then(|s| s.crashed_thread_index()) == Some(self.thread)
            }
            _ => false,
        };
        let same_frame = self.current_frame().map(|fr| fr.index) == Some(f.frame.unwrap_or(0));
        if same_thread && same_frame { f.registers.iter().map(String::as_str).collect() } else { Vec::new() }
    }
    /// Whether `f` (in the selected thread) is where the program crashed.
    pub fn is_crash_frame(&self, pos: usize) -> bool {
        let Some(stop) = self.current_stop() else { return false };
        pos == 0 && stop.crashed_thread_index() == Some(self.thread) && stop.reason.kind == StopKind::Signal
    }
    pub fn is_culprit(&self, pos: usize) -> bool {
        let Some(Some(c)) = self.ir.culprits.get(self.stop) else { return false };
        self.current_thread().map(|t| *t.id == *c.thread).unwrap_or(false) && c.position == pos
    }

    // ----- notes --------------------------------------------------------------------

    /// Re-reads the sidecar; a broken or newer one is reported in the footer.
    pub fn reload_notes(&mut self) {
        let Some(d) = &self.dump else { return };
        match notes::load(d) {
            Ok(f) => self.set_notes(f.notes),
            Err(e) => self.status = Some((e.to_string(), true)),
        }
    }
    fn set_notes(&mut self, list: Vec<Note>) {
        self.placements = notes::resolve_all(&list, &self.ir);
        self.notes = list;
    }
    /// Notes on frame `pos` of the selected thread.
    pub fn frame_notes(&self, pos: usize) -> impl Iterator<Item = &Note> {
        self.notes_where(move |p, s| matches!(p, Placement::Frame(f) if f.stop == s.stop && f.thread == s.thread && f.position == pos))
    }
    pub fn register_notes<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Note> + 'a {
        let pos = self.frame;
        self.notes_where(move |p, s| {
            matches!(p, Placement::Register { register, frame: f } if register == name && f.stop == s.stop && f.thread == s.thread && f.position == pos)
        })
    }
    pub fn finding_notes(&self, i: usize) -> impl Iterator<Item = &Note> {
        self.notes_where(move |p, _| *p == Placement::Finding(i))
    }
    pub fn trace_notes(&self) -> impl Iterator<Item = &Note> {
        self.notes_where(|p, _| *p == Placement::Trace)
    }
    /// Notes whose anchor no longer matches anything in the dump.
    pub fn orphan_notes(&self) -> impl Iterator<Item = &Note> {
        self.notes_where(|p, _| *p == Placement::Orphan)
    }
    fn notes_where<'a>(&'a self, pred: impl Fn(&Placement, &App) -> bool + 'a) -> impl Iterator<Item = &'a Note> + 'a {
        self.notes.iter().zip(self.placements.iter()).filter(move |(_, p)| pred(p, self)).map(|(n, _)| n)
    }

    /// What `a` would annotate now.
    pub fn note_target(&self) -> Target {
        let frame_anchor = || -> Option<notes::FrameAnchor> {
            Some(notes::FrameAnchor::of(self.stop, self.current_thread()?, self.current_frame()?))
        };
        match self.item_pane {
            Pane::Findings => match self.current_finding() {
                Some(f) => notes::finding_target(&self.ir, f),
                None => Target::Trace,
            },
            Pane::Registers => match (self.current_register(), frame_anchor()) {
                (Some(r), Some(frame)) => Target::Register { register: r.name.to_string(), frame },
                (None, Some(frame)) => Target::Frame { frame },
                _ => Target::Trace,
            },
            _ => frame_anchor().map(|frame| Target::Frame { frame }).unwrap_or(Target::Trace),
        }
    }

    fn save_note(&mut self, target: Target, text: &str) {
        if text.trim().is_empty() {
            self.status = Some(("empty note not saved".into(), false));
            return;
        }
        let Some(dump) = self.dump.clone() else {
            self.status = Some((notes::NotesError::NoFile.to_string(), true));
            return;
        };
        let note = notes::new_note(target, text);
        let desc = note.target.to_string();
        match notes::add(&dump, note) {
            Ok(f) => {
                self.set_notes(f.notes);
                self.status = Some((format!("note saved on {desc}"), false));
            }
            Err(e) => self.status = Some((e.to_string(), true)),
        }
    }

    // ----- export -------------------------------------------------------------------

    /// The bug report, as `tracecheck FILE --format markdown` writes it (notes included).
    pub fn markdown(&self, include_raw: bool) -> String {
        let mut opts = MarkdownOptions { include_raw, ..Default::default() };
        opts.notes.insert(self.ir.path.clone(), self.notes.clone());
        let report = crate::model::Report { inputs: vec![self.ir.clone()] };
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = markdown::write(&report, &opts, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
    pub fn export_path(&self) -> PathBuf {
        match &self.dump {
            Some(d) => {
                let mut n = d.file_name().map(|n| n.to_os_string()).unwrap_or_default();
                n.push(".report.md");
                d.with_file_name(n)
            }
            None => PathBuf::from("tracecheck-report.md"),
        }
    }
    fn export_file(&mut self) {
        let path = self.export_path();
        let text = self.markdown(true);
        // Never through a symlink planted at DUMP.report.md (refused with a message).
        match crate::fsutil::write_file(&path, text.as_bytes()) {
            Ok(()) => {
                self.status =
                    Some((format!("wrote the bug report to {} ({} bytes)", path.display(), text.len()), false))
            }
            Err(e) => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                self.status = Some((format!("cannot write {name}: {e}"), true))
            }
        }
    }
    /// Terminals cap OSC 52 payloads (often around 100 kB): large dumps go without the raw text.
    pub const CLIPBOARD_MAX: usize = 74_000;
    fn export_clipboard(&mut self) {
        let mut text = self.markdown(true);
        let mut msg = "copied the bug report to the clipboard (OSC 52)".to_string();
        if text.len() > Self::CLIPBOARD_MAX {
            text = self.markdown(false);
            msg.push_str("; the raw dump was left out (too large for the clipboard) — use e, Enter for a file");
        }
        self.clipboard = Some(text);
        self.status = Some((msg, false));
    }

    // ----- follow mode --------------------------------------------------------------

    /// `tracecheck tui --follow FILE`: starts with what FILE holds now (or nothing, when gdb
    /// has not created it yet) and opens on its newest stop.
    pub fn following(path: PathBuf, options: crate::pipeline::LoadOptions, theme: Theme) -> App {
        let mut ir = crate::pipeline::analyze_text(&path.to_string_lossy(), b"", &options);
        ir.raw = Some(String::new());
        let mut app = App::new(ir, Some(path.clone()), theme);
        app.follow = Some(Follow::new(path, options));
        app.auto = true;
        app.follow_tick(Instant::now());
        app.follow_wait(Instant::now());
        app
    }

    /// One poll of the followed file (the event loop calls it every
    /// [`follow::POLL_INTERVAL`]; tests call it directly with their own clock). Reads only
    /// the appended bytes; shows new complete lines in the Raw pane at once and hands them to
    /// the parse worker; takes a finished analysis when one is ready; asks for the next one
    /// when complete lines arrived, none is in flight and the last one's cost allows it
    /// (`PARSE_GAP_FACTOR`). Never waits for a parse. Returns whether anything on screen may
    /// have changed.
    pub fn follow_tick(&mut self, now: Instant) -> bool {
        let Some(f) = self.follow.as_mut() else { return false };
        let before = (f.missing, f.over_limit);
        let polled = f.poll();
        // The header shows both.
        let mut changed = (f.missing, f.over_limit) != before;
        match polled {
            Ok(p) => {
                if p.reset {
                    self.follow_reset();
                    changed = true;
                }
                if !p.text.is_empty() {
                    self.extend_raw(&p.text);
                    changed = true;
                    if let Some(f) = self.follow.as_mut() {
                        f.worker.append(p.text);
                        f.dirty = true;
                    }
                }
            }
            Err(e) => {
                let msg = format!("cannot read {}: {e}", self.ir.path);
                if self.status.as_ref().map(|(m, _)| m.as_str()) != Some(msg.as_str()) {
                    self.status = Some((msg, true));
                    changed = true;
                }
            }
        }
        changed |= self.follow_receive(now);
        if let Some(f) = self.follow.as_mut()
            && f.dirty
            && !f.worker.in_flight
            && f.next_parse.is_none_or(|t| now >= t)
        {
            f.worker.request();
            f.dirty = false;
        }
        changed
    }

    /// A parse is running on the worker.
    pub fn follow_busy(&self) -> bool {
        self.follow.as_ref().is_some_and(|f| f.worker.in_flight)
    }

    /// Takes a finished analysis from the worker, if one is ready (never blocks).
    pub fn follow_receive(&mut self, now: Instant) -> bool {
        let Some(done) = self.follow.as_mut().and_then(|f| f.worker.try_take()) else { return false };
        self.follow_apply(done, now);
        true
    }

    /// Waits for the parse in flight and takes it (the first screen, tests and benchmarks;
    /// the event loop never calls it). Returns whether one was taken.
    pub fn follow_wait(&mut self, now: Instant) -> bool {
        let Some(done) = self.follow.as_mut().and_then(|f| f.worker.wait(Duration::from_secs(120))) else {
            return false;
        };
        self.follow_apply(done, now);
        true
    }

    /// Appends complete lines to the raw text and its line index (no rescan of older text).
    fn extend_raw(&mut self, text: &str) {
        let raw = self.ir.raw.get_or_insert_with(String::new);
        let old = raw.len();
        raw.push_str(text);
        if self.raw_lines.is_empty() {
            self.raw_lines.push(0);
        }
        // Starting at the newline that ended the old text: the line after it starts now.
        let from = old.saturating_sub(1);
        let len = raw.len();
        for i in memchr::memchr_iter(b'\n', &raw.as_bytes()[from..]) {
            let start = from + i + 1;
            if start < len && self.raw_lines.last().is_none_or(|&l| start > l) {
                self.raw_lines.push(start);
            }
        }
        self.raw_lower = OnceCell::new();
    }

    /// The followed file was truncated or replaced: forget everything read from it.
    fn follow_reset(&mut self) {
        let opts = self.follow.as_ref().map(|f| f.options.clone()).unwrap_or_default();
        let mut ir = crate::pipeline::analyze_text(&self.ir.path, b"", &opts);
        ir.raw = Some(String::new());
        self.ir = ir;
        self.raw_lines = vec![0];
        self.raw_lower = OnceCell::new();
        (self.stop, self.thread, self.frame, self.register, self.finding) = (0, 0, 0, 0, 0);
        (self.raw_cursor, self.detail_scroll, self.memory_scroll) = (0, 0, 0);
        self.new_stop = None;
        self.auto = true;
        if let Some(f) = self.follow.as_mut() {
            f.worker.reset();
            f.dirty = true;
            f.next_parse = None;
        }
        let list = std::mem::take(&mut self.notes);
        self.set_notes(list);
        self.status = Some((format!("{} was truncated or replaced; reading it from the start", self.ir.path), false));
    }

    /// Takes a finished analysis of the text read so far and decides where the view goes: to
    /// the newest stop (and its top finding) when one arrived, unless the user is busy
    /// elsewhere.
    fn follow_apply(&mut self, done: follow::Done, now: Instant) {
        let Some(f) = self.follow.as_ref() else { return };
        let lossy = f.lossy;
        let mut ir = done.analysis;
        let cost = done.cost;
        if lossy {
            ir.parsed.diagnostics.notes.insert(
                0,
                crate::model::Note { line: None, message: "input is not valid UTF-8; bad bytes were replaced".into() },
            );
        }
        ir.raw = Some(self.ir.raw.take().unwrap_or_default());
        let key = self.selection_key();
        let old_n = self.trace().stops.len();
        // The old model can be large: it is dropped on the worker, not here.
        let old = std::mem::replace(&mut self.ir, ir);
        if let Some(f) = self.follow.as_mut() {
            f.worker.discard(old);
        }
        let list = std::mem::take(&mut self.notes);
        self.set_notes(list);
        if let Some(f) = self.follow.as_mut() {
            f.parses += 1;
            f.last_parse = cost;
            f.total_parse += cost;
            // The parse has ended by `now`: wait PARSE_GAP_FACTOR times its cost.
            f.next_parse = Some(now + cost * follow::PARSE_GAP_FACTOR);
        }
        let n = self.trace().stops.len();
        if n == 0 {
            self.restore_selection(key);
            return;
        }
        let arrived = n > old_n;
        let idle = self.last_input.is_none_or(|t| now.saturating_duration_since(t) >= follow::GRACE);
        let on_last = old_n == 0 || self.stop + 1 >= old_n;
        if self.auto || (arrived && self.mode == Mode::Normal && (on_last || idle)) {
            self.jump_to_stop(n - 1);
            self.auto = true;
        } else {
            self.restore_selection(key);
            if arrived {
                self.new_stop = Some(n - 1);
                // A message about the old stop count ("stop 1/3") would contradict the notice.
                if self.status.as_ref().is_some_and(|(_, err)| !err) {
                    self.status = None;
                }
            }
        }
        if self.new_stop.is_some_and(|s| s >= n || self.stop >= s) {
            self.new_stop = None;
        }
    }

    /// Selects stop `si`, its crashed thread and its top-ranked finding (or its crash frame).
    pub fn jump_to_stop(&mut self, si: usize) {
        if si >= self.trace().stops.len() {
            return;
        }
        self.select_stop(si);
        self.detail_scroll = 0;
        match self.ir.findings.iter().position(|f| f.stop == Some(si)) {
            Some(i) => {
                self.select_finding(i);
                self.focus = Pane::Findings;
                self.item_pane = Pane::Findings;
            }
            None => {
                self.focus = Pane::Frames;
                self.item_pane = Pane::Frames;
            }
        }
        self.follow_raw();
        self.new_stop = None;
    }

    fn selection_key(&self) -> SelectionKey {
        SelectionKey {
            stop: self.stop,
            thread: self.current_thread().map(|t| t.id.clone()),
            frame: self.frame,
            register: self.current_register().map(|r| r.name.clone()),
            finding: self.current_finding().map(|f| (f.rule, f.stop, f.thread.clone(), f.frame)),
        }
    }

    /// Puts the selection back after a re-parse, by identity where it still exists.
    fn restore_selection(&mut self, key: SelectionKey) {
        let n = self.trace().stops.len();
        self.stop = key.stop.min(n.saturating_sub(1));
        let ti = match (&key.thread, self.current_stop()) {
            (Some(id), Some(s)) => s.threads.iter().position(|t| t.id == *id).or_else(|| s.crashed_thread_index()),
            (None, Some(s)) => s.crashed_thread_index(),
            _ => None,
        };
        self.thread = ti.unwrap_or(0);
        let nf = self.current_thread().map(|t| t.frames.len()).unwrap_or(0);
        self.frame = key.frame.min(nf.saturating_sub(1));
        let reg = self
            .frame_registers()
            .and_then(|set| key.register.as_ref().and_then(|name| set.regs.iter().position(|r| r.name == *name)));
        let nr = self.frame_registers().map(|r| r.regs.len()).unwrap_or(0);
        self.register = reg.unwrap_or(self.register.min(nr.saturating_sub(1)));
        let found = key.finding.as_ref().and_then(|(rule, stop, thread, frame)| {
            self.ir
                .findings
                .iter()
                .position(|f| f.rule == *rule && f.stop == *stop && f.thread == *thread && f.frame == *frame)
        });
        self.finding = found.unwrap_or(self.finding.min(self.ir.findings.len().saturating_sub(1)));
        self.raw_cursor = self.raw_cursor.min(self.raw_lines.len().saturating_sub(1));
    }

    /// `stop 2/3 · rr event 4100` (the rr part when the stop has an event number).
    pub fn stop_label(&self, si: usize) -> String {
        let n = self.trace().stops.len();
        let mut s = format!("stop {}/{n}", si + 1);
        if let Some(ev) = self.trace().stops.get(si).and_then(|s| s.rr_event) {
            s.push_str(&format!(" · rr event {ev}"));
        }
        s
    }

    // ----- selection ----------------------------------------------------------------

    fn select_stop(&mut self, si: usize) {
        self.stop = si;
        let t = self.current_stop().and_then(|s| s.crashed_thread_index()).unwrap_or(0);
        self.select_thread(t);
    }
    fn select_thread(&mut self, ti: usize) {
        self.thread = ti;
        let culprit = match self.ir.culprits.get(self.stop) {
            Some(Some(c)) if self.current_thread().map(|t| *t.id == *c.thread).unwrap_or(false) => c.position,
            _ => 0,
        };
        // Open on the frame that crashed: #0 of the crashed thread, else the culprit.
        let pos = if self.is_crash_frame(0) { 0 } else { culprit };
        self.select_frame(pos);
    }
    fn select_frame(&mut self, pos: usize) {
        let n = self.current_thread().map(|t| t.frames.len()).unwrap_or(0);
        self.frame = pos.min(n.saturating_sub(1));
        self.register = 0;
        self.memory_scroll = 0;
        let hl: Vec<String> = self.highlighted_registers().into_iter().map(str::to_string).collect();
        if let (Some(first), Some(set)) = (hl.first(), self.frame_registers())
            && let Some(i) = set.regs.iter().position(|r| &*r.name == first)
        {
            self.register = i;
        }
    }
    /// Selects a finding and the frame it names (its thread, its stop).
    pub fn select_finding(&mut self, i: usize) {
        let Some(f) = self.ir.findings.get(i).cloned() else { return };
        self.finding = i;
        self.detail_scroll = 0;
        let t = self.trace();
        let si = f.stop.filter(|&s| s < t.stops.len()).unwrap_or(self.stop);
        if si != self.stop {
            self.select_stop(si);
        }
        let ti = match (&f.thread, self.current_stop()) {
            (Some(id), Some(s)) => s.threads.iter().position(|t| *t.id == **id),
            (None, Some(s)) => s.crashed_thread_index(),
            _ => None,
        };
        if let Some(ti) = ti
            && ti != self.thread
        {
            self.select_thread(ti);
        }
        let pos = self.current_thread().and_then(|th| th.frames.iter().position(|fr| fr.index == f.frame.unwrap_or(0)));
        if let Some(pos) = pos {
            self.select_frame(pos);
        } else {
            // Keep the frame, but re-pick the highlighted register.
            self.select_frame(self.frame);
        }
    }

    /// The dump lines (1-based spans) of the selected item, for the Raw pane.
    pub fn highlight_spans(&self) -> Vec<Span> {
        let mut v = Vec::new();
        match self.item_pane {
            Pane::Findings => {
                if let Some(f) = self.current_finding() {
                    v.extend(f.evidence.iter().filter_map(|e| e.lines));
                }
            }
            Pane::Registers => {
                if let Some(r) = self.current_register() {
                    v.push(r.span);
                }
            }
            _ => {
                if let Some(f) = self.current_frame() {
                    v.push(f.span);
                }
            }
        }
        v.retain(|s| s.first > 0);
        v
    }
    /// Moves the Raw pane's cursor to the selected item's first line.
    fn follow_raw(&mut self) {
        if let Some(s) = self.highlight_spans().iter().map(|s| s.first).min() {
            self.raw_cursor = (s as usize).saturating_sub(1).min(self.raw_lines.len().saturating_sub(1));
            // Centre it next time Raw is drawn.
            self.raw_top.set(usize::MAX);
        }
    }

    // ----- layout -------------------------------------------------------------------

    /// Where the panes go for a terminal area.
    pub fn areas(&self, area: Rect) -> Areas {
        let mut a = Areas::default();
        if area.width < MIN.0 || area.height < MIN.1 {
            a.too_small = true;
            return a;
        }
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Length(1), Constraint::Min(4), Constraint::Length(1)])
            .split(area);
        a.header = rows[0];
        a.footer = rows[2];
        let body = rows[1];
        if area.width >= WIDE.0 && area.height >= WIDE.1 {
            let halves = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .split(body);
            let cols = [Constraint::Percentage(30), Constraint::Percentage(36), Constraint::Percentage(34)];
            let top = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[0]);
            let bottom = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[1]);
            a.frames = top[0];
            a.registers = top[1];
            a.memory = Some(top[2]);
            a.findings = bottom[0];
            a.detail = Some(bottom[1]);
            a.raw = Some(bottom[2]);
        } else {
            let halves = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
                .split(body);
            let cols = [Constraint::Percentage(42), Constraint::Percentage(58)];
            let top = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[0]);
            let bottom = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[1]);
            a.frames = top[0];
            a.registers = top[1];
            a.findings = bottom[0];
            match self.viewer {
                Pane::Memory => a.memory = Some(bottom[1]),
                Pane::Raw => a.raw = Some(bottom[1]),
                _ => a.detail = Some(bottom[1]),
            }
        }
        a
    }

    /// Paints the whole screen. Each pane draws only inside its own `Rect`.
    pub fn draw(&self, frame: &mut TermFrame, area: Rect) {
        let a = self.areas(area);
        let buf = frame.buffer_mut();
        if a.too_small {
            header::too_small(self, area, buf);
            return;
        }
        header::header(self, a.header, buf);
        header::footer(self, a.footer, buf);
        frames::draw(self, a.frames, buf);
        registers::draw(self, a.registers, buf);
        findings::draw(self, a.findings, buf);
        if let Some(r) = a.detail {
            detail::draw(self, r, buf);
        }
        if let Some(r) = a.memory {
            memory::draw(self, r, buf);
        }
        if let Some(r) = a.raw {
            raw::draw(self, r, buf);
        }
        match &self.mode {
            Mode::Help { scroll } => popup::help(self, area, *scroll, buf),
            Mode::Threads { selected } => popup::threads(self, area, *selected, buf),
            Mode::Stops { selected } => popup::stops(self, area, *selected, buf),
            Mode::Export => popup::export(self, area, buf),
            _ => {}
        }
    }

    pub fn mode_kind(&self) -> ModeKind {
        match self.mode {
            Mode::Normal => ModeKind::Normal,
            Mode::Help { .. } | Mode::Threads { .. } | Mode::Stops { .. } => ModeKind::Popup,
            Mode::Prompt { .. } => ModeKind::Prompt,
            Mode::Export => ModeKind::Export,
        }
    }

    // ----- update -------------------------------------------------------------------

    /// Applies one action. Never panics on any state.
    pub fn update(&mut self, action: Action) {
        if let Action::Resize(w, h) = action {
            self.size = Rect::new(0, 0, w, h);
            return;
        }
        // Follow mode: the user is here; new stops no longer move the view while they look
        // at an earlier one (see `follow_parse`).
        self.last_input = Some(Instant::now());
        self.auto = false;
        self.update_mode(action);
        if self.new_stop.is_some_and(|s| self.stop >= s || s >= self.trace().stops.len()) {
            self.new_stop = None;
        }
    }

    fn update_mode(&mut self, action: Action) {
        if !matches!(action, Action::Click { .. } | Action::Scroll { .. }) && self.mode == Mode::Normal {
            self.status = None;
        }
        match self.mode.clone() {
            Mode::Normal => self.update_normal(action),
            Mode::Help { scroll } => match action {
                Action::Down => self.mode = Mode::Help { scroll: scroll.saturating_add(1) },
                Action::Up => self.mode = Mode::Help { scroll: scroll.saturating_sub(1) },
                Action::PageDown => self.mode = Mode::Help { scroll: scroll.saturating_add(10) },
                Action::PageUp => self.mode = Mode::Help { scroll: scroll.saturating_sub(10) },
                Action::Top => self.mode = Mode::Help { scroll: 0 },
                Action::Bottom => {
                    let n = super::popup::HELP.lines().count() as u16;
                    self.mode = Mode::Help { scroll: n.saturating_sub(self.size.height.saturating_sub(4)) }
                }
                Action::Quit => self.quit = true,
                Action::Back | Action::Help | Action::Open => self.mode = Mode::Normal,
                _ => {}
            },
            Mode::Threads { selected } => {
                let n = self.current_stop().map(|s| s.threads.len()).unwrap_or(0);
                match action {
                    Action::Down => self.mode = Mode::Threads { selected: (selected + 1).min(n.saturating_sub(1)) },
                    Action::Up => self.mode = Mode::Threads { selected: selected.saturating_sub(1) },
                    Action::PageDown => {
                        self.mode = Mode::Threads { selected: (selected + 10).min(n.saturating_sub(1)) }
                    }
                    Action::PageUp => self.mode = Mode::Threads { selected: selected.saturating_sub(10) },
                    Action::Top => self.mode = Mode::Threads { selected: 0 },
                    Action::Bottom => self.mode = Mode::Threads { selected: n.saturating_sub(1) },
                    Action::Open => {
                        self.mode = Mode::Normal;
                        if selected < n {
                            self.select_thread(selected);
                            self.focus = Pane::Frames;
                            self.item_pane = Pane::Frames;
                            self.follow_raw();
                        }
                    }
                    Action::Quit => self.quit = true,
                    Action::Back | Action::Threads => self.mode = Mode::Normal,
                    _ => {}
                }
            }
            Mode::Stops { selected } => {
                let n = self.trace().stops.len();
                let last = n.saturating_sub(1);
                match action {
                    Action::Down => self.mode = Mode::Stops { selected: (selected + 1).min(last) },
                    Action::Up => self.mode = Mode::Stops { selected: selected.saturating_sub(1) },
                    Action::PageDown => self.mode = Mode::Stops { selected: (selected + 10).min(last) },
                    Action::PageUp => self.mode = Mode::Stops { selected: selected.saturating_sub(10) },
                    Action::Top => self.mode = Mode::Stops { selected: 0 },
                    Action::Bottom => self.mode = Mode::Stops { selected: last },
                    Action::Open => {
                        self.mode = Mode::Normal;
                        if selected < n {
                            self.jump_to_stop(selected);
                            self.status = Some((self.stop_label(selected), false));
                        }
                    }
                    Action::Quit => self.quit = true,
                    Action::Back | Action::Stops => self.mode = Mode::Normal,
                    _ => {}
                }
            }
            Mode::Export => match action {
                Action::ExportFile | Action::Open => {
                    self.mode = Mode::Normal;
                    self.export_file();
                }
                Action::ExportClipboard => {
                    self.mode = Mode::Normal;
                    self.export_clipboard();
                }
                Action::Back | Action::Quit => self.mode = Mode::Normal,
                _ => {}
            },
            Mode::Prompt { kind, mut text } => match action {
                Action::Input(c) => {
                    if text.chars().count() < 4000 {
                        text.push(c);
                    }
                    self.mode = Mode::Prompt { kind, text };
                }
                Action::Backspace => {
                    text.pop();
                    self.mode = Mode::Prompt { kind, text };
                }
                Action::Back => self.mode = Mode::Normal,
                Action::Open => {
                    self.mode = Mode::Normal;
                    match kind {
                        PromptKind::Search => {
                            if !text.is_empty() {
                                self.last_search = Some(text);
                            }
                            self.search(true, true);
                        }
                        PromptKind::Note(target) => self.save_note(target, &text),
                    }
                }
                _ => {}
            },
        }
    }

    fn update_normal(&mut self, action: Action) {
        match action {
            Action::Quit => self.quit = true,
            Action::Up => self.move_by(-1),
            Action::Down => self.move_by(1),
            Action::PageUp => self.move_by(-(self.page() as isize)),
            Action::PageDown => self.move_by(self.page() as isize),
            Action::Top => self.move_by(isize::MIN / 2),
            // While the footer announces a new stop, End goes there (and follows again).
            Action::Bottom => match self.new_stop {
                Some(_) => {
                    let last = self.trace().stops.len().saturating_sub(1);
                    self.jump_to_stop(last);
                    self.auto = true;
                    self.status = Some((self.stop_label(last), false));
                }
                None => self.move_by(isize::MAX / 2),
            },
            Action::Left => {
                if self.focus == Pane::Raw {
                    self.raw_hscroll = self.raw_hscroll.saturating_sub(8);
                }
            }
            Action::Right => {
                if self.focus == Pane::Raw {
                    self.raw_hscroll = self.raw_hscroll.saturating_add(8).min(100_000);
                }
            }
            Action::NextPane | Action::PrevPane => {
                let i = TAB_ORDER.iter().position(|p| *p == self.focus).unwrap_or(0);
                let n = TAB_ORDER.len();
                let j = if action == Action::NextPane { (i + 1) % n } else { (i + n - 1) % n };
                self.focus_pane(TAB_ORDER[j]);
            }
            Action::Focus(p) => self.focus_pane(p),
            Action::Open => self.open(),
            Action::Back => {}
            Action::SearchStart => self.mode = Mode::Prompt { kind: PromptKind::Search, text: String::new() },
            Action::SearchNext => self.search(true, false),
            Action::SearchPrev => self.search(false, false),
            Action::Threads => {
                self.mode = Mode::Threads { selected: self.thread };
            }
            Action::Stops => {
                if self.trace().stops.is_empty() {
                    self.status = Some(("no stops in this dump yet".into(), false));
                } else {
                    self.mode = Mode::Stops { selected: self.stop };
                }
            }
            Action::Help => self.mode = Mode::Help { scroll: 0 },
            Action::NextStop | Action::PrevStop => {
                let n = self.trace().stops.len();
                if n > 1 {
                    let s = if action == Action::NextStop { (self.stop + 1) % n } else { (self.stop + n - 1) % n };
                    self.select_stop(s);
                    self.follow_raw();
                    self.status = Some((self.stop_label(s), false));
                } else {
                    self.status = Some(("this dump has one stop".into(), false));
                }
            }
            Action::AddNote => {
                self.mode = Mode::Prompt { kind: PromptKind::Note(self.note_target()), text: String::new() }
            }
            Action::AddTraceNote => {
                self.mode = Mode::Prompt { kind: PromptKind::Note(Target::Trace), text: String::new() }
            }
            Action::Export => self.mode = Mode::Export,
            Action::ExportFile => self.export_file(),
            Action::ExportClipboard => self.export_clipboard(),
            Action::Click { column, row } => self.click(column, row),
            Action::Scroll { column, row, down } => {
                if let Some(p) = self.pane_at(column, row) {
                    let before = self.focus;
                    self.focus = p;
                    self.move_by(if down { 3 } else { -3 });
                    self.focus = before;
                }
            }
            Action::Input(_) | Action::Backspace | Action::Resize(..) => {}
        }
    }

    fn focus_pane(&mut self, p: Pane) {
        self.focus = p;
        if p.is_viewer() {
            self.viewer = p;
        } else {
            self.item_pane = p;
            self.follow_raw();
        }
    }

    /// Rows a page moves: the height of the focused pane.
    fn page(&self) -> usize {
        let a = self.areas(self.size);
        a.of(self.focus).map(|r| r.height.saturating_sub(3) as usize).unwrap_or(10).max(1)
    }

    fn move_by(&mut self, d: isize) {
        let step = |cur: usize, len: usize| -> usize {
            if len == 0 {
                return 0;
            }
            (cur as isize).saturating_add(d).clamp(0, len as isize - 1) as usize
        };
        match self.focus {
            Pane::Frames => {
                let n = self.current_thread().map(|t| t.frames.len()).unwrap_or(0);
                let p = step(self.frame, n);
                self.select_frame(p);
                self.item_pane = Pane::Frames;
                self.follow_raw();
            }
            Pane::Registers => {
                let n = self.frame_registers().map(|r| r.regs.len()).unwrap_or(0);
                self.register = step(self.register, n);
                self.item_pane = Pane::Registers;
                self.follow_raw();
            }
            Pane::Findings => {
                let n = self.ir.findings.len();
                if n > 0 {
                    let i = step(self.finding, n);
                    self.select_finding(i);
                    self.item_pane = Pane::Findings;
                    self.follow_raw();
                }
            }
            Pane::Detail => {
                self.detail_scroll = (self.detail_scroll as isize).saturating_add(d).clamp(0, u16::MAX as isize) as u16;
            }
            Pane::Memory => {
                let n = memory::line_count(self);
                self.memory_scroll = step(self.memory_scroll, n);
            }
            Pane::Raw => {
                self.raw_cursor = step(self.raw_cursor, self.raw_lines.len());
            }
        }
    }

    fn open(&mut self) {
        match self.focus {
            Pane::Findings => {
                // The finding's frame, with its registers highlighted.
                self.select_finding(self.finding);
                self.focus = Pane::Registers;
                self.item_pane = Pane::Findings;
                self.viewer = Pane::Detail;
            }
            Pane::Frames => {
                self.focus = Pane::Registers;
                self.item_pane = Pane::Frames;
            }
            Pane::Registers => {
                self.item_pane = Pane::Registers;
                self.follow_raw();
                self.focus_pane(Pane::Raw);
            }
            Pane::Detail | Pane::Memory => self.focus_pane(Pane::Raw),
            Pane::Raw => self.open_raw_line(),
        }
    }

    /// Enter on a raw line: select the frame, register or finding defined there.
    fn open_raw_line(&mut self) {
        let line = self.raw_cursor as u32 + 1;
        let within = |s: &Span| s.first <= line && line <= s.last;
        if let Some(i) =
            self.ir.findings.iter().position(|f| f.evidence.iter().any(|e| e.lines.is_some_and(|s| within(&s))))
        {
            self.select_finding(i);
            self.item_pane = Pane::Findings;
            self.focus = Pane::Findings;
            return;
        }
        let t = self.trace();
        let mut hit = None;
        'outer: for (si, s) in t.stops.iter().enumerate() {
            for (ti, th) in s.threads.iter().enumerate() {
                if let Some(p) = th.frames.iter().position(|f| within(&f.span)) {
                    hit = Some((si, ti, p, None));
                    break 'outer;
                }
                for (idx, set) in &th.registers {
                    if let Some(ri) = set.regs.iter().position(|r| within(&r.span)) {
                        let p = th.frames.iter().position(|f| f.index == *idx).unwrap_or(0);
                        hit = Some((si, ti, p, Some(ri)));
                        break 'outer;
                    }
                }
            }
        }
        match hit {
            Some((si, ti, p, reg)) => {
                if si != self.stop {
                    self.select_stop(si);
                }
                if ti != self.thread {
                    self.select_thread(ti);
                }
                self.select_frame(p);
                if let Some(ri) = reg {
                    self.register = ri;
                    self.focus = Pane::Registers;
                    self.item_pane = Pane::Registers;
                } else {
                    self.focus = Pane::Frames;
                    self.item_pane = Pane::Frames;
                }
            }
            None => self.status = Some((format!("line {line} defines no frame, register or finding evidence"), false)),
        }
    }

    fn pane_at(&self, column: u16, row: u16) -> Option<Pane> {
        let a = self.areas(self.size);
        TAB_ORDER.into_iter().find(|p| {
            a.of(*p).is_some_and(|r| column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height)
        })
    }

    fn click(&mut self, column: u16, row: u16) {
        let Some(p) = self.pane_at(column, row) else { return };
        let a = self.areas(self.size);
        let Some(r) = a.of(p) else { return };
        self.focus_pane(p);
        if row <= r.y || row + 1 >= r.y + r.height {
            return;
        }
        let i = (row - r.y - 1) as usize;
        match p {
            Pane::Frames => {
                let target = self.frames_offset.get() + i;
                if self.current_thread().is_some_and(|t| target < t.frames.len()) {
                    self.select_frame(target);
                    self.follow_raw();
                }
            }
            Pane::Registers => {
                let target = self.registers_offset.get() + i;
                if self.frame_registers().is_some_and(|s| target < s.regs.len()) {
                    self.register = target;
                    self.follow_raw();
                }
            }
            Pane::Findings => {
                let target = findings::row_to_finding(self, self.findings_offset.get() + i);
                if let Some(t) = target {
                    self.select_finding(t);
                    self.follow_raw();
                }
            }
            Pane::Raw => {
                let target = self.raw_top.get().saturating_add(i);
                if target < self.raw_lines.len() {
                    self.raw_cursor = target;
                }
            }
            Pane::Detail | Pane::Memory => {}
        }
    }

    // ----- search -------------------------------------------------------------------

    /// `/`, `n`, `N`: searches the focused pane (Detail and Memory search the raw dump).
    fn search(&mut self, forward: bool, fresh: bool) {
        let Some(q) = self.last_search.clone() else {
            self.status = Some(("no previous search (type / to search)".into(), false));
            return;
        };
        let pane = match self.focus {
            Pane::Detail | Pane::Memory => Pane::Raw,
            p => p,
        };
        let found = match pane {
            Pane::Frames => {
                let frames: Vec<String> = self
                    .current_thread()
                    .map(|t| t.frames.iter().map(crate::report::frame_line).collect())
                    .unwrap_or_default();
                cyclic(self.frame, frames.len(), forward, fresh, |i| matches(&frames[i], &q)).inspect(|&i| {
                    self.select_frame(i);
                    self.item_pane = Pane::Frames;
                })
            }
            Pane::Registers => {
                let names: Vec<String> = self
                    .frame_registers()
                    .map(|s| {
                        s.regs.iter().map(|r| format!("{} {}", r.name, r.natural.as_deref().unwrap_or(""))).collect()
                    })
                    .unwrap_or_default();
                cyclic(self.register, names.len(), forward, fresh, |i| matches(&names[i], &q)).inspect(|&i| {
                    self.register = i;
                })
            }
            Pane::Findings => {
                let texts: Vec<String> =
                    self.ir.findings.iter().map(|f| format!("{} {} {}", f.rule, f.title, f.message)).collect();
                cyclic(self.finding, texts.len(), forward, fresh, |i| matches(&texts[i], &q)).inspect(|&i| {
                    self.select_finding(i);
                })
            }
            _ => self.search_raw(&q, forward, fresh),
        };
        match found {
            Some(_) => {
                if pane == Pane::Raw {
                    self.focus_pane(Pane::Raw);
                    self.raw_top.set(usize::MAX);
                } else {
                    self.follow_raw();
                }
                self.status = Some((format!("/{q}"), false));
            }
            None => self.status = Some((format!("Pattern not found: {}", crate::report::safe(&q)), true)),
        }
    }

    fn search_raw(&mut self, q: &str, forward: bool, fresh: bool) -> Option<usize> {
        let raw = self.ir.raw.as_deref()?;
        let smart = !q.chars().any(|c| c.is_uppercase());
        let hay: &[u8] =
            if smart { self.raw_lower.get_or_init(|| raw.to_lowercase().into_bytes()) } else { raw.as_bytes() };
        // Lower-casing can change byte lengths of non-ASCII text; fall back to exact search.
        let (hay, needle): (&[u8], Vec<u8>) = if smart && hay.len() == raw.len() {
            (hay, q.to_lowercase().into_bytes())
        } else {
            (raw.as_bytes(), q.as_bytes().to_vec())
        };
        let finder = memchr::memmem::Finder::new(&needle);
        let n = self.raw_lines.len();
        if n == 0 {
            return None;
        }
        let cur = self.raw_cursor.min(n - 1);
        let line_of = |off: usize| self.raw_lines.partition_point(|&s| s <= off).saturating_sub(1);
        let found = if forward {
            let start_line = if fresh { cur } else { cur + 1 };
            let start = self.raw_lines.get(start_line).copied().unwrap_or(hay.len());
            finder
                .find(&hay[start.min(hay.len())..])
                .map(|o| line_of(start + o))
                .or_else(|| finder.find(hay).map(line_of))
        } else {
            let end = self.raw_lines.get(cur).copied().unwrap_or(hay.len());
            let rfinder = memchr::memmem::FinderRev::new(&needle);
            rfinder.rfind(&hay[..end.min(hay.len())]).map(line_of).or_else(|| rfinder.rfind(hay).map(line_of))
        };
        if let Some(l) = found {
            self.raw_cursor = l;
        }
        found
    }
}

/// The next index after (or before) `cur`, wrapping, for which `hit` is true.
fn cyclic(cur: usize, len: usize, forward: bool, fresh: bool, hit: impl Fn(usize) -> bool) -> Option<usize> {
    if len == 0 {
        return None;
    }
    let first = if fresh { 0 } else { 1 };
    (first..=len).map(|k| if forward { (cur + k) % len } else { (cur + len * 2 - k) % len }).find(|&i| hit(i))
}
