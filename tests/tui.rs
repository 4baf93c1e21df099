//! TUI tests against ratatui's `TestBackend`: the whole screen at 80x24 and 200x50, each
//! pane, key sequences (navigate, add a note, export) checked against the sidecar and the
//! markdown. Assertions are on the buffer's text.

mod common;
#[path = "common/tui.rs"]
mod tui;
use tracecheck::analyze;
use tracecheck::rules::Selection;
use tracecheck::tui::app::{Action, App, Pane};
use tracecheck::tui::theme::Theme;
use tui::*;

/// Rows of the screen whose text contains `needle`.
fn rows_with<'a>(screen: &'a str, needle: &str) -> Vec<&'a str> {
    screen.lines().filter(|l| l.contains(needle)).collect()
}

/// The acceptance check: without any keypress, the top finding is selected, its frame is
/// the selected frame, its registers are highlighted (`▶`) and its explanation is shown.
/// Generic over which rule ranks first, so it keeps holding when more rules land.
#[test]
fn founding_case_opens_on_top_finding_frame_and_registers() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    let top = app.ir.findings.first().cloned().expect("a finding fires on the founding case");
    // The acceptance: the pinned-register finding on r13 is what the user sees first.
    assert_eq!(top.rule, "pinned-register");
    assert_eq!(top.registers.first().map(String::as_str), Some("r13"));
    assert_eq!(app.finding, 0);
    assert_eq!(app.focus, Pane::Findings);
    assert_eq!(app.current_frame().map(|f| f.index), Some(top.frame.unwrap_or(0)));
    assert!(!top.registers.is_empty(), "the top finding names registers");
    let hl: Vec<String> = app.highlighted_registers().iter().map(|s| s.to_string()).collect();
    assert_eq!(hl, top.registers);
    for (w, h) in [(80, 24), (200, 50)] {
        let (screen, _) = render(&mut app, w, h);
        // Findings pane: the top finding's rule on a row.
        assert!(!rows_with(&screen, top.rule).is_empty(), "{w}x{h}: rule not shown\n{screen}");
        // Registers pane: the finding's primary register is visible and marked ▶ (all of its
        // registers are marked; the small screen may scroll the secondary ones out of view).
        let primary = &top.registers[0];
        assert!(screen.contains(&format!("▶ {primary} ")), "{w}x{h}: {primary} not highlighted\n{screen}");

        // Frames pane title names the frame the finding is about, and the detail explains.
        assert!(screen.contains(&format!("frame #{}", top.frame.unwrap_or(0))), "{screen}");
        assert!(screen.contains("Explanation:"), "{w}x{h}: no explanation\n{screen}");
        assert!(screen.contains("! #0"), "{w}x{h}: crashing frame not marked\n{screen}");
    }
}

#[test]
fn selected_rows_are_reverse_video_and_plain_theme_has_no_colour() {
    let p = sample_copy("null-field.gdb.txt");
    let mut app = load(&p);
    let (screen, buf) = render(&mut app, 80, 24);
    let y = screen.lines().position(|l| l.contains("ERROR null-dereference #0")).unwrap() as u16;
    let x = screen.lines().nth(y as usize).unwrap().chars().position(|c| c == 'E').unwrap() as u16;
    assert!(buf[(x, y)].modifier.contains(ratatui::style::Modifier::REVERSED));
    for y in 0..24 {
        for x in 0..80 {
            let c = &buf[(x, y)];
            assert_eq!(c.fg, ratatui::style::Color::Reset, "colour at {x},{y} under NO_COLOR");
            assert_eq!(c.bg, ratatui::style::Color::Reset);
        }
    }
}

#[test]
fn every_sample_renders_small_and_wide() {
    let mut names: Vec<String> = std::fs::read_dir(common::samples_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gdb.txt"))
        .collect();
    names.sort();
    assert!(names.len() >= 10);
    for n in names {
        let p = sample_copy(&n);
        let mut app = load(&p);
        for (w, h) in [(80, 24), (200, 50), (100, 30)] {
            let (screen, _) = render(&mut app, w, h);
            assert!(screen.starts_with("tracecheck "), "{n} {w}x{h}\n{screen}");
            assert!(screen.contains("Frames"), "{n} {w}x{h}\n{screen}");
            assert!(screen.contains("Registers"), "{n}");
            assert!(screen.contains("Findings ("), "{n}");
            if (w, h) == (200, 50) {
                assert!(screen.contains("Memory & disassembly") && screen.contains("Raw dump"), "{n}\n{screen}");
            }
        }
        // Walk every pane and a few rows without panicking.
        for _ in 0..6 {
            key(&mut app, Action::NextPane);
            key(&mut app, Action::Down);
            key(&mut app, Action::Bottom);
            key(&mut app, Action::Top);
            render(&mut app, 80, 24);
        }
    }
}

#[test]
fn frames_pane_groups_inlined_frames_and_marks_culprit() {
    let p = sample_copy("rust-panic.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Frames));
    // Scroll to the user frames.
    for _ in 0..16 {
        key(&mut app, Action::Down);
    }
    let (screen, _) = render(&mut app, 400, 60);
    let inl = rows_with(&screen, "[inline");
    assert!(inl.iter().any(|r| r.contains("┬#15")), "{screen}");
    assert!(rows_with(&screen, "rust_panic::Config::port").iter().any(|r| r.contains("└#16")), "{screen}");
    assert!(rows_with(&screen, ">").iter().any(|r| r.contains("rust_panic::")), "culprit mark\n{screen}");
}

#[test]
fn signal_handler_frames_are_shown() {
    let text = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in inner () at t.c:2
(gdb) bt
#0  0x0000555555555139 in inner () at t.c:2
#1  <signal handler called>
#2  0x0000555555555160 in outer () at t.c:9
";
    let parsed = tracecheck::input::parse(text);
    let mut ir = analyze::analyze("t.txt", parsed, &Selection::default());
    ir.raw = Some(text.to_string());
    let mut app = App::new(ir, None, Theme::plain());
    let (screen, _) = render(&mut app, 80, 24);
    assert!(rows_with(&screen, "<signal handler called>").iter().any(|r| r.contains("#1")), "{screen}");
}

#[test]
fn threads_popup_lists_threads_and_selects_one() {
    let p = sample_copy("threads-crash.gdb.txt");
    let mut app = load(&p);
    let (screen, _) = render(&mut app, 120, 30);
    assert!(screen.contains("thread 6 \"crasher\", crashed"), "{screen}");
    key(&mut app, Action::Threads);
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("Threads (6)"), "{screen}");
    assert!(screen.contains("\"io-reader\""), "{screen}");
    let one = app.current_stop().unwrap().threads.iter().position(|t| &*t.id == "1").unwrap();
    key(&mut app, Action::Top);
    for _ in 0..one {
        key(&mut app, Action::Down);
    }
    key(&mut app, Action::Open);
    let (screen, _) = render(&mut app, 120, 30);
    assert!(screen.contains("thread 1 \"threads-crash\""), "{screen}");
    assert_eq!(app.focus, Pane::Frames);
}

#[test]
fn registers_pane_annotates_and_marks_changes() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    let (screen, _) = render(&mut app, 200, 50);
    // r13 points into the heap; the x/ dump gives the word behind it.
    assert!(rows_with(&screen, " r13 ").iter().any(|r| r.contains("heap —▸ 0x555555557dd0")), "{screen}");
    // rbp differs from frame #1's.
    assert!(screen.contains("*rbp"), "{screen}");
    // rip carries its symbol.
    assert!(rows_with(&screen, "rip ").iter().any(|r| r.contains("<julia_module_callback_4212+15> code")), "{screen}");
    // Frame #4 has its own registers: r13 there is 0x555555559318.
    key(&mut app, Action::Focus(Pane::Frames));
    for _ in 0..4 {
        key(&mut app, Action::Down);
    }
    let (screen, _) = render(&mut app, 200, 50);
    assert!(screen.contains("Registers · frame #4"), "{screen}");
    assert!(rows_with(&screen, " r13 ").iter().any(|r| r.contains("0x0000555555559318")), "{screen}");
    // Frame #3 printed no registers.
    key(&mut app, Action::Up);
    let (screen, _) = render(&mut app, 200, 50);
    assert!(screen.contains("no registers were printed for frame #3"), "{screen}");
}

#[test]
fn memory_pane_shows_pc_and_dumps() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Memory));
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("Memory & disassembly"), "{screen}");
    assert!(screen.contains("=> 0x555555555549"), "{screen}");
    for _ in 0..30 {
        key(&mut app, Action::Down);
    }
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("x $"), "{screen}");
}

#[test]
fn raw_pane_highlights_the_selected_items_lines() {
    let p = sample_copy("null-field.gdb.txt");
    let mut app = load(&p);
    let ev: Vec<u32> = app.ir.findings[0].evidence.iter().filter_map(|e| e.lines).map(|s| s.first).collect();
    assert!(!ev.is_empty());
    key(&mut app, Action::Focus(Pane::Raw));
    let (screen, _) = render(&mut app, 80, 24);
    let first = ev.iter().min().unwrap();
    assert!(screen.lines().any(|l| l.contains(&format!("{first:>3}▌"))), "line {first} not marked\n{screen}");
    // Selecting a frame highlights its bt line instead.
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::Down);
    key(&mut app, Action::Focus(Pane::Raw));
    let span = app.current_frame().unwrap().span.first;
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.lines().any(|l| l.contains(&format!("{span:>3}▌")) && l.contains("#1")), "{screen}");
    // Enter on that raw line selects the frame defined there.
    key(&mut app, Action::Top);
    key(&mut app, Action::Open);
    assert_eq!(app.status.as_ref().map(|s| s.1), Some(false));
}

#[test]
fn search_in_raw_and_frames() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Focus(Pane::Raw));
    key(&mut app, Action::Top);
    key(&mut app, Action::SearchStart);
    typ(&mut app, "info frame");
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("/info frame█"), "{screen}");
    key(&mut app, Action::Open);
    let line = tracecheck::tui::raw::line(&app, app.raw_cursor).to_string();
    assert!(line.contains("info frame"), "{line}");
    let first = app.raw_cursor;
    key(&mut app, Action::SearchNext);
    // Only one `info frame`: n wraps to the same line.
    assert_eq!(app.raw_cursor, first);
    key(&mut app, Action::SearchStart);
    typ(&mut app, "no such text");
    key(&mut app, Action::Open);
    assert!(app.status.as_ref().unwrap().0.contains("Pattern not found"));
    // Frames: smart-case search by function name.
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::SearchStart);
    typ(&mut app, "llvmrun");
    key(&mut app, Action::Open);
    assert_eq!(app.current_frame().unwrap().function_name(), "LLVMRunPasses");
    key(&mut app, Action::SearchPrev);
    assert_eq!(app.current_frame().unwrap().function_name(), "LLVMRunPasses");
}

#[test]
fn mouse_click_selects_and_wheel_scrolls() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    let (screen, _) = render(&mut app, 80, 24);
    let y = screen.lines().position(|l| l.contains("#2  run_pass_manager")).unwrap() as u16;
    key(&mut app, Action::Click { column: 5, row: y });
    assert_eq!(app.focus, Pane::Frames);
    assert_eq!(app.current_frame().unwrap().index, 2);
    key(&mut app, Action::Scroll { column: 5, row: y, down: true });
    assert_eq!(app.current_frame().unwrap().index, 5);
}

#[test]
fn help_lists_keys_and_resize_to_tiny_is_handled() {
    let p = sample_copy("null-field.gdb.txt");
    let mut app = load(&p);
    key(&mut app, Action::Help);
    let (screen, _) = render(&mut app, 100, 50);
    for k in ["Tab", "Enter", "/", "n / N", "g / Home", "G / End", "t ", "? ", "q / Ctrl-c", "a ", "e "] {
        assert!(screen.contains(k), "help lacks {k}\n{screen}");
    }
    key(&mut app, Action::Back);
    assert_eq!(app.mode, tracecheck::tui::app::Mode::Normal);
    let (screen, _) = render(&mut app, 30, 8);
    assert!(screen.contains("too small"), "{screen}");
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("Findings ("), "{screen}");
}

#[test]
fn escape_sequences_in_the_dump_never_reach_the_screen() {
    let text = "Program received signal SIGSEGV, Segmentation fault.\n0x0000555555555139 in evil\u{1b}]52;c;SGVsbG8=\u{7}\u{1b}[2J () at t.c:2\n(gdb) bt\n#0  0x0000555555555139 in evil\u{1b}[31mred () at t\u{1b}]0;title\u{7}.c:2\n";
    let parsed = tracecheck::input::parse(text);
    let mut ir = analyze::analyze("t.txt", parsed, &Selection::default());
    ir.raw = Some(text.to_string());
    let mut app = App::new(ir, None, Theme::plain());
    for p in tracecheck::tui::app::TAB_ORDER {
        key(&mut app, Action::Focus(p));
        let (screen, buf) = render(&mut app, 200, 50);
        assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}'), "{screen}");
        for c in buf.content() {
            assert!(!c.symbol().chars().any(|ch| ch.is_control()), "control char in a cell");
        }
    }
}

#[test]
fn note_in_tui_lands_in_sidecar_markdown_and_survives_a_rerun() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    // Navigate to frame #3, add a note.
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::Top);
    for _ in 0..3 {
        key(&mut app, Action::Down);
    }
    assert_eq!(app.current_frame().unwrap().index, 3);
    key(&mut app, Action::AddNote);
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("note on frame #3 LLVMRunPasses"), "{screen}");
    typ(&mut app, "thunk passed as | *module* <b>");
    key(&mut app, Action::Open);
    assert_eq!(app.status.as_ref().map(|s| s.1), Some(false), "{:?}", app.status);
    // A register note and a finding note, too.
    key(&mut app, Action::Focus(Pane::Frames));
    key(&mut app, Action::Top);
    key(&mut app, Action::Focus(Pane::Registers));
    let r13 = app.frame_registers().unwrap().regs.iter().position(|r| &*r.name == "r13").unwrap();
    key(&mut app, Action::Top);
    for _ in 0..r13 {
        key(&mut app, Action::Down);
    }
    key(&mut app, Action::AddNote);
    typ(&mut app, "r13 holds the thunk, not pgcstack");
    key(&mut app, Action::Open);
    key(&mut app, Action::Focus(Pane::Findings));
    key(&mut app, Action::AddNote);
    typ(&mut app, "rax came from [r13+0x10]");
    key(&mut app, Action::Open);
    key(&mut app, Action::AddTraceNote);
    typ(&mut app, "seen with Julia 1.12");
    key(&mut app, Action::Open);

    // The sidecar has all four, anchored by keys.
    let side = tracecheck::notes::load(&p).unwrap();
    assert_eq!(side.notes.len(), 4);
    let raw = std::fs::read_to_string(tracecheck::notes::sidecar_path(&p)).unwrap();
    assert!(raw.contains("\"version\": 1") && raw.contains("\"function\": \"LLVMRunPasses\""), "{raw}");

    // Export from the TUI writes the same report the batch markdown gives.
    key(&mut app, Action::Export);
    let (screen, _) = render(&mut app, 80, 24);
    assert!(screen.contains("Export bug report"), "{screen}");
    key(&mut app, Action::Open);
    let exported = std::fs::read_to_string(app.export_path()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "markdown"])
        .arg(&p)
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    for doc in [&exported, &md] {
        // Frame note right under frame #3 in the backtrace.
        let lines: Vec<&str> = doc.lines().collect();
        let i = lines.iter().position(|l| l.starts_with("#3 ") && l.contains("LLVMRunPasses")).unwrap();
        assert!(lines[i + 1].contains("^ note: thunk passed as | *module* <b>"), "{}", lines[i + 1]);
        // Register note in the r13 row of the table, escaped.
        assert!(
            lines.iter().any(|l| l.starts_with("| r13 |") && l.contains("r13 holds the thunk, not pgcstack")),
            "{doc}"
        );
        // Finding note under the finding; trace note at the top.
        assert!(doc.contains("  - **note:** rax came from \\[r13+0x10\\]"), "{doc}");
        assert!(doc.contains("> **Note:** seen with Julia 1.12"), "{doc}");
        assert!(doc.contains("<details><summary>Raw dump"), "{doc}");
    }
    // Clipboard export goes through OSC 52 in the loop.
    key(&mut app, Action::Export);
    key(&mut app, Action::ExportClipboard);
    assert!(app.clipboard.as_ref().unwrap().contains("LLVMRunPasses"));

    // A re-run (fresh parse, fresh App) finds the notes again on the same items.
    let mut again = load(&p);
    assert_eq!(again.notes.len(), 4);
    let (screen, _) = render(&mut again, 80, 24);
    assert!(rows_with(&screen, "#3").iter().any(|r| r.contains("✎")), "{screen}");
    assert!(screen.contains("4 notes"), "{screen}");
}

#[test]
fn broken_sidecar_is_reported_and_not_overwritten() {
    let p = sample_copy("null-field.gdb.txt");
    let side = tracecheck::notes::sidecar_path(&p);
    std::fs::write(&side, "{ not json").unwrap();
    let mut app = load(&p);
    let (screen, _) = render(&mut app, 120, 30);
    assert!(screen.contains("notes file"), "{screen}");
    assert!(app.status.as_ref().unwrap().0.contains("is broken"));
    key(&mut app, Action::AddTraceNote);
    typ(&mut app, "x");
    key(&mut app, Action::Open);
    assert!(app.status.as_ref().unwrap().1);
    assert!(app.status.as_ref().unwrap().0.contains("nothing was saved"));
    assert_eq!(std::fs::read_to_string(&side).unwrap(), "{ not json");
}

/// `e` then Enter with `DUMP.report.md` a symlink to a file outside: the export is refused
/// with a message on the status line and the link's target is left as it was.
#[test]
fn export_refuses_a_symlink_at_the_report_path() {
    let p = sample_copy("null-field.gdb.txt");
    let outside = p.parent().unwrap().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let bashrc = outside.join(".bashrc");
    std::fs::write(&bashrc, "echo keep me\n").unwrap();
    let mut app = load(&p);
    std::os::unix::fs::symlink(&bashrc, app.export_path()).unwrap();
    key(&mut app, Action::Export);
    key(&mut app, Action::Open);
    let (screen, _) = render(&mut app, 200, 30);
    assert!(std::fs::read_to_string(&bashrc).unwrap() == "echo keep me\n", "the export wrote through the link");
    assert!(screen.contains("symbolic link"), "{screen}");
    assert!(std::fs::symlink_metadata(app.export_path()).unwrap().file_type().is_symlink());
}
