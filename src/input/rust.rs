//! The Rust runtime's own crash output (no debugger involved):
//!
//! ```text
//! thread 'main' (11552) panicked at src/main.rs:8:12:      (1.73+; 1.89+ adds the tid)
//! index out of bounds: the len is 3 but the index is 7     (the payload, one or more lines)
//! stack backtrace:                                         (RUST_BACKTRACE=1)
//!    6: crash::slot_at
//!              at ./src/main.rs:8:12
//!    0:     0x56544096a62a - std[e28293b1aa0f68bd]::backtrace_rs::…   (RUST_BACKTRACE=full)
//!                                at /rustc/<hash>/library/std/src/…:117:9
//! note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
//!
//! thread 'main' has overflowed its stack
//! fatal runtime error: stack overflow, aborting
//!
//! error: process didn't exit successfully: `target/debug/x` (signal: 11, SIGSEGV: invalid memory reference)
//! ```
//!
//! A panic is a stop (a runtime error; the `panic` rule reads its header and payload) whose
//! frames go to a thread named after the panicking thread. Crate disambiguators of v0 symbols
//! (`std[e28293b1aa0f68bd]::`) and legacy hashes (`::h5f0f2c6c1d6d8a3e`) are dropped from
//! function names.

use super::Builder;
use super::lexemes::{file_line, parse_hex};
use crate::model::*;

#[derive(Clone, Default)]
pub(crate) struct RustState {
    /// Inside a panic report: payload lines until `stack backtrace:` or a blank line.
    payload: bool,
    /// Inside `stack backtrace:`.
    frames: bool,
    thread: Option<usize>,
    /// The last frame, waiting for its `at file:line:col` line.
    pending: Option<usize>,
    /// Inside a pre-1.73 payload (`panicked at 'assertion failed: …`) that went on past its
    /// header line: it ends at the line closing it with `', FILE:LINE:COL`.
    quoted: bool,
    /// Inside the program's own `stack backtrace:` printed into a debugger session (the
    /// debugger's backtrace of the same abort is the one read).
    program_frames: bool,
    /// Inside a rustc-style diagnostic (an ICE's `error: internal compiler error:`, Miri's
    /// `error: Undefined Behavior:`): its `-->` location, source excerpt, `= note:` lines.
    diag: bool,
    /// Miri's report: the thread its `inside …` frames go to, and the next frame index.
    miri: Option<(usize, u32)>,
}

/// The end of a pre-1.73 panic payload: `…', src/main.rs:8:12`.
fn closes_quoted_payload(t: &str) -> bool {
    t.rsplit_once("', ").is_some_and(|(_, loc)| file_line(loc).is_some())
}

/// `thread 'main' (11552) panicked at src/main.rs:8:12:` → thread name.
fn panic_header(t: &str) -> Option<&str> {
    let r = t.strip_prefix("thread '")?;
    let (name, rest) = r.split_once('\'')?;
    rest.contains(" panicked at ").then_some(name)
}

/// `   6: crash::slot_at`, `   0:     0x56544096a62a - std::…`, `  13:     0x7f…  - <unknown>`.
fn frame_line(t: &str) -> Option<(u32, Option<u64>, &str)> {
    let (k, rest) = t.split_once(": ")?;
    let index: u32 = k.trim_start().parse().ok()?;
    let rest = rest.trim_start();
    if let Some(r) = rest.strip_prefix("0x") {
        let (addr, name) = r.split_once(" - ").or_else(|| r.split_once("  - "))?;
        let pc = parse_hex(&format!("0x{}", addr.trim()))?;
        return Some((index, Some(pc), name.trim()));
    }
    if rest.is_empty() || rest.contains(' ') && !rest.contains(['<', '(', '{']) {
        return None;
    }
    Some((index, None, rest))
}

/// `std[e28293b1aa0f68bd]::panicking::x` → `std::panicking::x`; `foo::bar::h5f0f2c6c1d6d8a3e` →
/// `foo::bar`.
pub(crate) fn clean_symbol(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find('[') {
        let tail = &rest[p + 1..];
        let hex = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex == 16 && tail.as_bytes().get(16) == Some(&b']') {
            out.push_str(&rest[..p]);
            rest = &tail[17..];
        } else {
            out.push_str(&rest[..=p]);
            rest = tail;
        }
    }
    out.push_str(rest);
    if let Some((head, h)) = out.rsplit_once("::h")
        && h.len() == 16
        && h.bytes().all(|c| c.is_ascii_hexdigit())
    {
        out.truncate(head.len());
        // A legacy symbol a debugger printed half-demangled (lldb before Rust's demangler
        // was built in): `_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$::drop`
        // is `<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop`.
        if out.contains('$') || out.contains("..") {
            out = legacy_escapes(&out);
        }
    }
    out
}

/// Decodes the escapes of Rust's legacy mangling in a path already split at `::`: `$LT$`,
/// `$GT$`, `$u20$` and the other `$…$` codes, `..` for `::`, and the `_` put before a
/// segment that starts with `$`. An unknown code is kept as written.
fn legacy_escapes(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, seg) in s.split("::").enumerate() {
        if i > 0 {
            out.push_str("::");
        }
        let seg = if seg.starts_with("_$") { &seg[1..] } else { seg };
        let mut rest = seg;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("..") {
                out.push_str("::");
                rest = r;
                continue;
            }
            if let Some(r) = rest.strip_prefix('$')
                && let Some(end) = r.find('$')
            {
                let code = &r[..end];
                let c = match code {
                    "SP" => Some('@'),
                    "BP" => Some('*'),
                    "RF" => Some('&'),
                    "LT" => Some('<'),
                    "GT" => Some('>'),
                    "LP" => Some('('),
                    "RP" => Some(')'),
                    "C" => Some(','),
                    _ => code
                        .strip_prefix('u')
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .and_then(char::from_u32)
                        .filter(|c| !c.is_control()),
                };
                if let Some(c) = c {
                    out.push(c);
                    rest = &r[end + 1..];
                    continue;
                }
            }
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        b.rust.payload = false;
        return false;
    }
    // Inside a debugger session the program's stderr is the debugger's business (its stop
    // follows); this reader is for the runtime's report on its own. The backtrace the panic
    // hook prints there (`RUST_BACKTRACE=1`) is the program's output, read and not kept: the
    // debugger's own backtrace of the abort follows.
    let debugger = b.formats_has(Format::Gdb) || b.formats_has(Format::Rr) || b.formats_has(Format::Lldb);
    if debugger {
        if b.rust.program_frames {
            if t.starts_with("at ") && file_line(&t[3..]).is_some()
                || frame_line(t).is_some()
                || t.starts_with("note: Some details are omitted")
            {
                return true;
            }
            b.rust.program_frames = false;
        } else if t == "stack backtrace:" {
            b.rust.payload = false;
            b.rust.program_frames = true;
            return true;
        }
    }
    if b.formats_has(Format::Gdb) || b.formats_has(Format::Rr) {
        return false;
    }
    // In an lldb session (lldb names its target before the program runs), the panic report is
    // kept as the coming stop's messages: header and payload, up to a blank line or the
    // backtrace.
    if b.formats_has(Format::Lldb) {
        // (also a panic inside the panic hook, whose header has no thread)
        if panic_header(t).is_some() || crate::messages::parse_panic_header(t).is_some_and(|h| h.thread.is_empty()) {
            b.rust = RustState { payload: !t.contains(" panicked at '"), ..Default::default() };
            b.add_message(t, n);
            return true;
        }
        if b.rust.payload && t != "stack backtrace:" && !t.starts_with("(lldb) ") && !t.starts_with("Process ") {
            b.add_message(t, n);
            return true;
        }
        b.rust.payload = false;
        return false;
    }
    if let Some(name) = panic_header(t) {
        b.saw(Format::Rust);
        let reason = StopReason {
            kind: StopKind::RuntimeError,
            description: Some("Rust panic".into()),
            span: Span::line(n),
            ..Default::default()
        };
        let id = format!("thread '{name}'");
        // A second panic of the same thread before any backtrace (Rust 1.71's misaligned-pointer
        // check, then `panic in a function that cannot unwind`) ends the same process: one stop,
        // whose last panic is the one the `panic` rule reports.
        let same = b.stop.filter(|&i| {
            let s = &b.trace.stops[i];
            s.reason.kind == StopKind::RuntimeError
                && s.reason.description.as_deref() == Some("Rust panic")
                && s.threads.iter().all(|t| t.frames.is_empty())
                && s.threads.iter().any(|t| &*t.id == id.as_str())
        });
        if let Some(si) = same {
            b.trace.stops[si].span.extend_to(n);
        } else {
            b.new_stop(reason, Some(&id));
        }
        // Rust before 1.73 printed the payload on the header line, quoted and followed by the
        // location (`panicked at 'boom', src/lib.rs:3:5`): nothing follows, unless the payload
        // had line breaks (`assert_eq!`'s `left:`/`right:` lines), which run to the `', FILE`.
        let old_style = t.contains(" panicked at '");
        let quoted = old_style && !closes_quoted_payload(t);
        b.rust =
            RustState { payload: !old_style || quoted, quoted, thread: Some(b.current_thread()), ..Default::default() };
        b.add_message(t, n);
        return true;
    }
    if diagnostic(b, t, n) {
        return true;
    }
    if t == "stack backtrace:" && (b.rust.payload || b.rust.thread.is_some()) {
        b.rust.payload = false;
        b.rust.frames = true;
        return true;
    }
    if t.starts_with("thread '") && t.ends_with(" has overflowed its stack") {
        overflow(b, t, n);
        return true;
    }
    // The shell's job line after the report (`zsh: abort  cargo run`, fish's `terminated by
    // signal SIGABRT (Abort)`): the signal that ended the process.
    if b.formats_has(Format::Rust) && super::shell::shell_job_signal(t).is_some() {
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("fatal runtime error: ") {
        b.saw(Format::Rust);
        let si = b.ensure_stop();
        if b.trace.stops[si].reason.kind == StopKind::Unknown {
            let r = &mut b.trace.stops[si].reason;
            r.kind = StopKind::Signal;
            r.signo = Some(6);
            r.signal = Some("SIGABRT".into());
        }
        b.add_message(t, n);
        return true;
    }
    // cargo: `error: process didn't exit successfully: `…` (signal: 11, SIGSEGV: invalid memory reference)`.
    // cargo test: `running 1 test`, `error: test failed, to rerun pass `--bin x``, `Caused by:`.
    let running = t
        .strip_prefix("running ")
        .and_then(|r| r.strip_suffix(" tests").or_else(|| r.strip_suffix(" test")))
        .is_some_and(|k| k.bytes().all(|c| c.is_ascii_digit()));
    // A test's result line (`test a::b ... ok`) once `running N tests` was seen.
    let test_result = b.formats_has(Format::Rust)
        && t.starts_with("test ")
        && [" ... ok", " ... FAILED", " ... ignored"].iter().any(|e| t.ends_with(e));
    if running
        || test_result
        || t.starts_with("error: test failed, to rerun pass ")
        || t.starts_with("error: could not compile `")
        || t == "Caused by:" && (b.formats_has(Format::Rust) || b.formats_has(Format::Handler))
    {
        b.saw(Format::Rust);
        b.add_message(t, n);
        return true;
    }
    if let Some(r) = t
        .strip_prefix("error: process didn't exit successfully: ")
        .or_else(|| t.strip_prefix("process didn't exit successfully: "))
    {
        b.saw(Format::Rust);
        if let Some(p) = r.rfind("(signal: ") {
            let inner = r[p + 9..].trim_end_matches(')');
            let signo = inner.split(',').next().and_then(|x| x.trim().parse::<i32>().ok());
            if b.stop.is_none_or(|i| b.trace.stops[i].reason.kind == StopKind::Unknown) {
                // cargo's report alone: a stop of its own (with the messages printed before it).
                b.new_stop(StopReason { span: Span::line(n), ..Default::default() }, None);
            }
            let si = b.ensure_stop();
            let keep = b.trace.stops[si].reason.kind == StopKind::Signal && b.trace.stops[si].reason.signo.is_some();
            if !keep {
                let r = &mut b.trace.stops[si].reason;
                r.kind = StopKind::Signal;
                r.signo = signo;
                r.signal = signo.and_then(crate::model::signals::name).map(Into::into);
                r.description = inner.split_once(": ").map(|(_, d)| d.into());
                r.span.extend_to(n);
            }
        } else if let Some(p) = r.rfind("(exit status: ") {
            let code = r[p + 14..].trim_end_matches(')').parse::<i64>().ok();
            let si = b.ensure_stop();
            if b.trace.stops[si].reason.kind != StopKind::Signal {
                // A panic that unwound out of main exits with 101.
                let r = &mut b.trace.stops[si].reason;
                r.kind = StopKind::Exited;
                r.number = code;
            }
        }
        b.add_message(t, n);
        return true;
    }
    if b.rust.frames {
        if let Some(loc) = t.strip_prefix("at ") {
            if let Some(pos) = b.rust.pending.take()
                && let Some((file, line, col)) = file_line(loc)
            {
                let file = b.intern(file);
                let si = b.ensure_stop();
                let ti = b.rust.thread.unwrap_or(0);
                if let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.get_mut(pos)) {
                    f.file = Some(file);
                    f.line = Some(line);
                    f.column = col;
                    f.span.extend_to(n);
                }
            }
            return true;
        }
        if let Some((index, pc, name)) = frame_line(t) {
            let si = b.ensure_stop();
            let ti = match b.rust.thread {
                Some(t) if t < b.trace.stops[si].threads.len() => t,
                _ => b.current_thread(),
            };
            let clean = clean_symbol(name);
            let function = (clean != "<unknown>").then(|| b.intern(&clean));
            let frame = Frame { index, pc: pc.map(Address), function, span: Span::line(n), ..Default::default() };
            let pos = b.put_frame(ti, frame);
            b.rust.pending = Some(pos);
            return true;
        }
        if t.starts_with("note: ") {
            b.rust.frames = false;
            b.add_message(t, n);
            return true;
        }
        b.rust.frames = false;
    }
    if b.rust.payload {
        // A debugger's own output ends the payload (its stop for the same abort follows).
        let debugger = t.starts_with("Program received signal")
            || t.starts_with("Program terminated")
            || t.starts_with("(gdb)")
            || t.starts_with("(lldb)")
            || t.starts_with("Process ")
            || t.starts_with("* thread")
            || t.starts_with('#')
            || t.starts_with("Thread ") && t.contains(" received signal ");
        if debugger {
            b.rust.payload = false;
            return false;
        }
        if t.starts_with("note: ") || b.rust.quoted && closes_quoted_payload(t) {
            b.rust.payload = false;
            b.rust.quoted = false;
        }
        b.add_message(t, n);
        return true;
    }
    false
}

/// rustc's and Miri's diagnostics around a report: an internal compiler error's lines
/// (`error: internal compiler error: …`, `error: the compiler unexpectedly panicked. this is a
/// bug.`, the `note:` lines, `query stack during panic:` with its `#N [query] …` entries) and
/// Miri's `error: Undefined Behavior: …` with its location, source excerpt and the `inside
/// `f` at file:L:C` notes, which are its backtrace.
fn diagnostic(b: &mut Builder, t: &str, n: u32) -> bool {
    // `cargo miri test` prints the report right after the test's name: `test a::b ... error: …`.
    let t = match t.strip_prefix("test ").and_then(|r| r.split_once(" ... error: ")) {
        Some((_, e)) if e.starts_with("Undefined Behavior: ") => &t[t.len() - e.len() - "error: ".len()..],
        _ => t,
    };
    if let Some(what) = t.strip_prefix("error: Undefined Behavior: ") {
        b.saw(Format::Rust);
        let reason = StopReason {
            kind: StopKind::RuntimeError,
            description: Some("Undefined Behavior".into()),
            span: Span::line(n),
            ..Default::default()
        };
        let si = b.new_stop(reason, Some("main"));
        b.trace.stops[si].checker = Some(CheckerReport {
            tool: "Miri".into(),
            kind: Some(miri_kind(what)),
            text: what.into(),
            access: None,
            summary: None,
            at_system_call: false,
            span: Span::line(n),
        });
        b.add_message(t, n);
        b.rust = RustState { diag: true, miri: Some((b.current_thread(), 0)), ..Default::default() };
        return true;
    }
    let ice = t.starts_with("error: internal compiler error: ")
        || t == "error: the compiler unexpectedly panicked. this is a bug."
        || t == "query stack during panic:";
    if ice {
        b.saw(Format::Rust);
        b.rust.diag = true;
        b.add_message(t, n);
        return true;
    }
    if !b.formats_has(Format::Rust) {
        return false;
    }
    if t == "end of query stack"
        || t.starts_with("note: ")
        || t.starts_with("error: aborting due to ")
        || t.starts_with("we're just showing a limited slice of the query stack")
        || query_entry(t)
    {
        if let Some((ti, next)) = b.rust.miri
            && let Some(r) = t.strip_prefix("note: inside `")
        {
            miri_frame(b, ti, next, r, n);
        }
        // A note ends a panic's payload and its backtrace, as before.
        b.rust.payload = false;
        b.rust.quoted = false;
        b.rust.frames = false;
        b.add_message(t, n);
        return true;
    }
    if !b.rust.diag {
        return false;
    }
    // The diagnostic's body: ` --> file:L:C`, `   |`, `431 |     code`, `    |   ^^^^ label`,
    // `   = help: …`, `   = note: inside `f` at file:L:C`.
    if let Some(r) = t.strip_prefix("= note: inside `").or_else(|| t.strip_prefix("= note: inside closure"))
        && let Some((ti, next)) = b.rust.miri
    {
        miri_frame(b, ti, next, r, n);
        return true;
    }
    let excerpt = {
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        t.starts_with('|') || digits > 0 && t[digits..].trim_start().starts_with('|')
    };
    if t.starts_with("--> ") || t.starts_with("= ") || excerpt || t == "..." {
        return true;
    }
    b.rust.diag = false;
    false
}

/// `#0 [typeck] type-checking `parse_args``: an entry of rustc's query stack.
fn query_entry(t: &str) -> bool {
    let Some(r) = t.strip_prefix('#') else { return false };
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && r[digits..].starts_with(" [") && r[digits..].contains("] ")
}

/// The class of Miri's `Undefined Behavior:` text, as the rule that covers it.
fn miri_kind(what: &str) -> &'static str {
    let w = what.to_ascii_lowercase();
    if w.contains("after this allocation got freed") || w.contains("use-after-free") || w.contains("has been freed") {
        "use-after-free"
    } else if w.contains("data race detected") {
        "data-race"
    } else if w.contains("uninitialized") {
        "uninitialized-read"
    } else {
        "undefined-behavior"
    }
}

/// One `inside `f` at file:L:C` note of Miri's report: the next frame of its backtrace.
fn miri_frame(b: &mut Builder, ti: usize, next: u32, r: &str, n: u32) {
    let (name, loc) = match r.split_once("` at ") {
        Some((f, l)) => (f, Some(l.trim())),
        None => (r.trim_end_matches('`'), None),
    };
    let function = Some(b.intern(name));
    let mut frame = Frame { index: next, function, span: Span::line(n), ..Default::default() };
    if let Some((file, line, col)) = loc.and_then(file_line) {
        frame.file = Some(b.intern(file));
        frame.line = Some(line);
        frame.column = col;
    }
    b.put_frame(ti, frame);
    b.rust.miri = Some((ti, next + 1));
}

/// Rust's guard-page handler: it caught a SIGSEGV (or SIGBUS) in the stack guard page of the
/// named thread, says so, and aborts. The stop is that fault; the abort is its message.
fn overflow(b: &mut Builder, t: &str, n: u32) {
    b.saw(Format::Rust);
    let reason = StopReason {
        kind: StopKind::Signal,
        signo: Some(11),
        signal: Some("SIGSEGV".into()),
        description: Some("stack overflow (caught by Rust's guard-page handler, which aborted)".into()),
        span: Span::line(n),
        ..Default::default()
    };
    let name = t.strip_prefix("thread '").and_then(|r| r.split_once('\'')).map(|(name, _)| name).unwrap_or("main");
    let id = format!("thread '{name}'");
    b.new_stop(reason, Some(&id));
    b.rust = RustState::default();
    b.add_message(t, n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(panic_header("thread 'main' (11552) panicked at crash.rs:8:12:"), Some("main"));
        assert_eq!(
            clean_symbol("_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$::drop::h9a8b7c6d5e4f3021"),
            "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"
        );
        assert_eq!(
            clean_symbol("foo::main::_$u7b$$u7b$closure$u7d$$u7d$::h014edfb0ea6d8161"),
            "foo::main::{{closure}}"
        );
        // Without a legacy hash nothing is decoded (a C++ or v0 name with `$` stays as is).
        assert_eq!(clean_symbol("a$LT$b"), "a$LT$b");
        assert_eq!(panic_header("thread '<unnamed>' panicked at 'boom', src/lib.rs:3:5"), Some("<unnamed>"));
        assert_eq!(frame_line("   6: crash::slot_at"), Some((6, None, "crash::slot_at")));
        assert_eq!(
            frame_line("  13:     0x56544094de19 - std[e28293b1aa0f68bd]::sys::backtrace::x"),
            Some((13, Some(0x56544094de19), "std[e28293b1aa0f68bd]::sys::backtrace::x"))
        );
        assert_eq!(frame_line("note: run with"), None);
        assert_eq!(frame_line("1: two words"), None);
        assert_eq!(
            clean_symbol("std[e28293b1aa0f68bd]::panicking::default_hook::{closure#0}"),
            "std::panicking::default_hook::{closure#0}"
        );
        assert_eq!(clean_symbol("crash::slot_at::h5f0f2c6c1d6d8a3e"), "crash::slot_at");
        assert_eq!(clean_symbol("<[u8]>::len"), "<[u8]>::len");
    }

    #[test]
    fn panic_report() {
        let t = "
thread 'main' (11589) panicked at crash.rs:8:12:
index out of bounds: the len is 3 but the index is 7
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/5980/library/std/src/panicking.rs:689:5
   1: core::panicking::panic_bounds_check
             at /rustc/5980/library/core/src/panicking.rs:271:5
   2: crash::slot_at
             at ./crash.rs:8:12
   3: crash::main
             at ./crash.rs:25:28
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let stop = &p.trace.stops[0];
        assert_eq!(stop.reason.kind, StopKind::RuntimeError);
        let th = stop.crashed_thread().unwrap();
        assert_eq!(&*th.id, "thread 'main'");
        assert_eq!(th.frames.len(), 4);
        assert_eq!((th.frames[2].file.as_deref(), th.frames[2].line), (Some("./crash.rs"), Some(8)));
        let (_, f) = crate::roles::named_culprit(stop).unwrap();
        assert_eq!(f.function.as_deref(), Some("crash::slot_at"));
        // Inside a gdb session the panic text is the inferior's stderr: no stop of its own.
        let g = format!("(gdb) run\n{t}\nProgram received signal SIGABRT, Aborted.\n");
        let p = crate::input::parse(&g);
        assert_eq!(p.trace.stops.len(), 1);
        assert!(!p.trace.formats.contains(&Format::Rust));
    }

    #[test]
    fn stack_overflow_report() {
        let p = crate::input::parse(
            "\nthread 'main' (11636) has overflowed its stack\nfatal runtime error: stack overflow, aborting\n",
        );
        let stop = &p.trace.stops[0];
        assert_eq!((stop.reason.kind, stop.reason.signo), (StopKind::Signal, Some(11)));
        assert!(stop.crashed_thread().is_some_and(|t| &*t.id == "thread 'main'"));
        assert_eq!(stop.messages.len(), 2);
    }

    #[test]
    fn cargo_test_signal() {
        let t = "\nrunning 1 test\nerror: test failed, to rerun pass `--bin segv`\n\nCaused by:\n  process didn't exit successfully: `target/debug/deps/segv-2df4 --quiet` (signal: 11, SIGSEGV: invalid memory reference)\n";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let r = &p.trace.stops[0].reason;
        assert_eq!(
            (r.kind, r.signal.as_deref(), r.description.as_deref()),
            (StopKind::Signal, Some("SIGSEGV"), Some("invalid memory reference"))
        );
        assert!(p.trace.stops[0].messages.iter().any(|m| m.text.starts_with("error: test failed")));
    }
}
