//! Progress on standard error for work that can take more than a second: a big input, a
//! core with many libraries, symbolizing against a large binary.
//!
//! Nothing is drawn unless standard error is a terminal, and nothing is drawn for work that
//! ends within [`SHOW_AFTER`]: a watcher thread waits that long first, so a quick run costs
//! one thread spawn and never flashes a bar. The bar is cleared when the work ends, before
//! anything is printed on standard output. Messages pass through [`crate::input::clean::safe_line`]
//! (they hold paths).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

static SUPPRESSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on no progress is drawn, on any thread (the TUI owns the terminal: a bar on
/// standard error from its follow worker or loader would draw over the screen).
pub fn suppress() {
    SUPPRESSED.store(true, Ordering::Relaxed);
}

fn shown() -> bool {
    !SUPPRESSED.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// Work shorter than this shows nothing.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

struct Shared {
    done: Mutex<bool>,
    cv: Condvar,
    pos: AtomicU64,
    /// 0: unknown (a spinner with the byte count, or only the message).
    total: u64,
    bytes: bool,
    msg: Mutex<String>,
    delay: Duration,
    /// Set once the bar exists (for the tests).
    drawn: std::sync::atomic::AtomicBool,
}

/// One phase of work. Dropping it (or [`Progress::finish`]) clears the bar.
pub struct Progress {
    shared: Arc<Shared>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// A phase counted in bytes of `total` (`None`: unknown, e.g. standard input).
    pub fn bytes(msg: &str, total: Option<u64>) -> Progress {
        Self::start(shown(), msg, total.unwrap_or(0), true, SHOW_AFTER)
    }

    /// A phase without a count: a spinner with the message and the time taken.
    pub fn spinner(msg: &str) -> Progress {
        Self::start(shown(), msg, 0, false, SHOW_AFTER)
    }

    /// Draws nothing, ever (for callers that own the terminal, such as the TUI).
    pub fn hidden() -> Progress {
        Self::start(false, "", 0, false, SHOW_AFTER)
    }

    fn start(show: bool, msg: &str, total: u64, bytes: bool, delay: Duration) -> Progress {
        let shared = Arc::new(Shared {
            done: Mutex::new(false),
            cv: Condvar::new(),
            pos: AtomicU64::new(0),
            total,
            bytes,
            msg: Mutex::new(crate::input::clean::safe_line(msg).into_owned()),
            delay,
            drawn: Default::default(),
        });
        let watcher = show.then(|| {
            let s = shared.clone();
            std::thread::Builder::new().name("progress".into()).spawn(move || watch(&s)).ok()
        });
        Progress { shared, watcher: watcher.flatten() }
    }

    /// Whether a watcher is running (standard error is a terminal).
    pub fn is_live(&self) -> bool {
        self.watcher.is_some()
    }

    pub fn add(&self, n: u64) {
        self.shared.pos.fetch_add(n, Ordering::Relaxed);
    }

    pub fn set_message(&self, msg: &str) {
        let mut m = self.shared.msg.lock().unwrap_or_else(|e| e.into_inner());
        *m = crate::input::clean::safe_line(msg).into_owned();
    }

    /// A reader that counts what passes through it into this phase.
    pub fn reader<R: Read>(&self, inner: R) -> CountingReader<R> {
        CountingReader { inner, shared: self.shared.clone() }
    }

    /// Ends the phase and clears the bar.
    pub fn finish(self) {}
}

impl Drop for Progress {
    fn drop(&mut self) {
        *self.shared.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.shared.cv.notify_all();
        if let Some(h) = self.watcher.take() {
            let _ = h.join();
        }
    }
}

/// See [`Progress::reader`].
pub struct CountingReader<R> {
    inner: R,
    shared: Arc<Shared>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.shared.pos.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Waits until the work ends or [`SHOW_AFTER`] passes; then draws every 100 ms until it ends.
fn watch(s: &Shared) {
    let wait = |d: Duration| -> bool {
        let g = s.done.lock().unwrap_or_else(|e| e.into_inner());
        let (g, _) = s.cv.wait_timeout_while(g, d, |done| !*done).unwrap_or_else(|e| e.into_inner());
        *g
    };
    if wait(s.delay) {
        return;
    }
    s.drawn.store(true, Ordering::Relaxed);
    let target = ProgressDrawTarget::stderr_with_hz(10);
    let pb = if s.total > 0 {
        let style = ProgressStyle::with_template(
            "{spinner} {msg} [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {elapsed}, ~{eta} left)",
        )
        .map(|st| st.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        ProgressBar::with_draw_target(Some(s.total), target).with_style(style)
    } else {
        let tpl = if s.bytes {
            "{spinner} {msg} {bytes} ({bytes_per_sec}, {elapsed})"
        } else {
            "{spinner} {msg} ({elapsed})"
        };
        let style = ProgressStyle::with_template(tpl).unwrap_or_else(|_| ProgressStyle::default_spinner());
        ProgressBar::with_draw_target(None, target).with_style(style)
    };
    loop {
        pb.set_position(s.pos.load(Ordering::Relaxed));
        pb.set_message(s.msg.lock().unwrap_or_else(|e| e.into_inner()).clone());
        pb.tick();
        if wait(Duration::from_millis(100)) {
            break;
        }
    }
    pb.finish_and_clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_the_reader_passes_and_stays_hidden_off_a_terminal() {
        let p = Progress::start(false, "reading \x1b[2Jx", 10, true, SHOW_AFTER);
        assert!(!p.is_live());
        let mut r = p.reader(&b"0123456789"[..]);
        let mut s = String::new();
        r.read_to_string(&mut s).expect("read");
        assert_eq!(s, "0123456789");
        assert_eq!(p.shared.pos.load(Ordering::Relaxed), 10);
        // The escape sequence never reaches the bar.
        assert!(!p.shared.msg.lock().expect("lock").contains('\x1b'));
        p.finish();
    }

    #[test]
    fn a_phase_that_ends_before_the_delay_draws_nothing() {
        // Dropping wakes the watcher and joins it, before the delay is over.
        let p = Progress::start(true, "quick", 0, false, Duration::from_secs(3600));
        assert!(p.is_live());
        p.add(1);
        let shared = p.shared.clone();
        drop(p);
        assert!(!shared.drawn.load(Ordering::Relaxed));
    }

    #[test]
    fn a_phase_still_running_after_the_delay_gets_a_bar() {
        let p = Progress::start(true, "slow", 100, true, Duration::ZERO);
        while !p.shared.drawn.load(Ordering::Relaxed) {
            std::thread::yield_now();
        }
        p.finish();
    }
}
