//! Runs the `tracecheck` binary as a child with a time limit, feeding its standard input
//! from a writer thread, and takes its peak resident size from the binary itself
//! (`TRACECHECK_REPORT_PEAK_RSS=1` prints `VmHWM` at exit). `ru_maxrss` from `wait4` is
//! not used: Linux carries the forked test process's own high-water mark across `exec`
//! into it, so it reports the test binary's size, not tracecheck's.

use std::io::{Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Outcome {
    /// Exit code; `None` when killed by a signal.
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// The child was killed at the time limit: its CPU time passed the limit, or its wall
    /// time passed [`WALL_FACTOR`] times the limit (a child blocked without using CPU).
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Peak resident set size in KiB (`VmHWM` as the child reported it; 0 when it did not
    /// get to report it).
    pub max_rss_kb: u64,
    pub elapsed: Duration,
    /// The child's CPU time (user + system) when it ended or was killed.
    pub cpu: Duration,
}

/// A child that uses no CPU (blocked) is killed after this many times the limit of wall time.
/// The limit itself is on CPU time, so a loaded machine (two cores shared by several test
/// binaries) does not turn a slow child into a "hang".
pub const WALL_FACTOR: u32 = 5;

/// User + system CPU time of a running child, from `/proc/<pid>/stat` (fields 14 and 15, in
/// clock ticks); `None` when it cannot be read.
fn cpu_time(pid: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: split after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut f = rest.split_whitespace().skip(11);
    let utime: u64 = f.next()?.parse().ok()?;
    let stime: u64 = f.next()?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let hz = if hz > 0 { hz as u64 } else { 100 };
    Some(Duration::from_millis((utime + stime) * 1000 / hz))
}

impl Outcome {
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    /// No panic, no crash, no time-out: exit 0, 1 (findings) or 2 (refused with a message).
    pub fn assert_clean(&self, what: &str) {
        assert!(!self.timed_out, "{what}: killed after {:?} ({:?} of CPU): hang", self.elapsed, self.cpu);
        assert!(self.signal.is_none(), "{what}: killed by signal {:?}\n{}", self.signal, self.stderr_text());
        assert!(matches!(self.code, Some(0..=2)), "{what}: exit {:?}\n{}", self.code, self.stderr_text());
        assert!(!self.stderr_text().contains("panicked"), "{what}: panic\n{}", self.stderr_text());
        assert!(self.max_rss_kb > 0, "{what}: no peak RSS reported\n{}", self.stderr_text());
    }
}

/// Keeps at most this much of a child's stdout/stderr (the rest is read and dropped).
const KEEP_OUTPUT: usize = 64 << 20;

fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = KEEP_OUTPUT.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&buf[..room]);
                }
            }
        }
        kept
    })
}

pub fn tracecheck() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tracecheck"))
}

/// Runs `cmd`; `feed` writes its standard input (dropped when done, which closes it).
pub fn run(mut cmd: Command, feed: Option<Box<dyn FnOnce(ChildStdin) + Send>>, limit: Duration) -> Outcome {
    cmd.env("TRACECHECK_REPORT_PEAK_RSS", "1");
    cmd.stdin(if feed.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    // Reaped by `wait4` below (which also gives the exit status), not `Child::wait`.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd.spawn().expect("spawn tracecheck");
    let pid = child.id() as libc::pid_t;
    let writer = match (feed, child.stdin.take()) {
        (Some(f), Some(stdin)) => Some(std::thread::spawn(move || f(stdin))),
        _ => None,
    };
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let mut status: libc::c_int = 0;
    // SAFETY: plain syscalls on our own child's pid with valid out-pointers.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    let mut cpu = Duration::ZERO;
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        assert!(r == 0, "wait4 failed: {}", std::io::Error::last_os_error());
        if let Some(t) = cpu_time(pid) {
            cpu = t;
        }
        if (cpu > limit || started.elapsed() > limit * WALL_FACTOR) && !timed_out {
            timed_out = true;
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let elapsed = started.elapsed();
    // The reaped child's own CPU time (what `/proc` showed last may be up to 20 ms old).
    let reaped = Duration::from_secs(usage.ru_utime.tv_sec as u64 + usage.ru_stime.tv_sec as u64)
        + Duration::from_micros(usage.ru_utime.tv_usec as u64 + usage.ru_stime.tv_usec as u64);
    let cpu = cpu.max(reaped);
    if let Some(w) = writer {
        // The writer sees EPIPE once the child is gone; its result does not matter.
        let _ = w.join();
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else if libc::WIFSIGNALED(status) {
        (None, Some(libc::WTERMSIG(status)))
    } else {
        (None, None)
    };
    let max_rss_kb = String::from_utf8_lossy(&stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("tracecheck: peak RSS ")?.strip_suffix(" kB")?.parse().ok())
        .next_back()
        .unwrap_or(0);
    Outcome { code, signal, timed_out, stdout, stderr, max_rss_kb, elapsed, cpu }
}

/// Writes `block` to `w` until `total` bytes were written (the last copy cut to fit).
pub fn write_repeated(mut w: impl Write, head: &[u8], block: &[u8], total: u64) -> u64 {
    let mut n = 0u64;
    if w.write_all(head).is_err() {
        return 0;
    }
    n += head.len() as u64;
    while n < total {
        let k = (total - n).min(block.len() as u64) as usize;
        if w.write_all(&block[..k]).is_err() {
            break;
        }
        n += k as u64;
    }
    n
}
