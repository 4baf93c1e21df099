//! Cores of processes that had not crashed — gdb's `gcore` of a running process (attached with
//! SIGSTOP), `generate-core-file` at a breakpoint and after a `stepi` (SIGTRAP, gdb's `int3`
//! taken out of memory) — are snapshots: the stop says so, keeps the signal, names no crashed
//! thread and no culprit, and no rule reads its frame #0 as a fault. Their look-alikes stay
//! crashes: a program's own `int3` (SIGTRAP with the trap instruction before the pc) and a
//! NULL read, both written by `generate-core-file` at gdb's stop like the snapshots.
//!
//! Everything is recorded at test time from real programs (gcc; i686-linux-gnu-gcc for the
//! i386 snapshot) with real gdb and its `gcore` script. Needs gcc and gdb (`common::require_tools`).

mod common;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const LIVE_C: &str = r#"#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct item { int key; struct item *next; };

__attribute__((noinline)) int sum_list(struct item *it) {
    int s = 0;
    for (; it; it = it->next)
        s += it->key;
    return s;
}

__attribute__((noinline)) void wait_forever(void) {
    for (;;)
        pause();
}

__attribute__((noinline)) void own_trap(void) {
    __asm__ volatile("int3");
}

int main(int argc, char **argv) {
    struct item c = {3, 0}, b = {2, &c}, a = {1, &b};
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "crash") == 0)
        c.next = (struct item *)0x10;   /* a bad pointer: sum_list reads 0x10 */
    printf("%d\n", sum_list(&a));
    fflush(stdout);
    if (strcmp(mode, "trap") == 0)
        own_trap();
    if (strcmp(mode, "wait") == 0)
        wait_forever();
    return 0;
}
"#;

fn workdir(name: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tracecheck-snapshot-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

fn gdb(dir: &Path) -> Command {
    let mut c = Command::new("gdb");
    c.current_dir(dir).env_clear().env("PATH", "/usr/bin:/bin").env("HOME", dir).env("LANG", "C");
    c.args(["-q", "-batch", "-nx", "-iex", "set debuginfod enabled off", "-iex", "set pagination off"]);
    c
}

/// gdb runs `./prog ARG` with `commands` (each a `-ex`), the last of which writes `core`.
fn under_gdb(dir: &Path, prog: &str, arg: &str, commands: &[&str], core: &str) -> PathBuf {
    let mut c = gdb(dir);
    for cmd in commands {
        c.args(["-ex", cmd]);
    }
    c.args(["-ex", &format!("generate-core-file {core}"), "--args", &format!("./{prog}"), arg]);
    let text = run(&mut c);
    let path = dir.join(core);
    assert!(path.is_file(), "no core written:\n{text}");
    path
}

/// `gcore` (gdb's script) of `./prog wait` while it runs in `pause()`.
fn gcore_of_running(dir: &Path, prog: &str, core: &str) -> PathBuf {
    let mut child = Command::new(format!("./{prog}"))
        .arg("wait")
        .current_dir(dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the program");
    // It prints the sum, then waits: read that line, so that it is in pause() already.
    let mut line = [0u8; 2];
    use std::io::Read;
    let _ = child.stdout.as_mut().unwrap().read_exact(&mut line);
    std::thread::sleep(std::time::Duration::from_millis(100));
    let prefix = dir.join(core);
    let out = Command::new("gcore")
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir)
        .arg("-o")
        .arg(&prefix)
        .arg(child.id().to_string())
        .output()
        .expect("run gcore");
    let _ = child.kill();
    let _ = child.wait();
    let path = PathBuf::from(format!("{}.{}", prefix.display(), child.id()));
    assert!(path.is_file(), "gcore wrote no core: {}", String::from_utf8_lossy(&out.stderr));
    path
}

/// tracecheck's JSON report (with `--exe`) and its text report of a core.
fn analyze(exe: &Path, core: &Path) -> (Value, String) {
    let bin = env!("CARGO_BIN_EXE_tracecheck");
    let json = Command::new(bin).args(["--format", "json", "--fail-on", "never", "--exe"]).arg(exe).arg(core).output();
    let json = json.expect("run tracecheck");
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let v: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let text = Command::new(bin).args(["--color", "never", "--fail-on", "never", "--exe"]).arg(exe).arg(core).output();
    (v, String::from_utf8_lossy(&text.expect("run tracecheck").stdout).into_owned())
}

fn frames(stop: &Value, thread: usize) -> Vec<String> {
    stop["threads"][thread]["frames"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["function"].as_str().unwrap_or("??").to_string())
        .collect()
}

fn rules(v: &Value) -> Vec<String> {
    v["inputs"][0]["findings"].as_array().into_iter().flatten().map(|f| f["rule"].as_str().unwrap().into()).collect()
}

/// A snapshot: kind `snapshot`, the signal kept, no crashed thread, no culprit, no finding;
/// the text report says so and names no crashed thread.
fn assert_snapshot(what: &str, v: &Value, text: &str, signal: &str) -> Value {
    let stop = v["inputs"][0]["stops"][0].clone();
    assert_eq!(stop["reason"]["kind"], "snapshot", "{what}: {}", stop["reason"]);
    assert_eq!(stop["reason"]["signal"], signal, "{what}");
    let threads = stop["threads"].as_array().unwrap();
    assert!(!threads.is_empty() && threads.iter().all(|t| t["crashed"] == false), "{what}: a thread crashed");
    assert!(stop["culprit"].is_null(), "{what}: culprit {}", stop["culprit"]);
    assert!(rules(v).is_empty(), "{what}: findings {:?}", rules(v));
    assert!(text.contains("snapshot of a process that had not crashed"), "{what}:\n{text}");
    assert!(text.contains("\n  thread 1") && !text.contains("\n  crashed thread"), "{what}:\n{text}");
    stop
}

#[test]
fn cores_of_live_and_stopped_processes_are_snapshots_and_their_look_alikes_crashes() {
    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir = workdir("x86_64");
    std::fs::write(dir.join("live.c"), LIVE_C).unwrap();
    run(Command::new("gcc").current_dir(&dir).args(["-O1", "-g", "-fno-inline", "live.c", "-o", "live"]));
    let exe = dir.join("live");

    // gcore of the running program: SIGSTOP of gcore's attach, in pause() under wait_forever.
    let core = gcore_of_running(&dir, "live", "running");
    let (v, text) = analyze(&exe, &core);
    let stop = assert_snapshot("gcore of a running process", &v, &text, "SIGSTOP");
    let f = frames(&stop, 0);
    assert!(f.iter().any(|n| n == "wait_forever") && f.iter().any(|n| n == "main"), "{f:?}");

    // generate-core-file at a breakpoint: SIGTRAP, frame #0 is the breakpoint's function.
    let core = under_gdb(&dir, "live", "", &["break sum_list", "run"], "bp.core");
    let (v, text) = analyze(&exe, &core);
    let stop = assert_snapshot("a breakpoint", &v, &text, "SIGTRAP");
    assert_eq!(frames(&stop, 0)[..2], ["sum_list", "main"]);

    // … and after a `stepi` from that breakpoint.
    let core = under_gdb(&dir, "live", "", &["break sum_list", "run", "stepi", "stepi"], "step.core");
    let (v, text) = analyze(&exe, &core);
    let stop = assert_snapshot("a stepi", &v, &text, "SIGTRAP");
    assert_eq!(frames(&stop, 0)[0], "sum_list");

    // Look-alike: the program's own int3, stopped by gdb like the breakpoint: a crash, the
    // thread that trapped is the crashed one.
    let core = under_gdb(&dir, "live", "trap", &["run"], "trap.core");
    let (v, text) = analyze(&exe, &core);
    let stop = &v["inputs"][0]["stops"][0];
    assert_eq!(stop["reason"]["kind"], "signal", "{}", stop["reason"]);
    assert_eq!(stop["reason"]["signal"], "SIGTRAP");
    assert_eq!(stop["threads"][0]["crashed"], true);
    assert_eq!(frames(stop, 0)[0], "own_trap");
    assert!(text.contains("\n  crashed thread 1") && !text.contains("snapshot of a process"), "{text}");

    // Look-alike: a real fault, written at gdb's stop the same way: unchanged.
    let core = under_gdb(&dir, "live", "crash", &["run"], "crash.core");
    let (v, text) = analyze(&exe, &core);
    let stop = &v["inputs"][0]["stops"][0];
    assert_eq!(stop["reason"]["kind"], "signal");
    assert_eq!(stop["reason"]["signal"], "SIGSEGV");
    assert_eq!(stop["reason"]["address"], "0x10");
    assert_eq!(stop["threads"][0]["crashed"], true);
    assert_eq!(stop["culprit"]["function"], "sum_list");
    assert!(rules(&v).contains(&"null-dereference".to_string()), "{:?}", rules(&v));
    assert!(text.contains("\n  crashed thread 1") && !text.contains("snapshot of a process"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same for i386: gcore of a running static i386 program is a snapshot (its waiting
/// thread stops in the vDSO's `__kernel_vsyscall`); a breakpoint's core too.
#[test]
fn i386_core_of_a_live_process_is_a_snapshot() {
    if !common::require_tools(&["i686-linux-gnu-gcc", "gdb"]) {
        return;
    }
    let dir = workdir("i386");
    std::fs::write(dir.join("live.c"), LIVE_C).unwrap();
    run(Command::new("i686-linux-gnu-gcc").current_dir(&dir).args([
        "-O1",
        "-g",
        "-fno-inline",
        "-static",
        "live.c",
        "-o",
        "live32",
    ]));
    let exe = dir.join("live32");
    let core = gcore_of_running(&dir, "live32", "running32");
    let (v, text) = analyze(&exe, &core);
    let stop = assert_snapshot("gcore of a running i386 process", &v, &text, "SIGSTOP");
    assert_eq!(v["inputs"][0]["arch"], "x86");
    let f = frames(&stop, 0);
    assert_eq!(f.first().map(String::as_str), Some("__kernel_vsyscall"), "{f:?}");
    assert!(f.iter().any(|n| n == "wait_forever") && f.iter().any(|n| n == "main"), "{f:?}");
    let core = under_gdb(&dir, "live32", "", &["break sum_list", "run"], "bp32.core");
    let (v, text) = analyze(&exe, &core);
    let stop = assert_snapshot("an i386 breakpoint", &v, &text, "SIGTRAP");
    assert_eq!(frames(&stop, 0)[..2], ["sum_list", "main"]);
    let _ = std::fs::remove_dir_all(&dir);
}
