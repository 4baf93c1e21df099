//! Lines of a `tracecheck-collect` dump (written by `assets/tracecheck.py` inside gdb or
//! `rr replay`) that ordinary gdb transcripts do not have.
//!
//! A dump is a gdb transcript with `(gdb) cmd` echoes, so almost all of it goes through
//! `gdb.rs`. What is left is read here:
//!
//! * the header `tracecheck-collect: tracecheck 0.1.0, gdb 13.1, …` that starts each
//!   collection (and so each stop: a file that collected twice holds two stops);
//! * `info program` output, which is how the dump says why the program stopped (the
//!   `Program received signal` line was printed before the collection began):
//!   `It stopped with signal SIGSEGV, Segmentation fault.`, `It stopped at breakpoint 2.`;
//! * `[Current thread is 6 (Thread 0x… (LWP n))]` (the `thread` command): the thread that
//!   stopped, so its frames and registers land in the right thread;
//! * gdb's error text for a command that failed (the collector writes it and goes on).

use super::{Builder, Ctx, GdbOwnedLocation};
use crate::model::*;

/// The header line the collector writes right after `(gdb) tracecheck-collect FILE`.
pub const HEADER: &str = "tracecheck-collect: ";

#[derive(Clone, Default)]
pub(crate) struct CompanionState {
    /// Inside a `tracecheck-collect` dump: `thread` output selects the stopped thread.
    pub in_collect: bool,
    /// A collection began and its `info program` has not said yet whether this is the
    /// stop already in the trace (a log where gdb's stop line came first, or a second
    /// collection at the same point) or a new one.
    pub undecided: bool,
    /// `Program stopped at 0x…` of the collection being read.
    pub pc: Option<u64>,
}

/// gdb error messages a collector command may leave in the dump (unreadable memory, no
/// process, a frame without a function, a target without `/proc`).
const GDB_ERRORS: &[&str] = &[
    "No registers.",
    "The program has no registers now.",
    "No stack.",
    "No frame selected.",
    "No frame at level ",
    "Cannot access memory at address ",
    "Unable to read siginfo",
    "No thread selected",
    "No symbol table is loaded.",
    "No function contains program counter for selected frame.",
    "No function contains specified address.",
    "Not supported on this target.",
    "Can't determine the current address space",
    "No current process: you must name one.",
    "Target does not support this command.",
    "Target does not support siginfo",
    "unable to open /proc file",
    "Could not fetch register",
    "No process.",
    "No shared libraries loaded at this time.",
    "No threads.",
    "Undefined command: \"when\"",
    "Value can't be converted to integer.",
    "value is not available",
];

/// Reads one (trimmed) line. Returns whether it was a companion line.
pub(crate) fn line(b: &mut Builder, t: &str, n: u32) -> bool {
    if let Some(meta) = t.strip_prefix(HEADER) {
        b.saw(Format::Gdb);
        b.companion.in_collect = true;
        b.companion.undecided = true;
        b.companion.pc = None;
        if b.trace.program.is_none()
            && let Some(p) = meta.split(", ").find_map(|part| part.strip_prefix("program "))
            && p != "?"
        {
            b.trace.program = Some(p.into());
        }
        return true;
    }
    if let Some(r) = t.strip_prefix("It stopped ") {
        return info_program_reason(b, r, n);
    }
    if let Some(r) = t.strip_prefix("Program stopped at ") {
        let Some(pc) = super::lexemes::parse_hex(r.trim_end_matches('.')) else { return false };
        b.saw(Format::Gdb);
        b.companion.pc = Some(pc);
        return true;
    }
    if t == "The program being debugged is not being run." {
        b.saw(Format::Gdb);
        if std::mem::take(&mut b.companion.undecided) {
            b.new_stop(StopReason { span: Span::line(n), ..Default::default() }, None);
        }
        return true;
    }
    // rr's `when` (recent rr prints `Completed event: N`; `rr.rs` reads the older
    // `Current event: N`).
    if let Some(r) = t.strip_prefix("Completed event: ") {
        let Ok(ev) = r.trim().parse::<u64>() else { return false };
        b.saw(Format::Rr);
        match b.stop {
            Some(i) if !b.companion.undecided => b.trace.stops[i].rr_event = Some(ev),
            _ => b.rr.pending_event = Some(ev),
        }
        return true;
    }
    if t.starts_with("Using the running image of ") || is_target_files_line(t) {
        b.saw(Format::Gdb);
        return true;
    }
    if let Some(cmd) = traced_command(t) {
        b.command("gdb", cmd, n);
        return true;
    }
    if b.ctx == Ctx::Registers
        && let Some((name, v, nat)) = system_register(t)
    {
        b.put_register(name, Some(v), Some(nat), n);
        return true;
    }
    if !b.companion.in_collect {
        return false;
    }
    if let Some(r) = t.strip_prefix("[Current thread is ") {
        let id: String = r.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        if id.is_empty() {
            return false;
        }
        b.select_thread(&id);
        let ti = b.current_thread();
        let si = b.ensure_stop();
        let th = &mut b.trace.stops[si].threads[ti];
        th.current = true;
        th.span.extend_to(n);
        // `(Thread 0x7ffff5dcd6c0 (LWP 26062))`
        if let Some(p) = r.find("(LWP ") {
            let d: String = r[p + 5..].chars().take_while(char::is_ascii_digit).collect();
            th.lwp = d.parse().ok().or(th.lwp);
        }
        return true;
    }
    if t.starts_with("(output of ") && t.ends_with(')') {
        b.note(Some(n), t.trim_matches(|c| c == '(' || c == ')').to_string());
        return true;
    }
    if GDB_ERRORS.iter().any(|e| t.starts_with(e)) {
        let msg = format!("`{}` failed in the dump: {}", b.last_verb, t);
        b.note(Some(n), msg);
        return true;
    }
    false
}

/// `info program` on a remote target lists the target's files (like `info files`):
/// `` `/path/prog', file type elf64-littleaarch64. ``, `Entry point: 0x55000008c0`,
/// `0x0000005500000270 - 0x000000550000028b is .interp [in /lib/libc.so.6]`.
fn is_target_files_line(t: &str) -> bool {
    if t.starts_with('`') && t.contains("', file type ") {
        return true;
    }
    if let Some(r) = t.strip_prefix("Entry point: ") {
        return super::lexemes::parse_hex(r).is_some();
    }
    let Some((range, what)) = t.split_once(" is ") else { return false };
    let Some((a, z)) = range.split_once(" - ") else { return false };
    let section = what.split(' ').next().unwrap_or("");
    super::lexemes::parse_hex(a).is_some()
        && super::lexemes::parse_hex(z).is_some()
        && !section.is_empty()
        && section.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'-')
}

/// A system register in `info registers` over qemu's gdbstub (AArch64), which the target
/// description puts in the general group: `ID_AA64PFR0_EL1 0x1000100110011    281479272792081`,
/// `SCTLR          0x10000408ccd5e838  1152925940449667128`. Only read inside a register
/// listing. Returns `(name, value, natural column)`.
fn system_register(t: &str) -> Option<(&str, u64, &str)> {
    let (name, rest) = t.split_once(' ')?;
    let nb = name.as_bytes();
    if nb.is_empty()
        || !nb[0].is_ascii_uppercase()
        || !nb.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
    {
        return None;
    }
    let rest = rest.trim_start();
    let (v, nat) = rest.split_once(' ')?;
    let v = super::lexemes::parse_hex(v)?;
    let nat = nat.trim();
    nat.parse::<i64>().is_ok().then_some((name, v, nat))
}

/// `It stopped with signal SIGSEGV, Segmentation fault.` / `It stopped at breakpoint 2.` /
/// `It stopped at a breakpoint that has since been deleted.` / `It stopped after being stepped.`
fn info_program_reason(b: &mut Builder, r: &str, n: u32) -> bool {
    let r = r.trim_end_matches('.');
    let mut reason = StopReason { span: Span::line(n), ..Default::default() };
    if let Some(sig) = r.strip_prefix("with signal ") {
        let (name, desc) = sig.split_once(", ").unwrap_or((sig, ""));
        if !name.starts_with("SIG") && name.parse::<i32>().is_err() {
            return false;
        }
        super::fill_signal(&mut reason, name, desc);
        reason.kind = StopKind::Signal;
    } else if let Some(num) = r.strip_prefix("at breakpoint ") {
        let Ok(k) = num.trim().parse::<i64>() else { return false };
        reason.kind = StopKind::Breakpoint;
        reason.number = Some(k);
    } else if r == "at a breakpoint that has since been deleted" {
        reason.kind = StopKind::Breakpoint;
        reason.description = Some(r.into());
    } else if r == "after being stepped" {
        reason.description = Some("stepped".into());
    } else {
        return false;
    }
    b.saw(Format::Gdb);
    let pc = b.companion.pc.take();
    if std::mem::take(&mut b.companion.undecided) && !same_stop(b, &reason, pc) {
        b.new_stop(reason.clone(), None);
    }
    let si = b.ensure_stop();
    if let Some(pc) = pc
        && b.stop_location[si].as_ref().and_then(|l| l.pc).is_none()
    {
        let function = b.stop_location[si].as_ref().and_then(|l| l.function.clone());
        b.stop_location[si] = Some(GdbOwnedLocation { pc: Some(pc), function, ..Default::default() });
    }
    let cur = &mut b.trace.stops[si].reason;
    if cur.kind == StopKind::Unknown {
        // Keep what a `Program received signal` line or `$_siginfo` already said.
        reason.si_code = cur.si_code;
        reason.address = cur.address;
        *cur = reason;
    }
    b.trace.stops[si].span.extend_to(n);
    true
}

/// Whether a collection describes the stop the trace already ends with: same kind, same
/// signal or breakpoint, and the same pc when both are known.
fn same_stop(b: &Builder, reason: &StopReason, pc: Option<u64>) -> bool {
    let Some(si) = b.stop else { return false };
    let cur = &b.trace.stops[si];
    if cur.reason.kind != reason.kind || cur.reason.kind == StopKind::Unknown {
        return false;
    }
    if cur.reason.signal != reason.signal || (reason.number.is_some() && cur.reason.number != reason.number) {
        return false;
    }
    let cur_pc = b.stop_location[si]
        .as_ref()
        .and_then(|l| l.pc)
        .or_else(|| cur.crashed_thread().and_then(|t| t.frames.first()).and_then(|f| f.pc).map(|a| a.0));
    match (cur_pc, pc) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// A command echoed by gdb's `set trace-commands on` (`+bt`, `++x/4gx $sp` when nested).
fn traced_command(t: &str) -> Option<&str> {
    let cmd = t.trim_start_matches('+');
    if cmd.len() == t.len() || cmd.is_empty() || cmd.starts_with(' ') {
        return None;
    }
    let verb = cmd.split([' ', '/']).next().unwrap_or("");
    const VERBS: &[&str] = &[
        "bt",
        "backtrace",
        "where",
        "info",
        "i",
        "x",
        "p",
        "print",
        "output",
        "frame",
        "f",
        "select-frame",
        "up",
        "down",
        "thread",
        "disassemble",
        "disas",
        "run",
        "r",
        "start",
        "continue",
        "c",
        "next",
        "n",
        "step",
        "s",
        "stepi",
        "si",
        "nexti",
        "ni",
        "finish",
        "until",
        "advance",
        "break",
        "b",
        "tbreak",
        "watch",
        "rwatch",
        "awatch",
        "delete",
        "list",
        "reverse-continue",
        "rc",
        "reverse-step",
        "rs",
        "reverse-next",
        "rn",
        "reverse-stepi",
        "rsi",
        "reverse-nexti",
        "rni",
        "reverse-finish",
        "when",
        "when-ticks",
        "when-tid",
        "set",
        "show",
        "source",
        "tracecheck-collect",
        "tracecheck-check",
        "tracecheck-tui",
        "taas",
        "tfaas",
        "kill",
        "detach",
        "target",
        "file",
        "core-file",
        "python",
    ];
    VERBS.contains(&verb).then_some(cmd)
}

#[cfg(test)]
mod tests {
    use crate::input::parse;
    use crate::model::*;

    const TWO_STOPS: &str = "\
(gdb) tracecheck-collect /tmp/d.txt
tracecheck-collect: tracecheck 0.1.0, gdb 13.1, python 3.11.2, not under rr, program /tmp/t, 2026-01-01T00:00:00Z
(gdb) info program
\tUsing the running image of child Thread 0x7ffff5dcd6c0 (LWP 26062).
Program stopped at 0x555555555266.
It stopped with signal SIGSEGV, Segmentation fault.
(gdb) thread
[Current thread is 6 (Thread 0x7ffff5dcd6c0 (LWP 26062))]
(gdb) bt 200
#0  0x0000555555555266 in store_result (j=0x7fffffffe670, value=42) at src/threads-crash.c:39
#1  0x00005555555552a0 in crasher (arg=0x0) at src/threads-crash.c:50
(gdb) x/4gx $r13
Cannot access memory at address 0x2a
(gdb) tracecheck-collect /tmp/d.txt
tracecheck-collect: tracecheck 0.1.0, gdb 13.1, python 3.11.2, under rr, program /tmp/t, 2026-01-01T00:00:05Z
(gdb) info program
\tUsing the running image of remote Thread 26062.26062.
Program stopped at 0x555555555200.
It stopped at breakpoint 2.
(gdb) when
Completed event: 1234
(gdb) thread
[Current thread is 1 (Thread 26062.26062)]
(gdb) bt 200
#0  0x0000555555555200 in main () at src/threads-crash.c:60
";

    #[test]
    fn two_collections_are_two_stops() {
        let p = parse(TWO_STOPS);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let t = &p.trace;
        assert_eq!(t.program.as_deref(), Some("/tmp/t"));
        assert_eq!(t.stops.len(), 2);
        let s0 = &t.stops[0];
        assert_eq!(s0.reason.kind, StopKind::Signal);
        assert_eq!(s0.reason.signal.as_deref(), Some("SIGSEGV"));
        assert_eq!(s0.reason.signo, Some(11));
        let th = s0.crashed_thread().unwrap();
        assert_eq!(&*th.id, "6");
        assert_eq!(th.lwp, Some(26062));
        assert_eq!(th.frames[0].function_name(), "store_result");
        assert_eq!(th.frames.len(), 2);
        assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("Cannot access memory at address 0x2a")));
        let s1 = &t.stops[1];
        assert_eq!(s1.reason.kind, StopKind::Breakpoint);
        assert_eq!(s1.reason.number, Some(2));
        assert_eq!(s1.rr_event, Some(1234));
        assert_eq!(s0.rr_event, None);
        assert_eq!(s1.crashed_thread().unwrap().frames[0].function_name(), "main");
    }

    #[test]
    fn info_program_after_a_stop_line_keeps_the_stop() {
        let p = parse(
            "Program received signal SIGSEGV, Segmentation fault.\n\
             0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n\
             (gdb) info program\n\
             \tUsing the running image of child process 4242.\n\
             Program stopped at 0x555555555155.\n\
             It stopped with signal SIGSEGV, Segmentation fault.\n",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert_eq!(p.trace.stops.len(), 1);
        assert_eq!(p.trace.stops[0].reason.signal.as_deref(), Some("SIGSEGV"));
    }

    #[test]
    fn a_collection_after_the_stop_line_is_the_same_stop() {
        // A gdb log: the stop as gdb printed it, a traced command, then `tracecheck-collect -`.
        let p = parse(
            "Program received signal SIGSEGV, Segmentation fault.\n\
             0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n\
             +bt 1\n\
             #0  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n\
             +tracecheck-collect -\n\
             (gdb) tracecheck-collect -\n\
             tracecheck-collect: tracecheck 0.1.0, gdb 13.1, python 3.11.2, not under rr, program /tmp/t, 2026-01-01T00:00:00Z\n\
             (gdb) info program\n\
             \tUsing the running image of child process 4242.\n\
             Program stopped at 0x555555555155.\n\
             It stopped with signal SIGSEGV, Segmentation fault.\n\
             (gdb) tracecheck-collect -\n\
             tracecheck-collect: tracecheck 0.1.0, gdb 13.1, python 3.11.2, not under rr, program /tmp/t, 2026-01-01T00:00:01Z\n\
             (gdb) info program\n\
             \tUsing the running image of child process 4242.\n\
             Program stopped at 0x555555555155.\n\
             It stopped with signal SIGSEGV, Segmentation fault.\n",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert_eq!(p.trace.stops.len(), 1);
    }

    #[test]
    fn traced_commands() {
        assert_eq!(super::traced_command("+bt 1"), Some("bt 1"));
        assert_eq!(super::traced_command("++x/4gx $sp"), Some("x/4gx $sp"));
        assert_eq!(super::traced_command("+1 more"), None);
        assert_eq!(super::traced_command("+ bt"), None);
    }

    #[test]
    fn odd_info_program_lines_are_not_taken() {
        let p = parse("It stopped with signal nothing.\nIt stopped at breakpoint x.\n");
        assert_eq!(p.diagnostics.lines_unrecognized, 2);
    }
}
