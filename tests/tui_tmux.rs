//! End-to-end test of the real `tracecheck tui` binary inside tmux: start it on the founding
//! case, read the screen with `capture-pane`, send keys (navigate, note, export, help, resize,
//! quit) and check the screen, the sidecar and the markdown.
//!
//! tmux is required in CI (`CI=true`: a missing tmux fails the test); elsewhere the test is
//! skipped with a `SKIPPED` line (`common::require_tools`). It runs its own tmux server
//! (`-L`), never the user's.

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .arg("-f")
            .arg("/dev/null")
            .args(args)
            .output()
            .expect("run tmux")
    }
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "tc"]).stdout).into_owned()
    }
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", "-t", "tc", k]);
        }
    }
    fn text(&self, s: &str) {
        self.cmd(&["send-keys", "-t", "tc", "-l", s]);
    }
    /// Waits until the screen satisfies `pred` (the binary draws asynchronously).
    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(15) {
                panic!("timed out waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    fn alive(&self) -> bool {
        self.cmd(&["has-session", "-t", "tc"]).status.success()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").arg("-L").arg(&self.socket).arg("kill-server").output();
    }
}

fn copy_sample(name: &str) -> PathBuf {
    copy_sample_as(name, "e2e")
}

/// The sample in a directory of its own per test (`tag`), as tests run in parallel.
fn copy_sample_as(name: &str, tag: &str) -> PathBuf {
    let dir =
        common::scratch_root().join(format!("tracecheck-tmux-{}-{tag}-{}", std::process::id(), name.replace('.', "_")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dst = dir.join(name);
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces").join(name), &dst).unwrap();
    dst
}

#[test]
fn tui_in_tmux_end_to_end() {
    if !common::require_tools(&["tmux"]) {
        return;
    }
    let dump = copy_sample("julia-trampoline-bad-r13.gdb.txt");
    // What the screen must show without a keypress: the top finding and its registers.
    let bytes = std::fs::read(&dump).unwrap();
    let ir = tracecheck::analyze::analyze("x", tracecheck::input::parse_bytes(&bytes), &Default::default());
    let top = ir.findings.first().expect("a finding on the founding case").clone();

    let t = Tmux { socket: format!("tracecheck-test-{}", std::process::id()) };
    let bin = env!("CARGO_BIN_EXE_tracecheck");
    let cmd = format!("{} tui '{}'", bin, dump.display());
    let out =
        t.cmd(&["new-session", "-d", "-s", "tc", "-x", "100", "-y", "30", "env", "LANG=C.UTF-8", "sh", "-c", &cmd]);
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));

    let s = t.wait_for("the first frame", |s| s.contains("Findings ("));
    assert!(s.contains(top.rule), "{s}");
    for r in &top.registers {
        assert!(s.contains(&format!("▶ {r} ")), "{r} not highlighted:\n{s}");
    }
    assert!(s.contains("Explanation:"), "{s}");
    assert!(s.contains("! #0"), "{s}");

    // Navigate to frame #3 and add a note.
    t.keys(&["1", "g", "j", "j", "j"]);
    t.wait_for("frame #3 selected", |s| s.contains("Frame #3"));
    t.keys(&["a"]);
    t.wait_for("the note prompt", |s| s.contains("note on frame #3 LLVMRunPasses"));
    t.text("thunk passed where pgcstack belongs");
    t.keys(&["Enter"]);
    t.wait_for("the note saved", |s| s.contains("note saved on frame #3"));

    // Search the raw dump.
    t.keys(&["6", "/"]);
    t.text("info frame");
    t.keys(&["Enter"]);
    t.wait_for("the search result", |s| {
        s.lines().last().is_some_and(|l| l.starts_with("/info frame")) && s.contains("(gdb) info frame")
    });

    // Export to a file.
    t.keys(&["e"]);
    t.wait_for("the export popup", |s| s.contains("Export bug report"));
    t.keys(&["Enter"]);
    t.wait_for("the export", |s| s.contains("wrote the bug report"));

    // Help lists the keys; Esc closes it.
    t.keys(&["?"]);
    t.wait_for("help", |s| s.contains("Shift-Tab") && s.contains("previous pane"));
    t.keys(&["Escape"]);
    t.wait_for("help closed", |s| !s.contains("Shift-Tab"));

    // Resize to 80x24 and to something too small, and back.
    t.cmd(&["resize-window", "-t", "tc", "-x", "80", "-y", "24"]);
    t.wait_for("80x24", |s| s.lines().count() <= 24 && s.contains("Findings ("));
    t.cmd(&["resize-window", "-t", "tc", "-x", "30", "-y", "8"]);
    t.wait_for("too small", |s| s.contains("too small"));
    t.cmd(&["resize-window", "-t", "tc", "-x", "120", "-y", "40"]);
    t.wait_for("wide again", |s| s.contains("Findings ("));

    // Quit: the program exits and the session with it.
    t.keys(&["q"]);
    let start = Instant::now();
    while t.alive() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!t.alive(), "tracecheck did not exit on q");

    // The note is in the sidecar, in the exported report and in the batch markdown.
    let side = tracecheck::notes::load(&dump).unwrap();
    assert_eq!(side.notes.len(), 1);
    let mut report = dump.clone().into_os_string();
    report.push(".report.md");
    let exported = std::fs::read_to_string(&report).unwrap();
    let md = Command::new(bin).args(["--format", "markdown"]).arg(&dump).output().unwrap();
    let md = String::from_utf8(md.stdout).unwrap();
    for doc in [exported, md] {
        let lines: Vec<&str> = doc.lines().collect();
        let i = lines.iter().position(|l| l.starts_with("#3 ") && l.contains("LLVMRunPasses")).unwrap();
        assert!(lines[i + 1].contains("note: thunk passed where pgcstack belongs"), "{doc}");
    }
}

/// Issue 15 item 5 in the real binary: the hidden-pane footer, sideways scroll, the Source
/// pane from `--source-dir` (a checkout elsewhere), and a note added, edited and
/// deleted in the notes list (`m`), checked in the sidecar.
#[test]
fn tui_in_tmux_scroll_source_and_note_editing() {
    if !common::require_tools(&["tmux"]) {
        return;
    }
    let dump = copy_sample_as("julia-trampoline-bad-r13.gdb.txt", "ux");
    // The source tree somewhere else, as a checkout of the project would be.
    let checkout = dump.parent().unwrap().join("checkout");
    std::fs::create_dir_all(checkout.join("src")).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces/src/julia-trampoline.c");
    std::fs::copy(&src, checkout.join("src/julia-trampoline.c")).unwrap();
    let line165: String =
        std::fs::read_to_string(&src).unwrap().lines().nth(164).unwrap().trim().chars().take(16).collect();

    let t = Tmux { socket: format!("tracecheck-test-ux-{}", std::process::id()) };
    let bin = env!("CARGO_BIN_EXE_tracecheck");
    let cmd = format!("{} tui --source-dir '{}' '{}'", bin, checkout.display(), dump.display());
    let out =
        t.cmd(&["new-session", "-d", "-s", "tc", "-x", "80", "-y", "24", "env", "LANG=C.UTF-8", "sh", "-c", &cmd]);
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));

    // 80x24: the footer names the panes that do not fit.
    let s = t.wait_for("the first frame", |s| s.contains("Findings ("));
    assert!(s.contains("hidden: memory, raw — widen or press Tab"), "{s}");

    // Sideways: the Registers pane scrolls, its name and value column stays.
    t.keys(&["2", "l"]);
    let s = t.wait_for("registers scrolled", |s| s.lines().any(|l| l.contains("stack heap code") && l.contains("◂ h")));
    assert!(s.lines().any(|l| l.contains("r10    0x7ffff7de4380 …")), "{s}");
    t.keys(&["h"]);
    t.wait_for("registers back", |s| s.lines().any(|l| l.contains("stack heap code") && !l.contains("◂")));

    // The Source pane: frame #7 `main () at src/julia-trampoline.c:165`, read from the
    // checkout; at 80x24 it is hidden (and named) until 7 focuses it.
    t.keys(&["1", "G"]);
    t.wait_for("frame #7 and its source", |s| s.contains("Frame #7") && s.contains("raw, source"));
    t.keys(&["7"]);
    // Wait for the line itself, not only the title: the pane's text arrives after the file is read.
    let s = t.wait_for("the source pane and line 165", |s| {
        s.contains("Source · src/julia-trampoline.c:165")
            && s.lines().any(|l| l.contains(">165 ") && l.contains(&line165))
    });
    assert!(s.contains("Source · src/julia-trampoline.c:165"), "{s}");

    // A note on frame #7, then edited in the notes list and deleted.
    t.keys(&["1", "a"]);
    t.wait_for("the note prompt", |s| s.contains("note on frame #7 main"));
    t.text("exits with 1");
    t.keys(&["Enter"]);
    t.wait_for("the note saved", |s| s.contains("note saved on frame #7"));
    t.keys(&["m"]);
    t.wait_for("the notes list", |s| s.contains("Notes (1)") && s.contains("exits with 1"));
    t.keys(&["Enter"]);
    t.wait_for("the edit prompt", |s| s.contains("edit note on frame #7"));
    t.keys(&["BSpace"]);
    t.text("0 after the fix");
    t.keys(&["Enter"]);
    t.wait_for("the note edited", |s| s.contains("note edited on frame #7"));
    let side = tracecheck::notes::load(&dump).unwrap();
    assert_eq!(side.notes.len(), 1);
    assert_eq!(side.notes[0].text, "exits with 0 after the fix");
    t.keys(&["m", "d"]);
    t.wait_for("the delete question", |s| s.contains("d again deletes"));
    t.keys(&["d"]);
    t.wait_for("the note deleted", |s| s.contains("note deleted"));
    assert!(tracecheck::notes::load(&dump).unwrap().notes.is_empty());
    assert!(!tracecheck::notes::sidecar_path(&dump).exists());

    t.keys(&["q"]);
    let start = Instant::now();
    while t.alive() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!t.alive(), "tracecheck did not exit on q");
}
