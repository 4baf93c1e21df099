//! `--with-source` reads source lines only from the `--source-dir` directories (the current
//! directory by default), after resolving each path and its symlinks; never /proc, /sys or
//! /dev, never a FIFO or device; the report lists what it read and what it refused.
//!
//! A dump names the files: an absolute path outside, a relative path climbing out with
//! `../`, `/proc/self/environ` (the environment, tokens included), `/proc/self/cmdline`,
//! `~/…`, a symlink inside the source directory pointing outside, a symlink to /dev/zero,
//! and a FIFO (which must not hang the report).

mod common;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SECRET: &str = "TOPSECRET-do-not-publish";
const TOKEN: &str = "tok-3f9a1c-environment-secret";

fn setup() -> (PathBuf, PathBuf) {
    let base = common::scratch_root().join(format!("tracecheck-with-source-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let root = base.join("project");
    let outside = base.join("outside");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let body: String = (1..=40).map(|i| format!("int line_{i} = {i}; /* {SECRET} */\n")).collect();
    std::fs::write(outside.join("secret.c"), &body).unwrap();
    let ok: String = (1..=40).map(|i| format!("int visible_{i} = {i};\n")).collect();
    std::fs::write(root.join("src/ok.c"), ok).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.c"), root.join("src/link.c")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("src/zero.c")).unwrap();
    let fifo = root.join("src/fifo.c");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
    let secret_abs = outside.join("secret.c");
    let frames = [
        ("fifo_reader", "src/fifo.c".to_string()),
        ("zero_reader", "src/zero.c".to_string()),
        ("leak_environ", "/proc/self/environ".to_string()),
        ("leak_cmdline", "/proc/self/cmdline".to_string()),
        ("climb", "../outside/secret.c".to_string()),
        ("absolute", secret_abs.display().to_string()),
        ("through_link", "src/link.c".to_string()),
        ("home", "~/.bashrc".to_string()),
        ("fine", "src/ok.c".to_string()),
    ];
    let mut dump = String::from("Program received signal SIGSEGV, Segmentation fault.\n(gdb) bt\n");
    for (i, (f, file)) in frames.iter().enumerate() {
        dump.push_str(&format!("#{i}  0x00005555555551{i:02x} in {f} () at {file}:3\n"));
    }
    let d = root.join("dump.txt");
    std::fs::write(&d, dump).unwrap();
    (root, d)
}

/// Runs tracecheck in `cwd`, killing it (and failing) after 60 s: a FIFO must not hang it.
fn markdown(cwd: &Path, args: &[&str], dump: &Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "markdown", "--with-source"])
        .args(args)
        .arg(dump)
        .current_dir(cwd)
        .env("TRACECHECK_TEST_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tracecheck hung on a source file (FIFO?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn check(md: &str, what: &str) {
    assert!(!md.contains(SECRET), "{what}: a file outside the source directory was published:\n{md}");
    assert!(!md.contains(TOKEN), "{what}: the environment was published:\n{md}");
    assert!(!md.contains("TRACECHECK_TEST_TOKEN"), "{what}: /proc/self/environ was read:\n{md}");
    assert!(md.contains("int visible_3 = 3;"), "{what}: the file inside was not shown:\n{md}");
    assert!(md.contains("Files read: `src/ok.c`"), "{what}:\n{md}");
    let outside =
        md.lines().find(|l| l.starts_with("Not read: outside the source directories:")).unwrap_or_else(|| {
            panic!("{what}: no 'not read: outside' line:\n{md}");
        });
    for f in ["../outside/secret.c", "src/link.c", "outside/secret.c"] {
        assert!(outside.contains(f), "{what}: {f} not listed as refused: {outside}");
    }
    let system = md.lines().find(|l| l.starts_with("Not read: a system file")).unwrap_or("");
    for f in ["/proc/self/environ", "/proc/self/cmdline", "src/zero.c"] {
        assert!(system.contains(f), "{what}: {f} not listed as a system file: {system}\n{md}");
    }
    let special = md.lines().find(|l| l.starts_with("Not read: not a regular file")).unwrap_or("");
    assert!(special.contains("src/fifo.c"), "{what}: the FIFO is not listed: {special}\n{md}");
    assert!(!md.to_lowercase().contains("not found locally"), "{what}: refused files called not found:\n{md}");
}

#[test]
fn with_source_reads_only_inside_the_source_directories() {
    let (root, d) = setup();
    // Default: the current directory.
    check(&markdown(&root, &[], &d), "cwd default");
    // Named explicitly, run from elsewhere.
    let elsewhere = std::env::temp_dir();
    let rs = root.display().to_string();
    check(&markdown(&elsewhere, &["--source-dir", &rs], &d), "--source-dir");
    // The source directory itself reached through a symlink still works.
    let alias = root.parent().unwrap().join("alias");
    let _ = std::fs::remove_file(&alias);
    std::os::unix::fs::symlink(&root, &alias).unwrap();
    check(&markdown(&elsewhere, &["--source-dir", alias.to_str().unwrap()], &d), "--source-dir via a link");
}
