//! `panic`: a Rust panic ended the process (abort, or unwinding out of `main`).

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "panic",
    title: "a Rust panic ended the process",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A stop explained by a Rust panic: the panic message on stderr
(`thread 'main' panicked at src/main.rs:13:5:` followed by the payload on the next lines; newer
Rust adds the thread id, `thread 'main' (12345) panicked at …`; Rust before 1.73 printed
`thread 'main' panicked at 'payload', src/main.rs:13:5`), or, without stderr, panic machinery
on the crashed thread (`core::panicking::panic_fmt`, `std::panicking::rust_panic`,
`__rust_start_panic`, `rust_begin_unwind`). It applies to SIGABRT (`panic = "abort"`, a panic
while panicking, a panic in a function that cannot unwind; a panic inside the panic hook, whose
header has no thread, `panicked at src/main.rs:11:29:`, then `thread panicked while processing
panic. aborting.`), to SIGILL from an abort intrinsic,
and to a process that exited with status 101 after the panic unwound out of `main`.

A Go panic nothing recovered is reported the same way: the runtime's `panic: …` line
(`panic: assignment to entry in nil map`, `panic: runtime error: index out of range [5] with
length 3`) followed by the goroutine that panicked (`goroutine 1 [running]:`), which names
the culprit. Not a panic that a fault caused (`[signal SIGSEGV: …]` follows the line): that
stop is a signal, read by the fault's rules; not a `panic: ` line without a goroutine after it
(a program's own output).

The finding quotes the panic location and payload and names the culprit: the first frame
outside `core::`/`std::`/`alloc::` (so `rust_panic::Config::port`, not the inlined
`Result::unwrap` that called `unwrap_failed`).

**Why it matters** The backtrace of a panic is mostly the standard library's panic and abort
path; the payload (`called Result::unwrap() on an Err value: …`) and the location are the
diagnosis.

**Example** `rust-panic.gdb.txt`: `thread 'main' (26319) panicked at src/rust-panic.rs:23:28:`,
``called `Result::unwrap()` on an `Err` value: ParseIntError { kind: PosOverflow }``, SIGABRT,
frames `core::panicking::panic_fmt` ← `core::result::unwrap_failed` ← … ←
`rust_panic::Config::port (self=…) at src/rust-panic.rs:23`.

When several panics were printed (one caught with `catch_unwind`, then another that aborted),
the last one is reported.

**Known false positives** A direct `std::process::abort()` has no panic frames or message
and is not reported. With frames only (no stderr), the finding has no payload and is
heuristic. A signal sent to a thread while it runs a panic that `catch_unwind` will catch
(`$_siginfo` shows `si_code` <= 0, no panic message was printed, and no frame of the thread
raised it: no `abort`, `raise` or `pthread_kill`) is not reported: the panic machinery is
only where the signal found the thread."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/rust-panic.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

fn is_panic_frame(name: &str) -> bool {
    // `std::panicking::catch_unwind` / `try` (and their `do_call`) catch panics: every Rust
    // program's runtime entry (`lang_start`) runs main inside them, panic or not.
    let catching = ["std::panicking::catch_unwind", "std::panicking::try", "std::panicking::r#try"]
        .iter()
        .any(|c| name.starts_with(c));
    !catching && name.starts_with("std::panicking::")
        || name.starts_with("core::panicking::")
        || name.ends_with("rust_begin_unwind")
        || name.ends_with("__rust_start_panic")
        || name == "rust_panic"
        || name.starts_with("std::panic::panic_any")
}

/// A Go panic nothing recovered (`panic: assignment to entry in nil map`, then the goroutine
/// that panicked): the runtime's report is the diagnosis. A panic that a fault turned into a
/// runtime error (`[signal SIGSEGV: …]` follows) is the fault's, read by the fault's rules.
fn go_panic(cx: &RuleContext<'_>, si: usize, stop: &Stop) -> Option<Finding> {
    if !cx.trace.formats.contains(&Format::Go) || stop.reason.kind != StopKind::RuntimeError || cx.signo(stop).is_some()
    {
        return None;
    }
    let m = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::GoPanic))?;
    // The runtime's report follows the line: the goroutine that panicked. A `panic: ` line
    // without one is some program's own output.
    let th = stop.crashed_thread().filter(|t| t.id.starts_with("goroutine "));
    th?;
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let mut msg = match th {
        Some(t) => format!("goroutine {} panicked", t.id.trim_start_matches("goroutine ")),
        None => "a goroutine panicked".to_string(),
    };
    if let Some(c) = culprit {
        msg.push_str(&format!(" in {}", c.location()));
    }
    msg.push_str(&format!(" and nothing recovered it: `{}`", m.text.trim()));
    let mut f = Finding::new(&RULE, msg).at(si, th, culprit.map(|c| c.index)).rank(75);
    f = f.evidence(format!("stderr: {}", m.text.trim()), Some(m.span));
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    Some(f.step("GOTRACEBACK=all (or crash) to have every goroutine printed"))
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        if let Some(f) = go_panic(cx, si, stop) {
            out.push(f);
            continue;
        }
        let r = &stop.reason;
        let applies = stop.abort_like()
            || r.kind == StopKind::Signal && r.signo == Some(4)
            || r.kind == StopKind::Exited && r.number == Some(101);
        if !applies {
            continue;
        }
        let th = stop.crashed_thread();
        let frames: &[Frame] = th.map(|t| t.frames.as_slice()).unwrap_or(&[]);
        // The last panic is the one that ended the process: an earlier one may have been caught
        // (catch_unwind) before a second, non-unwinding panic aborted.
        let header = stop.messages.iter().rfind(|m| m.kind == Some(MessageKind::Panic));
        // The outermost panic frame is the entry the user code called (`core::panicking::panic_fmt`).
        // Only frames inside the culprit's call (between it and the abort) are on the panic's
        // path; frames outside it are the runtime that called main.
        let inner = cx.named_culprit(stop).map(|(_, c)| c.index);
        let panic_frame = frames
            .iter()
            .filter(|f| inner.is_none_or(|c| f.index < c))
            .rev()
            .find(|f| is_panic_frame(f.function_name()));
        if header.is_none() && panic_frame.is_none() {
            continue;
        }
        // A foreign (C++) exception that unwound into Rust is no panic: catch_unwind found an
        // exception Rust's panic machinery did not raise, and aborted (`uncaught-exception`
        // says so). Its frames are the panic runtime's (`std::panicking::__rust_foreign_exception`).
        if frames.iter().any(|f| crate::messages::is_foreign_exception_frame(f.function_name()))
            || stop.messages.iter().any(|m| m.detail == Some(MessageDetail::ForeignException))
        {
            continue;
        }
        // A signal another process sent (si_code <= 0) while the thread ran a panic that
        // catch_unwind catches: no panic message, and no frame of the thread raised it (a panic
        // that aborts goes through abort/raise/pthread_kill). The panic machinery on the stack
        // is then only where the signal found the thread.
        if r.is_sent() && header.is_none() && !frames.iter().any(crate::roles::raises_signal) {
            continue;
        }
        let parsed = header.and_then(|h| h.panic.as_ref());
        // The payload: on the header line (old format), or the message lines right after it.
        let mut payload_lines: Vec<&Message> = Vec::new();
        if let Some(h) = header {
            let mut next = h.span.last + 1;
            for m in stop.messages.iter().filter(|m| m.span.first > h.span.last) {
                if m.span.first != next || m.detail == Some(MessageDetail::Note) || m.kind.is_some() {
                    break;
                }
                payload_lines.push(m);
                next = m.span.last + 1;
            }
        }
        let payload: Option<String> =
            parsed.as_ref().and_then(|p| p.payload.as_deref().map(str::to_string)).or_else(|| {
                if payload_lines.is_empty() {
                    None
                } else {
                    Some(payload_lines.iter().map(|m| m.text.trim()).collect::<Vec<_>>().join("; "))
                }
            });
        let culprit = cx.named_culprit(stop).map(|(_, f)| f);
        // A panic that only passes another thread's panic on: `join().unwrap()` on the
        // `Err(Box<dyn Any>)` a panicked thread leaves (`Any { .. }`), or `lock().unwrap()` on
        // a mutex that thread poisoned (`PoisonError { .. }`). The root cause is the earlier
        // panic of another thread; the finding leads with it.
        let passes_on = payload.as_deref().is_some_and(|p| {
            let p = p.trim_end();
            p.ends_with("Any { .. }") || p.ends_with("PoisonError { .. }")
        });
        let root = header.filter(|_| passes_on).and_then(|h| {
            let thread = h.panic.as_ref().map(|p| &p.thread);
            stop.messages.iter().rfind(|m| {
                m.kind == Some(MessageKind::Panic)
                    && m.span.last < h.span.first
                    && m.panic.as_ref().map(|p| &p.thread) != thread
            })
        });
        // Rust's `thread panicked while processing panic. aborting.`: the panic above was raised
        // inside the panic hook (its header has no thread), so the first panic's report was
        // never printed.
        let nested = stop.messages.iter().rfind(|m| m.detail == Some(MessageDetail::PanicWhilePanicking));
        let mut msg = match &parsed {
            Some(p) if p.thread.is_empty() => "panic while processing a panic (inside the panic hook)".to_string(),
            Some(p) => format!("thread '{}' panicked", p.thread),
            None => "panic".to_string(),
        };
        if let Some(loc) = parsed.as_ref().and_then(|p| p.location.as_deref()) {
            msg.push_str(&format!(" at {loc}"));
        }
        if let Some(c) = culprit {
            msg.push_str(&format!(" in {}", c.function_name()));
            if parsed.as_ref().and_then(|p| p.location.as_deref()).is_none()
                && let (Some(file), Some(line)) = (&c.file, c.line)
            {
                msg.push_str(&format!(" at {file}:{line}"));
            }
        }
        if let Some(p) = &payload {
            msg.push_str(&format!(": {p}"));
        }
        if let Some(m) = nested {
            msg.push_str(&format!(
                "; Rust aborted (\"{}\"): the panic hook, or a destructor the unwinding ran, panicked while the first panic was handled, so the first panic's own report was never printed: its site is in the backtrace below the hook",
                m.text.trim()
            ));
        }
        if let Some(r) = root {
            let rp = r.panic.as_ref();
            let mut lead = format!("thread '{}' panicked", rp.map(|p| &*p.thread).unwrap_or("?"));
            if let Some(loc) = rp.and_then(|p| p.location.as_deref()) {
                lead.push_str(&format!(" at {loc}"));
            }
            if let Some(w) = panic_payload(stop, r) {
                lead.push_str(&format!(": {w}"));
            }
            msg = format!("{lead}; {msg}, passing that panic on");
        }
        let mut f = Finding::new(&RULE, msg).at(si, th, culprit.map(|c| c.index)).rank(75);
        if header.is_none() {
            f.heuristic = true;
        }
        if let Some(h) = header {
            f = f.evidence(format!("stderr: {}", h.text), Some(h.span));
        }
        for m in &payload_lines {
            f = f.evidence(format!("stderr: {}", m.text), Some(m.span));
        }
        if let Some(m) = nested {
            f = f.evidence(format!("stderr: {}", m.text), Some(m.span));
        }
        // Earlier panics of the stop: the one a destructor's panic interrupted ("panic in a
        // destructor during cleanup") or one that was caught. They name the user's own panic
        // site when the last one is in the standard library.
        if let Some(h) = header {
            for e in stop.messages.iter().filter(|m| m.kind == Some(MessageKind::Panic) && m.span.last < h.span.first) {
                let what = panic_payload(stop, e);
                let text = match what {
                    Some(w) => format!("earlier panic: {} {w}", e.text.trim()),
                    None => format!("earlier panic: {}", e.text.trim()),
                };
                f = f.evidence(text, Some(e.span));
            }
        }
        if let Some(p) = panic_frame {
            f = f.evidence(format!("#{} {}", p.index, p.location()), Some(p.span));
        }
        if let Some(c) = culprit {
            f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
            f = f.step(format!("frame {}", c.index)).step("info locals");
        }
        f = f.step("RUST_BACKTRACE=1 to have the panic print its own backtrace");
        out.push(f);
    }
}

/// A panic's payload: on its header line (before Rust 1.73), or the message line right after it.
fn panic_payload(stop: &Stop, e: &Message) -> Option<String> {
    e.panic.as_ref().and_then(|p| p.payload.as_deref()).map(str::to_string).or_else(|| {
        stop.messages
            .iter()
            .find(|m| m.span.first == e.span.last + 1 && m.kind.is_none() && m.detail.is_none())
            .map(|m| m.text.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn process_abort_is_not_a_panic() {
        // crashers/rust-process-abort read from a core: no stderr, and the only
        // `std::panicking::` frames are the runtime's catch_unwind around main, outside the
        // culprit's call. No panic happened.
        let t = "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  0x00007ffff7e3eeec in __pthread_kill_implementation () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x00007ffff7deffb2 in raise () from /lib/x86_64-linux-gnu/libc.so.6
#2  0x00007ffff7dda472 in abort () from /lib/x86_64-linux-gnu/libc.so.6
#3  0x000055555559008a in std::sys::pal::unix::abort_internal () at library/std/src/sys/pal/unix/mod.rs:305
#4  0x000055555558ed89 in std::process::abort () at library/std/src/process.rs:2533
#5  0x00005555555687b9 in rust_process_abort::check_ledger () at src/rust-process-abort.rs:10
#6  0x000055555556894a in rust_process_abort::main () at src/rust-process-abort.rs:17
#7  0x000055555558e5a4 in std::panicking::catch_unwind::do_call () at library/std/src/panicking.rs:581
#8  0x000055555558e5a4 in std::panicking::try () at library/std/src/panicking.rs:544
#9  0x00005555555689a7 in std::rt::lang_start () at library/std/src/rt.rs:205
";
        assert!(run_rule(&RULE, t).is_empty());
        // A real panic frame inside the culprit's call still counts.
        let p = t.replace(
            "#4  0x000055555558ed89 in std::process::abort () at library/std/src/process.rs:2533",
            "#4  0x000055555558ed89 in core::panicking::panic_fmt () at library/core/src/panicking.rs:80",
        );
        assert_eq!(run_rule(&RULE, &p).len(), 1);
    }

    #[test]
    fn a_join_unwrap_passes_the_threads_panic_on() {
        // sample-traces/rust-thread-panic-join: the worker 'tally' panics; main's
        // `join().unwrap()` panics with the `Any { .. }` payload; the process exits with 101.
        // gdb's `[Thread … exited]` notice between the lines is not part of the payload.
        let f = run_rule_on_sample(&RULE, "rust-thread-panic-join.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.starts_with("thread 'tally' panicked at src/rust-thread-panic-join.rs:6:5: index out of bounds"),
            "{m}"
        );
        assert!(m.ends_with("on an `Err` value: Any { .. }, passing that panic on"), "{m}");
        assert!(!m.contains("[Thread"), "{m}");
        assert!(f[0].evidence.iter().all(|e| !e.text.contains("[Thread")), "{:#?}", f[0].evidence);
        // Look-alike (the recording, edited): main's own `unwrap()` on an `Err` it made
        // itself after the worker's panic: the payload is no `Any { .. }`, so the last panic
        // leads.
        let path = format!("{}/sample-traces/rust-thread-panic-join.gdb.txt", env!("CARGO_MANIFEST_DIR"));
        let own = std::fs::read_to_string(&path)
            .expect("sample")
            .replace("on an `Err` value: Any { .. }", "on an `Err` value: ParseIntError { kind: InvalidDigit }");
        let f = run_rule(&RULE, &own);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("thread 'main' panicked at src/rust-thread-panic-join.rs:21:31"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn earlier_panics_are_evidence() {
        // crashers/rust-drop-panic: the last panic is in the standard library ("panic in a
        // destructor during cleanup"); the user's own panics before it are named.
        let t = "\
(gdb) run
Starting program: /tmp/rust-drop-panic
thread 'main' (836) panicked at src/rust-drop-panic.rs:21:9:
batch too large: 18
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

thread 'main' (836) panicked at src/rust-drop-panic.rs:11:13:
flush failed with 3 pending writes

thread 'main' (836) panicked at library/core/src/panicking.rs:233:5:
panic in a destructor during cleanup
thread caused non-unwinding panic. aborting.

Program received signal SIGABRT, Aborted.
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("panic in a destructor during cleanup"), "{}", f[0].message);
        let ev: Vec<&str> = f[0].evidence.iter().map(|e| e.text.as_str()).collect();
        assert!(
            ev.contains(
                &"earlier panic: thread 'main' (836) panicked at src/rust-drop-panic.rs:21:9: batch too large: 18"
            ),
            "{ev:#?}"
        );
        assert!(
            ev.contains(&"earlier panic: thread 'main' (836) panicked at src/rust-drop-panic.rs:11:13: flush failed with 3 pending writes"),
            "{ev:#?}"
        );
    }

    #[test]
    fn fires_on_rust_panic_sample() {
        let f = run_rule_on_sample(&RULE, "rust-panic.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "thread 'main' panicked at src/rust-panic.rs:23:28 in rust_panic::Config::port: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: PosOverflow }"
        );
        assert_eq!(f[0].frame, Some(16));
        assert!(!f[0].heuristic);
        let ev: Vec<(&str, Option<u32>)> =
            f[0].evidence.iter().map(|e| (e.text.as_str(), e.lines.map(|l| l.first))).collect();
        assert_eq!(ev[0], ("stderr: thread 'main' (26319) panicked at src/rust-panic.rs:23:28:", Some(8)));
        assert_eq!(
            ev[1],
            ("stderr: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: PosOverflow }", Some(9))
        );
        assert!(ev.iter().any(|(t, _)| *t == "#13 core::panicking::panic_fmt at library/core/src/panicking.rs:80"));
        assert!(ev.iter().any(|(t, _)| *t == "culprit: #16 rust_panic::Config::port at src/rust-panic.rs:23"));
    }

    #[test]
    fn quiet_on_other_samples() {
        for s in [
            "glibc-abort.gdb.txt",
            "assert-fail.gdb.txt",
            "cpp-uncaught.gdb.txt",
            "stack-chk.gdb.txt",
            "rust-null.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn old_format_and_exit_101() {
        let t = "\
thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 7', src/main.rs:4:5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
[Inferior 1 (process 4242) exited with code 0145]
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "thread 'main' panicked at src/main.rs:4:5: index out of bounds: the len is 3 but the index is 7"
        );
    }

    #[test]
    fn multi_line_payload() {
        let t = "\
thread 'main' panicked at src/main.rs:2:5:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

Program received signal SIGABRT, Aborted.
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "thread 'main' panicked at src/main.rs:2:5: assertion `left == right` failed; left: 1; right: 2"
        );
    }

    #[test]
    fn frames_only_is_heuristic() {
        let t = "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  0x00007ffff7e3feec in __pthread_kill_implementation () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x00007ffff7ddb472 in abort () from /lib/x86_64-linux-gnu/libc.so.6
#2  0x000055555559ba49 in std::process::abort ()
#3  0x0000555555575c2a in panic_abort::__rust_start_panic ()
#4  0x00005555555b0fbc in core::panicking::panic_fmt ()
#5  0x00005555555b0e11 in core::panicking::panic_bounds_check ()
#6  0x0000555555572d68 in app::pick (v=..., i=7) at src/main.rs:9
#7  0x0000555555572ca4 in app::main () at src/main.rs:15
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "panic in app::pick at src/main.rs:9");
        assert!(f[0].heuristic);
        // A plain abort() with no panic frames is not a panic.
        let plain = t.replace("#3  0x0000555555575c2a in panic_abort::__rust_start_panic ()\n#4  0x00005555555b0fbc in core::panicking::panic_fmt ()\n#5  0x00005555555b0e11 in core::panicking::panic_bounds_check ()\n", "");
        assert!(run_rule(&RULE, &plain).is_empty());
    }
}
