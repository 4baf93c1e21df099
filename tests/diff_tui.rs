//! `tracecheck diff --tui`: the diff view rendered on ratatui's `TestBackend` at 80x24 and
//! 160x45 from real recorded runs (sample-traces/triage/runs, see record.sh there): both
//! panes show the frames aligned by function on the same screen row, and a key moves the
//! selection in both panes to the aligned frame. Then the real binary in tmux (required in
//! CI, else `SKIPPED`): draw, move, quit, and the shell gets its screen back.

mod common;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use tracecheck::triage::diff::load_diff;
use tracecheck::tui::diffview::{DiffAction, DiffApp, Side};
use tracecheck::tui::theme::Theme;

fn run(name: &str) -> String {
    format!("{}/sample-traces/triage/runs/{name}.gdb.txt", env!("CARGO_MANIFEST_DIR"))
}

fn app(a: &str, b: &str) -> DiffApp {
    DiffApp::new(load_diff(&run(a), &run(b)).expect("both runs load"), Theme::plain())
}

fn render(app: &DiffApp, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| app.draw(f, f.area())).unwrap();
    term.backend().buffer().clone()
}

/// The text of columns `x0..x1` of row `y`.
fn text(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    (x0..x1).map(|x| buf[(x, y)].symbol()).collect()
}

fn screen(buf: &Buffer) -> String {
    let a = buf.area;
    (0..a.height).map(|y| text(buf, y, 0, a.width)).collect::<Vec<_>>().join("\n")
}

/// The screen row of `needle` in the left (A) or right (B) half.
fn row_of(buf: &Buffer, left: bool, needle: &str) -> Option<u16> {
    let w = buf.area.width;
    let (x0, x1) = if left { (0, w / 2) } else { (w / 2, w) };
    (0..buf.area.height).find(|&y| text(buf, y, x0, x1).contains(needle))
}

/// The screen row drawn in reverse video (the selection) in a half.
fn selected_row(buf: &Buffer, left: bool) -> Option<u16> {
    let w = buf.area.width;
    let x = if left { 3 } else { w / 2 + 3 };
    (0..buf.area.height).find(|&y| buf[(x, y)].modifier.contains(Modifier::REVERSED))
}

#[test]
fn same_bug_two_runs_side_by_side_at_both_sizes() {
    // The same NULL dereference recorded with 1 and 8 threads (other addresses, ASLR).
    let mut app = app("null-config-t1-s1", "null-config-t8-s3");
    for (w, h) in [(80, 24), (160, 45)] {
        let buf = render(&app, w, h);
        let s = screen(&buf);
        assert!(s.contains("A null-config-t1-s1.gdb.txt  stop #1: SIGSEGV"), "{s}");
        assert!(s.contains("B null-config-t8-s3.gdb.txt  stop #1: SIGSEGV"), "{s}");
        assert!(s.contains("findings +0 only in B  -0 only in A"), "{s}");
        for f in ["parse_field", "load_config", "serve", "start_thread"] {
            let (ya, yb) = (row_of(&buf, true, f), row_of(&buf, false, f));
            assert!(ya.is_some(), "{f} missing in pane A at {w}x{h}:\n{s}");
            assert_eq!(ya, yb, "{f} not aligned at {w}x{h}:\n{s}");
        }
        assert_eq!(selected_row(&buf, true), row_of(&buf, true, "parse_field"), "{s}");
        assert_eq!(selected_row(&buf, false), row_of(&buf, false, "parse_field"), "{s}");
    }
    app.update(DiffAction::Down);
    let buf = render(&app, 80, 24);
    assert_eq!(selected_row(&buf, true), row_of(&buf, true, "load_config"), "{}", screen(&buf));
    assert_eq!(selected_row(&buf, false), row_of(&buf, false, "load_config"), "{}", screen(&buf));
    assert_eq!((app.selected_frame(Side::A), app.selected_frame(Side::B)), (Some(1), Some(1)));
}

#[test]
fn linked_selection_follows_the_alignment_not_the_index() {
    // Same function, other cause: B aborts in an assert inside parse_field, so B has six
    // libc frames above parse_field that A does not have.
    let mut app = app("null-user-t3-s5", "assert-len-t4-s9");
    let d = app.current().unwrap();
    let marks: String = d.frames.iter().map(|r| r.mark).collect();
    assert!(marks.starts_with("++++++~="), "{marks}");
    // Focus starts on A's frame #0; B's aligned frame is its #6 (parse_field).
    assert_eq!((app.selected_frame(Side::A), app.selected_frame(Side::B)), (Some(0), Some(6)));
    for (w, h) in [(80, 24), (160, 45)] {
        let buf = render(&app, w, h);
        let s = screen(&buf);
        let ya = row_of(&buf, true, "#0  parse_field").expect(&s);
        assert_eq!(Some(ya), row_of(&buf, false, "#6  parse_field"), "{s}");
        assert_eq!(selected_row(&buf, true), Some(ya), "{s}");
        assert_eq!(selected_row(&buf, false), Some(ya), "{s}");
        assert_eq!(row_of(&buf, true, "load_user"), row_of(&buf, false, "#7  load_user"), "{s}");
        assert!(s.contains("SIGABRT"), "{s}");
    }
    // j in A: both move to load_user (A #1, B #7).
    app.update(DiffAction::Down);
    assert_eq!((app.selected_frame(Side::A), app.selected_frame(Side::B)), (Some(1), Some(7)));
    let buf = render(&app, 80, 24);
    let y = row_of(&buf, true, "load_user");
    assert_eq!(selected_row(&buf, true), y, "{}", screen(&buf));
    assert_eq!(selected_row(&buf, false), y, "{}", screen(&buf));
    // In B, frames A lacks are reachable; A then has no frame in the selected row.
    app.update(DiffAction::FocusB);
    app.update(DiffAction::Top);
    assert_eq!((app.selected_frame(Side::A), app.selected_frame(Side::B)), (None, Some(0)));
    app.update(DiffAction::Bottom);
    assert!(app.selected_frame(Side::B).unwrap() >= 9);
    app.update(DiffAction::Quit);
    assert!(app.quit);
}

#[test]
fn diff_tui_in_tmux_moves_both_panes_and_quits_cleanly() {
    if !common::require_tools(&["tmux"]) {
        return;
    }
    let socket = format!("tracecheck-diff-test-{}", std::process::id());
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux").args(["-L", &socket, "-f", "/dev/null"]).args(args).output().unwrap()
    };
    struct Kill<'a>(&'a dyn Fn(&[&str]) -> std::process::Output);
    impl Drop for Kill<'_> {
        fn drop(&mut self) {
            (self.0)(&["kill-server"]);
        }
    }
    let _kill = Kill(&tmux);
    let cmd = format!(
        "'{}' diff --tui '{}' '{}'; echo EXITED $?; sleep 60",
        env!("CARGO_BIN_EXE_tracecheck"),
        run("null-user-t3-s5"),
        run("assert-len-t4-s9")
    );
    let out =
        tmux(&["new-session", "-d", "-s", "tc", "-x", "100", "-y", "30", "env", "LANG=C.UTF-8", "sh", "-c", &cmd]);
    assert!(out.status.success(), "tmux: {}", String::from_utf8_lossy(&out.stderr));
    let wait = |what: &str, pred: &dyn Fn(&str) -> bool| -> String {
        let start = std::time::Instant::now();
        loop {
            let s = String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", "tc"]).stdout).into_owned();
            if pred(&s) {
                return s;
            }
            assert!(start.elapsed().as_secs() < 15, "timed out waiting for {what}:\n{s}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    };
    let row = |s: &str, needle: &str| s.lines().position(|l| l.contains(needle));
    let s = wait("the first frame", &|s| s.contains("#6  parse_field"));
    assert_eq!(row(&s, "#0  parse_field"), row(&s, "#6  parse_field"), "{s}");
    assert!(s.contains("B assert-len-t4-s9.gdb.txt  stop #1: SIGABRT"), "{s}");
    tmux(&["send-keys", "-t", "tc", "j"]);
    tmux(&["send-keys", "-t", "tc", "q"]);
    let s = wait("the exit", &|s| s.contains("EXITED"));
    assert!(s.contains("EXITED 0"), "{s}");
    assert!(!s.contains("parse_field"), "the alternate screen was not left:\n{s}");
}
