//! rr's own lines. rr replays through an embedded gdb, so a replay transcript is gdb output
//! (handled in `gdb.rs`) plus: the `(rr)` prompt, `when` / `when-ticks` / `when-tid`
//! answers, reverse-execution commands (the stops they reach are marked `reverse`),
//! watchpoint `Old value` / `New value` pairs, and rr's own failure reports:
//!
//! ```text
//! [FATAL src/ReplaySession.cc:600:cont_syscall_boundary()]
//!  (task 37985 (rec:165304) at time 87)
//!  -> Assertion `false' failed to hold. Replay got unrecorded signal {signo:SIGSEGV,…}
//! Tail of trace dump:
//! {
//!   real_time:633565.988482 global_time:67, event:`INSTRUCTION_TRAP' tid:165304, ticks:8129
//! rax:0x7c0fc163 rbx:0x280003f … rip:0x7ee386c55d5f eflags:0x10206 …
//! }
//! === Start rr backtrace:
//! rr(_ZN2rr13dump_rr_stackEv+0x33)[0x7d7565]
//! === End rr backtrace
//! ```
//!
//! and the plain `rr: src/TraceStream.cc:456: …: Assertion `…' failed.` abort. A report
//! becomes an `RrFatal` stop; rr's own backtrace becomes its thread `rr`.

use super::{Builder, Ctx};
use crate::model::*;

#[derive(Clone, Default)]
pub(crate) struct RrState {
    /// An event number seen before the stop it belongs to.
    pub pending_event: Option<u64>,
    /// The last command was a reverse-execution command.
    pub reverse: bool,
    /// The current stop is a watchpoint hit whose values follow.
    pub watch_values: bool,
    /// Inside an `[FATAL …]` report (its indented lines and rr backtrace follow).
    pub in_fatal: bool,
    /// Inside `Tail of trace dump:` braces.
    in_dump: bool,
    /// Inside `=== Start rr backtrace:`.
    in_backtrace: bool,
    next_rr_frame: u32,
    /// The lines of the trace-dump record being read (joined at its closing `}`).
    record: String,
    record_span: Span,
    /// Brace depth inside `Tail of trace dump:` (records, and `{ syscall:… }` inside them).
    depth: u32,
    /// The `[FATAL …]` stop the tail and the rr backtrace belong to.
    fatal: Option<usize>,
}

impl RrState {
    pub fn after_stop(&mut self, _stop: usize) {
        self.watch_values = false;
    }
}

/// Called for every echoed command (any prompt).
pub(crate) fn command(b: &mut Builder, verb: &str, _rest: &[&str], _n: u32) {
    b.rr.in_fatal = false;
    b.rr.in_dump = false;
    b.rr.in_backtrace = false;
    match verb {
        "reverse-continue" | "rc" | "reverse-step" | "rs" | "reverse-next" | "rn" | "reverse-finish"
        | "reverse-stepi" | "rsi" | "reverse-nexti" | "rni" => {
            b.saw(Format::Rr);
            b.rr.reverse = true;
        }
        "when" | "when-ticks" | "when-tid" => b.saw(Format::Rr),
        "continue" | "c" | "cont" | "next" | "n" | "step" | "s" | "stepi" | "si" | "nexti" | "ni" | "finish"
        | "run" | "r" | "until" | "advance" | "jump" | "restart" | "seek-ticks" => b.rr.reverse = false,
        // Inspection commands keep the direction of the last run command.
        _ => {}
    }
}

/// `rr(_ZN2rr13dump_rr_stackEv+0x33)[0x7d7565]`, `/usr/bin/rr(+0x403d1b)[0x556fc863bd1b]`,
/// `rr[0x6b6b11]`: (module, symbol, offset, pc).
fn rr_backtrace_line(t: &str) -> Option<(&str, Option<&str>, Option<u64>, u64)> {
    let body = t.strip_suffix(']')?;
    let open = body.rfind('[')?;
    let pc = super::lexemes::parse_hex(&body[open + 1..])?;
    let head = &body[..open];
    if let Some(inner) = head.strip_suffix(')') {
        let p = inner.find('(')?;
        let module = &inner[..p];
        let sym = &inner[p + 1..];
        let (name, off) = match sym.rsplit_once('+') {
            Some((n, o)) => (n, super::lexemes::parse_hex(o)),
            None => (sym, None),
        };
        return Some((module, if name.is_empty() { None } else { Some(name) }, off, pc));
    }
    if head.is_empty() || head.contains(' ') {
        return None;
    }
    Some((head, None, None, pc))
}

fn fatal_stop(b: &mut Builder, t: &str, description: &str, n: u32) {
    b.saw(Format::Rr);
    let reason = StopReason {
        kind: StopKind::RrFatal,
        description: Some(description.trim().into()),
        span: Span::line(n),
        ..Default::default()
    };
    let si = b.new_stop(reason, None);
    b.rr.fatal = Some(si);
    b.rr.in_fatal = true;
    b.rr.in_dump = false;
    b.rr.in_backtrace = false;
    b.rr.next_rr_frame = 0;
    let msg = Message::new(t, Span::line(n));
    b.stop_mut().messages.push(msg);
}

/// rr-specific lines. Returns whether the line was one.
pub(crate) fn line(b: &mut Builder, t: &str, n: u32) -> bool {
    let first = t.as_bytes()[0];
    if first == b'C' {
        if let Some(r) = t.strip_prefix("Current event: ")
            && let Ok(ev) = r.trim().parse::<u64>()
        {
            b.saw(Format::Rr);
            match b.stop_index() {
                Some(i)
                    if b.trace.stops[i].reason.kind != StopKind::Unknown || !b.trace.stops[i].threads.is_empty() =>
                {
                    b.trace.stops[i].rr_event = Some(ev)
                }
                _ => b.rr.pending_event = Some(ev),
            }
            return true;
        }
        if t.starts_with("Current event not known") {
            b.saw(Format::Rr);
            return true;
        }
        if let Some(r) = t.strip_prefix("Current tick: ").or_else(|| t.strip_prefix("Current ticks: "))
            && let Ok(tk) = r.trim().parse::<u64>()
        {
            b.saw(Format::Rr);
            b.stop_mut().rr_ticks = Some(tk);
            return true;
        }
        if let Some(r) = t.strip_prefix("Current tid: ")
            && let Ok(tid) = r.trim().parse::<u64>()
        {
            b.saw(Format::Rr);
            b.stop_mut().rr_tid = Some(tid);
            return true;
        }
    }
    if first == b'O' || first == b'N' {
        let (old, rest) = if let Some(r) = t.strip_prefix("Old value = ") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("New value = ") {
            (false, r)
        } else {
            return false;
        };
        // The values belong to a watchpoint hit; make sure they land on one.
        let si = b.ensure_stop();
        if b.trace.stops[si].reason.kind != StopKind::Watchpoint {
            let reason = StopReason { kind: StopKind::Watchpoint, span: Span::line(n), ..Default::default() };
            b.new_stop(reason, None);
        }
        let r = &mut b.stop_mut().reason;
        if old {
            r.old_value = Some(rest.into());
        } else {
            r.new_value = Some(rest.into());
        }
        r.span.extend_to(n);
        b.extend_expect_location();
        return true;
    }
    if first == b'[' {
        // `[FATAL src/ReplaySession.cc:1234:check_pending_sig()] …`, `[EMERGENCY] …`
        for tag in ["[FATAL ", "[EMERGENCY]", "[EMERGENCY "] {
            if let Some(r) = t.strip_prefix(tag) {
                // `[FATAL src/X.cc:612:f() errno: EIO] message`: the location until `]`.
                let r = r.trim();
                let (loc, rest) = match r.find(']') {
                    Some(p) => (&r[..p], r[p + 1..].trim()),
                    None => (r, ""),
                };
                let loc = loc.split(" errno:").next().unwrap_or(loc).trim();
                fatal_stop(b, t, if rest.is_empty() { loc } else { rest }, n);
                return true;
            }
        }
        if t.starts_with("[ERROR ") || t.starts_with("[rr ") || t.starts_with("[INFO ") || t.starts_with("[WARN ") {
            b.saw(Format::Rr);
            let msg = Message::new(t, Span::line(n));
            b.stop_mut().messages.push(msg);
            return true;
        }
    }
    if let Some(r) = t.strip_prefix("rr: ") {
        // `rr: /src/rr/src/TraceStream.cc:456: bool …: Assertion `x' failed.`
        if r.contains("Assertion `") && (r.contains("failed") || r.contains("to hold")) {
            fatal_stop(b, t, r, n);
            return true;
        }
        if r.starts_with("Saving execution to trace directory") || r.contains("trace") {
            b.saw(Format::Rr);
            return true;
        }
    }
    if t.starts_with("Tail of trace dump") {
        b.saw(Format::Rr);
        b.rr.in_dump = true;
        b.rr.depth = 0;
        b.rr.record.clear();
        if b.rr.fatal.is_none() || !b.rr.in_fatal {
            b.rr.fatal = None;
        }
        b.add_message(t, n);
        return true;
    }
    if b.rr.in_dump && dump_line(b, t, n) {
        return true;
    }
    if b.rr.in_fatal {
        if let Some(r) = t.strip_prefix("(task ") {
            // `(task 1234 (rec:1235) at time 5678)`: the event the failure happened at.
            if let Some(p) = r.find("at time ") {
                let d = r[p + 8..].bytes().take_while(|c| c.is_ascii_digit()).count();
                if let Ok(ev) = r[p + 8..p + 8 + d].parse() {
                    b.stop_mut().rr_event = Some(ev);
                }
            }
            let msg = Message::new(t, Span::line(n));
            b.stop_mut().messages.push(msg);
            return true;
        }
        // A continuation of the `->` line (rr wraps the details): `` `write' (ticks: 781200345)``.
        if t.starts_with('`') || t.contains("(ticks: ") {
            let ticks = t.split_once("(ticks: ").and_then(|(_, r)| r.split_once(')')).and_then(|(v, _)| v.parse().ok());
            let stop = b.stop_mut();
            if let Some(d) = stop.reason.description.as_mut() {
                *d = format!("{d} {t}").into();
            }
            if ticks.is_some() {
                stop.rr_ticks = ticks;
            }
            stop.messages.push(Message::new(t, Span::line(n)));
            return true;
        }
        if let Some(r) = t.strip_prefix("-> ") {
            // ` -> Assertion `x' failed to hold. <details>`: the best one-line description.
            let stop = b.stop_mut();
            stop.reason.description = Some(r.trim().into());
            stop.messages.push(Message::new(t, Span::line(n)));
            return true;
        }
        if t.starts_with("Launch gdb with") || t.starts_with("gdb '-l'") {
            let msg = Message::new(t, Span::line(n));
            b.stop_mut().messages.push(msg);
            return true;
        }
        if t.starts_with("=== Start rr backtrace") {
            b.rr.in_backtrace = true;
            b.rr.in_dump = false;
            if let Some(f) = b.rr.fatal.filter(|&f| f < b.trace.stops.len()) {
                b.stop = Some(f);
            }
            return true;
        }
        if t.starts_with("=== End rr backtrace") {
            b.rr.in_backtrace = false;
            return true;
        }
        if b.rr.in_backtrace
            && let Some((module, sym, _off, pc)) = rr_backtrace_line(t)
        {
            let ti = b.thread_by_id("rr");
            let si = b.ensure_stop();
            b.trace.stops[si].threads[ti].name = Some("rr".into());
            let index = b.rr.next_rr_frame;
            b.rr.next_rr_frame += 1;
            let (name, args) = match sym {
                Some(s) => {
                    let d = crate::symbolize::demangle::demangle(s);
                    let bare = crate::symbolize::demangle::strip_params(&d);
                    let args = d.get(bare.len()..).map(|a| {
                        a.trim().trim_start_matches('(').trim_end_matches(" const").trim_end_matches(')').to_string()
                    });
                    (Some(b.intern(bare)), args.filter(|a| !a.is_empty()).map(Box::from))
                }
                None => (None, None),
            };
            let frame = Frame {
                index,
                pc: Some(Address(pc)),
                function: name,
                args,
                module: Some(b.intern(module)),
                span: Span::line(n),
                ..Default::default()
            };
            b.put_frame(ti, frame);
            return true;
        }
    }
    if b.ctx == Ctx::None && t.starts_with("Program stopped.") && b.rr.reverse {
        return true;
    }
    if t.starts_with("Really redirect output to remote target?") {
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("Really redefine built-in command") {
        b.saw(Format::Rr);
        return true;
    }
    false
}

/// One line inside `Tail of trace dump:`. Records are `{`…`}` blocks: a header
/// (`real_time:… global_time:N, event:`SIGNAL: SIGSEGV(det)' tid:T, ticks:K`), a register
/// line (`rax:0x… rbx:0x… …`, which a paste may have hard-wrapped anywhere, even inside a
/// token) and `{ syscall:'…', ret:0x…, size:0x… }` lines. At the record's `}` the lines are
/// joined and read: a `SIGNAL:` event is a signal stop (event, tid, ticks, registers); the
/// event the `[FATAL]` report names gives that report its ticks and the tracee's registers;
/// every other record is kept as a message.
fn dump_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t == "{" {
        b.rr.depth += 1;
        if b.rr.depth == 1 {
            b.rr.record.clear();
            b.rr.record_span = Span::line(n);
        }
        return true;
    }
    if t == "}" {
        if b.rr.depth == 1 {
            finish_record(b, n);
        }
        b.rr.depth = b.rr.depth.saturating_sub(1);
        return true;
    }
    if b.rr.depth == 0 {
        return t == "...";
    }
    if t.starts_with("{ ") && t.ends_with('}') {
        // A syscallbuf entry: `{ syscall:'futex', ret:0x0, size:0x10 }`.
        b.add_message(t, n);
        return true;
    }
    let r = &mut b.rr.record;
    if !r.is_empty() && joins_with_space(r, t) {
        r.push(' ');
    }
    if r.len() < 64 * 1024 {
        r.push_str(t);
    }
    b.rr.record_span.extend_to(n);
    true
}

/// Whether a record line continues the previous one after a space (the paste broke the
/// line between two `name:value` tokens) rather than inside a token.
fn joins_with_space(prev: &str, next: &str) -> bool {
    if next.starts_with("real_time:") {
        return true;
    }
    let ends_with_value = {
        let tail = prev.rsplit(' ').next().unwrap_or("");
        tail.split_once(':').is_some_and(|(k, v)| {
            !k.is_empty()
                && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                && v.strip_prefix("0x").is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
        })
    };
    let starts_with_name = next.split_once(':').is_some_and(|(k, v)| {
        !k.is_empty()
            && k.as_bytes()[0].is_ascii_alphabetic()
            && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && v.starts_with("0x")
    });
    ends_with_value && starts_with_name
}

fn number_after(s: &str, key: &str) -> Option<u64> {
    let p = s.find(key)? + key.len();
    let d = s[p..].bytes().take_while(u8::is_ascii_digit).count();
    s[p..p + d].parse().ok()
}

/// `name:0xHEX` pairs of a joined register line.
fn record_registers(s: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(p) = s[from..].find(":0x").map(|p| p + from) {
        let mut st = p;
        while st > 0 && (bytes[st - 1].is_ascii_alphanumeric() || bytes[st - 1] == b'_') {
            st -= 1;
        }
        // A name starts with a letter (digits before it are the end of the previous value).
        while st < p && !bytes[st].is_ascii_alphabetic() {
            st += 1;
        }
        let vs = p + 3;
        let ve = vs + s[vs..].bytes().take_while(u8::is_ascii_hexdigit).count();
        if st < p
            && ve > vs
            && ve - vs <= 16
            && let Ok(v) = u64::from_str_radix(&s[vs..ve], 16)
        {
            out.push((s[st..p].to_string(), v));
        }
        from = ve.max(p + 3);
    }
    out
}

fn finish_record(b: &mut Builder, n: u32) {
    let rec = std::mem::take(&mut b.rr.record);
    let span = b.rr.record_span;
    let Some(event) = number_after(&rec, "global_time:") else {
        if !rec.is_empty() {
            b.add_message(&rec, n);
        }
        return;
    };
    let name = rec.split_once("event:`").and_then(|(_, r)| r.split_once('\'')).map(|(e, _)| e.to_string());
    let tid = number_after(&rec, "tid:");
    let ticks = number_after(&rec, "ticks:");
    // The registers follow the header (after `ticks:N`).
    let regs_text = match rec.find("ticks:") {
        Some(p) => {
            let q = p + 6 + rec[p + 6..].bytes().take_while(u8::is_ascii_digit).count();
            &rec[q..]
        }
        None => "",
    };
    let regs = record_registers(regs_text);
    let header_end = rec.len() - regs_text.len();
    b.add_message(rec[..header_end].trim(), span.first);
    let signal = name
        .as_deref()
        .and_then(|e| e.strip_prefix("SIGNAL: "))
        .map(|s| s.split(|c: char| !(c.is_ascii_alphanumeric())).next().unwrap_or(s).to_string());
    let fatal = b.rr.fatal.filter(|&f| f < b.trace.stops.len());
    let fatal_event = fatal.and_then(|f| b.trace.stops[f].rr_event);
    let tid_id = tid.map(|t| t.to_string()).unwrap_or_else(|| "1".into());
    let mut targets = Vec::new();
    if let Some(sig) = signal.filter(|s| s.starts_with("SIG")) {
        let reason = StopReason {
            kind: StopKind::Signal,
            signo: crate::model::signals::signo(&sig),
            signal: Some(b.intern(&sig)),
            description: name.as_deref().map(Box::from),
            span,
            ..Default::default()
        };
        let si = b.new_stop(reason, Some(&tid_id));
        targets.push(si);
    }
    if let Some(f) = fatal
        && fatal_event == Some(event)
    {
        targets.push(f);
    }
    for &si in &targets {
        b.stop = Some(si);
        let ti = b.thread_by_id(&tid_id);
        let st = &mut b.trace.stops[si];
        st.rr_event = Some(event);
        if ticks.is_some() {
            st.rr_ticks = ticks;
        }
        st.span.extend_to(n);
        if st.reason.kind == StopKind::Signal {
            st.threads[ti].crashed = true;
        }
        if let Some(t) = tid {
            st.threads[ti].lwp = Some(t);
        }
        for (name, v) in &regs {
            let name = b.intern(name);
            let set = b.trace.stops[si].threads[ti].registers.entry(0).or_default();
            set.span.extend_to(span.first);
            set.span.extend_to(n);
            set.set(Register { name, value: Some(*v), natural: None, span });
        }
    }
    // rr's backtrace and later report lines belong to the FATAL stop.
    if let Some(f) = fatal {
        b.stop = Some(f);
    }
}

impl Builder {
    pub(crate) fn stop_index(&self) -> Option<usize> {
        self.stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtrace_lines() {
        // Real lines from rr issue reports (#2161, #3367).
        assert_eq!(
            rr_backtrace_line("rr(_ZN2rr13dump_rr_stackEv+0x33)[0x7d7565]"),
            Some(("rr", Some("_ZN2rr13dump_rr_stackEv"), Some(0x33), 0x7d7565))
        );
        assert_eq!(rr_backtrace_line("rr[0x6b6b11]"), Some(("rr", None, None, 0x6b6b11)));
        assert_eq!(
            rr_backtrace_line("/home/sabae/src/rr/bin/rr(+0x403d1b)[0x556fc863bd1b]"),
            Some(("/home/sabae/src/rr/bin/rr", None, Some(0x403d1b), 0x556fc863bd1b))
        );
        assert_eq!(
            rr_backtrace_line("/lib64/libc.so.6(__libc_start_main+0xea)[0x7f753b23688a]"),
            Some(("/lib64/libc.so.6", Some("__libc_start_main"), Some(0xea), 0x7f753b23688a))
        );
        assert_eq!(rr_backtrace_line("see [0x12]"), None);
    }

    #[test]
    fn when_answers_attach_to_the_stop() {
        // rr's `when` family prints `Current event: N` / `Current tick: N` / `Current tid: N`
        // (rr src/GdbCommand.cc); an answer before any stop waits for the next one.
        let p = crate::input::parse(
            "(rr) when
Current event: 310
(rr) continue
Continuing.

Program received signal SIGSEGV, Segmentation fault.
0x000000000042e958 in tree_entry (desc=desc@entry=0x7ffd4fc47d00, entry=entry@entry=0x7ffd4fc47ba0) at tree-walk.c:98
98\t\t*entry = desc->entry;
(rr) when
Current event: 312
(rr) when-ticks
Current tick: 327128
(rr) when-tid
Current tid: 13018
(rr) reverse-stepi
(rr) when
Current event not known (diversion?)
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let s = p.trace.main_stop().expect("stop");
        assert_eq!((s.rr_event, s.rr_ticks, s.rr_tid), (Some(312), Some(327128), Some(13018)));
        assert_eq!(p.trace.stops[0].rr_event, Some(312), "the pending 310 is replaced by the stop's own answer");
        assert!(p.trace.formats.contains(&Format::Rr));
    }

    #[test]
    fn fatal_report_lines() {
        // The shape of rr's fatal report (rr issues #1530, #2161, #4011).
        let p = crate::input::parse(
            "[FATAL /home/u/rr/src/fast_forward.cc:352:fast_forward_through_instruction() errno: 0 'Success'] \n (task 20944 (rec:11298) at time 218405)
 ->  Assertion `!(debug_status & DS_WATCHPOINT_ANY)' failed to hold. 
",
        );
        let s = p.trace.main_stop().expect("stop");
        assert_eq!(s.reason.kind, StopKind::RrFatal);
        assert_eq!(s.rr_event, Some(218405));
        assert_eq!(
            s.reason.description.as_deref(),
            Some("Assertion `!(debug_status & DS_WATCHPOINT_ANY)' failed to hold.")
        );
    }

    #[test]
    fn tail_record_with_wrapped_registers_is_a_stop() {
        // Record shape of rr's `Tail of trace dump` (rr issues #3035, #3457), our values; the
        // register line is broken inside tokens (`rbp:0x7ffd4e21` / `9a40`) and between them.
        let p = crate::input::parse(
            "Tail of trace dump:
{
  real_time:12.5 global_time:900, event:`SIGNAL: SIGSEGV(det)' tid:4321, ticks:77
rax:0x0 rbx:0x1 rbp:0x7ffd4e21
9a40 rsp:0x7ffd4e219a20 fs:0x
0 rip:0x5612a9e01a7c
eflags:0x246
}
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let s = &p.trace.stops[0];
        assert_eq!((s.reason.signal.as_deref(), s.rr_event, s.rr_ticks), (Some("SIGSEGV"), Some(900), Some(77)));
        let t = &s.threads[0];
        assert_eq!((&*t.id, t.crashed), ("4321", true));
        let r = s.registers().expect("registers");
        assert_eq!(r.get("rbp"), Some(0x7ffd4e219a40));
        assert_eq!(r.get("rsp"), Some(0x7ffd4e219a20));
        assert_eq!(r.get("fs"), Some(0));
        assert_eq!(r.get("rip"), Some(0x5612a9e01a7c));
        assert_eq!(r.get("eflags"), Some(0x246));
        assert_eq!(p.trace.arch, Arch::X86_64);
    }
}
