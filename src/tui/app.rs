//! The TUI's state and its Elm-shaped core: [`App`] holds everything the screen shows,
//! [`App::update`] applies one [`Action`], [`App::draw`] paints the whole screen into a frame.
//!
//! The state and its selectors are here; `app/update.rs` holds `update` (which returns the
//! file I/O it needs as [`Effect`]s for the loop), `app/view.rs` the layout and `draw`,
//! `app/live.rs` follow mode's side (taking analyses from the parse worker).
//!
//! Nothing here touches the terminal: the event loop in `tui/mod.rs` turns key, mouse and
//! resize events into actions (through `keys.rs`), and tests drive `update` and `draw` against
//! ratatui's `TestBackend`. Each pane draws itself from a borrowed `&App` (one file per pane).

use super::common::matches;
use super::follow::{self, Follow};
use super::theme::Theme;
use super::{detail, findings, frames, header, memory, popup, raw, registers, source};
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

mod live;
mod loading;
mod update;
mod view;

/// The panes, in `Tab` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Frames,
    Registers,
    Findings,
    Detail,
    Memory,
    Raw,
    Source,
}

pub const TAB_ORDER: [Pane; 7] =
    [Pane::Frames, Pane::Registers, Pane::Findings, Pane::Detail, Pane::Memory, Pane::Raw, Pane::Source];

impl Pane {
    pub fn title(self) -> &'static str {
        match self {
            Pane::Frames => "Frames",
            Pane::Registers => "Registers",
            Pane::Findings => "Findings",
            Pane::Detail => "Detail",
            Pane::Memory => "Memory & disassembly",
            Pane::Raw => "Raw dump",
            Pane::Source => "Source",
        }
    }
    /// The pane's name in the footer's list of hidden panes.
    pub fn name(self) -> &'static str {
        match self {
            Pane::Frames => "frames",
            Pane::Registers => "registers",
            Pane::Findings => "findings",
            Pane::Detail => "detail",
            Pane::Memory => "memory",
            Pane::Raw => "raw",
            Pane::Source => "source",
        }
    }
    /// Position in [`TAB_ORDER`] (and in per-pane arrays such as `App::hscroll`).
    pub fn index(self) -> usize {
        self as usize
    }
    /// Panes that share one slot on small terminals.
    fn is_viewer(self) -> bool {
        matches!(self, Pane::Detail | Pane::Memory | Pane::Raw | Pane::Source)
    }
}

/// A source file named by a frame, as the event loop found it (`Effect::LoadSource`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceState {
    /// Asked for, not read yet.
    Pending,
    /// Read from inside a source directory: the path shown (relative to its directory) and
    /// the lines.
    Read {
        shown: String,
        lines: Vec<String>,
    },
    /// There, but not read (outside the source directories, a system file, not regular).
    Refused(&'static str),
    NotFound,
}

/// Everything the user can ask for. Keys and mouse events map to these in `keys.rs`.
/// I/O that [`App::update`] asks the event loop to perform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Add a note to the dump's sidecar (`notes::add`).
    SaveNote { dump: PathBuf, note: Note },
    /// Write the exported bug report.
    WriteFile { path: PathBuf, text: String },
    /// Replace a note's text (`notes::edit`: re-added on `target` if it was removed meanwhile).
    EditNote { dump: PathBuf, id: String, target: Target, text: String },
    /// Remove a note (`notes::remove`).
    DeleteNote { dump: PathBuf, id: String },
    /// Read a frame's source file from inside the source directories (`fsutil::find_source`).
    LoadSource { file: String, dirs: Vec<PathBuf> },
}

/// What performing an [`Effect`] came to, reported back with [`App::outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The note was saved on `on`; `notes` is the sidecar's list now.
    NoteSaved { on: String, notes: Vec<Note> },
    /// A note was edited or deleted: the footer message and the sidecar's list now.
    NotesChanged { message: String, notes: Vec<Note> },
    /// A source file was looked up.
    Source { file: String, state: SourceState },
    /// The export was written.
    Written { path: PathBuf, bytes: usize },
    /// Either failed: the message for the footer.
    Failed(String),
}

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
    /// `m`: the list of notes (edit with Enter, delete with `d` twice).
    Notes,
    /// `d` in the notes list: delete (asks once, then deletes).
    Delete,
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
    /// Editing the note `id` (its `target` is kept in case it was removed meanwhile).
    EditNote {
        id: String,
        target: Target,
        original: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help {
        scroll: u16,
    },
    Threads {
        selected: usize,
    },
    Stops {
        selected: usize,
    },
    /// `cursor` is a char index into `text` (← → Home End move it).
    Prompt {
        kind: PromptKind,
        text: String,
        cursor: usize,
    },
    Export,
    /// The notes list: `selected` note, and whether `d` was pressed once (asks to confirm).
    Notes {
        selected: usize,
        confirm: bool,
    },
}

/// Which kind of key handling applies (see `keys.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeKind {
    Normal,
    Popup,
    Prompt,
    Export,
    /// The notes list: `d` deletes, `e`/Enter edits.
    Notes,
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
    pub source: Option<Rect>,
    pub too_small: bool,
    /// One list pane (`App::list_pane`) above one viewer: the other list panes are hidden.
    pub narrow: bool,
}

impl Areas {
    pub fn of(&self, p: Pane) -> Option<Rect> {
        let r = match p {
            Pane::Frames => Some(self.frames),
            Pane::Registers => Some(self.registers),
            Pane::Findings => Some(self.findings),
            Pane::Detail => self.detail,
            Pane::Memory => self.memory,
            Pane::Raw => self.raw,
            Pane::Source => self.source,
        }?;
        (r.width > 0 && r.height > 0).then_some(r)
    }
}

/// Terminals at least this big show all six panes at once.
pub const WIDE: (u16, u16) = (160, 30);
/// Narrower than this, one list pane and one viewer are shown, one above the other.
pub const NARROW: u16 = 80;
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
    /// Columns each pane is scrolled sideways (← → h l), by [`Pane::index`].
    pub hscroll: [usize; 7],
    /// The most each pane can usefully scroll sideways, as its last draw found.
    pub(crate) hscroll_max: Cell<[usize; 7]>,
    /// Where `--source-dir` says source files may be read (empty: the current directory).
    pub source_dirs: Vec<PathBuf>,
    /// Source files looked up so far, by the path the frame names.
    pub sources: std::collections::HashMap<String, SourceState>,
    /// The Source pane's first line (0-based); `None` centres the frame's line.
    pub source_top: Option<usize>,
    pub detail_scroll: u16,
    pub memory_scroll: usize,
    /// A report waiting to be put on the clipboard with OSC 52 by the event loop.
    pub clipboard: Option<String>,
    /// I/O `update` asked for, handed to the event loop when `update` returns.
    effects: Vec<Effect>,
    pub(crate) frames_offset: Cell<usize>,
    pub(crate) registers_offset: Cell<usize>,
    pub(crate) findings_offset: Cell<usize>,
    /// The finding on each row of the Findings pane, as last drawn (for clicks).
    pub(crate) findings_rows: std::cell::RefCell<Vec<usize>>,
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
    /// What the address classifier gathers from the whole trace, gathered once per analysis
    /// (off the UI thread when it comes from a worker) rather than at every draw.
    pub(crate) facts: crate::classify::TraceFacts,
    /// A file still being read in the background (see `tui/loader.rs` and `app/loading.rs`).
    pub loading: Option<super::loader::Loading>,
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
            Some(r) => super::loader::line_starts(r.as_bytes()),
            None => Vec::new(),
        };
        let facts = crate::classify::TraceFacts::of(&ir.parsed.trace);
        App::with_parts(ir, raw_lines, facts, dump, theme)
    }

    /// [`App::new`] with the raw text's line index and the classifier's facts already built
    /// (by a loader thread): nothing here walks the whole input.
    pub fn with_parts(
        ir: InputReport,
        raw_lines: Vec<usize>,
        facts: crate::classify::TraceFacts,
        dump: Option<PathBuf>,
        theme: Theme,
    ) -> App {
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
            hscroll: [0; 7],
            hscroll_max: Cell::new([0; 7]),
            source_dirs: Vec::new(),
            sources: Default::default(),
            source_top: None,
            detail_scroll: 0,
            memory_scroll: 0,
            clipboard: None,
            frames_offset: Cell::new(0),
            registers_offset: Cell::new(0),
            findings_offset: Cell::new(0),
            findings_rows: Default::default(),
            raw_top: Cell::new(0),
            threads_offset: Cell::new(0),
            stops_offset: Cell::new(0),
            raw_lower: OnceCell::new(),
            follow: None,
            effects: Vec::new(),
            last_input: None,
            auto: false,
            new_stop: None,
            facts,
            loading: None,
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
        app.request_source();
        app
    }

    /// The list pane (Frames, Registers or Findings) shown when only one fits: the focused one,
    /// else the last one focused.
    pub fn list_pane(&self) -> Pane {
        if self.focus.is_viewer() { self.item_pane } else { self.focus }
    }

    /// Source files are read from these directories (`--source-dir`; the current directory
    /// when none is given), as `--with-source` does.
    pub fn with_source_dirs(mut self, dirs: Vec<PathBuf>) -> App {
        self.source_dirs = dirs;
        self.sources.clear();
        self.effects.clear();
        self.request_source();
        self
    }

    /// Asks the event loop to read the selected frame's source file, once per file.
    pub(crate) fn request_source(&mut self) {
        let Some(file) = self.current_frame().and_then(|f| f.file.as_deref().map(str::to_string)) else { return };
        if self.sources.contains_key(&file) {
            return;
        }
        self.sources.insert(file.clone(), SourceState::Pending);
        self.effects.push(Effect::LoadSource { file, dirs: self.source_dirs.clone() });
    }

    /// The selected frame's source file, line and what is known of the file.
    pub fn current_source(&self) -> Option<(&str, u32, &SourceState)> {
        let f = self.current_frame()?;
        let file = f.file.as_deref()?;
        Some((file, f.line.unwrap_or(0), self.sources.get(file)?))
    }

    /// Whether the selected frame's source was read (the Source pane then has something).
    pub fn source_available(&self) -> bool {
        matches!(self.current_source(), Some((_, _, SourceState::Read { .. })))
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
        Classifier::with_facts(self.trace(), &self.facts)
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
        self.current_thread().map(|t| *t.id == *c.thread).unwrap_or(false) && c.frame_position() == Some(pos)
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
        // Written by the event loop (`tui::perform`), which reports back with `outcome`.
        self.effects.push(Effect::SaveNote { dump, note: notes::new_note(target, text) });
    }

    /// Notes in the order the notes list (`m`) shows them: the selected item's first, then
    /// the rest in sidecar order.
    pub fn notes_list(&self) -> Vec<usize> {
        let target = self.note_target();
        let mut v: Vec<usize> = (0..self.notes.len()).filter(|&i| self.notes[i].target == target).collect();
        v.extend((0..self.notes.len()).filter(|&i| self.notes[i].target != target));
        v
    }

    fn edit_note(&mut self, id: String, target: Target, original: &str, text: &str) {
        if text.trim() == original.trim() {
            self.status = Some(("note unchanged".into(), false));
            return;
        }
        if text.trim().is_empty() {
            // An emptied note is kept: deleting is its own, confirmed, action.
            self.status = Some(("an empty note is not saved; the note is kept (m, then d d deletes it)".into(), false));
            return;
        }
        let Some(dump) = self.dump.clone() else {
            self.status = Some((notes::NotesError::NoFile.to_string(), true));
            return;
        };
        self.effects.push(Effect::EditNote { dump, id, target, text: text.to_string() });
    }

    fn delete_note(&mut self, id: String) {
        let Some(dump) = self.dump.clone() else {
            self.status = Some((notes::NotesError::NoFile.to_string(), true));
            return;
        };
        self.effects.push(Effect::DeleteNote { dump, id });
    }

    /// What the event loop's I/O for an [`Effect`] came to.
    pub fn outcome(&mut self, o: Outcome) {
        match o {
            Outcome::NoteSaved { on, notes } => {
                self.set_notes(notes);
                self.status = Some((format!("note saved on {on}"), false));
            }
            Outcome::NotesChanged { message, notes } => {
                self.set_notes(notes);
                if let Mode::Notes { selected, .. } = self.mode {
                    let n = self.notes.len();
                    if n == 0 {
                        self.mode = Mode::Normal;
                    } else {
                        self.mode = Mode::Notes { selected: selected.min(n - 1), confirm: false };
                    }
                }
                self.status = Some((message, false));
            }
            Outcome::Source { file, state } => {
                self.sources.insert(file, state);
            }
            Outcome::Written { path, bytes } => {
                self.status = Some((format!("wrote the bug report to {} ({bytes} bytes)", path.display()), false))
            }
            Outcome::Failed(msg) => self.status = Some((msg, true)),
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
        self.effects.push(Effect::WriteFile { path, text });
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
        self.source_top = None;
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
}
