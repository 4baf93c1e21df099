//! lldb sessions: `(lldb)` prompts (routed by `mod.rs` like gdb's), stop headers, `bt` /
//! `thread backtrace all`, `thread list`, `register read`, `memory read` / `x`,
//! `disassemble`, `frame select`, `frame variable`, `image list`.
//!
//! ```text
//! * thread #1, name = 'null-field', stop reason = signal SIGSEGV: invalid address (fault address: 0x18)
//!   * frame #0: 0x0000555555555155 null-field`session_bytes(s=0x0000000000000000) at null-field.c:23:13
//!     frame #6: 0x0000555555555081 null-field`_start + 33
//!        rax = 0x0000000000000000
//! 0x7fffffffec20: 0x00007fffffffec50 0x0000555555555191
//! 0x7fffffffec20: 50 ec ff ff ff 7f 00 00 91 51 55 55 55 55 00 00  P........QUUUU..
//! ```
//!
//! A thread's id is lldb's index (`6` for `thread #6`), like gdb's thread number.

use super::lexemes::{file_line, open_paren_of_last_group, parse_hex};
use super::{Builder, Ctx, GdbOwnedLocation, gdb};
use crate::model::*;

/// What the last `(lldb)` command prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum LldbCmd {
    #[default]
    None,
    /// `process launch`, `run`, `continue`, `thread step-*`…: a stop header follows.
    Run,
    Backtrace,
    Registers,
    /// `memory read` / `x`: unit size when given, and the address expression.
    Memory {
        unit: Option<u8>,
        expr: Option<Box<str>>,
    },
    Disassemble,
    FrameSelect,
    FrameVariable,
    ThreadList,
    Images,
    /// `memory region ADDR`: one `[0x…-0x…) rw- [stack]` row.
    MemoryRegion,
    /// `process handle SIGSEGV -s false …`: the `NAME PASS STOP NOTIFY` table.
    ProcessHandle,
    Other,
}

#[derive(Clone, Default)]
pub(crate) struct LldbState {
    pub cmd: LldbCmd,
    /// Some lldb command was seen: shape-based lines are read as lldb's.
    pub active: bool,
    /// A run command is waiting for its stop header.
    pub await_stop: bool,
    /// The selected thread (`*` in lldb's listings) and frame.
    pub selected_thread: Option<Box<str>>,
    pub selected_frame: u32,
    /// Thread index that frame lines go to (the last thread header).
    pub frames_thread: Option<usize>,
    /// `module`func:` heading of a disassembly, for instruction locations.
    pub disasm_function: Option<Box<str>>,
    /// Inside a multi-line `frame variable` value.
    pub var_depth: i32,
    /// A frame line whose arguments go on over the next lines (a function pointer's summary
    /// names its inlined chain, one location a line), with its first line's number.
    pub pending_frame: Option<(String, u32)>,
    /// The number of the last source listing line read (`   20  \t…`).
    pub source_line: u32,
    /// Blanks in front of every line of a session pasted indented (a markdown code block
    /// made by indenting): learnt from a stop header `* thread #…`, which lldb prints at
    /// column 0.
    pub paste_indent: usize,
}

/// Called by `Builder::command` for every echoed command.
/// `head` is the command's first word as typed (`x/4gx`, `bt`).
pub(crate) fn command(b: &mut Builder, dialect: &str, head: &str, rest: &[&str]) {
    if dialect != "lldb" {
        return;
    }
    let verb = head.split('/').next().unwrap_or(head);
    // lldb takes any unambiguous prefix of a command: `cont`, `conti` are `continue`.
    let verb = if verb.len() >= 2 && "continue".starts_with(verb) { "continue" } else { verb };
    b.lldb.active = true;
    let sub = rest.first().copied().unwrap_or("");
    b.lldb.cmd = match (verb, sub) {
        ("process", "launch") | ("process", "continue") | ("run" | "r" | "continue" | "c", _) => LldbCmd::Run,
        ("thread", "step-in" | "step-over" | "step-out" | "step-inst" | "step-inst-over" | "continue" | "until")
        | ("next" | "step" | "n" | "s" | "si" | "ni" | "finish", _) => LldbCmd::Run,
        ("bt", _) | ("thread", "backtrace") => LldbCmd::Backtrace,
        ("register", "read") | ("re", "r") => LldbCmd::Registers,
        ("memory", "read") | ("x", _) | ("me", "r") => memory_cmd(head, rest),
        ("disassemble" | "di" | "dis", _) => LldbCmd::Disassemble,
        // A stop is shown after connecting or attaching too (`gdb-remote 1234`: qemu's stub).
        ("gdb-remote" | "attach", _) | ("process", "attach" | "connect") => LldbCmd::Run,
        ("process", "handle") => LldbCmd::ProcessHandle,
        ("frame" | "f", "select") | ("up" | "down", _) => LldbCmd::FrameSelect,
        ("frame", "variable") | ("v" | "var", _) => LldbCmd::FrameVariable,
        ("thread", "list") => LldbCmd::ThreadList,
        ("image", "list") => LldbCmd::Images,
        ("memory", "region") => LldbCmd::MemoryRegion,
        _ => LldbCmd::Other,
    };
    // gdb's meaning of the same verbs (`x`, `bt`, `frame`) does not apply.
    b.ctx = Ctx::None;
    b.lldb.await_stop = b.lldb.cmd == LldbCmd::Run;
    b.lldb.frames_thread = None;
    b.lldb.disasm_function = None;
    b.lldb.var_depth = 0;
    flush_pending_frame(b);
    match (verb, sub, rest.get(1).and_then(|k| k.parse::<u32>().ok())) {
        ("frame" | "f", "select", Some(k)) => b.lldb.selected_frame = k,
        ("up", _, _) => b.lldb.selected_frame += sub.parse::<u32>().unwrap_or(1),
        ("down", _, _) => b.lldb.selected_frame = b.lldb.selected_frame.saturating_sub(sub.parse::<u32>().unwrap_or(1)),
        _ => {}
    }
    if verb == "thread"
        && sub == "select"
        && let Some(id) = rest.get(1)
    {
        b.lldb.selected_thread = Some((*id).into());
        b.lldb.selected_frame = 0;
    }
}

/// `memory read --size 8 --format x --count 4 $rsp`, `memory read -s8 -fx -c4 $r13`,
/// `x/4gx $rax`, `memory read $rsp`.
fn memory_cmd(verb: &str, rest: &[&str]) -> LldbCmd {
    let mut unit = None;
    let mut expr = None;
    let mut i = if verb == "x" || verb.starts_with("x/") { 0 } else { 1 };
    if let Some(fmt) = verb.strip_prefix("x/") {
        unit = gdb_unit(fmt);
    }
    while i < rest.len() {
        let w = rest[i];
        let value_of = |short: &str, long: &str| -> Option<Option<&str>> {
            if w == short || w == long {
                Some(rest.get(i + 1).copied())
            } else {
                w.strip_prefix(short).filter(|v| !v.is_empty() && !w.starts_with("--")).map(Some)
            }
        };
        if let Some(v) = value_of("-s", "--size") {
            // A word of 1, 2, 4 or 8 bytes (the model holds words in a u64); lldb also
            // accepts sizes like 9 or 16, which are not read as words.
            unit = v.and_then(|v| v.parse::<u8>().ok()).filter(|u| matches!(u, 1 | 2 | 4 | 8));
            i += if w == "-s" || w == "--size" { 2 } else { 1 };
            continue;
        }
        if let Some(v) = value_of("-f", "--format").or_else(|| value_of("-c", "--count")) {
            let _ = v;
            i += if w.len() == 2 || w.starts_with("--") { 2 } else { 1 };
            continue;
        }
        if w.starts_with('-') {
            i += 1;
            continue;
        }
        expr = Some(rest[i..].join(" ").into());
        break;
    }
    LldbCmd::Memory { unit, expr }
}

fn gdb_unit(fmt: &str) -> Option<u8> {
    if fmt.contains('g') {
        Some(8)
    } else if fmt.contains('w') {
        Some(4)
    } else if fmt.contains('h') {
        Some(2)
    } else if fmt.contains('b') {
        Some(1)
    } else {
        None
    }
}

/// Reads one line. Returns whether it was lldb's.
pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        return false;
    }
    // An expression lldb evaluated (`p f()`, a playground, a REPL) that hit a fault: lldb's
    // notice, then the stop itself as a thread header.
    // (Inside a session lldb's `error:` lines are its notes, below.)
    if t.starts_with("error: Execution was interrupted, reason: ") && !b.lldb.active
        || t.starts_with("The process has been left at the point where it was interrupted")
        || t == "Playground execution failed:"
    {
        b.saw(Format::Lldb);
        b.add_message(t, n);
        return true;
    }
    // Thread headers and frame lines are distinctive enough to read without a prompt.
    if let Some(h) = thread_header(t) {
        if t.starts_with("* thread #") {
            b.lldb.paste_indent = l.len() - l.trim_start_matches(' ').len();
        }
        return put_thread_header(b, h, n);
    }
    if let Some(f) = frame_line(t) {
        // A summary printed over several lines (`main=(prog`main [inlined] … at f.cc:16` and
        // the rest of the chain below) is read when its parentheses close.
        if paren_balance(t) > 0 {
            b.lldb.pending_frame = Some((t.to_string(), n));
            b.saw(Format::Lldb);
            return true;
        }
        put_frame(b, f, n);
        return true;
    }
    // `register read` output pasted without its `(lldb)` prompt: the block heading says what
    // follows (`General Purpose Registers:`, `Floating Point Registers:`, `Exception State
    // Registers:`).
    if t.ends_with(" Registers:") && t.bytes().all(|c| c.is_ascii_alphabetic() || c == b' ' || c == b':') {
        b.saw(Format::Lldb);
        b.lldb.active = true;
        b.lldb.cmd = LldbCmd::Registers;
        return true;
    }
    if !b.lldb.active && !t.starts_with("Process ") && !t.starts_with("Current executable set to ") {
        return false;
    }
    if let Some(r) = t.strip_prefix("Process ") {
        return process_line(b, r, n);
    }
    if is_target_stopped(t) {
        return true;
    }
    // `Breakpoint 1: where = prog`f at t.c:3:5, address = 0x…` (set, not hit) and
    // `Breakpoint 2: 2 locations.`
    if t.starts_with("Breakpoint ") && t.contains(": ") && (t.contains("where = ") || t.contains(" locations.")) {
        b.add_message(t, n);
        return true;
    }
    // The column caret under a source line (its indentation lost in a paste): the column is
    // already on the frame line.
    if t == "^" {
        return true;
    }
    if let Some(r) = t.strip_prefix("Current executable set to '") {
        b.saw(Format::Lldb);
        b.lldb.active = true;
        if let Some((path, arch)) = r.split_once("' (") {
            b.trace.program = Some(path.into());
            set_arch(b, arch.trim_end_matches(").").trim_end_matches(')'));
        }
        return true;
    }
    // After `process attach`: `Executable module set to "/path".`, `Architecture set to:
    // x86_64h-apple-macosx.`; and lldb's warning about an optimized module.
    if let Some(p) = t.strip_prefix("Executable module set to \"").and_then(|r| r.strip_suffix("\".")) {
        if b.trace.program.is_none() {
            b.trace.program = Some(p.into());
        }
        return true;
    }
    if let Some(triple) = t.strip_prefix("Architecture set to: ") {
        set_arch(b, triple.trim_end_matches('.').split('-').next().unwrap_or(""));
        b.add_message(t, n);
        return true;
    }
    if t.ends_with(" was compiled with optimization - stepping may behave oddly; variables may not be available.") {
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("Executing commands in '")
        || t.starts_with("error: ")
        || t.starts_with("warning: ")
        || t.starts_with("note: ")
    {
        if let Some(e) = t.strip_prefix("error: ") {
            b.note(Some(n), format!("lldb: {e}"));
        }
        return true;
    }
    // lldb's remark on a language it has no plugin for (`"go"`, `"assembler"`, `"fortran90"`),
    // and on an address in code without a line (`Note: this address is compiler-generated
    // code in function f that has no source code associated with it.`).
    if (t.starts_with("This version of LLDB has no plugin for the language \"")
        && t.ends_with("Inspection of frame variables will be limited."))
        || (t.starts_with("Note: this address is compiler-generated code in function ")
            && t.ends_with(" that has no source code associated with it."))
    {
        return true;
    }
    match b.lldb.cmd.clone() {
        LldbCmd::Registers => {
            if let Some(()) = register_line(b, t, n) {
                return true;
            }
            // A value's symbol annotation naming an inlined chain goes on under it, one
            // location a line: `  prog`total_weight + 26 [inlined] tree_weight + 3 at t.c:12:73`.
            if l.starts_with("  ")
                && let Some((module, rest)) = t.split_once('`')
                && !module.is_empty()
                && !module.contains(' ')
                && (rest.contains(" at ") || rest.contains(" [inlined] "))
            {
                return true;
            }
            // `16 registers were unavailable.` closes a register set lldb could not read.
            if let Some(count) =
                t.strip_suffix(" registers were unavailable.").or_else(|| t.strip_suffix(" register was unavailable."))
                && !count.is_empty()
                && count.bytes().all(|c| c.is_ascii_digit())
            {
                return true;
            }
            if t.ends_with("Registers:") || t.ends_with("Extensions:") || t.ends_with("State:") {
                return true;
            }
            // A gdb-remote target's register set, named by its target description (`general:`,
            // qemu's gdbstub).
            if t.strip_suffix(':').is_some_and(|h| {
                !h.is_empty() && h.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
            }) {
                return true;
            }
        }
        LldbCmd::Memory { unit, expr } => {
            if let Some(()) = memory_row(b, t, unit, expr, n) {
                return true;
            }
        }
        LldbCmd::FrameVariable => {
            return frame_variable(b, t, n);
        }
        LldbCmd::MemoryRegion => {
            if let Some(()) = region_row(b, t, n) {
                return true;
            }
        }
        LldbCmd::ProcessHandle if is_signal_handling_row(t) => return true,
        LldbCmd::ProcessHandle => {}
        LldbCmd::Images => {
            if let Some(()) = image_row(b, t, n) {
                return true;
            }
            // The separate debug file under an image row.
            if l.starts_with("      /") {
                return true;
            }
        }
        _ => {}
    }
    let k = b.lldb.paste_indent;
    let unindented = if k > 0 && l.len() > k && l.as_bytes()[..k].iter().all(|&c| c == b' ') { &l[k..] } else { l };
    if let Some(()) = disasm_line(b, unindented, t, n) {
        return true;
    }
    if is_source_line(l) {
        b.lldb.source_line = n;
        return true;
    }
    // The listing's last line when it is empty: its number alone (`   31`, trailing blanks
    // trimmed), right after another listing line.
    if b.lldb.source_line != 0
        && b.lldb.source_line.checked_add(1) == Some(n)
        && l.starts_with(' ')
        && t.bytes().all(|c| c.is_ascii_digit())
    {
        return true;
    }
    false
}

/// `process handle`'s table: `NAME         PASS   STOP   NOTIFY`, its `=====` rule, and a row
/// per signal (`SIGSEGV      true   false  false`).
fn is_signal_handling_row(t: &str) -> bool {
    let mut w = t.split_whitespace();
    match (w.next(), w.next(), w.next(), w.next(), w.next()) {
        (Some("NAME"), Some("PASS"), Some("STOP"), Some("NOTIFY"), None) => true,
        (Some(a), Some(_), Some(_), Some(_), None) if a.bytes().all(|c| c == b'=') => {
            t.bytes().all(|c| c == b'=' || c == b' ')
        }
        (Some(sig), Some(p), Some(s), Some(no), None) => {
            sig.starts_with("SIG") && [p, s, no].iter().all(|v| matches!(*v, "true" | "false"))
        }
        _ => false,
    }
}

/// Open parentheses minus closed ones outside double-quoted strings and character literals
/// (`c='('`, `c='\\('`).
fn paren_balance(t: &str) -> i32 {
    let b = t.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') => i += 3,
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    depth
}

/// The first `needle` at parenthesis depth 0.
fn find_outside_parens(s: &str, needle: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = s[from..].find(needle) {
        let at = from + p;
        if paren_balance(&s[..at]) == 0 {
            return Some(at);
        }
        from = at + needle.len();
    }
    None
}

/// The longest summary a frame line is allowed to continue over.
const MAX_FRAME_CONTINUATION: usize = 16 * 1024;

/// A line after a frame line whose parentheses are still open: part of that frame, unless it
/// starts something else (a frame, a thread, a prompt). Returns whether the line was taken.
pub(crate) fn frame_continues(b: &mut Builder, l: &str) -> bool {
    let t = l.trim();
    let starts_other = t.is_empty()
        || t.starts_with("frame #")
        || t.starts_with("* ")
        || t.starts_with("thread #")
        || t.starts_with('(')
        || t.starts_with("Process ")
        || t.starts_with("->")
        || is_source_line(l);
    let Some((text, _)) = b.lldb.pending_frame.as_mut() else { return false };
    if starts_other || text.len() + t.len() > MAX_FRAME_CONTINUATION {
        flush_pending_frame(b);
        return false;
    }
    text.push(' ');
    text.push_str(t);
    if paren_balance(text) <= 0 {
        flush_pending_frame(b);
    }
    true
}

/// Reads a pending multi-line frame as it stands (its parentheses closed, or the input moved
/// on).
pub(crate) fn flush_pending_frame(b: &mut Builder) {
    let Some((text, n)) = b.lldb.pending_frame.take() else { return };
    if let Some(f) = frame_line(&text) {
        put_frame(b, f, n);
    }
}

pub(crate) fn set_arch(b: &mut Builder, a: &str) {
    let arch = match a {
        "x86_64" | "x86_64h" => Arch::X86_64,
        "aarch64" | "arm64" | "arm64e" => Arch::Aarch64,
        "i386" | "i686" => Arch::X86,
        _ => return,
    };
    if b.trace.arch == Arch::Unknown {
        b.trace.arch = arch;
    }
}

/// `Process 9931 stopped`, `Process 9931 launched: '/path' (x86_64)`,
/// `Process 9931 exited with status = 0 (0x00000000)`, `Process 9931 resuming`.
fn process_line(b: &mut Builder, r: &str, n: u32) -> bool {
    let pid_len = r.bytes().take_while(u8::is_ascii_digit).count();
    if pid_len == 0 {
        return false;
    }
    let r = r[pid_len..].trim_start();
    b.saw(Format::Lldb);
    b.lldb.active = true;
    if let Some(p) = r.strip_prefix("launched: '") {
        if let Some((path, arch)) = p.split_once("' (") {
            if b.trace.program.is_none() {
                b.trace.program = Some(path.into());
            }
            set_arch(b, arch.trim_end_matches(')'));
        }
        return true;
    }
    if let Some(p) = r.strip_prefix("exited with status = ") {
        let code = p.split_whitespace().next().and_then(|c| c.parse::<i64>().ok());
        let reason = StopReason { kind: StopKind::Exited, number: code, span: Span::line(n), ..Default::default() };
        b.new_stop(reason, None);
        b.lldb.await_stop = false;
        return true;
    }
    r == "stopped" || r == "resuming" || r.starts_with("attached") || r.starts_with("detached")
}

/// `Target 0: (crasher) stopped.` (lldb on macOS after a stop).
fn is_target_stopped(t: &str) -> bool {
    t.strip_prefix("Target ")
        .and_then(|r| r.split_once(": ("))
        .is_some_and(|(k, r)| k.bytes().all(|c| c.is_ascii_digit()) && r.ends_with(") stopped."))
}

struct ThreadHeader<'a> {
    selected: bool,
    id: &'a str,
    tid: Option<u64>,
    name: Option<&'a str>,
    /// `thread list`'s frame: `0x… module`func at file:line:col`.
    frame: Option<&'a str>,
    reason: Option<&'a str>,
}

/// `* thread #1, name = 'x', stop reason = signal SIGSEGV: …`, `  thread #2, name = 'y'`,
/// `* thread #6: tid = 6201, 0x… mod`f(…) at f.c:39:16, name = 'crasher', stop reason = …`.
fn thread_header(t: &str) -> Option<ThreadHeader<'_>> {
    let (selected, r) = match t.strip_prefix("* ") {
        Some(r) => (true, r),
        None => (false, t),
    };
    let r = r.strip_prefix("thread #")?;
    let id_len = r.bytes().take_while(|c| c.is_ascii_digit() || *c == b'.').count();
    if id_len == 0 {
        return None;
    }
    let id = &r[..id_len];
    let mut rest = &r[id_len..];
    let mut h = ThreadHeader { selected, id, tid: None, name: None, frame: None, reason: None };
    if rest.is_empty() {
        return Some(h);
    }
    if let Some(reason_at) = rest.find(", stop reason = ") {
        h.reason = Some(&rest[reason_at + 16..]);
        rest = &rest[..reason_at];
    }
    if let Some(name_at) = rest.find(", name = '") {
        let q = &rest[name_at + 10..];
        h.name = Some(q.strip_suffix('\'').unwrap_or(q));
        rest = &rest[..name_at];
    }
    if let Some(q) = rest.strip_prefix(": tid = ") {
        let (tid, fr) = q.split_once(", ").unwrap_or((q, ""));
        h.tid = tid.parse().ok().or_else(|| parse_hex(tid));
        if !fr.is_empty() {
            h.frame = Some(fr);
        }
        rest = "";
    }
    (rest.is_empty() || rest.starts_with(", queue = ")).then_some(h)
}

fn put_thread_header(b: &mut Builder, h: ThreadHeader<'_>, n: u32) -> bool {
    b.saw(Format::Lldb);
    b.lldb.active = true;
    if let Some(reason) = h.reason {
        let parsed = stop_reason(reason, n);
        let si = b.ensure_stop();
        let unknown = b.trace.stops[si].reason.kind == StopKind::Unknown;
        if b.lldb.await_stop || b.trace.stops.is_empty() {
            b.new_stop(parsed, Some(h.id));
            b.lldb.await_stop = false;
            b.lldb.selected_frame = 0;
        } else if unknown {
            // A pasted `bt` without the stop: its header is the stop.
            b.trace.stops[si].reason = parsed;
            let ti = b.thread_by_id(h.id);
            b.trace.stops[si].threads[ti].crashed = true;
        }
    }
    let ti = b.thread_by_id(h.id);
    let si = b.ensure_stop();
    {
        let th = &mut b.trace.stops[si].threads[ti];
        if let Some(name) = h.name {
            th.name = Some(name.into());
        }
        th.lwp = h.tid.or(th.lwp);
        th.current |= h.selected;
        th.span.extend_to(n);
    }
    if h.selected {
        if b.lldb.selected_thread.as_deref() != Some(h.id) {
            b.lldb.selected_frame = 0;
        }
        b.lldb.selected_thread = Some(h.id.into());
    }
    b.lldb.frames_thread = Some(ti);
    if let Some(fr) = h.frame
        && let Some(mut f) = parse_frame_body(fr)
    {
        f.index = 0;
        let has = !b.trace.stops[si].threads[ti].frames.is_empty();
        if !has {
            let frame = owned_frame(b, &f, n);
            b.put_frame(ti, frame);
        }
    }
    b.trace.stops[si].span.extend_to(n);
    true
}

/// `signal SIGSEGV: invalid address (fault address: 0x18)`, `signal SIGABRT`,
/// `breakpoint 1.1`, `watchpoint 2`, `EXC_BAD_ACCESS (code=1, address=0x18)`.
fn stop_reason(r: &str, n: u32) -> StopReason {
    let mut reason = StopReason { span: Span::line(n), description: Some(r.into()), ..Default::default() };
    if let Some(s) = r.strip_prefix("signal ") {
        let (sig, desc) = s.split_once(": ").unwrap_or((s, ""));
        super::fill_signal(&mut reason, sig, desc);
        reason.kind = StopKind::Signal;
        // `(fault address: 0x18)`; newer lldb prints SIGBUS's as `(fault address=0x…)`.
        if let Some((p, k)) =
            desc.find("(fault address: ").map(|p| (p, 16)).or_else(|| desc.find("(fault address=").map(|p| (p, 15)))
        {
            let a = &desc[p + k..];
            reason.address = parse_hex(a.trim_end_matches(')')).map(Address);
            reason.description = Some(desc[..p].trim().into());
        } else {
            reason.description = (!desc.is_empty()).then(|| desc.into());
        }
        if reason.signal.as_deref() == Some("SIGSEGV") {
            // lldb's wording of the kernel's si_code: lldb 15 and later, then lldb 14 and
            // older (`invalid address`, `address access protected`).
            if desc.starts_with("invalid address") && reason.address == Some(Address(0)) {
                // lldb 14 words a fault the kernel reports as SI_KERNEL (a general protection
                // fault: a non-canonical address, a misaligned movaps; si_addr 0) the same as a
                // SEGV_MAPERR at address 0: which one it was is left unknown (no si_code), for
                // the faulting instruction to tell.
            } else if desc.starts_with("address not mapped to object") || desc.starts_with("invalid address") {
                reason.si_code = Some(1);
            } else if desc.starts_with("invalid permissions for mapped object")
                || desc.starts_with("address access protected")
            {
                reason.si_code = Some(2);
            } else if desc.starts_with("control protection fault") {
                // A shadow-stack check (x86 CET, AArch64 GCS) failed: SEGV_CPERR.
                reason.si_code = Some(crate::model::signals::SEGV_CPERR);
            }
        }
    } else if r == "unknown crash reason" {
        // lldb 14 on Linux: SIGSEGV, SIGBUS, SIGILL or SIGFPE with an si_code that is no fault
        // (sent by kill/raise). Which one is left to the `raise(sig=11)` frame (`raise_signal`).
        reason.kind = StopKind::Signal;
    } else if let Some(k) = r.strip_prefix("breakpoint ") {
        reason.kind = StopKind::Breakpoint;
        reason.number = k.split('.').next().and_then(|x| x.parse().ok());
    } else if let Some(k) = r.strip_prefix("watchpoint ") {
        reason.kind = StopKind::Watchpoint;
        reason.number = k.split_whitespace().next().and_then(|x| x.parse().ok());
    } else if let Some(e) = r.strip_prefix("Exception 0x") {
        // Windows: `Exception 0xc0000005 encountered at address 0x7ff6…: Access violation
        // reading location 0x0000…`. The exception is read as the POSIX signal the C runtime
        // raises for it; the access violation's data address is the fault address.
        let code = e.split(' ').next().and_then(|c| u32::from_str_radix(c, 16).ok());
        let (sig, signo) = match code {
            Some(0xc000_0005 | 0xc000_00fd | 0xc000_0006) => ("SIGSEGV", 11),
            Some(0xc000_001d | 0xc000_0096) => ("SIGILL", 4),
            Some(0xc000_0094 | 0xc000_0095 | 0xc000_008e) => ("SIGFPE", 8),
            Some(0x8000_0003 | 0x4000_001f) => ("SIGTRAP", 5),
            _ => ("", 0),
        };
        if signo != 0 {
            reason.kind = StopKind::Signal;
            reason.signal = Some(sig.into());
            reason.signo = Some(signo);
        }
        if let Some(p) = e.find(" location 0x") {
            reason.address = parse_hex(e[p + 10..].split_whitespace().next().unwrap_or("")).map(Address);
        }
    } else if let Some((sig, signo)) = [
        // The other Mach exceptions lldb stops with on macOS, as the POSIX signal the kernel
        // turns each into: an invalid or undefined instruction (`ud2`), an arithmetic trap
        // (division by zero), and a trap instruction the program executed itself (`brk` on
        // arm64, `int3`): lldb names its own breakpoints `breakpoint N.M`, never this.
        ("EXC_BAD_INSTRUCTION", ("SIGILL", 4)),
        ("EXC_ARITHMETIC", ("SIGFPE", 8)),
        ("EXC_BREAKPOINT", ("SIGTRAP", 5)),
    ]
    .iter()
    .find(|(p, _)| r.starts_with(p) && r[p.len()..].chars().next().is_none_or(|c| c == ' ' || c == '('))
    .map(|(_, s)| *s)
    {
        reason.kind = StopKind::Signal;
        reason.signal = Some(sig.into());
        reason.signo = Some(signo);
        reason.trap_shown = signo == 5;
    } else if let Some(e) = r.strip_prefix("EXC_BAD_ACCESS") {
        // The Mach exception's code is the kern_return_t of the fault: KERN_INVALID_ADDRESS (1,
        // nothing mapped there) becomes SIGSEGV, KERN_PROTECTION_FAILURE (2, mapped without
        // that access, as a stack's guard page is) SIGBUS, as macOS's crash reports say
        // (`EXC_BAD_ACCESS (SIGBUS)`). Both are page faults at the address given.
        reason.kind = StopKind::Signal;
        let code = e.find("code=").and_then(|p| {
            let c: String = e[p + 5..].chars().take_while(|c| c.is_ascii_digit()).collect();
            c.parse::<i32>().ok()
        });
        let (sig, signo, si_code) = match code {
            Some(2) => ("SIGBUS", 7, Some(2)),
            Some(1) => ("SIGSEGV", 11, Some(crate::model::signals::SEGV_MAPERR)),
            _ => ("SIGSEGV", 11, None),
        };
        reason.signal = Some(sig.into());
        reason.signo = Some(signo);
        reason.si_code = si_code;
        if let Some(p) = e.find("address=") {
            let a: String = e[p + 8..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            reason.address = parse_hex(&a).map(Address);
        }
    }
    reason
}

struct LldbFrame<'a> {
    index: u32,
    selected: bool,
    pc: Option<u64>,
    module: Option<&'a str>,
    function: Option<&'a str>,
    args: Option<&'a str>,
    file: Option<&'a str>,
    line: Option<u32>,
    column: Option<u32>,
    inlined: bool,
}

/// `* frame #0: 0x0000555555555155 null-field`session_bytes(s=0x0) at null-field.c:23:13`
fn frame_line(t: &str) -> Option<LldbFrame<'_>> {
    let (selected, r) = match t.strip_prefix("* ") {
        Some(r) => (true, r),
        None => (false, t),
    };
    let r = r.strip_prefix("frame #")?;
    let (idx, body) = r.split_once(": ")?;
    let index: u32 = idx.parse().ok()?;
    let mut f = parse_frame_body(body)?;
    f.index = index;
    f.selected = selected;
    Some(f)
}

/// `0x… module`function(args) at file:line:col`, `0x… module`function + 33`,
/// `0x… module`function at file:line`, `0x0000000000000000`.
fn parse_frame_body(body: &str) -> Option<LldbFrame<'_>> {
    let (pc_s, rest) = body.split_once(' ').unwrap_or((body, ""));
    let pc = parse_hex(pc_s)?;
    let mut f = LldbFrame {
        index: 0,
        selected: false,
        pc: Some(pc),
        module: None,
        function: None,
        args: None,
        file: None,
        line: None,
        column: None,
        inlined: false,
    };
    let mut rest = rest.trim();
    if rest.is_empty() {
        return Some(f);
    }
    if let Some((m, r)) = rest.split_once('`')
        && !m.contains(' ')
    {
        f.module = Some(m);
        rest = r;
    }
    // lldb's marks after the location: `[opt]` (an optimized module), `[artificial]`.
    for mark in [" [opt]", " [artificial]"] {
        rest = rest.strip_suffix(mark).unwrap_or(rest);
    }
    // ` at file:line[:col]` at the end (the args may hold ` at ` themselves).
    if let Some(p) = rest.rfind(" at ")
        && let Some((file, line, col)) = file_line(&rest[p + 4..])
        && !file.contains(' ')
    {
        f.file = Some(file);
        f.line = Some(line);
        f.column = col;
        rest = &rest[..p];
    }
    if let Some((name, off)) = rest.rsplit_once(" + ")
        && off.bytes().all(|c| c.is_ascii_digit())
    {
        rest = name;
    }
    // `outer + 12 [inlined] inner(…)`: the mark outside any argument list (an argument's
    // summary may name an inlined chain of its own).
    if let Some(p) = find_outside_parens(rest, " [inlined] ") {
        f.inlined = true;
        rest = &rest[p + 11..];
    }
    // A GCC clone of a C++ function, as LLVM's demangler prints it after the signature
    // (`parse_port(char const*) (.cold)`; c++filt: `[clone .cold]`): the clone suffix is not
    // an argument list.
    let mut clone = None;
    for (open, close) in [(" (.", ")"), (" [clone .", "]")] {
        if let Some(p) = rest.rfind(open)
            && rest.ends_with(close)
            && is_clone_suffix(&rest[p + open.len() - 1..rest.len() - close.len()])
        {
            clone = Some(&rest[p + open.len() - 1..rest.len() - close.len()]);
            rest = &rest[..p];
            break;
        }
    }
    // With a source line, the function is the one the debug info names, as gdb prints it: a
    // clone's code (GCC's `color_name.cold`, the hot/cold split of `color_name`) is that
    // function's. lldb names the ELF symbol instead.
    if f.file.is_some()
        && clone.is_none()
        && let Some(p) = rest.find('.')
        && is_clone_suffix(&rest[p..])
        && !rest[..p].contains('(')
    {
        rest = &rest[..p];
    }
    // A C++ member function's qualifier after its arguments: `operator()(this=0x…) const`.
    let qualified = rest.strip_suffix(" const").filter(|r| r.ends_with(')'));
    if let Some(open) = open_paren_of_last_group(qualified.unwrap_or(rest))
        && open > 0
    {
        let r = qualified.unwrap_or(rest);
        f.args = Some(&r[open + 1..r.len() - 1]);
        rest = &r[..open];
    }
    f.function = (!rest.is_empty()).then_some(rest);
    Some(f)
}

/// A frame's function as gdb would name it: Rust's legacy hash dropped (lldb keeps it), a
/// gfortran module procedure as `module::procedure` (lldb prints the symbol, `__grid_MOD_smooth`).
fn lldb_function_name(s: &str) -> String {
    // lldb 14 names a C++ function with internal linkage (`static`) from the global namespace
    // `::last_score(…)`; gdb prints `last_score`.
    let s = s.strip_prefix("::").filter(|r| r.starts_with(|c: char| c.is_alphabetic() || c == '_')).unwrap_or(s);
    let s = without_return_type(s);
    match crate::symbolize::demangle::fortran_module_procedure(s) {
        Some(f) => f,
        None => super::rust::clean_symbol(s),
    }
}

/// A function template's specialization as LLVM's demangler prints it, with the return type
/// the mangling carries (`void std::__throw_with_nested_impl<std::runtime_error>`,
/// `int* std::find<int*, int>`): gdb prints the name alone. Only a template's name loses its
/// prefix (the part before the first space outside `<>` and `()`); `operator new`,
/// `(anonymous namespace)::f` and a C name are left as they are.
fn without_return_type(s: &str) -> &str {
    if !s.ends_with('>') || s.contains("operator") || s.starts_with('(') {
        return s;
    }
    let mut depth = 0i32;
    let mut last = None;
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ' ' if depth == 0 => last = Some(i),
            _ => {}
        }
    }
    // A plain type only: a computed one (`decltype(std::declval<F>()())`) is kept, as lldb
    // printed it.
    match last {
        Some(i) if s[i + 1..].starts_with(|c: char| c.is_alphabetic() || c == '_') && !s[..i].contains('(') => {
            &s[i + 1..]
        }
        _ => s,
    }
}

/// GCC's clone suffixes (`.cold`, `.part.0`, `.isra.0`, `.constprop.0`, `.lto_priv.0`, and
/// chains of them: `.isra.0.cold`): dot-separated words that are all clone marks or numbers.
fn is_clone_suffix(s: &str) -> bool {
    const MARKS: &[&str] = &["cold", "part", "isra", "constprop", "lto_priv", "localalias"];
    let Some(words) = s.strip_prefix('.') else { return false };
    let mut any_mark = false;
    for w in words.split('.') {
        if MARKS.contains(&w) {
            any_mark = true;
        } else if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    any_mark && !words.starts_with(|c: char| c.is_ascii_digit())
}

fn owned_frame(b: &mut Builder, f: &LldbFrame<'_>, n: u32) -> Frame {
    Frame {
        index: f.index,
        pc: f.pc.map(Address),
        // lldb prints a Rust symbol with its legacy hash (`header_len::h18022822527bf01d`),
        // where gdb drops it.
        function: f.function.map(|s| b.intern_function(&lldb_function_name(s), f.file)),
        args: f.args.map(Box::from),
        file: f.file.map(|s| b.intern(s)),
        line: f.line,
        column: f.column,
        module: f.module.map(|s| b.intern(s)),
        inlined: f.inlined,
        signal_handler: is_sigreturn_trampoline(f.function),
        locals: None,
        span: Span::line(n),
        ..Default::default()
    }
}

/// lldb prints the frame a signal handler returns through by its symbol, where gdb prints
/// `<signal handler called>`: glibc's `__restore_rt`, the Linux vDSO's `__kernel_rt_sigreturn`
/// (AArch64), macOS's `_sigtramp`, musl's `__restore_rt`/`__restore`.
fn is_sigreturn_trampoline(function: Option<&str>) -> bool {
    matches!(function, Some("__restore_rt" | "__restore" | "__kernel_rt_sigreturn" | "_sigtramp"))
}

fn put_frame(b: &mut Builder, f: LldbFrame<'_>, n: u32) {
    b.saw(Format::Lldb);
    b.lldb.active = true;
    let ti = match b.lldb.frames_thread {
        Some(t) => t,
        None => selected_thread(b),
    };
    if f.selected || b.lldb.cmd == LldbCmd::FrameSelect {
        b.lldb.selected_frame = f.index;
    }
    if f.index == 0 {
        let si = b.ensure_stop();
        if b.stop_location[si].is_none() {
            let function = f.function.map(|s| b.intern_function(&lldb_function_name(s), f.file));
            b.stop_location[si] = Some(GdbOwnedLocation { pc: f.pc, function, ..Default::default() });
        }
    }
    raise_signal(b, &f);
    let frame = owned_frame(b, &f, n);
    b.put_frame(ti, frame);
    b.extend_stop_span(n);
}

/// lldb 14 stops on a SIGSEGV (SIGBUS, SIGILL, SIGFPE) sent by `raise()` with `stop reason =
/// unknown crash reason`: the signal is the `sig=11` (`signo=11`) argument of the raise frames
/// (`__GI_raise(sig=11)`, `__pthread_kill_implementation(…, signo=11, …)`).
fn raise_signal(b: &mut Builder, f: &LldbFrame<'_>) {
    let Some(si) = b.trace.stops.len().checked_sub(1) else { return };
    let reason = &b.trace.stops[si].reason;
    if reason.signal.is_some() || reason.description.as_deref() != Some("unknown crash reason") {
        return;
    }
    let name = f.function.unwrap_or("").trim_start_matches("__GI_");
    if !matches!(
        name,
        "raise" | "gsignal" | "pthread_kill" | "__pthread_kill_implementation" | "__pthread_kill_internal"
    ) {
        return;
    }
    let signo = f.args.unwrap_or("").split(", ").find_map(|a| {
        let v = a.strip_prefix("sig=").or_else(|| a.strip_prefix("signo="))?;
        v.parse::<i32>().ok()
    });
    if let Some(no) = signo.filter(|no| matches!(no, 4 | 7 | 8 | 11)) {
        super::fill_signal(&mut b.trace.stops[si].reason, &no.to_string(), "");
    }
}

fn selected_thread(b: &mut Builder) -> usize {
    match b.lldb.selected_thread.clone() {
        Some(id) => b.thread_by_id(&id),
        None => b.current_thread(),
    }
}

/// `       rax = 0x0000000000000000`, `       rip = 0x…  prog`main + 4 at t.c:3:1`,
/// `rdi          = error: unavailable`, `xmm0 = {0x00 0x00 …}`.
fn register_line(b: &mut Builder, t: &str, n: u32) -> Option<()> {
    let (name, v) = t.split_once(" = ")?;
    let name = name.trim_end();
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    let v = v.trim();
    let (value, natural) = if let Some(rest) = v.strip_prefix("0x") {
        let digits = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        let val = parse_hex(&v[..digits + 2])?;
        let nat = v[digits + 2..].trim();
        (Some(val), (!nat.is_empty()).then_some(nat))
    } else {
        (None, Some(v))
    };
    let ti = selected_thread(b);
    let saved = (b.thread, b.selected_frame);
    b.thread = Some(ti);
    b.selected_frame = b.lldb.selected_frame;
    b.put_register(name, value, natural, n);
    b.thread = saved.0.or(Some(ti));
    b.selected_frame = saved.1;
    Some(())
}

/// `0x7fffffffec20: 0x00007fffffffec50 0x0000555555555191` and
/// `0x7fffffffec20: 50 ec ff ff ff 7f 00 00 91 51 55 55 55 55 00 00  P........QUUUU..`
fn memory_row(b: &mut Builder, t: &str, unit: Option<u8>, expr: Option<Box<str>>, n: u32) -> Option<()> {
    let (addr, rest) = t.split_once(": ")?;
    let address = parse_hex(addr)?;
    // `memory read -fA` (lldb's address format): one word a row, with what it points to
    // (`0x0000000000401182 prog`copy_tag + 73 at prog.c:12:1`).
    let (rest, pointee) = match rest.split_once(' ') {
        Some((w, p)) if p.contains('`') && w.starts_with("0x") && w.len() == 18 => (w, Some(p.trim())),
        _ => (rest, None),
    };
    // The ASCII column follows two spaces.
    let data = rest.split("  ").next().unwrap_or(rest).trim();
    let mut words = Vec::new();
    for w in data.split_whitespace() {
        let v = if let Some(h) = w.strip_prefix("0x") {
            (super::lexemes::parse_hex_digits(h)?, h.len())
        } else if w.len() == 2 {
            (u64::from_str_radix(w, 16).ok()?, 2)
        } else {
            return None;
        };
        words.push(v);
    }
    if words.is_empty() {
        return None;
    }
    let unit = unit.or_else(|| match words[0].1 {
        2 => Some(1),
        4 => Some(2),
        8 => Some(4),
        16 => Some(8),
        _ => None,
    });
    b.ctx = Ctx::Memory { unit, expr, insns: false };
    // put_memory marks the input as gdb's; this row is lldb's.
    let formats = b.formats;
    let value = words[0].0;
    b.put_memory(gdb::GdbMemoryRow { address, symbol: None, words, string: None }, n);
    b.formats = formats;
    b.saw(Format::Lldb);
    b.ctx = Ctx::None;
    if let Some(p) = pointee {
        return_address_at_entry(b, address, value, p, n);
    }
    Some(())
}

/// A backtrace that ends at frame #0 stopped at its function's first instruction (lldb's
/// listing shows the pc at `<+0>`: static musl's `__stack_chk_fail`, a `hlt` without CFI,
/// where lldb 14 stops unwinding): the call that entered it has just pushed its return address,
/// so the word at `[sp]`, which `memory read -fA` names as code inside a function, is frame #1.
fn return_address_at_entry(b: &mut Builder, slot: u64, value: u64, pointee: &str, n: u32) -> Option<()> {
    // `module`function + off at file:line:col`; the offset is past the call, never 0.
    let (_, sym) = pointee.split_once('`')?;
    let (sym, place) = match sym.split_once(" at ") {
        Some((s, p)) => (s, Some(p)),
        None => (sym, None),
    };
    let (function, off) = sym.rsplit_once(" + ")?;
    if off.parse::<u64>().ok()? == 0 || function.is_empty() {
        return None;
    }
    let si = b.trace.stops.len().checked_sub(1)?;
    let stop = &b.trace.stops[si];
    let ti = stop.threads.iter().position(|t| t.crashed || t.current)?;
    let th = &stop.threads[ti];
    if th.frames.len() != 1 || b.lldb.selected_frame != 0 {
        return None;
    }
    let pc = th.frames[0].pc?.0;
    let sp = th.registers.get(&0)?.reg("rsp")?.value?;
    let at_entry = stop.disassembly.iter().any(|i| {
        i.current && i.frame == 0 && i.address.0 == pc && i.location.as_ref().and_then(|l| l.offset()) == Some(0)
    });
    if slot != sp || !at_entry {
        return None;
    }
    let (file, line) = match place.and_then(|p| p.split_once(':')) {
        Some((f, rest)) => (Some(f), rest.split(':').next().and_then(|l| l.parse::<u32>().ok())),
        None => (None, None),
    };
    let frame = crate::model::Frame {
        index: 1,
        pc: Some(crate::model::Address(value)),
        function: Some(b.intern(function)),
        file: file.map(|f| b.intern(f)),
        line,
        span: crate::model::Span::line(n),
        ..Default::default()
    };
    b.trace.stops[si].threads[ti].frames.push(frame);
    b.note(
        Some(n),
        format!(
            "frame #1 ({function}) is the return address at [sp] 0x{slot:x}: frame #0 stopped at its function's first instruction, before it built a frame (lldb's backtrace ends at frame #0)"
        ),
    );
    Some(())
}

/// `prog`func:` heading, then `->  0x555555555549 <+15>: movq   0x10(%rax), %rax`.
fn disasm_line(b: &mut Builder, l: &str, t: &str, n: u32) -> Option<()> {
    // A stop printed without its command (`Process 61204 stopped` pasted alone) shows the same
    // source and disassembly as after `run`.
    if !matches!(b.lldb.cmd, LldbCmd::Disassemble | LldbCmd::Run | LldbCmd::FrameSelect | LldbCmd::None) {
        return None;
    }
    // `module`symbol:` heads the listing; a C++ symbol may hold blanks (`f() const`,
    // `std::vector<int, std::allocator<int>>::at(unsigned long)`), never before the backtick.
    if let Some(head) = t.strip_suffix(':')
        && let Some((module, _)) = head.split_once('`')
        && !module.is_empty()
        && !module.contains(' ')
    {
        b.lldb.disasm_function = head.split_once('`').map(|(_, f)| f.into());
        return Some(());
    }
    // The current line is `->  0x…` (lldb 3.x: `-> 0x…`), the others are indented (four
    // blanks, three in lldb 3.x). Code without a symbol (JIT code, a stripped image) has no
    // `<+off>`: `->  0x4011a3: movl (%rsp), %ebx`.
    let (current, r) = match l.strip_prefix("->") {
        Some(r) => (true, r.trim_start()),
        None if l.starts_with("   ") && l.trim_start().starts_with("0x") => (false, l.trim_start()),
        None => return None,
    };
    let (addr, rest) = r.split_once(' ')?;
    let address = parse_hex(addr.strip_suffix(':').unwrap_or(addr))?;
    let rest = rest.trim_start();
    let (off, text) = match rest.strip_prefix("<+") {
        Some(q) => {
            let (o, txt) = q.split_once(">:")?;
            (Some(o), txt.trim())
        }
        None => (None, rest.strip_prefix(':').unwrap_or(rest).trim()),
    };
    let location = match (&b.lldb.disasm_function, off) {
        (Some(f), Some(o)) => Some(Location::from(format!("{f}+{o}"))),
        _ => None,
    };
    let (thread, frame) = b.selection();
    let si = b.ensure_stop();
    b.trace.stops[si].disassembly.push(Instruction {
        address: Address(address),
        thread,
        frame,
        location,
        text: text.into(),
        bytes: None,
        current,
        span: Span::line(n),
    });
    b.extend_stop_span(n);
    Some(())
}

/// lldb's source listing after a stop: `   20  \t…`, `-> 23  \t…`, and the column caret
/// line `    \t            ^`.
fn is_source_line(l: &str) -> bool {
    let r = l.strip_prefix("->").unwrap_or(l).trim_start_matches(' ');
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    // `   17  \tcode` (lldb 14), `   138 \tcode` (one blank before the tab in newer lldb).
    if digits > 0
        && r[digits..].starts_with(' ')
        && (r[digits..].trim_start_matches(' ').starts_with('\t') || r[digits..].trim().is_empty())
    {
        return true;
    }
    // Xcode's lldb: the tab right after the number (`-> 6241\t    code`, `   6238\t}`). (A
    // number alone closes a listing only after one: the caller knows.)
    if digits > 0 && r[digits..].starts_with('\t') && (l.starts_with("->") || l.starts_with("   ")) {
        return true;
    }
    l.starts_with("    \t") && l.trim() == "^"
}

/// `(const session *) s = NULL`, `(int) upto = 2`; the value may span lines.
fn frame_variable(b: &mut Builder, t: &str, n: u32) -> bool {
    if b.lldb.var_depth > 0 {
        b.lldb.var_depth += super::brace_depth(t);
        append_local(b, t);
        return true;
    }
    let Some(r) = t.strip_prefix('(') else { return false };
    let Some(close) = r.find(") ") else { return false };
    let binding = &r[close + 2..];
    if !binding.contains(" = ") {
        return false;
    }
    b.lldb.var_depth = super::brace_depth(binding).max(0);
    append_local(b, binding);
    let _ = n;
    true
}

fn append_local(b: &mut Builder, text: &str) {
    let ti = selected_thread(b);
    let si = b.ensure_stop();
    let k = b.lldb.selected_frame;
    if let Some(f) = b.trace.stops[si].threads[ti].frames.iter_mut().find(|f| f.index == k) {
        let mut s = f.locals.take().map(String::from).unwrap_or_default();
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(text);
        f.locals = Some(s.into());
    }
}

/// `[0x00007ffffffde000-0x00007ffffffff000) rw- [stack]`,
/// `[0x0000555555555000-0x0000555555556000) r-x /tmp/prog PT_LOAD[1]`,
/// `[0x0000555555559000-0x000055555557a000) rw- [heap]`. A row with no access (`---`) is not
/// kept: lldb 14 prints an unmapped gap and a guard page alike.
fn region_row(b: &mut Builder, t: &str, n: u32) -> Option<()> {
    let r = t.strip_prefix('[')?;
    let (range, r) = r.split_once(") ")?;
    let (lo, hi) = range.split_once('-')?;
    let (start, end) = (parse_hex(lo)?, parse_hex(hi)?);
    let mut words = r.split_whitespace();
    let perms = words.next()?;
    if perms.len() != 3 || !perms.bytes().all(|c| matches!(c, b'r' | b'w' | b'x' | b'-')) || start >= end {
        return None;
    }
    if perms == "---" {
        return Some(());
    }
    let path = words.next().filter(|w| !w.starts_with("PT_LOAD")).map(|p| b.intern(p));
    b.trace.regions.push(Mapping {
        start: Address(start),
        end: Address(end),
        offset: 0,
        perms: Some(format!("{perms}p").into()),
        path,
        span: Span::line(n),
    });
    Some(())
}

/// `[  0] 05E36EED-… 0x0000555555554000 /tmp/ctest/null-field `
fn image_row(b: &mut Builder, t: &str, n: u32) -> Option<()> {
    let r = t.strip_prefix('[')?;
    let (_, r) = r.split_once("] ")?;
    let mut words = r.split_whitespace();
    let mut w = words.next()?;
    if !w.starts_with("0x") {
        w = words.next()?;
    }
    let base = parse_hex(w)?;
    let path = words.next()?;
    let path = b.intern(path);
    b.trace.libraries.push(Library { from: Some(Address(base)), to: None, syms_read: true, path, span: Span::line(n) });
    Some(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn template_return_types_go() {
        use super::without_return_type as w;
        assert_eq!(
            w("void std::__throw_with_nested_impl<std::runtime_error>"),
            "std::__throw_with_nested_impl<std::runtime_error>"
        );
        assert_eq!(w("unsigned int* ns::find<int, std::less<int> >"), "ns::find<int, std::less<int> >");
        // Not a return type: no space outside the brackets, an operator, an anonymous namespace.
        assert_eq!(w("std::vector<std::pair<int, int> >"), "std::vector<std::pair<int, int> >");
        assert_eq!(w("operator new<int>"), "operator new<int>");
        let computed = "decltype(std::declval<worker::$_0>()()) std::__1::__invoke[abi:ue170006]<worker::$_0>";
        assert_eq!(w(computed), computed);
        assert_eq!(w("(anonymous namespace)::cache<int>"), "(anonymous namespace)::cache<int>");
        assert_eq!(w("read_body"), "read_body");
    }

    #[test]
    fn a_stop_pasted_without_its_command() {
        // Newer lldb's one blank before the tab, and the disassembly head, with no `(lldb) run`.
        let t = "Process 61204 stopped
* thread #2, name = 'emu', stop reason = signal SIGSEGV: invalid permissions for mapped object (fault address: 0x8210e3ff8)
    frame #0: 0x00000000002a4b18 emu`Cpu::lookupTlb(unsigned long, int) + 8 at cpu.cpp:141:8
   140 \t{
-> 141 \t   if (x)
   142 \t
emu`Cpu::lookupTlb:
->  0x2a4b18 <+8>:  movq   %rsi, -0x18(%rbp)
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert_eq!(p.trace.stops[0].disassembly.len(), 1);
        assert!(!super::is_source_line("12 apples"));
    }

    #[test]
    fn exc_bad_access_codes_are_typed() {
        use crate::model::Address;
        let stop = |code: &str| {
            let t = format!(
                "* thread #2, name = 'w', stop reason = EXC_BAD_ACCESS (code={code}, address=0x16fa0bfe0)\n    frame #0: 0x0000000100031c48 sim`f + 8\n"
            );
            let p = crate::input::parse(&t);
            let r = p.trace.stops[0].reason.clone();
            (r.signal.as_deref().map(str::to_string), r.si_code, r.address)
        };
        // KERN_PROTECTION_FAILURE: SIGBUS, as macOS reports it; KERN_INVALID_ADDRESS: SIGSEGV.
        assert_eq!(stop("2"), (Some("SIGBUS".into()), Some(2), Some(Address(0x16fa0bfe0))));
        assert_eq!(stop("1"), (Some("SIGSEGV".into()), Some(1), Some(Address(0x16fa0bfe0))));
        assert_eq!(stop("EXC_I386_GPFLT").1, None);
    }

    use super::*;

    #[test]
    fn frames() {
        let f = frame_line(
            "* frame #0: 0x0000555555555155 null-field`session_bytes(s=0x0000000000000000) at null-field.c:23:13",
        )
        .unwrap();
        assert_eq!((f.index, f.selected, f.pc), (0, true, Some(0x555555555155)));
        assert_eq!(
            (f.module, f.function, f.args),
            (Some("null-field"), Some("session_bytes"), Some("s=0x0000000000000000"))
        );
        assert_eq!((f.file, f.line, f.column), (Some("null-field.c"), Some(23), Some(13)));
        let f = frame_line("frame #6: 0x0000555555555081 null-field`_start + 33").unwrap();
        assert_eq!((f.function, f.file, f.args), (Some("_start"), None, None));
        let f = frame_line("frame #4: 0x00007ffff7dfc24a libc.so.6`__libc_start_call_main(main=(null-field`main at null-field.c:42:1), argc=1, argv=0x00007fffffffede8) at libc_start_call_main.h:58:16").unwrap();
        assert_eq!(f.function, Some("__libc_start_call_main"));
        assert_eq!((f.file, f.line), (Some("libc_start_call_main.h"), Some(58)));
        let f = frame_line("frame #3: 0x0000555555555444 threads-crash`main at threads-crash.c:70:9").unwrap();
        assert_eq!((f.function, f.args, f.line), (Some("main"), None, Some(70)));
        assert!(frame_line("frame #x: nothing").is_none());
    }

    #[test]
    fn windows_and_macos_shapes() {
        let r = stop_reason(
            "Exception 0xc0000005 encountered at address 0x7ff6a1b21ede: Access violation reading location 0x000001c2d4e0f018",
            1,
        );
        assert_eq!((r.kind, r.signo, r.address), (StopKind::Signal, Some(11), Some(Address(0x1c2d4e0f018))));
        let r = stop_reason("Exception 0xc0000094 encountered at address 0x140001010", 1);
        assert_eq!((r.signal.as_deref(), r.address), (Some("SIGFPE"), None));
        let r = stop_reason("Exception 0xe06d7363 encountered at address 0x7ffd1000", 1);
        assert_eq!(r.kind, StopKind::Unknown);
        let f = frame_line("* frame #0: 0x0000000100003a14 crasher`worker::$_0::operator()(this=0x0000600000004010) const at crash.cpp:11:38").unwrap();
        assert_eq!(
            (f.function, f.args, f.line),
            (Some("worker::$_0::operator()"), Some("this=0x0000600000004010"), Some(11))
        );
        assert!(is_target_stopped("Target 0: (crasher) stopped."));
        assert!(!is_target_stopped("Target 0: (crasher) exited."));
    }

    #[test]
    fn headers_and_reasons() {
        let h = thread_header("* thread #1, name = 'null-field', stop reason = signal SIGSEGV: address not mapped to object (fault address: 0x18)").unwrap();
        assert!(h.selected);
        assert_eq!((h.id, h.name), ("1", Some("null-field")));
        let r = stop_reason(h.reason.unwrap(), 1);
        assert_eq!((r.signo, r.si_code, r.address), (Some(11), Some(1), Some(Address(0x18))));
        assert_eq!(r.description.as_deref(), Some("address not mapped to object"));
        // lldb 14's words: `invalid address` is SEGV_MAPERR, `address access protected`
        // SEGV_ACCERR; a general protection fault (SI_KERNEL) is also `invalid address`, at 0.
        let r = stop_reason("signal SIGSEGV: invalid address (fault address: 0x3a)", 1);
        assert_eq!((r.kind, r.si_code, r.address), (StopKind::Signal, Some(1), Some(Address(0x3a))));
        let r = stop_reason("signal SIGSEGV: address access protected (fault address: 0x7ffff7fbf004)", 1);
        assert_eq!((r.si_code, r.address), (Some(2), Some(Address(0x7ffff7fbf004))));
        let r = stop_reason("signal SIGSEGV: invalid address (fault address: 0x0)", 1);
        assert_eq!((r.signo, r.si_code, r.address), (Some(11), None, Some(Address(0))));
        let r = stop_reason("unknown crash reason", 1);
        assert_eq!((r.kind, r.signal.as_deref()), (StopKind::Signal, None));
        let h = thread_header("thread #2: tid = 6197, 0x00007ffff7e5af16 libc.so.6`__futex_abstimed_wait_common at futex-internal.c:57:12, name = 'io-reader'").unwrap();
        assert_eq!((h.id, h.tid, h.name), ("2", Some(6197), Some("io-reader")));
        assert!(h.frame.is_some());
        assert!(thread_header("thread #two").is_none());
        assert_eq!(stop_reason("breakpoint 1.1", 1).number, Some(1));
    }

    /// lldb 14's stop for `raise(SIGSEGV)`, as recorded in the crash corpus (`raise-segv`): the
    /// signal comes from the raise frames; Rust's legacy hash is dropped; `__restore_rt` is the
    /// signal frame.
    #[test]
    fn raise_signal_rust_hash_and_trampoline() {
        let text = "(lldb) run\nProcess 1261 stopped\n* thread #1, name = 'raise-segv', stop reason = unknown crash reason\n    frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=11, no_tid=<unavailable>) at pthread_kill.c:44:76\n(lldb) bt all\n* thread #1, name = 'raise-segv', stop reason = unknown crash reason\n  * frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=11, no_tid=<unavailable>) at pthread_kill.c:44:76\n    frame #1: 0x00007ffff7e0ffb2 libc.so.6`__GI_raise(sig=11) at raise.c:26:13\n    frame #2: 0x00007ffff7e10050 libc.so.6`__restore_rt\n    frame #3: 0x00005555555683c5 p`p::header_len::h18022822527bf01d(h=0x0000000000000000) at p.rs:14:14\n";
        let t = crate::input::parse(text).trace;
        let stop = &t.stops[0];
        assert_eq!((stop.reason.signal.as_deref(), stop.reason.signo), (Some("SIGSEGV"), Some(11)));
        let fr = &stop.threads[0].frames;
        assert!(fr[2].signal_handler && !fr[1].signal_handler);
        assert_eq!(fr[3].function.as_deref(), Some("p::header_len"));
    }

    #[test]
    fn memory_region_rows() {
        let mut b = Builder::new(crate::input::Limits::default());
        b.lldb.cmd = LldbCmd::MemoryRegion;
        region_row(&mut b, "[0x0000555555559000-0x000055555557a000) rw- [heap]", 3).unwrap();
        region_row(&mut b, "[0x0000555555555000-0x0000555555556000) r-x /tmp/p PT_LOAD[1]", 5).unwrap();
        // No access: a guard page or no mapping at all; lldb 14 does not say which.
        region_row(&mut b, "[0x00007ffff7dc0000-0x00007ffff7dc1000) ---", 7).unwrap();
        assert!(region_row(&mut b, "[  0] 47CE2191 0x0000555555554000 /tmp/t", 9).is_none());
        let r = &b.trace.regions;
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].start.0, r[0].end.0, r[0].perms.as_deref()), (0x555555559000, 0x55555557a000, Some("rw-p")));
        assert_eq!(r[0].path.as_deref(), Some("[heap]"));
        assert_eq!(r[1].path.as_deref(), Some("/tmp/p"));
        assert_eq!(r[1].executable(), Some(true));
        assert_eq!(b.trace.mapping_for(0x555555559010).map(|m| m.start.0), Some(0x555555559000));
        assert!(b.trace.mapping_for(0x7ffff7dc0010).is_none());
    }

    #[test]
    fn memory_commands() {
        assert_eq!(
            memory_cmd("memory", &["read", "--size", "8", "--format", "x", "--count", "4", "$rsp"]),
            LldbCmd::Memory { unit: Some(8), expr: Some("$rsp".into()) }
        );
        assert_eq!(
            memory_cmd("memory", &["read", "-s8", "-fx", "-c4", "$r13"]),
            LldbCmd::Memory { unit: Some(8), expr: Some("$r13".into()) }
        );
        assert_eq!(memory_cmd("x/4gx", &["$rax"]), LldbCmd::Memory { unit: Some(8), expr: Some("$rax".into()) });
        assert_eq!(memory_cmd("memory", &["read", "$rsp"]), LldbCmd::Memory { unit: None, expr: Some("$rsp".into()) });
    }

    #[test]
    fn source_lines() {
        assert!(is_source_line("   20  \t"));
        assert!(is_source_line("-> 23  \t    return s->bytes_in;"));
        assert!(is_source_line("    \t            ^"));
        assert!(!is_source_line("    frame #0"));
        assert!(is_source_line("-> 6241\t               ___RETN(ra1)"));
        // A program's own output of a number is no listing line.
        assert!(!is_source_line("4"));
        assert!(!is_source_line("-4"));
    }
}
