//! The one skip helper of the integration tests.
//!
//! Contract (every test that needs something outside the repository uses it, nothing else):
//!
//! * `require_tools(&["gdb", "gcc"])` returns `true` when every tool runs (`TOOL --version`,
//!   `tmux -V`). Otherwise it prints one visible line on the test's stderr,
//!   `SKIPPED <test>: needs gdb (install: apt-get install gdb)`, and returns `false`; the test
//!   then returns at once. Put it first in the test, before any work.
//! * `require_shared("corpus")` returns the path `../shared/corpus` (beside the clone) when
//!   it exists, else prints the same kind of line and returns `None`.
//! * Under CI (env `CI` set to anything but empty, `0` or `false`; CI services set
//!   `CI=true`) a missing tool or `../shared` panics instead: the test FAILS, so CI never
//!   reports `ok` for a test that did nothing. `.ci/run` installs every tool listed in
//!   `INSTALL` below; a new tool needs a line there and in `.ci/run`.
//! * The line is written straight to the process's stderr, not through `eprintln!`, which
//!   libtest captures and hides for a passing test; so `cargo test` shows it without
//!   `--nocapture`.
//!
//! Never write an early `return` after a hand-made tool or path check; use these.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Tool -> the Debian/Ubuntu package(s) that provide it (the hint in the skip line).
const INSTALL: &[(&str, &str)] = &[
    ("gdb", "apt-get install gdb"),
    ("gcc", "apt-get install gcc"),
    ("g++", "apt-get install g++"),
    ("tmux", "apt-get install tmux"),
    ("python3", "apt-get install python3"),
    ("objcopy", "apt-get install binutils"),
    ("strip", "apt-get install binutils"),
    ("readelf", "apt-get install binutils"),
    ("nm", "apt-get install binutils"),
    ("addr2line", "apt-get install binutils"),
    ("aarch64-linux-gnu-gcc", "apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross"),
    ("qemu-aarch64", "apt-get install qemu-user"),
    ("i686-linux-gnu-gcc", "apt-get install gcc-i686-linux-gnu libc6-dev-i386-cross libc6-i386"),
    ("gdb-multiarch", "apt-get install gdb-multiarch"),
    ("lldb", "apt-get install lldb"),
    ("lldb-python", "apt-get install lldb python3-lldb-14; on Debian 12 also the two links .ci/run repairs"),
    ("aarch64-linux-gnu-objdump", "apt-get install binutils-aarch64-linux-gnu"),
    ("rustc", "rustup, https://rustup.rs"),
    ("clang", "apt-get install clang"),
    ("clang++", "apt-get install clang"),
    ("musl-gcc", "apt-get install musl-tools"),
    ("go", "apt-get install golang-go"),
    ("node", "apt-get install nodejs"),
    ("cmark-gfm", "apt-get install cmark-gfm"),
    ("valgrind", "apt-get install valgrind"),
    ("lua5.4", "apt-get install lua5.4"),
    ("zstd", "apt-get install zstd"),
    ("javac", "apt-get install openjdk-17-jdk-headless"),
    ("python3.11-config", "apt-get install python3.11-dev"),
    ("fpc", "apt-get install fp-compiler"),
    ("xsubpp", "apt-get install perl"),
    ("java", "apt-get install openjdk-17-jdk-headless"),
    ("sbcl", "apt-get install sbcl"),
    ("erlc", "apt-get install erlang-base"),
    ("luajit", "apt-get install luajit"),
    ("chezscheme", "apt-get install chezscheme"),
];

/// Whether this run is CI, where a skip is a failure.
pub fn in_ci() -> bool {
    std::env::var("CI").map(|v| !v.is_empty() && v != "0" && v != "false").unwrap_or(false)
}

/// The running test's name (libtest names the test's thread after it).
fn test_name() -> String {
    match std::thread::current().name() {
        Some(n) if n != "main" => n.to_string(),
        _ => "this test".to_string(),
    }
}

fn skip(need: &str) {
    let test = test_name();
    if in_ci() {
        panic!("{test}: needs {need}, and CI is set: a skipped test fails under CI (.ci/run installs it)");
    }
    // Straight to fd 2: libtest captures `eprintln!` of a passing test.
    // One write, so parallel tests do not interleave inside the line.
    let _ = std::io::stderr().write_all(format!("SKIPPED {test}: needs {need}\n").as_bytes());
}

fn runs(tool: &str) -> bool {
    // lldb's embedded Python with its `lldb` module (the lldb samplers run in it).
    if tool == "lldb-python" {
        return Command::new("lldb")
            .args(["-b", "-o", "script import lldb; print('lldb-' + 'python-ok')"])
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("lldb-python-ok"));
    }
    let flag = match tool {
        "tmux" => "-V",
        "go" => "version",
        "lua5.4" | "luajit" | "erlc" => "-v",
        "python3.11-config" => "--includes",
        "fpc" => "-iV",
        "xsubpp" => "-v",
        _ => "--version",
    };
    Command::new(tool).arg(flag).stdin(Stdio::null()).output().map(|o| o.status.success()).unwrap_or(false)
}

/// `true` when every tool in `tools` runs; otherwise prints `SKIPPED ...` (or panics under
/// CI) and returns `false`.
pub fn require_tools(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !runs(t)).collect();
    if missing.is_empty() {
        return true;
    }
    let mut hints: Vec<&str> = Vec::new();
    for t in &missing {
        let hint = INSTALL.iter().find(|(n, _)| n == t).map(|(_, h)| *h).unwrap_or("not in tests/common/skip.rs");
        if !hints.contains(&hint) {
            hints.push(hint);
        }
    }
    skip(&format!("{} (install: {})", missing.join(", "), hints.join("; ")));
    false
}

/// The directory of the shared research beside the clone (`../shared`).
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("shared")
}

/// `../shared/<sub>` when it exists; otherwise prints `SKIPPED ...` (or panics under CI) and
/// returns `None`.
pub fn require_shared(sub: &str) -> Option<PathBuf> {
    let p = shared_dir().join(sub);
    if p.exists() {
        return Some(p);
    }
    skip(&format!("../shared/{sub} (the shared research beside the clone; not part of the repository)"));
    None
}
