//! Issue 15 item 5, against ratatui's `TestBackend`: panes scroll sideways without cutting a
//! value, the footer names the panes a terminal size hides, the Source pane shows the
//! selected frame's file only from the source directories, and notes are edited and deleted
//! from the notes list (`m`) without ever losing one.

mod common;
#[path = "common/tui.rs"]
mod tui;
use std::path::Path;
use tracecheck::tui::app::{Action, Mode, Pane, SourceState};
use tui::*;

fn dump_values(p: &Path) -> Vec<String> {
    hex_tokens(&std::fs::read_to_string(p).unwrap()).into_iter().map(|(v, _)| v).collect()
}

#[test]
fn registers_scroll_sideways_keeping_names_and_whole_values() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let known = dump_values(&p);
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Registers));
    let before = screen(&mut app, 80, 24);
    // Rows are cut on the right: the border says there is more (`l ▸`), not yet `◂`.
    assert!(before.contains(" l ▸ "), "{before}");
    assert!(!before.contains("◂"), "{before}");
    assert!(before.contains("r10    0x7ffff7de4380 read-only data (lib…"), "{before}");
    key(&mut app, Action::Right);
    assert_eq!(app.hscroll[Pane::Registers.index()], 8);
    let after = screen(&mut app, 80, 24);
    // Marks, names and values stay; the annotation moved left and starts with `…`; the word
    // the edge would cut (`read-only`) is left out whole.
    assert!(after.contains("◂ h"), "{after}");
    let r10 = after.lines().find(|l| l.contains("r10 ")).unwrap();
    assert!(r10.contains("r10    0x7ffff7de4380 … data (libc.so.6)"), "{r10}");
    let r12 = after.lines().find(|l| l.contains("r12 ")).unwrap();
    assert!(r12.contains("r12    0x555555559380 …0x555555556012"), "{r12}");
    // No value is ever shown cut: every 0x token is a whole value of the dump, or at least
    // not followed by the `…` or border of a cut.
    for (v, next) in hex_tokens(&after) {
        assert!(known.contains(&v) || !matches!(next, Some('…' | '│')), "0x{v} cut:\n{after}");
    }
    // Scrolling stops where the widest row ends, and ← goes back to the start.
    for _ in 0..50 {
        key(&mut app, Action::Right);
    }
    let max = app.hscroll[Pane::Registers.index()];
    assert!((9..80).contains(&max), "{max}");
    let end = screen(&mut app, 80, 24);
    let border = end.lines().find(|l| l.contains("stack heap code")).unwrap();
    assert!(border.contains(" ◂ h ") && !border.contains("l ▸"), "{end}");
    assert!(end.contains("r8     0x555555555476 …trampoline-bad-r13)"), "the widest row's end is in view:\n{end}");
    for _ in 0..50 {
        key(&mut app, Action::Left);
    }
    assert_eq!(app.hscroll[Pane::Registers.index()], 0);
    assert_eq!(screen(&mut app, 80, 24), before);
}

#[test]
fn raw_frames_and_memory_scroll_sideways_too() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Raw));
    // The pane learns how wide its rows are when drawn (as on a terminal, before any key).
    screen(&mut app, 80, 24);
    key(&mut app, Action::Right);
    let s = screen(&mut app, 80, 24);
    // Line 8 `#0  0x0000555555555549 in julia_module_callback_4212 ()`: 8 columns in, the
    // address would be cut, so it is left out whole.
    let l8 = s.lines().find(|l| l.contains("  8")).unwrap();
    assert!(l8.contains("  8▌…"), "{l8}");
    assert!(!l8.contains("55555549"), "a cut address is shown: {l8}");
    assert!(l8.contains("in julia_module_callback_4212"), "{l8}");
    key(&mut app, Action::Focus(Pane::Frames));
    screen(&mut app, 80, 24);
    key(&mut app, Action::Right);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("! #0  …"), "{s}");
    // Detail wraps instead, and says so.
    key(&mut app, Action::Focus(Pane::Detail));
    key(&mut app, Action::Right);
    assert!(app.status.as_ref().is_some_and(|(m, _)| m.contains("wraps")), "{:?}", app.status);
}

#[test]
fn footer_names_the_hidden_panes() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    let footer = |s: &str| s.lines().last().unwrap().to_string();
    let s = screen(&mut app, 80, 24);
    assert!(footer(&s).contains("hidden: memory, raw — widen or press Tab"), "{s}");
    // Narrow: one list pane and one viewer; the footer names the rest.
    let s = screen(&mut app, 40, 12);
    assert!(footer(&s).starts_with("? help  hidden: frames, registers, memo…"), "{s}");
    assert!(s.contains("Findings (2)") && !s.contains("Registers ·"), "{s}");
    // Tab brings a hidden pane into the slot: Registers, full width, values whole.
    key(&mut app, Action::Focus(Pane::Registers));
    let s = screen(&mut app, 40, 12);
    assert!(s.contains("Registers · frame #0"), "{s}");
    assert!(s.contains("▶ r13    0x5555555593b0"), "{s}");
    assert!(footer(&s).contains("hidden: frames, findings"), "{s}");
    // Wide: everything is on screen.
    let s = screen(&mut app, 160, 45);
    assert!(!s.contains("hidden:"), "{s}");
}

#[test]
fn source_pane_shows_the_frame_line_from_the_source_directory_only() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let text = std::fs::read_to_string(common::samples_dir().join("src/julia-trampoline.c")).unwrap();
    let line165: String = text.lines().nth(164).unwrap().trim().chars().take(20).collect();
    assert!(!line165.is_empty());
    let mut app = load(&p).with_source_dirs(vec![common::samples_dir()]);
    // Frame #7 is `main () at src/julia-trampoline.c:165`.
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::Bottom);
    assert!(matches!(app.current_source(), Some((_, 165, SourceState::Read { .. }))), "{:?}", app.current_source());
    let s = screen(&mut app, 160, 45);
    assert!(s.contains("Source · src/julia-trampoline.c:165"), "{s}");
    let row = s.lines().find(|l| l.contains(">165 ")).unwrap_or_else(|| panic!("no >165 row:\n{s}"));
    assert!(row.contains(&line165), "{row}");
    // At 80x24 it is a viewer: hidden (and named) until focused with 7.
    let s = screen(&mut app, 80, 24);
    assert!(s.lines().last().unwrap().contains("hidden: memory, raw, source"), "{s}");
    key(&mut app, Action::Focus(Pane::Source));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains(">165 "), "{s}");
    // The same frame with a source directory that does not hold the file: nothing read, and
    // the pane says how to point at it.
    let elsewhere = p.parent().unwrap().to_path_buf();
    let mut app = load(&p).with_source_dirs(vec![elsewhere]);
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::Bottom);
    assert_eq!(app.current_source().map(|s| s.2.clone()), Some(SourceState::NotFound));
    key(&mut app, Action::Focus(Pane::Source));
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("--source-dir"), "{s}");
    assert!(!s.contains(&line165), "{s}");
}

#[test]
fn notes_are_edited_and_deleted_from_the_notes_list() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::AddNote);
    typ(&mut app, "first thougth");
    key(&mut app, Action::Open);
    key(&mut app, Action::AddTraceNote);
    typ(&mut app, "whole trace note");
    key(&mut app, Action::Open);
    let side = tracecheck::notes::load(&p).unwrap();
    assert_eq!(side.notes.len(), 2);
    let id = side.notes[0].id.clone();

    // m lists them, the selected frame's note first; Enter edits it in place.
    key(&mut app, Action::Notes);
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("Notes (2)") && s.contains("first thougth"), "{s}");
    key(&mut app, Action::Open);
    assert!(matches!(&app.mode, Mode::Prompt { text, .. } if text == "first thougth"));
    // Fix the typo inside the text: ← moves the cursor, Backspace deletes before it, → and
    // typing insert after.
    key(&mut app, Action::Left);
    key(&mut app, Action::Backspace);
    key(&mut app, Action::Right);
    typ(&mut app, "t");
    let s = screen(&mut app, 100, 30);
    assert!(s.lines().last().unwrap().contains("edit note on frame #0"), "{s}");
    key(&mut app, Action::Open);
    let side = tracecheck::notes::load(&p).unwrap();
    assert_eq!(side.notes.len(), 2);
    assert_eq!(side.notes[0].id, id, "an edit keeps the note's id");
    assert_eq!(side.notes[0].text, "first thought");
    assert!(app.status.as_ref().is_some_and(|(m, e)| m.contains("note edited") && !e), "{:?}", app.status);

    // Esc while editing keeps the old text; an emptied note is not saved either.
    key(&mut app, Action::Notes);
    key(&mut app, Action::Open);
    typ(&mut app, " and more");
    key(&mut app, Action::Back);
    key(&mut app, Action::Notes);
    key(&mut app, Action::Open);
    for _ in 0..40 {
        key(&mut app, Action::Backspace);
    }
    key(&mut app, Action::Open);
    assert_eq!(tracecheck::notes::load(&p).unwrap().notes[0].text, "first thought");

    // A note removed by another process while being edited: the new text is not lost.
    key(&mut app, Action::Notes);
    key(&mut app, Action::Open);
    assert!(tracecheck::notes::remove(&p, &id).unwrap());
    typ(&mut app, "!");
    key(&mut app, Action::Open);
    let side = tracecheck::notes::load(&p).unwrap();
    assert_eq!(side.notes.len(), 2);
    assert!(side.notes.iter().any(|n| n.text == "first thought!" && n.id != id), "{side:?}");

    // d asks first; a second d deletes; the last note gone leaves no sidecar or lock.
    key(&mut app, Action::Notes);
    key(&mut app, Action::Delete);
    assert_eq!(tracecheck::notes::load(&p).unwrap().notes.len(), 2);
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("d again deletes"), "{s}");
    key(&mut app, Action::Down);
    assert!(matches!(app.mode, Mode::Notes { confirm: false, .. }), "another key cancels");
    key(&mut app, Action::Delete);
    key(&mut app, Action::Delete);
    assert_eq!(tracecheck::notes::load(&p).unwrap().notes.len(), 1);
    key(&mut app, Action::Delete);
    key(&mut app, Action::Delete);
    assert!(tracecheck::notes::load(&p).unwrap().notes.is_empty());
    assert_eq!(app.mode, Mode::Normal, "the list closes with its last note");
    let left: Vec<_> = std::fs::read_dir(p.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

/// The help popup on a narrow terminal: a line too wide ends with `…`, as the panes' rows do.
#[test]
fn help_lines_cut_on_a_narrow_terminal_end_with_an_ellipsis() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Help);
    let s = screen(&mut app, 40, 12);
    let cut: Vec<&str> = s.lines().filter(|l| l.contains("…│")).collect();
    assert!(!cut.is_empty(), "{s}");
    let wide = screen(&mut app, 100, 40);
    assert!(wide.contains("previous / next stop (breakpoints, rr events)"), "{wide}");
}

/// On a narrow terminal the note prompt's label gives way, so what is typed stays visible.
#[test]
fn note_prompt_keeps_the_text_visible_when_narrow() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::AddNote);
    typ(&mut app, "r13 clobbered");
    let footer = |s: &str| s.lines().last().unwrap().to_string();
    let wide = screen(&mut app, 160, 45);
    assert!(footer(&wide).starts_with("note on frame #0 julia_module_callback_4212 (thread 1) (Enter saves"), "{wide}");
    let mid = screen(&mut app, 80, 24);
    assert!(
        footer(&mid).starts_with("note on frame #0 julia_module_callback_4212 (thread 1): r13 clobbered█"),
        "{mid}"
    );
    let narrow = screen(&mut app, 40, 12);
    assert!(footer(&narrow).starts_with("note: r13 clobbered█"), "{narrow}");
}
