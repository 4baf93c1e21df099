//! Sanitizer reports: AddressSanitizer (and LeakSanitizer), UndefinedBehaviorSanitizer,
//! ThreadSanitizer and MemorySanitizer, as compiler-rt and libsanitizer print them on stderr.
//!
//! ```text
//! ==29073==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6030… at pc 0x5607… bp … sp …
//! READ of size 4 at 0x603000000060 thread T0
//!     #0 0x56072343b2c3 in sum_items src/san.c:12
//!     #4 0x55cddf203190 in _start (build/san-asan+0x1190)
//! 0x603000000060 is located 0 bytes after 32-byte region [0x6030…40,0x6030…60)
//! allocated by thread T0 here:
//!     #0 0x7f… in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
//! SUMMARY: AddressSanitizer: heap-buffer-overflow src/san.c:12 in sum_items
//! Shadow bytes around the buggy address:
//!   0x0c067fff7fb0: 00 00 00 00 …
//! =>0x0c067fff8000: fa fa 00 00 00 00[fa]fa …
//! Shadow byte legend (one shadow byte represents 8 application bytes):
//!   Addressable:           00
//! ==29073==ABORTING
//!
//! WARNING: ThreadSanitizer: data race (pid=29340)
//!   Read of size 4 at 0x55555555809c by thread T2:
//!     #0 adder src/san.c:34 (san-tsan+0x1395)
//!   Previous write of size 4 at 0x55555555809c by thread T1:
//!
//! src/san.c:28:22: runtime error: signed integer overflow: 196608 * 65536 cannot be …
//! ```
//!
//! Each report is a stop whose [`CheckerReport`] carries the error class. The first stack
//! (the access, or the first leak) is the crashed thread `T0`/`T2`; every later stack
//! (`freed by thread T0 here:`, `previously allocated by…`, `Previous write of size 4 … by
//! thread T1:`, `Thread T1 … created by main thread at:`, `Uninitialized value was created
//! by…`, the next leak) is a thread of its own named by its heading. Shadow-memory rows become
//! a memory dump (one byte per unit); the legend and the report's notes become messages.

use super::Builder;
use super::lexemes::parse_hex;
use crate::model::*;

#[derive(Default, Clone)]
pub(crate) struct SanState {
    /// A report is being read: stack lines and its notes belong to it.
    pub active: bool,
    /// The thread index stack frames go to.
    pub thread: Option<usize>,
    /// The crashed thread (first stack) was chosen.
    pub first_done: bool,
    /// Heading of the next stack (`freed by thread T0 here`), used as its thread id.
    pub next_section: Option<String>,
    /// Sections opened so far (to name repeated leaks apart).
    pub sections: u32,
    /// Inside `Shadow bytes around the buggy address:` or the legend.
    pub shadow: bool,
    /// After UBSan's `0x…: note: pointer points here`: its bytes, then a caret line.
    pub pointer_note: bool,
    /// After `==PID==Register values:` (ASan's, on macOS): rows of `name = 0x…`.
    pub register_rows: bool,
}

/// The opening line of a deadly-signal report: `AddressSanitizer:DEADLYSIGNAL`, and the
/// older tools' `ASAN:DEADLYSIGNAL`, `ASAN:SIGSEGV`.
fn deadly_signal_line(t: &str) -> bool {
    t.ends_with("Sanitizer:DEADLYSIGNAL")
        || t.split_once(':').is_some_and(|(tool, what)| {
            matches!(tool, "ASAN" | "MSAN" | "TSAN" | "UBSAN" | "LSAN")
                && (what == "DEADLYSIGNAL"
                    || what.len() > 3 && what.starts_with("SIG") && what[3..].bytes().all(|c| c.is_ascii_uppercase()))
        })
}

/// A row of ASan's register dump: `rax = 0x0000000000000000  rbx = 0x0000000000000340  …`
/// (four a row, ` r8 = …` aligned). Returns the pairs.
fn register_row(t: &str) -> Option<Vec<(&str, u64)>> {
    let mut out = Vec::new();
    let mut rest = t.trim();
    while !rest.is_empty() {
        let (name, r) = rest.split_once(" = ")?;
        let name = name.trim();
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        let r = r.trim_start();
        let end = r.find(' ').unwrap_or(r.len());
        out.push((name, parse_hex(&r[..end])?));
        rest = r[end..].trim_start();
    }
    (!out.is_empty()).then_some(out)
}

/// A row of HWASan's register dump: `x0  3e00ffff8a31c060  x1  0000000000000010 …` (names and
/// bare 16-digit hex values in pairs).
fn hwasan_register_row(t: &str) -> Option<Vec<(&str, u64)>> {
    let w: Vec<&str> = t.split_whitespace().collect();
    if w.is_empty() || !w.len().is_multiple_of(2) {
        return None;
    }
    w.chunks(2)
        .map(|c| {
            let name_ok = c[0].len() <= 3
                && c[0].starts_with(['x', 's', 'l', 'p'])
                && c[0].bytes().all(|x| x.is_ascii_alphanumeric());
            (name_ok && c[1].len() == 16).then(|| u64::from_str_radix(c[1], 16).ok().map(|v| (c[0], v))).flatten()
        })
        .collect()
}

/// HWASan's `tag-mismatch` says only that the pointer's tag is not the memory's; the class
/// (heap overflow, use after free, stack) follows from the notes and stacks after it.
fn refine_tag_mismatch(b: &mut Builder, kind: &'static str, overrides: bool) {
    let si = b.ensure_stop();
    if let Some(c) = b.trace.stops[si].checker.as_mut()
        && &*c.tool == "HWAddressSanitizer"
        && c.text.starts_with("tag-mismatch")
        && (c.kind.is_none() || overrides)
    {
        c.kind = Some(kind);
    }
}

/// The tool name in `==PID==ERROR: <Tool>: …` / `WARNING: <Tool>: …`.
fn tool_format(tool: &str) -> Option<Format> {
    Some(match tool {
        "AddressSanitizer" | "LeakSanitizer" | "HWAddressSanitizer" => Format::Asan,
        "ThreadSanitizer" => Format::Tsan,
        "MemorySanitizer" => Format::Msan,
        "UndefinedBehaviorSanitizer" => Format::Ubsan,
        _ => return None,
    })
}

/// The error class as printed, mapped to the rule that reports it.
pub(crate) fn kind_of(tool: &str, what: &str) -> Option<&'static str> {
    let w = what.trim();
    Some(match w {
        _ if w.starts_with("heap-buffer-overflow") => "heap-buffer-overflow",
        _ if w.starts_with("stack-buffer-overflow")
            || w.starts_with("stack-buffer-underflow")
            || w.starts_with("dynamic-stack-buffer-overflow") =>
        {
            "stack-buffer-overflow"
        }
        // ASan's `stack-use-after-return` (a frame's local read after the function returned;
        // `detect_stack_use_after_return=1`) and `stack-use-after-scope` (after its block
        // ended): the memory's lifetime ended before the access, as after a free.
        _ if w.starts_with("heap-use-after-free")
            || w.starts_with("use-after-poison")
            || w.starts_with("stack-use-after-return")
            || w.starts_with("stack-use-after-scope") =>
        {
            "use-after-free"
        }
        _ if w.starts_with("attempting double-free") || w.starts_with("double-free") => "double-free",
        _ if w.starts_with("detected memory leaks") || tool == "LeakSanitizer" => "memory-leak",
        _ if w.starts_with("data race") => "data-race",
        _ if w.starts_with("use-of-uninitialized-value") => "uninitialized-read",
        // clang's checks of behaviour C and C++ define (`-fsanitize=unsigned-integer-overflow`,
        // `-fsanitize=implicit-conversion`): unsigned arithmetic wraps and a conversion to a
        // narrower or unsigned type keeps the low bits, by the standard. UBSan prints them as
        // `runtime error:` lines like the undefined ones, but nothing undefined happened.
        _ if defined_behavior_check(w) => return None,
        _ if tool == "UndefinedBehaviorSanitizer" || w.starts_with("runtime error") => "undefined-behavior",
        _ if w.starts_with("global-buffer-overflow") => "heap-buffer-overflow",
        _ if w.starts_with("stack-overflow") => "stack-overflow",
        _ if w.starts_with("attempting free on address which was not malloc()-ed")
            || w.starts_with("bad-free")
            || w.starts_with("alloc-dealloc-mismatch") =>
        {
            "invalid-access"
        }
        _ => return None,
    })
}

/// A UBSan `runtime error:` of one of clang's checks of defined behaviour: unsigned integer
/// wrap-around and implicit conversions that change a value (truncation, sign change).
fn defined_behavior_check(what: &str) -> bool {
    let w = what.strip_prefix("runtime error:").map(str::trim_start).unwrap_or(what);
    w.starts_with("unsigned integer overflow:") || w.starts_with("implicit conversion from type ")
}

/// Strips the `==29073==` prefix sanitizers put on their own lines.
fn strip_pid(t: &str) -> Option<&str> {
    let r = t.strip_prefix("==")?;
    let end = r.find("==")?;
    if end == 0 || !r[..end].bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(&r[end + 2..])
}

/// Reads one line. Returns whether it belonged to a sanitizer report.
pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        return false;
    }
    let body = strip_pid(t);
    // Openings (ASan of 2012 put a space after the pid: `==18204== ERROR: …`).
    let opening = body.map(str::trim_start).unwrap_or(t);
    if let Some(h) = opening.strip_prefix("ERROR: ").or_else(|| opening.strip_prefix("WARNING: "))
        && let Some((tool, what)) = h.split_once(": ")
        && let Some(fmt) = tool_format(tool)
    {
        open_report(b, fmt, tool, what, n);
        return true;
    }
    // UBSan: `file:line:col: runtime error: message`. Only after a source location (or
    // UBSan's `<unknown>` and `(module+0x…)`): a program's own log line quoting a Go or other
    // runtime error (`recovered in handler: runtime error: index out of range`) is no report.
    if let Some(p) = t.find(": runtime error: ")
        && is_ubsan_location(&t[..p])
    {
        let loc = &t[..p];
        open_report(b, Format::Ubsan, "UndefinedBehaviorSanitizer", &t[p + 2..], n);
        b.add_message(t, n);
        if let Some(f) = location_frame(b, loc, n) {
            // The location is where the check fired; a stack (print_stacktrace=1) may follow
            // and then replaces it.
            let ti = b.thread_by_id("T0");
            b.san.thread = Some(ti);
            b.san.first_done = true;
            let si = b.ensure_stop();
            b.trace.stops[si].threads[ti].crashed = true;
            b.put_frame(ti, f);
        }
        return true;
    }
    // The rule of `=` that opens a report (18 for TSan, 65 for ASan).
    if t.len() >= 18 && t.bytes().all(|c| c == b'=') {
        return true;
    }
    // UBSan's `0x00016fd2ec7e: note: pointer points here`, the bytes there, and a caret
    // under the byte the pointer names.
    if b.formats_has(Format::Ubsan) && t.ends_with(": note: pointer points here") {
        b.san.pointer_note = true;
        b.add_message(t, n);
        return true;
    }
    if b.san.pointer_note {
        if t.split_whitespace().all(|w| w.len() == 2 && w.bytes().all(|c| c.is_ascii_hexdigit())) {
            b.add_message(t, n);
            return true;
        }
        b.san.pointer_note = false;
        if t == "^" {
            return true;
        }
    }
    // The shell's verdict after a report that aborted (`Abort trap: 6` on macOS).
    if (b.formats_has(Format::Asan) || b.formats_has(Format::Msan) || b.formats_has(Format::Tsan))
        && super::shell::is_shell_verdict(t)
    {
        b.add_message(t, n);
        return true;
    }
    if !b.san.active {
        // `AddressSanitizer:DEADLYSIGNAL` precedes a SEGV report.
        return body.is_none() && deadly_signal_line(t);
    }
    if let Some(r) = body {
        return pid_line(b, r.trim(), n);
    }
    if deadly_signal_line(t) {
        return true;
    }
    // Old ASan put the registers of the report's opening on a line of their own:
    // `at pc 0x40a59d bp 0x7fffc19b7450 sp 0x7fffc19b7448`.
    if let Some(r) = t.strip_prefix("at pc 0x")
        && r.contains(" bp 0x")
        && r.contains(" sp 0x")
    {
        b.add_message(t, n);
        return true;
    }
    // The runtime's allocator statistics after an old report or its own CHECK failure.
    if t.starts_with("Stats: ") {
        b.add_message(t, n);
        return true;
    }
    if b.san.register_rows {
        if let Some(regs) = register_row(t).or_else(|| hwasan_register_row(t)) {
            if b.trace.arch == Arch::Unknown && regs.iter().any(|(r, _)| *r == "rax" || *r == "rip") {
                b.trace.arch = Arch::X86_64;
            }
            let si = b.ensure_stop();
            if let Some(id) = b.trace.stops[si].threads.iter().find(|t| t.crashed).map(|t| t.id.to_string()) {
                b.select_thread(&id);
            }
            for (r, v) in regs {
                b.put_register(r, Some(v), None, n);
            }
            return true;
        }
        b.san.register_rows = false;
    }
    if let Some(f) = stack_frame(b, t, n) {
        let ti = stack_thread(b);
        b.put_frame(ti, f);
        b.san.shadow = false;
        return true;
    }
    if let Some(s) = t.strip_prefix("SUMMARY: ") {
        let si = b.ensure_stop();
        if let Some(c) = b.trace.stops[si].checker.as_mut() {
            c.summary = Some(s.into());
            c.span.extend_to(n);
        }
        b.add_message(t, n);
        return true;
    }
    if t == "Shadow bytes around the buggy address:"
        || t.starts_with("Shadow byte legend")
        // HWASan: `Memory tags around the buggy address (one tag corresponds to 16 bytes):`.
        || t.starts_with("Memory tags around the buggy address")
        || t.starts_with("Tags for short granules around the buggy address")
    {
        b.san.shadow = true;
        b.add_message(t, n);
        return true;
    }
    if b.san.shadow {
        if shadow_row(b, t, n) {
            return true;
        }
        // Legend: `Addressable:           00`, `Heap left redzone:       fa`.
        if let Some((name, codes)) = t.split_once(':')
            && !name.is_empty()
            && !codes.trim().is_empty()
            && codes.split_whitespace().all(|c| c.len() == 2 && c.bytes().all(|x| x.is_ascii_hexdigit()))
        {
            b.add_message(t, n);
            return true;
        }
        b.san.shadow = false;
    }
    // Access lines: `READ of size 4 at 0x… thread T0`, TSan `Read of size 4 at 0x… by thread T2:`,
    // `Previous write of size 4 at 0x… by thread T1:`, `Atomic read of size …`.
    if let Some((access, thread)) = access_line(t) {
        let si = b.ensure_stop();
        if !b.san.first_done {
            if let Some(c) = b.trace.stops[si].checker.as_mut()
                && c.access.is_none()
            {
                c.access = Some(access.trim_end_matches(':').into());
            }
            if let Some(a) = t.split(" at ").nth(1).and_then(|r| r.split_whitespace().next()).and_then(parse_hex)
                && b.trace.stops[si].reason.address.is_none()
            {
                b.trace.stops[si].reason.address = Some(Address(a));
            }
            b.san.next_section = Some(thread.unwrap_or("T0").to_string());
        } else {
            b.san.next_section = Some(section_name(t));
        }
        b.san.thread = None;
        b.add_message(t, n);
        return true;
    }
    // Stack headings and notes that end with `:` (`freed by thread T0 here:`,
    // `Thread T1 (tid=…, running) created by main thread at:`, `Direct leak of 39 byte(s) in 3
    // object(s) allocated from:`, `Uninitialized value was created by an allocation of …`).
    if t.starts_with("freed by thread ") {
        refine_tag_mismatch(b, "use-after-free", true);
    }
    // HWASan: `Registers where the failure occurred (pc 0x…):`.
    if t.starts_with("Registers where the failure occurred") {
        b.san.register_rows = true;
        b.add_message(t, n);
        return true;
    }
    // HWASan's newer reports name the class: `Cause: use-after-free`, `Cause: stack tag-mismatch`.
    if let Some(c) = t.strip_prefix("Cause: ") {
        let kind = if c.starts_with("stack tag-mismatch") { Some("stack-buffer-overflow") } else { kind_of("", c) };
        if let Some(k) = kind {
            refine_tag_mismatch(b, k, false);
        }
        b.add_message(t, n);
        return true;
    }
    // HWASan's other notes: `[0x…,0x…) is a small unallocated heap chunk; size: 32 offset: 16`,
    // `Thread: T0 0x… stack: [0x…,0x…) sz: 8388608 tls: [0x…,0x…)`, `Previously allocated
    // frames:` with `record_addr:0x… record:0x… in f file:line` rows, the pointer to the docs.
    if t.contains(" is a small unallocated heap chunk")
        || t.contains(" is a small allocated heap chunk")
        || t.starts_with("Thread: T") && t.contains(" stack: [")
        || t == "Previously allocated frames:"
        || t.starts_with("record_addr:0x")
        || t.starts_with("See https://clang.llvm.org/docs/HardwareAssistedAddressSanitizerDesign")
        || t.contains("Sanitizer can not describe address in more detail")
    {
        b.add_message(t, n);
        return true;
    }
    if t.ends_with(" here:")
        || t.ends_with(" at:")
        || t.ends_with(" from:")
        || t.starts_with("Uninitialized value was created")
        || t.starts_with("Mutex ")
    {
        b.san.next_section = Some(section_name(t));
        b.san.thread = None;
        b.add_message(t, n);
        return true;
    }
    // Notes of the report that carry facts (`0x… is located 0 bytes after 32-byte region
    // […)`, `Address 0x… is located in stack of thread T0 at offset 48 in frame`, `This frame
    // has 1 object(s):`, `[32, 48) 'name' (line 53) <== Memory access …`, `Location is global
    // 'x' of size 4 at 0x…`, `HINT: …`, `ThreadSanitizer: reported 1 warnings`).
    if t.contains(" is located in stack of thread ") {
        refine_tag_mismatch(b, "stack-buffer-overflow", false);
        // The frame that owns the overflowed object follows.
        b.san.next_section = Some("frame holding the object".into());
        b.san.thread = None;
        b.add_message(t, n);
        return true;
    }
    if t.contains(" is located ") && (t.contains(" bytes to the right of ") || t.contains(" bytes to the left of ")) {
        refine_tag_mismatch(b, "heap-buffer-overflow", false);
    }
    if t.contains(" is located ")
        || t.starts_with("This frame has ")
        || (t.starts_with('[') && t.contains(") '"))
        || t.starts_with("Location is ")
        || t.starts_with("HINT: ")
        || t.starts_with("(longjmp and C++ exceptions")
        || t.starts_with("Thread T") && t.contains(" created by ")
        || t.ends_with("Sanitizer: reported 1 warnings")
        || t.contains("Sanitizer: reported ")
        || t.starts_with("Exiting")
        || t.contains("Sanitizer can not provide additional info")
        || t == "[failed to restore the stack]"
        // The unwinder found no frame at all (32-bit ARM without frame pointers, a wild pc).
        || t == "<empty stack>"
        || t.starts_with("Objects leaked above:")
        // TSan's lock-order-inversion: `Cycle in lock order graph: M118 (0x…) => M119 (0x…) => M118`,
        // `Hint: use TSAN_OPTIONS=second_deadlock_stack=1 …`.
        // The global's contents under a `global-buffer-overflow`: `'*.LC12' is ascii string 'LABEL'`.
        || t.starts_with('\'') && t.contains("' is ascii string '")
        || t.starts_with("Cycle in lock order graph: ")
        || t.starts_with("Hint: use TSAN_OPTIONS=")
        || t.starts_with("As well as ")
    {
        b.add_message(t, n);
        return true;
    }

    false
}

/// A debugger's own line after a report: gdb's stop (`Program received signal SIGABRT`,
/// `Thread 4 "t" received signal …`, `Program terminated with signal …`), lldb's (`Process 7
/// stopped`), or a command echoed at a prompt (`(gdb) bt`, `(lldb) bt all`).
pub(crate) fn debugger_takes_over(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with("(gdb) ")
        || t.starts_with("(lldb) ")
        || t.starts_with("Program received signal ")
        || t.starts_with("Program terminated with signal ")
        || (t.starts_with("Thread ") && t.contains(" received signal "))
        || (t.starts_with("Process ") && t.ends_with(" stopped"))
}

/// `==PID==` lines inside a report: `ABORTING`, `The signal is caused by a READ memory
/// access.`, `Hint: address points to the zero page.`, `Register values:`…
fn pid_line(b: &mut Builder, r: &str, n: u32) -> bool {
    if r.is_empty() {
        return true;
    }
    if r == "ABORTING" {
        b.san.active = false;
        return true;
    }
    if let Some(kind) = r.strip_prefix("The signal is caused by a ") {
        let _ = kind;
    }
    if r == "Register values:" {
        b.san.register_rows = true;
    }
    // The sanitizer's own internal check failed while reporting: the stack that follows is
    // the runtime's, not the program's access.
    if r.contains("Sanitizer CHECK failed: ") {
        b.san.next_section = Some("sanitizer CHECK".into());
        b.san.thread = None;
    }
    b.add_message(r, n);
    true
}

/// Starts the stop of one report.
fn open_report(b: &mut Builder, fmt: Format, tool: &str, what: &str, n: u32) {
    b.saw(fmt);
    // `SEGV on unknown address 0x000000000018 (pc 0x… bp … sp … T0)` is a signal.
    let mut reason = StopReason { kind: StopKind::RuntimeError, span: Span::line(n), ..Default::default() };
    let sig = ["SEGV", "BUS", "FPE", "ILL", "ABRT"].into_iter().find(|s| what.starts_with(&format!("{s} on ")));
    if let Some(s) = sig {
        let name = format!("SIG{s}");
        reason.kind = StopKind::Signal;
        reason.signo = crate::model::signals::signo(&name);
        reason.signal = Some(b.intern(&name));
        reason.description = Some(what.into());
    } else {
        reason.description = Some(what.trim().into());
    }
    if let Some(p) = what.find(" address ") {
        reason.address = what[p + 9..].split_whitespace().next().and_then(parse_hex).map(Address);
    }
    let si = b.new_stop(reason, None);
    b.trace.stops[si].checker = Some(CheckerReport {
        tool: tool.into(),
        kind: if sig.is_some() { None } else { kind_of(tool, what) },
        text: what.trim().into(),
        access: None,
        summary: None,
        at_system_call: false,
        span: Span::line(n),
    });
    b.trace.stops[si].span.extend_to(n);
    b.san = SanState { active: true, ..Default::default() };
    // A SEGV report names its thread at the end: `… sp 0x… T0)`, `… T3)` for a thread's.
    if sig.is_some() {
        let t = what
            .trim_end()
            .strip_suffix(')')
            .and_then(|r| r.rsplit(' ').next())
            .filter(|t| t.len() > 1 && t.starts_with('T') && t[1..].bytes().all(|c| c.is_ascii_digit()))
            .unwrap_or("T0");
        b.san.next_section = Some(t.into());
    }
}

/// The thread the next frame goes to: opened by the first frame after a heading.
fn stack_thread(b: &mut Builder) -> usize {
    if let Some(ti) = b.san.thread {
        return ti;
    }
    let si = b.ensure_stop();
    let first = !b.san.first_done;
    b.san.sections += 1;
    let id = match b.san.next_section.take() {
        Some(s) if first || !b.trace.stops[si].threads.iter().any(|t| *t.id == *s) => s,
        Some(s) => format!("{s} ({})", b.san.sections),
        None if first => "T0".to_string(),
        None => format!("stack {}", b.san.sections),
    };
    let ti = b.thread_by_id(&id);
    if first {
        b.trace.stops[si].threads[ti].crashed = true;
        // A UBSan location frame is replaced by the printed stack.
        b.trace.stops[si].threads[ti].frames.clear();
        b.san.first_done = true;
    }
    b.san.thread = Some(ti);
    ti
}

/// A heading turned into a thread id: `freed by thread T0 here:` -> `freed by thread T0`.
fn section_name(t: &str) -> String {
    let t = t.trim_end_matches(':');
    let t = t.strip_suffix(" here").or_else(|| t.strip_suffix(" at")).unwrap_or(t);
    let mut s: String = t.chars().take(80).collect();
    if let Some(p) = s.find(" (tid=") {
        s.truncate(p);
    }
    if let Some(p) = s.find(" of size ") {
        // `Previous write of size 4 at 0x… by thread T1` -> `Previous write by thread T1`
        let tail = s.find(" by ").map(|q| s[q..].to_string()).unwrap_or_default();
        s.truncate(p);
        s.push_str(&tail);
    }
    s
}

/// `READ of size 4 at 0x… thread T0` / `Read of size 4 at 0x… by thread T2:` /
/// `Previous write of size 4 at 0x… by main thread:`. Returns the access text and the thread.
fn access_line(t: &str) -> Option<(&str, Option<&str>)> {
    let lower_ok = [
        "READ of size ",
        "WRITE of size ",
        "Read of size ",
        "Write of size ",
        "Previous read of size ",
        "Previous write of size ",
        "Atomic read of size ",
        "Atomic write of size ",
        "Previous atomic read of size ",
        "Previous atomic write of size ",
    ];
    if !lower_ok.iter().any(|p| t.starts_with(p)) || !t.contains(" at 0x") {
        return None;
    }
    let thread = t
        .rsplit(' ')
        .next()
        .map(|w| w.trim_end_matches(':'))
        .filter(|w| w.starts_with('T') && w[1..].bytes().all(|c| c.is_ascii_digit()));
    Some((t, thread))
}

/// `0x0c067fff7fb0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00` or `=>0x…: fa fa[04]fa`.
fn shadow_row(b: &mut Builder, t: &str, n: u32) -> bool {
    let r = t.strip_prefix("=>").unwrap_or(t);
    let Some((addr, bytes)) = r.split_once(": ") else { return false };
    let Some(a) = parse_hex(addr) else { return false };
    let mut words = Vec::new();
    for w in bytes.split([' ', '[', ']']).filter(|w| !w.is_empty()) {
        match u8::from_str_radix(w, 16) {
            Ok(v) if w.len() == 2 => words.push(v as u64),
            _ => return false,
        }
    }
    let si = b.ensure_stop();
    b.trace.stops[si].memory.push(MemoryDump {
        expr: Some("shadow".into()),
        thread: None,
        frame: 0,
        address: Address(a),
        unit: 1,
        words,
        string: None,
        span: Span::line(n),
    });
    if t.starts_with("=>") {
        b.add_message(t, n);
    }
    b.trace.stops[si].span.extend_to(n);
    true
}

/// `file.c:12` / `file.c:12:5` as a frame without a function.
fn location_frame(b: &mut Builder, loc: &str, n: u32) -> Option<Frame> {
    let (file, line, col) = split_location(loc)?;
    Some(Frame {
        index: 0,
        file: Some(b.intern(file)),
        line: Some(line),
        column: col,
        span: Span::line(n),
        ..Default::default()
    })
}

/// `path:line[:col]` -> parts.
fn split_location(loc: &str) -> Option<(&str, u32, Option<u32>)> {
    let (a, last) = loc.rsplit_once(':')?;
    let last_n: u32 = last.parse().ok()?;
    if let Some((f, l)) = a.rsplit_once(':')
        && let Ok(line) = l.parse::<u32>()
        && !f.is_empty()
    {
        return Some((f, line, Some(last_n)));
    }
    if a.is_empty() {
        return None;
    }
    Some((a, last_n, None))
}

/// A sanitizer stack line (trimmed):
/// `#0 0x56072343b2c3 in sum_items src/san.c:12`, `#4 0x… in _start (build/san-asan+0x1190)`,
/// `#1 0x… (/lib/x86_64-linux-gnu/libc.so.6+0x2724a) (BuildId: …)`, TSan's
/// `#0 adder src/san.c:34 (san-tsan+0x1395)`.
fn stack_frame(b: &mut Builder, t: &str, n: u32) -> Option<Frame> {
    let r = t.strip_prefix('#')?;
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !r[digits..].starts_with(' ') {
        return None;
    }
    let index: u32 = r[..digits].parse().ok()?;
    let mut rest = r[digits..].trim_start();
    // `(BuildId: 134e…)` at the end.
    if let Some(p) = rest.rfind(" (BuildId: ") {
        rest = rest[..p].trim_end();
    }
    let mut pc = None;
    if rest.starts_with("0x") {
        let end = rest.find(' ').unwrap_or(rest.len());
        pc = parse_hex(&rest[..end]);
        pc?;
        rest = rest[end..].trim_start();
    }
    // `in f` after the pc, and also where the pc was lost (`#0   in operator delete(void*) (…)`).
    rest = rest.strip_prefix("in ").unwrap_or(rest);
    let mut f = Frame { index, pc: pc.map(Address), span: Span::line(n), ..Default::default() };
    // `(module+0xoff)` at the end.
    if rest.ends_with(')')
        && let Some(p) = rest.rfind(" (").map(|p| p + 1).or_else(|| rest.starts_with('(').then_some(0))
        && rest[p..].contains("+0x")
    {
        let inner = &rest[p + 1..rest.len() - 1];
        let module = inner.rsplit_once("+0x").map(|(m, _)| m).unwrap_or(inner);
        f.module = Some(b.intern(module));
        rest = rest[..p].trim_end();
    }
    // `file:line[:col]` as the last word.
    if let Some((head, last)) = rest.rsplit_once(' ')
        && let Some((file, line, col)) = split_location(last)
    {
        f.file = Some(b.intern(file));
        f.line = Some(line);
        f.column = col;
        rest = head.trim_end();
    } else if pc.is_none()
        && let Some((file, line, col)) = split_location(rest)
    {
        // TSan without a function name.
        f.file = Some(b.intern(file));
        f.line = Some(line);
        f.column = col;
        rest = "";
    }
    // TSan prints `<null>` where the file is unknown: `#0 pthread_mutex_lock <null> (libtsan…)`.
    if let Some(h) = rest.strip_suffix(" <null>") {
        rest = h.trim_end();
    }
    if !rest.is_empty() && rest != "<null>" && !rest.starts_with("<null> ") {
        f.function = Some(b.intern(rest));
    }
    if f.pc.is_none() && f.function.is_none() && f.file.is_none() && f.module.is_none() {
        return None;
    }
    Some(f)
}

/// Where UBSan says a check fired: `src/san.c:28:22`, `file.c:7`, `<unknown>`,
/// `(/path/prog+0x1234)`.
fn is_ubsan_location(loc: &str) -> bool {
    if loc == "<unknown>" || (loc.starts_with('(') && loc.ends_with(')') && loc.contains("+0x")) {
        return true;
    }
    let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let Some((rest, last)) = loc.rsplit_once(':') else { return false };
    let path = match rest.rsplit_once(':') {
        Some((p, line)) if num(line) => p,
        _ => rest,
    };
    num(last) && !path.trim().is_empty()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ubsan_lines_start_at_a_location() {
        assert!(super::is_ubsan_location("src/san.c:28:22"));
        assert!(super::is_ubsan_location("sdk/source/vst/hosting/../utility/uid.h:120:7"));
        assert!(super::is_ubsan_location("count.c:31"));
        assert!(super::is_ubsan_location("<unknown>"));
        assert!(super::is_ubsan_location("(/tmp/prog+0x1234)"));
        // A program's log line quoting a runtime error: no location.
        assert!(!super::is_ubsan_location("recovered in handler"));
        assert!(!super::is_ubsan_location("worker 3"));
        assert!(!super::is_ubsan_location(":12"));
    }

    use crate::model::*;

    #[test]
    fn asan_report_is_a_stop_with_stacks() {
        // Shape of the recorded tests/wild/san/asan-uaf.txt (gcc 12 libsanitizer), our values.
        let p = crate::input::parse(
            "=================================================================
==7==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000012 at pc 0x5555 bp 0x7ffe sp 0x7ffd
READ of size 1 at 0x602000000012 thread T0
    #0 0x55d0c3a0b4b0 in show_label src/ui.c:60
    #1 0x7f0c1a227249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58
    #2 0x55d0c3a0b190 in _start (/tmp/ui+0x1190) (BuildId: 0123abcd)

0x602000000012 is located 2 bytes inside of 8-byte region [0x602000000010,0x602000000018)
freed by thread T0 here:
    #0 0x7f0c1a4b9b6f in __interceptor_free ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:52
    #1 0x55d0c3a0b4a7 in drop_label src/ui.c:59

SUMMARY: AddressSanitizer: heap-use-after-free src/ui.c:60 in show_label
==7==ABORTING
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let s = &p.trace.stops[0];
        let c = s.checker.as_ref().expect("checker report");
        assert_eq!(c.kind, Some("use-after-free"));
        assert_eq!(c.access.as_deref(), Some("READ of size 1 at 0x602000000012 thread T0"));
        assert_eq!(s.reason.address, Some(Address(0x602000000012)));
        let t0 = s.threads.iter().find(|t| &*t.id == "T0").expect("T0");
        assert!(t0.crashed);
        assert_eq!(t0.frames[0].function.as_deref(), Some("show_label"));
        assert_eq!((t0.frames[0].file.as_deref(), t0.frames[0].line), (Some("src/ui.c"), Some(60)));
        assert_eq!(t0.frames[2].module.as_deref(), Some("/tmp/ui"));
        let freed = s.threads.iter().find(|t| &*t.id == "freed by thread T0").expect("free stack");
        assert_eq!(freed.frames[1].function.as_deref(), Some("drop_label"));
        assert_eq!(crate::analyze::culprit(s).map(|c| c.index), Some(0));
    }

    #[test]
    fn tsan_frames_without_pc_and_ubsan_lines() {
        let p = crate::input::parse(
            "WARNING: ThreadSanitizer: data race (pid=12)
  Write of size 4 at 0x55d0c3a0e010 by thread T2:
    #0 bump src/count.c:9 (count+0x1395)
  Previous read of size 4 at 0x55d0c3a0e010 by main thread:
    #0 main src/count.c:20:5 (count+0x1402)
src/count.c:31:14: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert_eq!(p.trace.stops[0].checker.as_ref().and_then(|c| c.kind), Some("data-race"));
        let t2 = &p.trace.stops[0].threads[0];
        assert_eq!((&*t2.id, t2.frames[0].function.as_deref(), t2.frames[0].line), ("T2", Some("bump"), Some(9)));
        assert_eq!(p.trace.stops[0].threads[1].frames[0].column, Some(5));
        assert_eq!(p.trace.stops[1].checker.as_ref().and_then(|c| c.kind), Some("undefined-behavior"));
        assert!(p.trace.formats.contains(&Format::Tsan) && p.trace.formats.contains(&Format::Ubsan));
    }
}
