//! valgrind (memcheck) output: every line starts with `==PID== `.
//!
//! ```text
//! ==4242== Invalid read of size 1
//! ==4242==    at 0x109418: main (san.c:60)
//! ==4242==  Address 0x4a41042 is 2 bytes inside a block of size 8 free'd
//! ==4242==    at 0x484417B: free (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
//! ==4242==    by 0x10940F: main (san.c:59)
//! ==4242==  Block was alloc'd at
//! ==4242==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
//! ==4242==
//! ==4242== Process terminating with default action of signal 11 (SIGSEGV)
//! ==4242==  Access not within mapped region at address 0x18
//! ==4242== 39 bytes in 3 blocks are definitely lost in loss record 1 of 1
//! ```
//!
//! Each error (and the final signal) is a stop with a [`CheckerReport`]; its first stack is
//! the crashed thread `1`, later stacks (`free'd`, `Block was alloc'd at`, `Uninitialised
//! value was created by…`) are threads named after their heading. The banner, the heap and
//! leak summaries and the notes are kept as messages.

use super::Builder;
use super::lexemes::parse_hex;
use crate::model::*;

#[derive(Default, Clone)]
pub(crate) struct VgState {
    pub thread: Option<usize>,
    pub next_section: Option<String>,
    pub first_done: bool,
    pub next_index: u32,
    /// The last `client switching stacks?` warning: (from, to, its line). Kept across errors.
    pub sp_switch: Option<(Address, Address, Span)>,
    /// Inside Helgrind's `Thread #N was created` or `Lock at 0x… was first observed` stack:
    /// where a thread or lock came from, not a stack of the error.
    pub skip_stack: bool,
    /// Helgrind's output pasted without its `==PID==` prefixes.
    pub bare: bool,
}

/// A line of Helgrind's that opens or continues its output pasted without `==PID==` prefixes.
fn bare_helgrind(t: &str, open: bool) -> bool {
    let opens = t.starts_with("---Thread-Announcement---")
        || t.starts_with("Possible data race during ")
        || t.starts_with("Helgrind, a thread error detector");
    opens
        || open
            && (t.starts_with("at 0x")
                || t.starts_with("by 0x")
                || t.starts_with("Address 0x")
                || t.starts_with("Locks held: ")
                || t.starts_with("This conflicts with a previous ")
                || t.starts_with("Lock at 0x")
                || t.starts_with("Block was alloc'd by thread #")
                || t.starts_with("Thread #")
                    && (t.ends_with(" was created") || t.ends_with(" is the program's root thread"))
                || t.len() >= 16 && t.bytes().all(|c| c == b'-'))
}

/// `==4242== rest` -> `rest` (also `--4242-- ` valgrind's own warnings). `Some("")` for a
/// bare `==4242==`.
fn strip(t: &str) -> Option<(&str, bool)> {
    let (open, tool_note) = if t.starts_with("==") {
        ("==", false)
    } else if t.starts_with("--") {
        ("--", true)
    } else {
        return None;
    };
    let r = &t[2..];
    let end = r.find(open)?;
    if end == 0 || !r[..end].bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rest = &r[end + 2..];
    if rest.is_empty() {
        return Some(("", tool_note));
    }
    rest.strip_prefix(' ').map(|x| (x, tool_note))
}

/// Reads one line. Returns whether it was valgrind's.
pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let (r, tool_note) = match strip(l.trim()) {
        // Old ASan put a space after its pid too (`==18204== ERROR: AddressSanitizer: …`,
        // `==18204== AddressSanitizer CHECK failed: …`): the sanitizer's, not valgrind's.
        Some((r, _))
            if r.trim_start().starts_with("ERROR: AddressSanitizer") || r.contains("Sanitizer CHECK failed: ") =>
        {
            return false;
        }
        Some(x) => x,
        None if bare_helgrind(l.trim(), b.vg.bare) => {
            b.vg.bare = true;
            // Headings are at column 0, notes indented by one space, frames by three.
            (
                l.trim_end()
                    .strip_prefix(' ')
                    .map_or(l.trim_end(), |x| if x.starts_with(' ') { x } else { l.trim_end() }),
                false,
            )
        }
        None => return false,
    };
    b.saw(Format::Valgrind);
    let t = r.trim();
    if t.is_empty() {
        // A blank `==PID==` line ends a stack.
        b.vg.thread = None;
        return true;
    }
    if tool_note {
        b.add_message(t, n);
        return true;
    }
    // `Warning: client switching stacks?  SP change: 0x1fff0009a0 --> 0x1ffe85f7a0`.
    if let Some(r) = t.strip_prefix("Warning: client switching stacks?")
        && let Some((from, to)) = r.trim().strip_prefix("SP change:").and_then(|x| x.split_once("-->"))
        && let (Some(from), Some(to)) = (parse_hex(from.trim()), parse_hex(to.trim()))
    {
        b.vg.sp_switch = Some((Address(from), Address(to), Span::line(n)));
        b.add_message(t, n);
        return true;
    }
    // Helgrind: where a thread was created or a lock first seen (the stack that follows is
    // that, not the error's), the conflicting access's stack, the locks held.
    if t.starts_with("Thread #") && (t.ends_with(" was created") || t.ends_with(" is the program's root thread"))
        || t.starts_with("Lock at 0x") && t.ends_with(" was first observed")
        || t.starts_with("---Thread-Announcement---")
    {
        b.vg.skip_stack = true;
        b.vg.thread = None;
        b.add_message(t, n);
        return true;
    }
    if t.len() >= 16 && t.bytes().all(|c| c == b'-') {
        b.vg.skip_stack = false;
        b.vg.thread = None;
        return true;
    }
    if let Some(r) = t.strip_prefix("This conflicts with a previous ") {
        b.vg.skip_stack = false;
        b.vg.next_section = Some(format!("previous {}", r.split(" of size ").next().unwrap_or(r)));
        if let Some(p) = r.find(" by thread #") {
            let who = &r[p + 4..];
            b.vg.next_section = Some(format!("previous {} {who}", r.split(' ').next().unwrap_or("")));
        }
        b.vg.thread = None;
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("Locks held: ") || t.starts_with("Block was alloc'd by thread #") {
        b.add_message(t, n);
        return true;
    }
    // Frames: `at 0x109418: main (san.c:60)`, `by 0x…: free (in /usr/…/vgpreload_memcheck…so)`.
    if b.vg.skip_stack && (t.starts_with("at 0x") || t.starts_with("by 0x")) {
        return true;
    }
    if let Some(rest) = t.strip_prefix("at 0x").or_else(|| t.strip_prefix("by 0x"))
        && let Some(f) = frame(b, rest, t.starts_with("at "), n)
    {
        let ti = stack_thread(b);
        // Rows with one address are one real frame: valgrind prints the functions inlined at
        // that pc first, the function they were inlined into last.
        let si = b.ensure_stop();
        if let Some(last) = b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.last_mut())
            && last.pc.is_some()
            && last.pc == f.pc
        {
            last.inlined = true;
        }
        b.put_frame(ti, f);
        return true;
    }
    // An error heading: indented by one space only (notes have two).
    if !r.starts_with("  ") && error_heading(b, t, n) {
        return true;
    }
    // Notes inside an error.
    if let Some(a) = t.strip_prefix("Address ").and_then(|x| x.split_whitespace().next()).and_then(parse_hex) {
        let si = b.ensure_stop();
        let st = &mut b.trace.stops[si];
        if st.reason.address.is_none() {
            st.reason.address = Some(Address(a));
        }
        // `Address 0x0 is not stack'd, malloc'd or (recently) free'd` says the address is in
        // no block at all: its "free'd" names a kind of block it is not in.
        let freed = t.contains(" free'd") && !t.contains(" is not stack'd");
        if let Some(c) = st.checker.as_mut() {
            if freed {
                c.kind = Some(if c.text.starts_with("Invalid free") { "double-free" } else { "use-after-free" });
            }
            c.span.extend_to(n);
        }
        if freed {
            b.vg.next_section = Some("free'd".into());
        } else if t.contains(" alloc'd") && !t.contains(" is not stack'd") {
            b.vg.next_section = Some("alloc'd".into());
        }
        b.vg.thread = None;
        b.add_message(t, n);
        return true;
    }
    if let Some(a) = t
        .strip_prefix("Access not within mapped region at address ")
        .or_else(|| t.strip_prefix("Bad permissions for mapped region at address "))
        .or_else(|| t.strip_prefix("General Protection Fault"))
    {
        let si = b.ensure_stop();
        if let Some(v) = parse_hex(a.trim()) {
            let r = &mut b.trace.stops[si].reason;
            r.address = Some(Address(v));
            // memcheck words the kernel's si_code: SEGV_MAPERR and SEGV_ACCERR.
            if r.si_code.is_none() && r.signo == Some(11) && !t.starts_with("General") {
                r.si_code = Some(if t.starts_with("Access not within") { 1 } else { 2 });
            }
        }
        b.vg.thread = None;
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("Block was alloc'd at") || t.starts_with("Uninitialised value was created") {
        b.vg.next_section = Some(t.trim_end_matches(" at").to_string());
        b.vg.thread = None;
        b.add_message(t, n);
        return true;
    }
    // Everything else valgrind prints (banner, summaries, hints) is kept as a message.
    b.vg.thread = None;
    b.add_message(t, n);
    true
}

fn error_heading(b: &mut Builder, t: &str, n: u32) -> bool {
    // An invalid free becomes `double-free` when the block turns out to be free'd already.
    let kind: Option<&'static str> = if t.starts_with("Invalid read of size ")
        || t.starts_with("Invalid write of size ")
        || t.starts_with("Invalid free()")
        || t.starts_with("Mismatched free()")
    {
        Some("invalid-access")
    } else if t.starts_with("Conditional jump or move depends on uninitialised value")
        || t.starts_with("Use of uninitialised value of size")
        || (t.starts_with("Syscall param ") && t.contains("uninitialised"))
    {
        Some("uninitialized-read")
    } else if t.contains(" are definitely lost in loss record ") || t.contains(" are possibly lost in loss record ") {
        Some("memory-leak")
    } else if t.starts_with("Possible data race during ") {
        Some("data-race")
    } else if t.starts_with("Thread #") && (t.contains(" called with un-held mutex") || t.contains(" unlocked ")) {
        // Helgrind's API misuse reports: an error, of no class a rule covers.
        None
    } else if t.starts_with("Jump to the invalid address")
        || t.starts_with("Process terminating with default action of signal ")
    {
        None
    } else {
        return false;
    };
    let mut reason = StopReason { kind: StopKind::RuntimeError, span: Span::line(n), ..Default::default() };
    reason.description = Some(t.into());
    // `Process terminating with default action of signal 11 (SIGSEGV)`
    if let Some(rest) = t.strip_prefix("Process terminating with default action of signal ") {
        reason.kind = StopKind::Signal;
        let num: Option<i32> = rest.split_whitespace().next().and_then(|x| x.parse().ok());
        reason.signo = num;
        if let Some(name) = rest.split_once('(').and_then(|(_, x)| x.split_once(')')).map(|(x, _)| x) {
            reason.signal = Some(b.intern(name));
        }
    }
    let is_signal = reason.kind == StopKind::Signal;
    let si = b.new_stop(reason, None);
    b.trace.stops[si].sp_switch = b.vg.sp_switch;
    if !is_signal {
        b.trace.stops[si].checker = Some(CheckerReport {
            tool: "valgrind".into(),
            kind,
            text: t.into(),
            access: (t.starts_with("Invalid read") || t.starts_with("Invalid write")).then(|| t.into()),
            summary: None,
            at_system_call: t.starts_with("Syscall param "),
            span: Span::line(n),
        });
    }
    // Helgrind's race: `… at 0x10C014 by thread #3` names the address and the thread.
    if let Some(r) = t.strip_prefix("Possible data race during ")
        && let Some((_, rest)) = r.split_once(" at ")
    {
        if let Some(a) = rest.split_whitespace().next().and_then(parse_hex) {
            b.trace.stops[si].reason.address = Some(Address(a));
        }
        if let Some(c) = b.trace.stops[si].checker.as_mut() {
            c.access = Some(t.into());
        }
    }
    b.add_message(t, n);
    b.vg = VgState { sp_switch: b.vg.sp_switch, bare: b.vg.bare, ..Default::default() };
    true
}

fn stack_thread(b: &mut Builder) -> usize {
    if let Some(ti) = b.vg.thread {
        return ti;
    }
    let id = if b.vg.first_done {
        b.vg.next_section.take().unwrap_or_else(|| "stack".into())
    } else {
        b.vg.next_section = None;
        "1".to_string()
    };
    let ti = b.thread_by_id(&id);
    let si = b.ensure_stop();
    if !b.vg.first_done {
        b.trace.stops[si].threads[ti].crashed = true;
        b.vg.first_done = true;
    }
    b.vg.thread = Some(ti);
    ti
}

/// `109418: main (san.c:60)`, `484417B: free (in /usr/libexec/…so)`, `0: ???`,
/// `4A1B2C: ??? (in /lib/x86_64-linux-gnu/libc.so.6)` (after `at 0x` / `by 0x`).
fn frame(b: &mut Builder, rest: &str, first: bool, n: u32) -> Option<Frame> {
    let (hex, tail) = rest.split_once(':')?;
    let pc = u64::from_str_radix(hex, 16).ok()?;
    let tail = tail.trim();
    let (func, loc) = match tail.rfind(" (") {
        Some(p) if tail.ends_with(')') => (&tail[..p], Some(&tail[p + 2..tail.len() - 1])),
        _ => (tail, None),
    };
    if first {
        b.vg.next_index = 0;
    }
    let index = b.vg.next_index;
    b.vg.next_index += 1;
    let mut f = Frame { index, pc: Some(Address(pc)), span: Span::line(n), ..Default::default() };
    if !func.is_empty() && func != "???" {
        f.function = Some(b.intern(func));
    }
    match loc {
        Some(m) if m.starts_with("in ") => f.module = Some(b.intern(&m[3..])),
        Some(l) => {
            if let Some((file, line)) = l.rsplit_once(':')
                && let Ok(line) = line.parse::<u32>()
            {
                f.file = Some(b.intern(file));
                f.line = Some(line);
            }
        }
        None => {}
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use crate::model::*;

    #[test]
    fn invalid_read_in_freed_block_is_use_after_free() {
        // Shape of tests/wild/valgrind/uaf.txt (memcheck 3.19), our values.
        let p = crate::input::parse(
            "==31== Invalid read of size 1
==31==    at 0x109418: show_label (ui.c:60)
==31==    by 0x1094B4: main (ui.c:70)
==31==  Address 0x4a41042 is 2 bytes inside a block of size 8 free'd
==31==    at 0x484417B: free (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==31==    by 0x10940F: drop_label (ui.c:59)
==31==  Block was alloc'd at
==31==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==31==
==31== Process terminating with default action of signal 11 (SIGSEGV)
==31==  Access not within mapped region at address 0x18
==31==    at 0x109219: session_len (ui.c:20)
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let s = &p.trace.stops[0];
        assert_eq!(s.checker.as_ref().and_then(|c| c.kind), Some("use-after-free"));
        assert_eq!(s.reason.address, Some(Address(0x4a41042)));
        let t = &s.threads[0];
        assert!(t.crashed);
        assert_eq!((t.frames[1].function.as_deref(), t.frames[1].line), (Some("main"), Some(70)));
        assert_eq!(
            s.threads[1].frames[0].module.as_deref(),
            Some("/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so")
        );
        let sig = &p.trace.stops[1];
        assert_eq!((sig.reason.signal.as_deref(), sig.reason.address), (Some("SIGSEGV"), Some(Address(0x18))));
    }
}
