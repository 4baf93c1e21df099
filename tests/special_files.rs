//! Inputs that are not regular files: a FIFO, a pipe (`tracecheck <(cat dump)`), /dev/zero and
//! /dev/urandom as file arguments, a FIFO given as `--exe`. Each is opened once and sniffed
//! from the same reader (no second open that blocks, no lost first bytes), streamed with the
//! same limits as standard input (bounded memory), and never blocks the run.

#[path = "common/child.rs"]
#[allow(dead_code)]
mod child;
mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

fn dir(name: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tracecheck-special-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {}", p.display());
}

fn open_nonblocking(p: &Path, write: bool) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(!write).write(write).custom_flags(libc::O_NONBLOCK).open(p)
}

fn sample() -> Vec<u8> {
    std::fs::read(common::samples_dir().join("null-field.gdb.txt")).unwrap()
}

/// Writes `bytes` into the FIFO from a thread (the open blocks until tracecheck opens it).
fn feed_fifo(p: &Path, bytes: Vec<u8>) -> std::thread::JoinHandle<()> {
    let p = p.to_path_buf();
    std::thread::spawn(move || {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&p) {
            let _ = f.write_all(&bytes);
        }
    })
}

#[test]
fn a_fifo_as_input_is_read_once_and_does_not_hang() {
    let d = dir("fifo");
    let fifo = d.join("dump.fifo");
    mkfifo(&fifo);
    let w = feed_fifo(&fifo, sample());
    let mut cmd = child::tracecheck();
    cmd.arg(&fifo);
    let o = child::run(cmd, None, LIMIT);
    // Unblock the writer if it still waits for a reader (non-blocking: never hangs the test).
    let _ = open_nonblocking(&fifo, false);
    o.assert_clean("FIFO input");
    let _ = w.join();
    assert!(o.stdout_text().contains("null-dereference"), "{}\n{}", o.stdout_text(), o.stderr_text());
}

#[test]
fn a_pipe_as_input_keeps_its_first_bytes() {
    // `tracecheck <(cat dump)`: the first line is the signal line; losing 18 bytes loses it.
    if !common::require_tools(&["bash"]) {
        return;
    }
    let d = dir("pipe");
    let dump = d.join("dump.txt");
    std::fs::write(&dump, sample()).unwrap();
    let mut cmd = std::process::Command::new("bash");
    cmd.arg("-c").arg(format!("exec {} \"$0\" <(sed -n 5,6p \"$1\")", env!("CARGO_BIN_EXE_tracecheck")));
    cmd.arg("--format=json").arg(&dump);
    let o = child::run(cmd, None, LIMIT);
    assert!(!o.timed_out && matches!(o.code, Some(0..=1)), "{}", o.stderr_text());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let stop = &v["inputs"][0]["stops"][0];
    assert_eq!(stop["reason"]["signal"], "SIGSEGV", "the leading signal line was lost: {stop}");
}

#[test]
fn dev_zero_and_urandom_as_file_arguments_stream_with_bounded_memory() {
    for (dev, max) in [("/dev/zero", 200u64 << 20), ("/dev/urandom", 24 << 20)] {
        if !Path::new(dev).exists() {
            continue;
        }
        let mut cmd = child::tracecheck();
        cmd.arg("--max-input-bytes").arg(max.to_string()).arg(dev);
        let o = child::run(cmd, None, Duration::from_secs(300));
        o.assert_clean(dev);
        assert_eq!(o.code, Some(2), "{dev}: {}", o.stderr_text());
        assert!(o.stderr_text().contains("over --max-input-bytes"), "{dev}: {}", o.stderr_text());
        // Streaming keeps memory near the model's size; reading the device whole would hold
        // `max` bytes (200 MiB of zeros).
        assert!(o.max_rss_kb < 100 * 1024, "{dev}: peak RSS {} kB for a {max}-byte limit", o.max_rss_kb);
    }
}

#[test]
fn a_fifo_given_as_exe_does_not_block() {
    let d = dir("exe");
    // Named like the sample's executable, so the module `…/null-field` resolves to it.
    let fifo = d.join("null-field");
    mkfifo(&fifo);
    let dump = d.join("dump.txt");
    std::fs::write(&dump, sample()).unwrap();
    let mut cmd = child::tracecheck();
    cmd.arg("--exe").arg(&fifo).arg(&dump);
    let o = child::run(cmd, None, LIMIT);
    o.assert_clean("--exe FIFO");
    assert!(o.stdout_text().contains("null-dereference"), "{}", o.stdout_text());
}
