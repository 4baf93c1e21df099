//! Julia's own crash output (no debugger involved):
//!
//! ```text
//! [4053] signal 11 (1): Segmentation fault        (1.10+; 1.9: `signal (11.1)`; older: `signal (11)`)
//! in expression starting at /tmp/x.jl:3
//! jl_gc_collect at /src/gc.c:123 [inlined]       native frames, innermost first
//! unknown function (ip: 0x7f3e3fd8f4dc)
//! gsignal at /usr/lib/libc.so.6 (unknown line)
//! Allocations: 123 (Pool: 120; Big: 3); GC: 0
//! ```
//!
//! Julia-level exception traces (`ERROR: …` then `Stacktrace:` with `[n] f(x::T)` and
//! `@ Module file:line` lines, or both on one line), `GC error (probable corruption)` aborts
//! with their object dump, and Windows' `Exception: EXCEPTION_ACCESS_VIOLATION at 0x… -- f at
//! file:line` header. Native frames go to thread `1` of a signal stop; a `Stacktrace:` after
//! native frames gets a thread of its own (`julia-N`), since the two lists overlap.

use super::lexemes::{file_line, parse_hex};
use super::{Builder, Ctx};
use crate::model::*;

/// The line Julia's `unreachable` trap prints before raising SIGILL.
const UNREACHABLE: &str = "Unreachable reached";

/// How many lines of a GC error's object dump are kept as messages.
const GC_DUMP_LINES_KEPT: usize = 40;

#[derive(Clone, Default)]
pub(crate) struct JuliaState {
    /// Thread receiving native frames.
    thread: Option<usize>,
    next_index: u32,
    /// The last `[n]` Stacktrace frame, waiting for its `@ Module file:line` line.
    st_pending: Option<usize>,
    /// Inside a `GC error` report: its object dump runs until the signal header.
    in_gc_error: bool,
    gc_lines_kept: usize,
    /// After `ERROR:`: the message may continue over several lines until `Stacktrace:`.
    in_error_message: u16,
    /// `caused by:` sections seen in the current stop.
    causes: u32,
    /// Windows: the `Exception: … at 0x… -- f at …` header's code location (the pc's inline
    /// chain) was printed before `in expression starting at`; the full backtrace after it
    /// starts again at the same frame and replaces it.
    win_codeloc: bool,
    /// `in expression starting at` followed such a code location: the next native frame
    /// may restart the backtrace.
    win_restart: bool,
    /// Data words still to come after an interpreter-frame marker (see `put_native_frame`).
    interp_data: u8,
    /// Inside the block `versioninfo()` prints (`Julia Version …` up to the next line that is
    /// not one of its headings or indented entries).
    in_versioninfo: bool,
}

impl JuliaState {
    /// Debugger output (a command, a stop line) ends any Julia report that was running.
    pub(crate) fn end_report(&mut self) {
        self.in_gc_error = false;
        self.in_error_message = 0;
    }

    /// A new stop started: the native-frame thread and pending frame belong to the old one.
    pub(crate) fn forget_thread(&mut self) {
        self.thread = None;
        self.st_pending = None;
    }
}

/// `[4053] signal 11 (1): Segmentation fault`, `signal (11): Segmentation fault`,
/// `[52149] signal (11.1): Segmentation fault`.
#[derive(Debug, PartialEq, Eq)]
pub struct JuliaSignalHeader<'a> {
    pub pid: Option<u32>,
    pub signo: i32,
    pub code: Option<i32>,
    pub description: &'a str,
}

pub fn signal_header(t: &str) -> Option<JuliaSignalHeader<'_>> {
    let (pid, rest) = if let Some(r) = t.strip_prefix('[') {
        let e = r.find("] ")?;
        (r[..e].parse().ok(), &r[e + 2..])
    } else {
        (None, t)
    };
    let rest = rest.strip_prefix("signal ")?;
    let (signo, code, rest) = if let Some(r) = rest.strip_prefix('(') {
        // `signal (11): desc` (≤1.8) and `signal (11.1): desc` (1.9)
        let e = r.find(')')?;
        let inner = &r[..e];
        let (s, c) = match inner.split_once('.') {
            Some((s, c)) => (s, c.parse().ok()),
            None => (inner, None),
        };
        (s.parse().ok()?, c, &r[e + 1..])
    } else {
        let d = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        let signo: i32 = rest[..d].parse().ok()?;
        let mut r = &rest[d..];
        let mut code = None;
        if let Some(x) = r.strip_prefix(" (") {
            let e = x.find(')')?;
            code = x[..e].parse().ok();
            r = &x[e + 1..];
        }
        (signo, code, r)
    };
    let description = rest.strip_prefix(": ")?.trim();
    Some(JuliaSignalHeader { pid, signo, code, description })
}

/// One native frame of Julia's crash backtrace.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct JuliaNativeFrame<'a> {
    /// `None` for `unknown function`.
    pub function: Option<&'a str>,
    pub ip: Option<u64>,
    /// A source file (with a line) or, for `(unknown line)` frames, the object file.
    pub path: Option<&'a str>,
    pub line: Option<u32>,
    pub inlined: bool,
}

/// A native frame: `name at file:line [inlined]`, `name at /lib/libc.so.6 (unknown line)`,
/// `unknown function (ip: 0x…)` (optionally ` at /lib/…`), `top-level scope at x.jl:3`.
pub fn native_frame(t: &str) -> Option<JuliaNativeFrame<'_>> {
    // A progress bar redrawn over the same terminal line leaves its box-drawing tail after
    // the frame (`… gc.c:0 [inlined]──────────`).
    let t = t.trim_end().trim_end_matches(|c: char| ('\u{2500}'..='\u{257f}').contains(&c)).trim_end();
    let (t, inlined) = match t.strip_suffix(" [inlined]") {
        Some(r) => (r, true),
        None => (t, false),
    };
    if let Some(r) = t.strip_prefix("unknown function (ip: ") {
        let e = r.find(')')?;
        let ip_text = &r[..e];
        // Windows prints the ip as 16 bare hex digits: `unknown function (ip: 0000000000D3E84F)`.
        let bare = (ip_text.len() == 16 && ip_text.bytes().all(|c| c.is_ascii_hexdigit()))
            .then(|| u64::from_str_radix(ip_text, 16).ok())
            .flatten();
        let ip = if ip_text == "(nil" { Some(0) } else { parse_hex(ip_text).or(bare) };
        let tail = r[e + 1..].trim_start_matches(')').trim();
        let path = tail
            .strip_prefix("at ")
            .map(|s| s.trim().trim_end_matches(" (unknown line)"))
            .filter(|s| !s.is_empty() && *s != "(unknown file)");
        return Some(JuliaNativeFrame { function: None, ip, path, line: None, inlined });
    }
    let (name, loc) = t.rsplit_once(" at ")?;
    let name = name.trim();
    if name.is_empty() || name.len() > 4096 {
        return None;
    }
    // Names are symbols (`jl_gc_collect`, `#start_repl_backend#46`, `julia_f_123`) or the two
    // phrases Julia uses for non-functions; prose with spaces is not a frame.
    if name.contains(' ')
        && !(name.starts_with("top-level scope") || name.starts_with("macro expansion") || name.contains('('))
    {
        return None;
    }
    if let Some(obj) = loc.strip_suffix(" (unknown line)") {
        return Some(JuliaNativeFrame { function: Some(name), ip: None, path: Some(obj), line: None, inlined });
    }
    if loc == "(unknown file)" || loc == "no file:0" {
        return Some(JuliaNativeFrame { function: Some(name), inlined, ..Default::default() });
    }
    let (file, line, _) = file_line(loc)?;
    Some(JuliaNativeFrame { function: Some(name), ip: None, path: Some(file), line: Some(line), inlined })
}

/// A native frame as people paste it into issues after a signal header, in columns:
/// `gc_mark_outrefs           gc-stock.c:2356`, optionally followed by a remark
/// (`<- reading a GARBAGE type tag`). The name is one symbol, the location `file:line`, and
/// two or more spaces separate them; anything else is not a frame.
pub fn column_frame(t: &str) -> Option<JuliaNativeFrame<'_>> {
    let t = t.trim();
    let gap = t.find("  ")?;
    let name = &t[..gap];
    if name.is_empty() || name.len() > 512 || name.contains(char::is_whitespace) || name.contains(':') {
        return None;
    }
    if !name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '#' | '!' | '.' | '$' | '@')) {
        return None;
    }
    let rest = t[gap..].trim_start();
    let loc = rest.split("  ").next()?.trim();
    let (file, line, _) = file_line(loc)?;
    if !is_source_path(file) {
        return None;
    }
    let inlined = rest.contains("[inlined]");
    Some(JuliaNativeFrame { function: Some(name), ip: None, path: Some(file), line: Some(line), inlined })
}

/// A Julia `Stacktrace:` entry: `[3] f(x::Int64)` with the location on the next line
/// (`@ Module ~/file.jl:12 [inlined]`), or all on one line (`… @ Module file:12`, or the
/// pre-1.6 `… at /path/file.jl:12`).
#[derive(Debug, PartialEq, Eq)]
pub struct JuliaStacktraceEntry<'a> {
    pub number: u32,
    pub call: &'a str,
    pub location: Option<&'a str>,
}

pub fn stacktrace_entry(t: &str) -> Option<JuliaStacktraceEntry<'_>> {
    let r = t.trim_start().strip_prefix('[')?;
    let e = r.find("] ")?;
    let number: u32 = r[..e].trim().parse().ok()?;
    let body = r[e + 2..].trim();
    if body.is_empty() {
        return None;
    }
    if let Some(p) = body.rfind(" @ ") {
        return Some(JuliaStacktraceEntry { number, call: body[..p].trim_end(), location: Some(body[p + 3..].trim()) });
    }
    if let Some(p) = body.rfind(" at ")
        && file_line(body[p + 4..].trim_end_matches(" [inlined]")).is_some()
    {
        return Some(JuliaStacktraceEntry { number, call: &body[..p], location: Some(&body[p + 4..]) });
    }
    Some(JuliaStacktraceEntry { number, call: body, location: None })
}

/// `@ Module ~/file.jl:12 [inlined]` or `@ ~/file.jl:12` → (module, file, line, inlined).
fn at_location(loc: &str) -> (Option<&str>, Option<&str>, Option<u32>, bool) {
    let loc = loc.trim();
    let (loc, inlined) = match loc.strip_suffix("[inlined]") {
        Some(r) => (r.trim_end(), true),
        None => (loc, false),
    };
    let (module, path) = match loc.split_once(' ') {
        Some((m, p)) if !m.contains('/') && !m.contains(':') && !m.contains('\\') => (Some(m), p.trim()),
        _ => (None, loc),
    };
    match file_line(path) {
        Some((f, l, _)) => (module, Some(f), Some(l), inlined),
        None => (module, if path.is_empty() { None } else { Some(path) }, None, inlined),
    }
}

fn split_call(sig: &str) -> (&str, Option<&str>) {
    // `f(x::Int64)` → ("f", "x::Int64"); `macro expansion` → (it, None)
    if sig.ends_with(')')
        && let Some(open) = super::lexemes::open_paren_of_last_group(sig)
        && open > 0
    {
        return (&sig[..open], Some(&sig[open + 1..sig.len() - 1]));
    }
    (sig, None)
}

/// Windows: `Exception: EXCEPTION_ACCESS_VIOLATION at 0x6b5e158a -- gc_try_setmark at …`.
fn windows_exception(t: &str) -> Option<(&str, Option<u64>, Option<&str>)> {
    let r = t.strip_prefix("Exception: ")?;
    let (name, rest) = r.split_once(' ')?;
    if !name.starts_with("EXCEPTION_") {
        return None;
    }
    let rest = rest.strip_prefix("at ")?;
    let (addr, frame) = match rest.split_once(" -- ") {
        Some((a, f)) => (a, Some(f)),
        None => (rest, None),
    };
    Some((name, parse_hex(addr.trim()), frame))
}

/// The POSIX signal the Windows C runtime raises for a structured exception (an access
/// violation is `SIGSEGV` to `signal()` handlers, Julia's included), so rules that look at
/// the signal number read a Windows crash as they read a Unix one.
fn windows_signo(name: &str) -> Option<i32> {
    match name {
        "EXCEPTION_ACCESS_VIOLATION" | "EXCEPTION_STACK_OVERFLOW" | "EXCEPTION_IN_PAGE_ERROR" => Some(11),
        "EXCEPTION_ILLEGAL_INSTRUCTION" | "EXCEPTION_PRIV_INSTRUCTION" => Some(4),
        "EXCEPTION_INT_DIVIDE_BY_ZERO" | "EXCEPTION_FLT_DIVIDE_BY_ZERO" | "EXCEPTION_INT_OVERFLOW" => Some(8),
        _ => None,
    }
}

pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        return false;
    }
    // Signal header.
    if (t.starts_with("signal ") || t.starts_with('[') && t.contains("] signal "))
        && let Some(h) = signal_header(t)
    {
        b.saw(Format::Julia);
        let mut reason = StopReason { kind: StopKind::Signal, span: Span::line(n), ..Default::default() };
        // macOS: `signal (10): Bus error: 10` is SIGBUS (BSD numbering).
        let signo = crate::model::signals::from_number_and_description(h.signo, h.description);
        reason.signo = Some(signo);
        reason.signal = crate::model::signals::name(signo).map(|s| b.intern(s));
        reason.si_code = h.code;
        reason.description = Some(h.description.into());
        // Julia prints a failed assertion's message *before* the SIGABRT banner it causes: when
        // the previous stop's last lines were such messages, they belong to this new stop.
        // Likewise `Unreachable reached at 0x…` before the SIGILL of the trap it reached.
        let carried: Vec<Message> = match b.stop {
            Some(i) if signo == 6 || signo == 4 => {
                let s = &mut b.trace.stops[i];
                let last_frame = s.threads.iter().flat_map(|t| &t.frames).map(|f| f.span.last).max().unwrap_or(0);
                let (moved, kept): (Vec<Message>, Vec<Message>) = s.messages.drain(..).partition(|m| {
                    m.span.first > last_frame
                        && if signo == 6 {
                            crate::messages::classify(&m.text) == Some(crate::messages::MessageKind::Assertion)
                        } else {
                            m.text.starts_with(UNREACHABLE)
                        }
                });
                s.messages = kept;
                moved
            }
            _ => Vec::new(),
        };
        start_native_stop(b, reason);
        if let Some(i) = b.stop {
            let st = &mut b.trace.stops[i];
            st.messages.extend(carried);
            // Compiled code reached a point the compiler proved unreachable (an `unreachable`
            // after a call inferred not to return, a type assertion it dropped): a wrong
            // inference or codegen, or unsafe code that broke what the compiler relied on.
            if signo == 4
                && let Some(m) = st.messages.iter().find(|m| m.text.starts_with(UNREACHABLE))
            {
                st.checker = Some(CheckerReport {
                    tool: "Julia".into(),
                    kind: Some("undefined-behavior"),
                    text: m.text.clone(),
                    access: None,
                    summary: None,
                    at_system_call: false,
                    span: m.span,
                });
            }
        }
        return true;
    }
    // `Unreachable reached at 0x7f4f42d0cae6`: printed by the trap Julia compiles for
    // `unreachable`, just before the SIGILL banner it raises.
    if t.starts_with(UNREACHABLE) {
        b.saw(Format::Julia);
        b.add_message(t, n);
        return true;
    }
    // `versioninfo()`: `Julia Version 1.11.0`, `Commit …`, `Platform Info:`, indented entries.
    if t.starts_with("Julia Version ") {
        b.saw(Format::Julia);
        b.julia.in_versioninfo = true;
        b.add_message(t, n);
        return true;
    }
    if b.julia.in_versioninfo {
        let heading = ["Commit ", "Build Info:", "Platform Info:", "Environment:"].iter().any(|h| t.starts_with(h));
        if heading || l.starts_with("  ") {
            b.add_message(t, n);
            return true;
        }
        b.julia.in_versioninfo = false;
    }
    if let Some((name, addr, frame)) = windows_exception(t) {
        b.saw(Format::Julia);
        let reason = StopReason {
            kind: StopKind::Signal,
            signal: Some(b.intern(name)),
            signo: windows_signo(name),
            description: Some(name.into()),
            span: Span::line(n),
            ..Default::default()
        };
        start_native_stop(b, reason);
        if let Some(f) = frame.and_then(native_frame) {
            put_native_frame(b, f, addr, n);
            b.julia.win_codeloc = true;
        }
        return true;
    }
    if t.starts_with("in expression starting at ")
        || t.starts_with("while loading ") && t.contains("in expression starting on line")
    {
        b.saw(Format::Julia);
        // `in expression starting at FILE:LINE`; 0.x: `while loading FILE, in expression
        // starting on line N`.
        let expr = match t.strip_prefix("in expression starting at ") {
            Some(e) => e.trim().to_string(),
            None => {
                let file = t["while loading ".len()..].split(", in expression").next().unwrap_or("").trim();
                let line = t.rsplit(' ').next().unwrap_or("");
                format!("{file}:{line}")
            }
        };
        let si = b.ensure_stop();
        let st = &mut b.trace.stops[si];
        if st.expression.is_none() {
            st.expression = Some(expr.into());
        }
        st.span.extend_to(n);
        b.julia.win_restart = std::mem::take(&mut b.julia.win_codeloc);
        return true;
    }
    if t.starts_with("GC error (probable corruption)") {
        b.saw(Format::Julia);
        b.julia.in_gc_error = true;
        b.julia.gc_lines_kept = 1;
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("Some frames were hidden. Use `show(err)`") {
        b.saw(Format::Julia);
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("Allocations: ") && t.contains("(Pool: ") {
        b.saw(Format::Julia);
        b.add_message(t, n);
        b.ctx = Ctx::None;
        b.julia.thread = None;
        return true;
    }
    if t.starts_with("Please submit a bug report with steps to reproduce this fault") {
        b.saw(Format::Julia);
        return true;
    }
    // A paste that elided the rest of the backtrace (`...`), and the shell's job line after the
    // report (fish's `Job 1, '…' terminated by signal SIGSEGV`, zsh's `segmentation fault  cmd`).
    if b.ctx == Ctx::JuliaNative && (t == "..." || t == "⋮") {
        b.add_message(t, n);
        return true;
    }
    if b.formats_has(Format::Julia)
        && (super::shell::shell_job_signal(t).is_some() || super::shell::is_shell_verdict(t))
    {
        b.add_message(t, n);
        return true;
    }
    if b.ctx == Ctx::JuliaNative
        && let Some(f) = native_frame(t).or_else(|| column_frame(t))
    {
        put_native_frame(b, f, None, n);
        return true;
    }
    // The SIGILL handler's report of the instruction it could not run, before its `signal (4)`
    // banner: `Invalid instruction at 0x7f5a31c0e2b7: 0x66, 0x0f, 0x3a, …` (Windows prints the
    // address as 16 bare hex digits).
    if let Some(r) = t.strip_prefix("Invalid instruction at ")
        && let Some((_, bytes)) = r.split_once(": 0x")
        && bytes.split(", ").all(|x| x.trim_start_matches("0x").len() <= 2)
    {
        b.saw(Format::Julia);
        b.add_message(t, n);
        return true;
    }
    // Julia-level exceptions.
    if let Some(r) = t.strip_prefix("ERROR: ") {
        b.saw(Format::Julia);
        let si = b.ensure_stop();
        let has_signal = b.trace.stops[si].reason.kind == StopKind::Signal;
        if !has_signal {
            let reason = StopReason {
                kind: StopKind::RuntimeError,
                description: Some(r.into()),
                span: Span::line(n),
                ..Default::default()
            };
            b.new_stop(reason, Some("1"));
        }
        // CUDA.jl's `CUDA error: an illegal memory access was encountered (code 700,
        // ERROR_ILLEGAL_ADDRESS)`: a kernel on the GPU accessed memory outside its allocations.
        // The error surfaces at the next call that waits for the device, not where the kernel ran.
        if r.contains("an illegal memory access was encountered") || r.contains("ERROR_ILLEGAL_ADDRESS") {
            let si = b.ensure_stop();
            b.trace.stops[si].checker = Some(CheckerReport {
                tool: "CUDA".into(),
                kind: Some("invalid-access"),
                text: r.into(),
                access: None,
                summary: None,
                at_system_call: false,
                span: Span::line(n),
            });
        }
        b.julia.causes = 0;
        b.julia.in_error_message = 200;
        b.add_message(t, n);
        return true;
    }
    if t == "Stacktrace:" {
        b.saw(Format::Julia);
        b.ctx = Ctx::JuliaStacktrace;
        b.julia.st_pending = None;
        b.julia.in_error_message = 0;
        // Its frames belong to a thread of their own when native frames were printed (or
        // this is the stack of a `caused by:` exception).
        let si = b.ensure_stop();
        let has_frames = b.trace.stops[si].threads.iter().any(|t| !t.frames.is_empty());
        if has_frames {
            let (id, name) = if b.julia.causes > 0 {
                (format!("caused-by-{}", b.julia.causes), "caused by")
            } else {
                (format!("julia-{}", b.trace.stops[si].threads.len() + 1), "Julia stacktrace")
            };
            b.select_thread(&id);
            let ti = b.current_thread();
            b.trace.stops[si].threads[ti].name = Some(name.into());
        } else {
            b.select_thread("1");
        }
        return true;
    }
    if b.ctx == Ctx::JuliaStacktrace {
        if let Some(e) = stacktrace_entry(t) {
            let (name, args) = split_call(e.call);
            let mut frame = Frame {
                index: e.number.saturating_sub(1),
                function: Some(b.intern(name)),
                args: args.map(Box::from),
                span: Span::line(n),
                ..Default::default()
            };
            if let Some(loc) = e.location {
                let (module, file, line, inlined) = at_location(loc);
                frame.module = module.map(|m| b.intern(m));
                frame.file = file.map(|f| b.intern(f));
                frame.line = line;
                frame.inlined = inlined;
            }
            let ti = b.current_thread();
            let pos = b.put_frame(ti, frame);
            b.julia.st_pending = if e.location.is_none() { Some(pos) } else { None };
            return true;
        }
        if let Some(loc) = t.strip_prefix("@ ") {
            if let Some(pos) = b.julia.st_pending.take() {
                let (module, file, line, inlined) = at_location(loc);
                let module = module.map(|m| b.intern(m));
                let file = file.map(|f| b.intern(f));
                let ti = b.current_thread();
                let si = b.ensure_stop();
                if let Some(f) = b.trace.stops[si].threads[ti].frames.get_mut(pos) {
                    f.module = module;
                    f.file = file;
                    f.line = line;
                    f.inlined = inlined;
                    f.span.extend_to(n);
                }
            }
            return true;
        }
        if t.starts_with("caused by: ") || t == "caused by:" {
            b.julia.causes += 1;
            b.julia.in_error_message = 200;
            b.add_message(t, n);
            return true;
        }
        if t.starts_with("⋮") || t.starts_with("Use `err`") || t.starts_with("[inlined]") || t.starts_with("... ") {
            return true;
        }
    }
    if t.starts_with("Some type information was truncated.") {
        b.saw(Format::Julia);
        return true;
    }
    false
}

/// Lines no parser recognized, inside a Julia report that runs on for many lines: a GC
/// error's object dump, or a multi-line `ERROR:` message.
pub(crate) fn fallback(b: &mut Builder, t: &str, n: u32) -> bool {
    if b.julia.in_gc_error {
        // The object dump (`jl_` printing, `Queued root`, `ptr queue` markers…) runs until
        // the abort's signal header.
        if b.julia.gc_lines_kept < GC_DUMP_LINES_KEPT {
            b.julia.gc_lines_kept += 1;
            b.add_message(t, n);
        }
        return true;
    }
    if b.julia.in_error_message > 0 {
        // The rest of a multi-line error message (`ERROR: LoadError: …` is often followed by
        // IR or a method list).
        b.julia.in_error_message -= 1;
        b.add_message(t, n);
        return true;
    }
    false
}

/// A signal (or Windows exception) header: a new stop whose native frames follow on thread 1.
fn start_native_stop(b: &mut Builder, reason: StopReason) {
    b.julia.win_codeloc = false;
    b.julia.win_restart = false;
    b.julia.in_gc_error = false;
    b.julia.in_error_message = 0;
    b.julia.causes = 0;
    b.new_stop(reason, Some("1"));
    b.julia.thread = Some(b.current_thread());
    b.julia.next_index = 0;
    b.ctx = Ctx::JuliaNative;
}

fn put_native_frame(b: &mut Builder, f: JuliaNativeFrame<'_>, pc: Option<u64>, n: u32) {
    let si = b.ensure_stop();
    let ti = match b.julia.thread {
        Some(t) if t < b.trace.stops[si].threads.len() => t,
        _ => b.current_thread(),
    };
    // Julia prints C++ frames of LLVM and of its own codegen Itanium-mangled
    // (`_ZN4llvm11Instruction15eraseFromParentEv`).
    let demangled: Option<String> = f.function.map(|s| {
        if s.starts_with("_Z") {
            crate::symbolize::demangle::strip_params(&crate::symbolize::demangle::demangle(s)).to_string()
        } else {
            s.to_string()
        }
    });
    let mut pc = pc;
    if std::mem::take(&mut b.julia.win_restart) {
        // The backtrace after `in expression starting at` repeats the Windows header's code
        // location from its first frame: keep one copy (with the header's pc).
        let frames = &mut b.trace.stops[si].threads[ti].frames;
        if frames.first().is_some_and(|f0| f0.function.as_deref() == demangled.as_deref()) {
            pc = pc.or(frames[0].pc.map(|a| a.0));
            frames.clear();
            b.julia.next_index = 0;
        }
    }
    // The runtime records an interpreted frame in its backtrace buffer as a marker word
    // (all ones) followed by two data words (the interpreter state and the statement index);
    // Julia 0.7 to 1.4 printed all three as `unknown function (ip: 0xfffffffffffffffe)`,
    // `(ip: 0x7f…)`, `(ip: 0x13)`. None of them is a return address, so they are no frames.
    if f.function.is_none() && f.path.is_none() {
        if matches!(f.ip, Some(0xffff_ffff_ffff_ffff | 0xffff_ffff_ffff_fffe)) {
            b.julia.interp_data = 2;
            return;
        }
        if b.julia.interp_data > 0 {
            b.julia.interp_data -= 1;
            return;
        }
    }
    b.julia.interp_data = 0;
    let idx = b.julia.next_index;
    b.julia.next_index += 1;
    // `(unknown line)` frames usually name the object file (`libc.so.6`, `sys.so`, the
    // `julia` executable); a source file without a line stays a file.
    let is_object = f.line.is_none() && f.path.is_some_and(|p| !is_source_path(p));
    let frame = Frame {
        index: idx,
        pc: f.ip.or(pc).map(Address),
        function: demangled.as_deref().map(|s| b.intern(s)),
        file: if is_object { None } else { f.path.map(|s| b.intern(s)) },
        line: f.line,
        module: if is_object { f.path.map(|s| b.intern(s)) } else { None },
        inlined: f.inlined,
        span: Span::line(n),
        ..Default::default()
    };
    b.put_frame(ti, frame);
}

fn is_source_path(p: &str) -> bool {
    let base = p.rsplit(['/', '\\']).next().unwrap_or(p);
    matches!(
        base.rsplit_once('.').map(|(_, e)| e),
        Some("jl" | "c" | "cc" | "cpp" | "cxx" | "h" | "hpp" | "rs" | "S" | "s")
    )
}

/// A blank line ends `versioninfo()`'s block.
pub(crate) fn end_versioninfo(b: &mut Builder) {
    b.julia.in_versioninfo = false;
}

pub(crate) fn blank(b: &mut Builder) {
    if b.ctx == Ctx::JuliaStacktrace {
        b.julia.st_pending = None;
    }
}

/// A 32-bit runtime (i686, armv7) prints some `unknown function (ip: …)` values
/// sign-extended to 64 bits (`0xffffffffb5e2c0a8`). When every other pc of the thread fits
/// in 32 bits, such a value is the 32-bit address `0xb5e2c0a8`. The interpreter's pseudo-ips
/// `0xffffffffffffffff` / `0xfffffffffffffffe` are left alone.
pub(crate) fn finish(b: &mut Builder) {
    for st in &mut b.trace.stops {
        for th in &mut st.threads {
            let is_ext = |v: u64| v >> 32 == 0xffff_ffff && v < 0xffff_ffff_ffff_fff0 && v & 0x8000_0000 != 0;
            let pcs = || th.frames.iter().filter_map(|f| f.pc).map(|a| a.0);
            if !pcs().any(is_ext) || pcs().any(|v| v > u32::MAX as u64 && !is_ext(v) && v < 0xffff_ffff_ffff_fff0) {
                continue;
            }
            for f in &mut th.frames {
                if let Some(pc) = f.pc.as_mut()
                    && is_ext(pc.0)
                {
                    pc.0 &= 0xffff_ffff;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pid: Option<u32>, signo: i32, code: Option<i32>, d: &str) -> Option<JuliaSignalHeader<'_>> {
        Some(JuliaSignalHeader { pid, signo, code, description: d })
    }

    #[test]
    fn headers() {
        // Real headers from Julia issues and the seeds (1.8, 1.9, 1.10+, macOS, GC abort).
        assert_eq!(signal_header("signal (11): Segmentation fault"), h(None, 11, None, "Segmentation fault"));
        assert_eq!(signal_header("[61176] signal (6): Aborted"), h(Some(61176), 6, None, "Aborted"));
        assert_eq!(
            signal_header("[52149] signal (11.1): Segmentation fault"),
            h(Some(52149), 11, Some(1), "Segmentation fault")
        );
        assert_eq!(
            signal_header("[4053] signal 11 (1): Segmentation fault"),
            h(Some(4053), 11, Some(1), "Segmentation fault")
        );
        assert_eq!(
            signal_header("[10906] signal 11 (2): Segmentation fault: 11"),
            h(Some(10906), 11, Some(2), "Segmentation fault: 11")
        );
        assert_eq!(signal_header("[99] signal 6 (-6): Aborted"), h(Some(99), 6, Some(-6), "Aborted"));
        assert_eq!(signal_header("signal 11: Segmentation fault"), h(None, 11, None, "Segmentation fault"));
        assert_eq!(signal_header("signal handler installed"), None);
    }

    #[test]
    fn native_frames() {
        let f = native_frame("gc_mark_obj8 at /x/src/gc.c:0 [inlined]────────").unwrap();
        assert!(f.inlined);
        let f = native_frame("jl_deserialize_value_singleton at /cache/build/default-amdci5-5/julialang/julia-release-1-dot-8/src/dump.c:1941 [inlined]").unwrap();
        assert_eq!((f.function, f.line, f.inlined), (Some("jl_deserialize_value_singleton"), Some(1941), true));
        assert_eq!(f.path, Some("/cache/build/default-amdci5-5/julialang/julia-release-1-dot-8/src/dump.c"));
        let f = native_frame("unknown function (ip: 0x7f3e3fd8f4dc)").unwrap();
        assert_eq!((f.function, f.ip), (None, Some(0x7f3e3fd8f4dc)));
        let f = native_frame("unknown function (ip: (nil))").unwrap();
        assert_eq!(f.ip, Some(0));
        let f = native_frame("gsignal at /usr/lib/libc.so.6 (unknown line)").unwrap();
        assert_eq!((f.function, f.path, f.line), (Some("gsignal"), Some("/usr/lib/libc.so.6"), None));
        let f = native_frame("top-level scope at /home/u/x.jl:3").unwrap();
        assert_eq!((f.function, f.line), (Some("top-level scope"), Some(3)));
        let f = native_frame("#start_repl_backend#46 at /cache/build/builder-amdci4-2/julialang/julia-release-1-dot-10/usr/share/julia/stdlib/v1.10/REPL/src/REPL.jl:231").unwrap();
        assert_eq!(f.function, Some("#start_repl_backend#46"));
        let f = native_frame(
            "gc_try_setmark at /home/Administrator/buildbot/worker/package_win64/build/src\\gc.c:1424 [inlined]",
        )
        .unwrap();
        assert_eq!((f.line, f.inlined), (Some(1424), true));
        let f = native_frame("GenericMemory at ./boot.jl:515 [inlined]").unwrap();
        assert_eq!(f.path, Some("./boot.jl"));
        assert_eq!(native_frame("look at this"), None);
        assert_eq!(native_frame("the program stopped at home"), None);
    }

    #[test]
    fn column_frames() {
        let f =
            column_frame("jl_datatype_layout        julia.h:1523            <- reading a GARBAGE type tag").unwrap();
        assert_eq!((f.function, f.path, f.line), (Some("jl_datatype_layout"), Some("julia.h"), Some(1523)));
        let f = column_frame("augmented_primal          LuxLib/src/impl/matmul.jl:276   <- ...inside").unwrap();
        assert_eq!(
            (f.function, f.path, f.line),
            (Some("augmented_primal"), Some("LuxLib/src/impl/matmul.jl"), Some(276))
        );
        assert!(column_frame("gc_mark_loop_serial ...").is_none());
        assert!(column_frame("ODEfunc                   (Lux dense RHS)").is_none());
        assert!(column_frame("Julia	Enzyme 0.13.171 result").is_none());
        assert!(column_frame("matmuladd / fused_dense / Dense / applychain / Chain").is_none());
    }

    #[test]
    fn stacktrace_entries() {
        let e = stacktrace_entry("  [1] enzyme_extract_world(fn::LLVM.Function)").unwrap();
        assert_eq!((e.number, e.call, e.location), (1, "enzyme_extract_world(fn::LLVM.Function)", None));
        let e = stacktrace_entry("[3] f(x::Int64) @ Module ~/path/file.jl:12 [inlined]").unwrap();
        assert_eq!((e.call, e.location), ("f(x::Int64)", Some("Module ~/path/file.jl:12 [inlined]")));
        let e = stacktrace_entry(" [2] applychain           @ Lux/src/layers/containers.jl:577").unwrap();
        assert_eq!((e.call, e.location), ("applychain", Some("Lux/src/layers/containers.jl:577")));
        let e = stacktrace_entry(" [1] f at /tmp/x.jl:3").unwrap();
        assert_eq!((e.call, e.location), ("f", Some("/tmp/x.jl:3")));
        assert_eq!(
            at_location("Enzyme.Compiler ~/.julia/dev/Enzyme/src/compiler.jl:2494"),
            (Some("Enzyme.Compiler"), Some("~/.julia/dev/Enzyme/src/compiler.jl"), Some(2494), false)
        );
        assert_eq!(
            at_location("~/.julia/dev/Enzyme/src/compiler.jl:2840 [inlined]"),
            (None, Some("~/.julia/dev/Enzyme/src/compiler.jl"), Some(2840), true)
        );
        assert_eq!(at_location("REPL[2]:1"), (None, Some("REPL[2]"), Some(1), false));
        assert_eq!(split_call("f(x::Int64)"), ("f", Some("x::Int64")));
        assert_eq!(split_call("macro expansion"), ("macro expansion", None));
    }

    #[test]
    fn windows_header() {
        let (name, addr, frame) = windows_exception("Exception: EXCEPTION_ACCESS_VIOLATION at 0x6b5e158a -- gc_try_setmark at /home/Administrator/buildbot/worker/package_win64/build/src\\gc.c:1424 [inlined]").unwrap();
        assert_eq!((name, addr), ("EXCEPTION_ACCESS_VIOLATION", Some(0x6b5e158a)));
        assert!(frame.unwrap().starts_with("gc_try_setmark"));
    }
}

#[cfg(test)]
mod windows_tests {
    #[test]
    fn windows_codeloc_then_backtrace_is_one_stack() {
        let t = "\
Exception: EXCEPTION_ACCESS_VIOLATION at 0x6c4a2f10 -- gc_try_setmark at C:/src\\gc.c:1302 [inlined]
gc_mark_loop at C:/src\\gc.c:1790
in expression starting at C:\\Users\\dev\\fit.jl:27
gc_try_setmark at C:/src\\gc.c:1302 [inlined]
gc_mark_loop at C:/src\\gc.c:1790
_jl_gc_collect at C:/src\\gc.c:2391
fit_step at C:\\Users\\dev\\fit.jl:14
";
        let p = crate::input::parse(t);
        let th = &p.trace.stops[0].threads[0];
        let names: Vec<&str> = th.frames.iter().map(|f| f.function.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["gc_try_setmark", "gc_mark_loop", "_jl_gc_collect", "fit_step"]);
        assert_eq!(th.frames[0].pc.map(|a| a.0), Some(0x6c4a2f10));
        assert_eq!(th.frames.iter().map(|f| f.index).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(p.trace.stops[0].reason.signo, Some(11));
        assert_eq!(super::windows_signo("EXCEPTION_BREAKPOINT"), None);
    }
}
