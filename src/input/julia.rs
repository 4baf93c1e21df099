//! Julia's own crash output (no debugger involved):
//!
//! ```text
//! [4053] signal 11 (1): Segmentation fault        (1.9+; older: `signal (11): Segmentation fault`)
//! in expression starting at /tmp/x.jl:3
//! jl_gc_collect at /src/gc.c:123 [inlined]       native frames, innermost first
//! unknown function (ip: 0x7f3e3fd8f4dc)
//! Allocations: 123 (Pool: 120; Big: 3); GC: 0
//! ```
//!
//! and Julia-level exception traces (`ERROR: …` then `Stacktrace:` with `[n] f(x::T)` and
//! `@ Module file:line` lines), plus `GC error (probable corruption)` aborts.

use super::lexemes::{file_line, parse_hex};
use super::{Builder, Ctx};
use crate::model::*;

#[derive(Default)]
pub(crate) struct JuliaState {
    /// Thread receiving native frames.
    thread: Option<usize>,
    next_index: u32,
    /// The last `[n]` Stacktrace frame, waiting for its `@ Module file:line` line.
    st_pending: Option<usize>,
    /// After a `GC error` line: object dumps follow.
    in_gc_error: bool,
}

/// `[pid] signal 11 (1): Segmentation fault` / `signal (11): Segmentation fault`.
pub fn signal_header(t: &str) -> Option<(Option<u32>, i32, Option<i32>, &str)> {
    let (pid, rest) = if let Some(r) = t.strip_prefix('[') {
        let e = r.find("] ")?;
        (r[..e].parse().ok(), &r[e + 2..])
    } else {
        (None, t)
    };
    let rest = rest.strip_prefix("signal ")?;
    let (signo, code, rest) = if let Some(r) = rest.strip_prefix('(') {
        // old form: `signal (11): desc`
        let e = r.find(')')?;
        (r[..e].parse().ok()?, None, &r[e + 1..])
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
    let desc = rest.strip_prefix(": ")?;
    Some((pid, signo, code, desc.trim()))
}

/// A native frame: `name at file:line [inlined]`, `name at /lib/libc.so.6 (unknown line)`,
/// `unknown function (ip: 0x…)` (optionally ` at /lib/…`).
pub fn native_frame(t: &str) -> Option<(Option<&str>, Option<u64>, Option<&str>, Option<u32>, bool)> {
    let t = t.trim_end();
    let (t, inlined) = match t.strip_suffix(" [inlined]") {
        Some(r) => (r, true),
        None => (t, false),
    };
    if let Some(r) = t.strip_prefix("unknown function (ip: ") {
        let e = r.find(')')?;
        let ip = parse_hex(&r[..e])?;
        let tail = r[e + 1..].trim();
        let file = tail.strip_prefix("at ").map(str::trim).filter(|s| !s.is_empty());
        let file = file.map(|f| f.trim_end_matches(" (unknown line)"));
        return Some((None, Some(ip), file, None, inlined));
    }
    let (name, loc) = t.split_once(" at ")?;
    if name.is_empty() || name.contains(' ') && !name.contains('(') {
        return None;
    }
    if let Some(lib) = loc.strip_suffix(" (unknown line)") {
        return Some((Some(name), None, Some(lib), None, inlined));
    }
    let (file, line, _) = file_line(loc)?;
    Some((Some(name), None, Some(file), Some(line), inlined))
}

/// A Julia `Stacktrace:` entry: `[3] f(x::Int64)` with the location on the next line
/// (`@ Module ~/file.jl:12 [inlined]`), or all on one line (`… @ Module file:12`, or the
/// pre-1.6 `… at /path/file.jl:12`).
pub fn stacktrace_entry(t: &str) -> Option<(u32, &str, Option<&str>)> {
    let r = t.trim_start().strip_prefix('[')?;
    let e = r.find("] ")?;
    let idx: u32 = r[..e].trim().parse().ok()?;
    let body = r[e + 2..].trim();
    if body.is_empty() {
        return None;
    }
    if let Some(p) = body.rfind(" @ ") {
        return Some((idx, &body[..p], Some(&body[p + 3..])));
    }
    if let Some(p) = body.rfind(" at ") {
        if file_line(body[p + 4..].trim_end_matches(" [inlined]")).is_some() {
            return Some((idx, &body[..p], Some(&body[p + 4..])));
        }
    }
    Some((idx, body, None))
}

/// `@ Module ~/file.jl:12 [inlined]` or `@ ~/file.jl:12` → (module, file, line, inlined).
fn at_location(loc: &str) -> (Option<&str>, Option<&str>, Option<u32>, bool) {
    let loc = loc.trim();
    let (loc, inlined) = match loc.strip_suffix("[inlined]") {
        Some(r) => (r.trim_end(), true),
        None => (loc, false),
    };
    let (module, path) = match loc.split_once(' ') {
        Some((m, p)) if !m.contains('/') && !m.contains(':') => (Some(m), p.trim()),
        _ => (None, loc),
    };
    match file_line(path) {
        Some((f, l, _)) => (module, Some(f), Some(l), inlined),
        None => (module, if path.is_empty() { None } else { Some(path) }, None, inlined),
    }
}

fn split_call(sig: &str) -> (&str, Option<&str>) {
    // `f(x::Int64)` → ("f", "x::Int64"); `macro expansion` → (it, None)
    if sig.ends_with(')') {
        if let Some(open) = super::lexemes::open_paren_of_last_group(sig) {
            if open > 0 {
                return (&sig[..open], Some(&sig[open + 1..sig.len() - 1]));
            }
        }
    }
    (sig, None)
}

pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        return false;
    }
    // Signal header.
    if t.starts_with("signal ") || (t.starts_with('[') && t.contains("] signal ")) {
        if let Some((_pid, signo, code, desc)) = signal_header(t) {
            b.saw(Format::Julia);
            let mut reason = StopReason { kind: StopKind::Signal, span: Span::line(n), ..Default::default() };
            reason.signo = Some(signo);
            reason.signal = crate::signals::name(signo).map(|s| b.intern(s));
            reason.si_code = code;
            reason.description = Some(desc.into());
            b.new_stop(reason, Some("1"));
            b.julia.thread = Some(b.current_thread());
            b.julia.next_index = 0;
            b.ctx = Ctx::JuliaNative;
            return true;
        }
    }
    if t.starts_with("in expression starting at ") {
        b.saw(Format::Julia);
        return true;
    }
    if t.starts_with("GC error (probable corruption)") {
        b.saw(Format::Julia);
        let msg = Message { text: t.into(), span: Span::line(n) };
        b.julia.in_gc_error = true;
        let si = b.ensure_stop();
        b.trace.stops[si].messages.push(msg);
        return true;
    }
    if b.julia.in_gc_error && (t.starts_with("!!!") || t.starts_with("Allocations:") || t.starts_with("<?#") || t.starts_with("Queued root") || t.starts_with("Stack frame") || t.starts_with("Ignored") || t.starts_with("Last queued") || t.starts_with("Mark stack")) {
        let msg = Message { text: t.into(), span: Span::line(n) };
        b.stop_mut().messages.push(msg);
        return true;
    }
    if t.starts_with("Allocations: ") && t.contains("(Pool: ") {
        b.saw(Format::Julia);
        b.ctx = Ctx::None;
        b.julia.thread = None;
        return true;
    }
    if b.ctx == Ctx::JuliaNative {
        if let Some((name, ip, file, line, inlined)) = native_frame(t) {
            let ti = b.julia.thread.unwrap_or_else(|| b.current_thread());
            let idx = b.julia.next_index;
            b.julia.next_index += 1;
            let is_lib = file.map(|f| f.contains(".so") || f.contains(".dylib") || f.contains(".dll")).unwrap_or(false) && line.is_none();
            let frame = Frame {
                index: idx,
                pc: ip.map(Address),
                function: name.map(|s| b.intern(s)),
                file: if is_lib { None } else { file.map(|s| b.intern(s)) },
                line,
                module: if is_lib { file.map(|s| b.intern(s)) } else { None },
                inlined,
                span: Span::line(n),
                ..Default::default()
            };
            b.put_frame(ti, frame);
            return true;
        }
    }
    // Julia-level exceptions.
    if let Some(r) = t.strip_prefix("ERROR: ") {
        b.saw(Format::Julia);
        let si = b.ensure_stop();
        let has_signal = b.trace.stops[si].reason.kind == StopKind::Signal;
        if !has_signal {
            let reason = StopReason { kind: StopKind::RuntimeError, description: Some(r.into()), span: Span::line(n), ..Default::default() };
            b.new_stop(reason, Some("1"));
        }
        let msg = Message { text: t.into(), span: Span::line(n) };
        b.stop_mut().messages.push(msg);
        return true;
    }
    if t == "Stacktrace:" {
        b.saw(Format::Julia);
        b.ctx = Ctx::JuliaStacktrace;
        b.julia.st_pending = None;
        // Its frames belong to a thread of their own when native frames were printed.
        let si = b.ensure_stop();
        let has_native = b.trace.stops[si].threads.iter().any(|t| !t.frames.is_empty());
        if has_native {
            let id = format!("julia-{}", b.trace.stops[si].threads.len() + 1);
            b.select_thread(&id);
            let ti = b.current_thread();
            b.trace.stops[si].threads[ti].name = Some("Julia stacktrace".into());
        } else {
            b.select_thread("1");
        }
        return true;
    }
    if b.ctx == Ctx::JuliaStacktrace {
        if let Some((idx, sig, loc)) = stacktrace_entry(t) {
            let (name, args) = split_call(sig);
            let mut frame = Frame { index: idx.saturating_sub(1), function: Some(b.intern(name)), args: args.map(Box::from), span: Span::line(n), ..Default::default() };
            if let Some(loc) = loc {
                let (module, file, line, inlined) = at_location(loc);
                frame.module = module.map(|m| b.intern(m));
                frame.file = file.map(|f| b.intern(f));
                frame.line = line;
                frame.inlined = inlined;
            }
            let ti = b.current_thread();
            let pos = b.put_frame(ti, frame);
            b.julia.st_pending = if loc.is_none() { Some(pos) } else { None };
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
        if t.starts_with("caused by: ") || t.starts_with("in expression starting at") || t.starts_with("⋮ internal @") || t.starts_with("Use `err`") || t.starts_with("[inlined]") || t.starts_with("⋮") {
            return true;
        }
    }
    false
}

pub(crate) fn blank(b: &mut Builder) {
    if b.ctx == Ctx::JuliaStacktrace {
        b.julia.st_pending = None;
    }
}

pub(crate) fn finish(_b: &mut Builder) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        assert_eq!(signal_header("signal (11): Segmentation fault"), Some((None, 11, None, "Segmentation fault")));
        assert_eq!(signal_header("[61176] signal (6): Aborted"), Some((Some(61176), 6, None, "Aborted")));
        assert_eq!(signal_header("[4053] signal 11 (1): Segmentation fault"), Some((Some(4053), 11, Some(1), "Segmentation fault")));
        assert_eq!(signal_header("[1] signal 11 (128): Segmentation fault"), Some((Some(1), 11, Some(128), "Segmentation fault")));
        assert_eq!(signal_header("signal handler installed"), None);
    }

    #[test]
    fn native_frames() {
        assert_eq!(
            native_frame("jl_deserialize_value_singleton at /cache/build/src/dump.c:1941 [inlined]"),
            Some((Some("jl_deserialize_value_singleton"), None, Some("/cache/build/src/dump.c"), Some(1941), true))
        );
        assert_eq!(native_frame("unknown function (ip: 0x7f3e3fd8f4dc)"), Some((None, Some(0x7f3e3fd8f4dc), None, None, false)));
        assert_eq!(native_frame("gsignal at /usr/lib/libc.so.6 (unknown line)"), Some((Some("gsignal"), None, Some("/usr/lib/libc.so.6"), None, false)));
        assert_eq!(native_frame("look at this"), None);
    }

    #[test]
    fn stacktrace_entries() {
        assert_eq!(stacktrace_entry("  [1] enzyme_extract_world(fn::LLVM.Function)"), Some((1, "enzyme_extract_world(fn::LLVM.Function)", None)));
        assert_eq!(
            stacktrace_entry("[3] f(x::Int64) @ Module ~/path/file.jl:12 [inlined]"),
            Some((3, "f(x::Int64)", Some("Module ~/path/file.jl:12 [inlined]")))
        );
        assert_eq!(at_location("Enzyme.Compiler ~/.julia/dev/Enzyme/src/compiler.jl:2494"), (Some("Enzyme.Compiler"), Some("~/.julia/dev/Enzyme/src/compiler.jl"), Some(2494), false));
        assert_eq!(at_location("~/.julia/dev/Enzyme/src/compiler.jl:2840 [inlined]"), (None, Some("~/.julia/dev/Enzyme/src/compiler.jl"), Some(2840), true));
    }
}
