//! End-to-end tests of `tracecheck tui --follow` inside tmux.
//!
//! * A shell appends real transcripts to a log while the binary follows it; `capture-pane`
//!   shows each new stop, the "new stop" notice after the user went back, End, the stop list
//!   and a truncation.
//! * Real gdb: `sample-traces/src/null-field.c` built with gcc, run under gdb with
//!   `set logging file X` + `set logging enabled on` while `tracecheck tui --follow X` is
//!   already waiting for X; after gdb finishes the screen shows the crash and its finding.
//!
//! * A FIFO: `tracecheck tui --follow FIFO` draws at once with no writer, shows what a
//!   writer sends while that writer stays open and silent, and quits on `q` (it used to block
//!   on the FIFO before the first frame, never drawing, deaf to `q`).
//!
//! tmux (and for the second test gdb and gcc) are required in CI (`CI=true`: missing tools
//! fail the test); elsewhere the tests are skipped with a `SKIPPED` line
//! (`common::require_tools`). Each test runs its own tmux server (`-L`), never the user's.

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn new(tag: &str) -> Tmux {
        Tmux { socket: format!("tracecheck-follow-{tag}-{}", std::process::id()) }
    }
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
    fn start(&self, cmd: &str) {
        let out = self.cmd(&[
            "new-session",
            "-d",
            "-s",
            "tc",
            "-x",
            "100",
            "-y",
            "30",
            "env",
            "LANG=C.UTF-8",
            "sh",
            "-c",
            cmd,
        ]);
        assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
    }
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "tc"]).stdout).into_owned()
    }
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", "-t", "tc", k]);
        }
    }
    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("timed out waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    fn alive(&self) -> bool {
        self.cmd(&["has-session", "-t", "tc"]).status.success()
    }
    fn quit(&self) {
        self.keys(&["q"]);
        let start = Instant::now();
        while self.alive() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!self.alive(), "tracecheck did not exit on q");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").arg("-L").arg(&self.socket).arg("kill-server").output();
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tracecheck-follow-tmux-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces").join(name)
}

/// Appends with a shell, as a debugger writing its log would (`sh -c 'cat A >> LOG'`).
fn shell(script: &str) {
    let o = Command::new("sh").arg("-c").arg(script).output().unwrap();
    assert!(o.status.success(), "sh -c {script}: {}", String::from_utf8_lossy(&o.stderr));
}

fn header(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[test]
fn follow_in_tmux_while_a_shell_appends() {
    if !common::require_tools(&["tmux"]) {
        return;
    }
    let dir = temp_dir("shell");
    let log = dir.join("session.log");
    let good = std::fs::read_to_string(sample("julia-trampoline-good-r13.gdb.txt")).unwrap();
    // The good run up to the middle of its exit line, then the rest: a chunk ends mid-line.
    let cut = good.find("[Inferior 1").unwrap() + 5;
    std::fs::write(dir.join("good-a.txt"), &good[..cut]).unwrap();
    std::fs::write(dir.join("good-b.txt"), &good[cut..]).unwrap();
    let at = |n: &str| format!("'{}'", dir.join(n).display());
    let log_q = format!("'{}'", log.display());

    let t = Tmux::new("shell");
    let bin = env!("CARGO_BIN_EXE_tracecheck");
    t.start(&format!("{bin} tui --follow {log_q}"));
    t.wait_for("waiting for the log", |s| header(s).contains("[following: waiting for the file]"));

    shell(&format!("cat {} >> {log_q}", at("good-a.txt")));
    let s =
        t.wait_for("the breakpoint stop", |s| header(s).contains("[following]") && header(s).contains("breakpoint 1"));
    assert!(s.contains("julia_module_callback_4212"), "{s}");
    assert!(!header(&s).contains("stop 2/2"), "the half-written exit line was parsed:\n{s}");

    shell(&format!("cat {} >> {log_q}", at("good-b.txt")));
    t.wait_for("the exit stop", |s| header(s).contains("stop 2/2 · exited with status 0"));

    shell(&format!("cat '{}' >> {log_q}", sample("julia-trampoline-bad-r13.gdb.txt").display()));
    let s = t.wait_for("the crash", |s| header(s).contains("stop 3/3 · SIGSEGV"));
    t.wait_for("its top finding", |s| s.contains("pinned-register") && s.contains("▶ r13 "));
    assert!(s.contains("! #0"), "{s}");

    // Back to the first stop; a new stop arrives: the view stays, the footer says so.
    t.keys(&["[", "["]);
    t.wait_for("stop 1", |s| header(s).contains("stop 1/3 · breakpoint 1"));
    shell(&format!("cat '{}' >> {log_q}", sample("null-field.gdb.txt").display()));
    let s = t.wait_for("the notice", |s| s.lines().last().is_some_and(|l| l.contains("new stop 4 (press ] / End)")));
    assert!(header(&s).contains("stop 1/4 · breakpoint 1"), "{s}");
    t.keys(&["End"]);
    let s = t.wait_for("the new stop", |s| header(s).contains("stop 4/4 · SIGSEGV"));
    assert!(s.contains("session_bytes"), "{s}");
    assert!(s.contains("null-dereference"), "{s}");

    // The stop list.
    t.keys(&["s"]);
    let s = t.wait_for("the stop list", |s| s.contains("Stops (4)"));
    assert!(s.contains("exited with status 0"), "{s}");
    t.keys(&["Escape"]);
    t.wait_for("the list closed", |s| !s.contains("Stops (4)"));

    // `set logging overwrite on` truncates the log: read afresh.
    shell(&format!("cat {} > {log_q}", at("good-a.txt")));
    // The notice comes with the reset; the new model a moment later, from the parse worker.
    t.wait_for("the reset", |s| s.contains("truncated or replaced"));
    let s = t.wait_for("the re-read log", |s| header(s).contains("breakpoint 1"));
    assert!(!header(&s).contains("stop "), "{s}");
    t.quit();
}

#[test]
fn follow_a_real_gdb_log() {
    if !common::require_tools(&["tmux", "gdb", "gcc"]) {
        return;
    }
    let dir = temp_dir("gdb");
    let prog = dir.join("null-field");
    let o = Command::new("gcc")
        .args(["-O0", "-g", "src/null-field.c", "-o"])
        .arg(&prog)
        .current_dir(sample(""))
        .output()
        .unwrap();
    assert!(o.status.success(), "gcc: {}", String::from_utf8_lossy(&o.stderr));
    let log = dir.join("gdb.log");

    // tracecheck first, as in the split-pane workflow: it waits for gdb to create the log.
    let t = Tmux::new("gdb");
    let bin = env!("CARGO_BIN_EXE_tracecheck");
    t.start(&format!("{bin} tui --follow '{}'", log.display()));
    t.wait_for("waiting for the log", |s| header(s).contains("[following: waiting for the file]"));

    let mut gdb = Command::new("gdb");
    gdb.args(["-q", "-batch", "-nx"]);
    for c in [
        "set pagination off".to_string(),
        "set width 0".to_string(),
        format!("set logging file {}", log.display()),
        "set logging overwrite on".to_string(),
        "set logging enabled on".to_string(),
        "set trace-commands on".to_string(),
        "run".to_string(),
        "bt".to_string(),
        "info registers".to_string(),
        "p $_siginfo".to_string(),
        "x/4i $pc".to_string(),
    ] {
        gdb.arg("-ex").arg(c);
    }
    let out = gdb.arg(&prog).env("LANG", "C").output().unwrap();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        text.contains("Program received signal SIGSEGV"),
        "gdb did not log the crash (is ptrace allowed here?)\nlog:\n{text}\ngdb stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = t.wait_for("the crash from the gdb log", |s| {
        header(s).contains("SIGSEGV (SEGV_MAPERR) at 0x18") && s.contains("null-dereference") && s.contains("▶ rax ")
    });
    assert!(s.contains("! #0"), "{s}");
    assert!(s.contains("session_bytes"), "{s}");
    t.quit();
}

#[test]
fn follow_a_fifo_draws_and_quits_on_q() {
    if !common::require_tools(&["tmux"]) {
        return;
    }
    let dir = temp_dir("fifo");
    let fifo = dir.join("session.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {}", fifo.display());

    let t = Tmux::new("fifo");
    let bin = env!("CARGO_BIN_EXE_tracecheck");
    t.start(&format!("{bin} tui --follow '{}'", fifo.display()));
    // No writer yet: the screen is drawn anyway.
    let s = t.wait_for("the first frame with no writer", |s| header(s).contains("[following]"));
    assert!(!header(&s).contains("SIGSEGV"), "{s}");

    // A writer opens the FIFO (tracecheck holds it open for reading, so this open returns),
    // writes a crash, and stays open without writing more.
    // Non-blocking, so this test cannot hang: ENXIO until tracecheck has it open for reading.
    use std::os::unix::fs::OpenOptionsExt;
    let start = Instant::now();
    let mut w = loop {
        match std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&fifo) {
            Ok(w) => break w,
            Err(e) if start.elapsed() < Duration::from_secs(20) => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("tracecheck never opened the FIFO for reading: {e}\n{}", t.screen()),
        }
    };
    let dump = std::fs::read(sample("null-field.gdb.txt")).unwrap();
    std::io::Write::write_all(&mut w, &dump).unwrap();
    let s = t.wait_for("the crash from the FIFO", |s| header(s).contains("SIGSEGV") && s.contains("null-dereference"));
    assert!(s.contains("session_bytes"), "{s}");
    // The writer is still open and silent: a blocking read would freeze the TUI here.
    t.quit();
    drop(w);
}
