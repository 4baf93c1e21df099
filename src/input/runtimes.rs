//! Crash reports of runtimes and debuggers whose own report is all a user pastes, read as a
//! handler's report (`Format::Handler`, one stop, thread `1` unless the report names one):
//!
//! HotSpot's fatal error report (the console header and the `hs_err_pid` file):
//!
//! ```text
//! #  SIGSEGV (0xb) at pc=0x00007f3a61c4e2d9, pid=40712, tid=0x00007f3a6d1f7700
//! # Problematic frame:
//! # C  [libprofagent.so+0x1e2d9]  SampleBuffer::flushCounters()+0x59
//! siginfo: si_signo: 11 (SIGSEGV), si_code: 1 (SEGV_MAPERR), si_addr: 0x0000000000000000
//! RAX=0x00007fb21d4f1c20, RBX=0x00007fb1f40219e0, RCX=0x0000000000000002, RDX=0x0000000000000010
//! Native frames: (J=compiled Java code, j=interpreted, Vv=VM code, C=native code)
//! ```
//!
//! WinDbg (`!analyze -v`, a dump's opening, `.ecxr`, `k`/`kb` tables), kd and x64dbg:
//!
//! ```text
//! (3a1c.41f0): Access violation - code c0000005 (first/second chance not available)
//!    ExceptionCode: c0000005 (Access violation)
//! rax=0000000000000000 rbx=0000021f4a3c1e80 rcx=0000021f4a3c1e80
//! 00007ff6`a41c2b57 488b4018        mov     rax,qword ptr [rax+18h] ds:00000000`00000018=????????????????
//! 000000a3`e19ff5c0 00007ff6`a41c31e4     : 0000021f`4a3c1e80 … : tilemgr!TileCache::Lookup+0x27
//! 00 0019f6c4 00c4213a     0b2c1e40 0ad3c108 00000001 scanner!DirNode::AppendChild+0x2d
//! ```
//!
//! Zig's segfault handler and panics (`Segmentation fault at address 0x…`, `thread N panic:
//! …`, `file:line:col: 0x… in name (module)` rows with their source line and caret), V8's
//! fatal error (`# Fatal error in …, line N`, `# Check failed: …`, `==== C stack trace ===`,
//! `----- Native stack trace -----`), GWP-ASan (LLVM's standalone report and tcmalloc's),
//! Swift's runtime backtracer (`*** Program crashed: Bad pointer dereference at 0x… ***`,
//! `Thread N crashed:`), Wasmtime's trap (`wasm trap: …`, `wasm backtrace:`) and .NET's fatal
//! `System.AccessViolationException` with its `   at Type.Method(args)` rows.

use super::Builder;
use super::handlers::{HandlerMode, start};
use super::lexemes::parse_hex;
use crate::model::*;

/// The first line of one of these reports. `t` is trimmed.
pub(crate) fn opening(b: &mut Builder, t: &str, n: u32) -> bool {
    // HotSpot: `# A fatal error has been detected by the Java Runtime Environment:` (the `#`
    // is lost when the header is pasted as a quote).
    let h = strip_hash(t);
    if h == "A fatal error has been detected by the Java Runtime Environment:" {
        if !(b.handlers.open && b.handlers.hotspot) {
            start(b, 0, "HotSpot's fatal error handler (hs_err)", n);
            b.handlers.hotspot = true;
            b.reclaim_decoration(n, "#");
        }
        b.add_message(h, n);
        b.handlers.mode = HandlerMode::HotSpot;
        return true;
    }
    // V8: `# Fatal error in ../deps/v8/src/execution.cc, line 103` (release builds print
    // `# Fatal error in , line 0`).
    if t.starts_with('#')
        && let Some(r) = h.strip_prefix("Fatal error in ")
        && r.contains(", line ")
    {
        start(b, 0, "V8's fatal error handler", n);
        b.reclaim_decoration(n, "#");
        b.add_message(h, n);
        b.handlers.mode = HandlerMode::V8;
        return true;
    }
    // WinDbg: the debugger's banner, a dump's stored exception, a live exception, a command.
    if t.starts_with("Microsoft (R) Windows Debugger Version ") {
        windbg_open(b, n);
        b.add_message(t, n);
        return true;
    }
    if let Some(code) = windbg_exception_line(t) {
        if !(b.handlers.open && b.handlers.windbg) {
            start(b, 0, "WinDbg", n);
            b.handlers.windbg = true;
        }
        set_nt_status(b, code);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::WinDbg;
        return true;
    }
    if windbg_prompt(t).is_some() {
        windbg_open(b, n);
        return windbg_line(b, t, n);
    }
    // `!analyze -v` pasted without its prompt: its distinctive keys open it.
    if t.starts_with("FILE_IN_CAB:")
        || t.starts_with("KEY_VALUES_STRING:")
        || t.starts_with("CONTEXT:") && (t.contains("(.cxr") || t.contains("(.ecxr)"))
        || t.starts_with("EXCEPTION_RECORD:") && t.contains("(.exr")
    {
        windbg_open(b, n);
        return windbg_line(b, t, n);
    }
    // x64dbg's exception log.
    if t == "EXCEPTION_DEBUG_INFO:" {
        start(b, 0, "x64dbg", n);
        b.handlers.windbg = true;
        b.handlers.mode = HandlerMode::WinDbg;
        return true;
    }
    // Zig's segfault handler, also glued behind a program's progress line.
    if let Some((signo, addr)) = zig_fault_line(t) {
        start(b, signo, "Zig's segfault handler", n);
        let si = b.ensure_stop();
        b.trace.stops[si].reason.address = addr.map(Address);
        b.handlers.mode = HandlerMode::Zig;
        return true;
    }
    // Zig's panic: `thread 3318042 panic: incorrect alignment`, also after the compiler's
    // progress (`Semantic Analysis [2418] fmtDuration... thread 27114 panic: …`).
    if let Some(p) = t.find("thread ")
        && let Some((num, msg)) = t[p + 7..].split_once(" panic: ")
        && !num.is_empty()
        && num.bytes().all(|c| c.is_ascii_digit())
    {
        start(b, 6, "Zig's panic handler", n);
        b.add_message(&t[p..], n);
        let _ = msg;
        b.handlers.mode = HandlerMode::Zig;
        return true;
    }
    // GWP-ASan: LLVM's `*** GWP-ASan detected a memory error ***`, tcmalloc's `… has detected a
    // memory error ***` behind its `TID file.cc:N] ` prefix.
    if let Some(m) = tcmalloc_log(t).or(Some(t))
        && m.starts_with("*** GWP-ASan")
        && m.ends_with("memory error ***")
    {
        start(b, 11, "GWP-ASan", n);
        b.add_message(m, n);
        b.handlers.mode = HandlerMode::GwpAsan;
        return true;
    }
    // Swift's backtracer: `*** Signal 11: Backtracing from 0x7f…... done ***`, then `***
    // Program crashed: Bad pointer dereference at 0x… ***`.
    if let Some(r) = t.strip_prefix("*** Signal ")
        && let Some((num, _)) = r.split_once(": Backtracing from ")
        && let Ok(signo) = num.parse::<i32>()
    {
        start(b, signo, "Swift's runtime backtracer", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Swift;
        return true;
    }
    // Wasmtime: `wasm trap: out of bounds memory access` (after an embedding's exception name).
    if let Some(p) = t.find("wasm trap: ") {
        start(b, 0, "Wasmtime's trap handler", n);
        let what = &t[p + "wasm trap: ".len()..];
        // The trap is the runtime's own bounds or type check on the module's code.
        let kind = if what.contains("out of bounds") || what.contains("undefined element") || what.contains("null") {
            Some("invalid-access")
        } else if what.starts_with("wasm `unreachable`") || what.contains("unreachable") {
            Some("undefined-behavior")
        } else {
            None
        };
        set_checker(b, "Wasmtime", kind, what, n);
        b.add_message(&t[p..], n);
        b.handlers.mode = HandlerMode::Wasm;
        return true;
    }
    // .NET: `Fatal error. System.AccessViolationException: Attempted to read or write …`.
    if let Some(r) = t.strip_prefix("Fatal error. ") {
        // An access violation and a stack overflow are faults; any other fatal error aborts.
        let fault = ["System.AccessViolationException", "System.StackOverflowException", "Stack overflow"];
        let signo = if fault.iter().any(|f| r.starts_with(f)) { 11 } else { 6 };
        start(b, signo, ".NET's fatal error handler", n);
        b.add_message(r, n);
        b.handlers.mode = HandlerMode::DotNet;
        return true;
    }
    super::crashdumps::opening(b, t, n)
}

/// One line inside a report `opening` started.
pub(crate) fn line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    match b.handlers.mode {
        HandlerMode::HotSpot => hotspot_line(b, t, n),
        HandlerMode::WinDbg => windbg_line(b, t, n),
        HandlerMode::Zig => zig_line(b, l, t, n),
        HandlerMode::V8 => v8_line(b, t, n),
        HandlerMode::GwpAsan => gwp_line(b, t, n),
        HandlerMode::Swift => swift_line(b, t, n),
        HandlerMode::Wasm => wasm_line(b, t, n),
        HandlerMode::DotNet => dotnet_line(b, t, n),
        _ => super::crashdumps::line(b, l, t, n),
    }
}

/// A thread a report names (`Thread 2 crashed:`, Breakpad's `Thread 0 (crashed)`): selected, and
/// marked crashed when the report says so. The report's first thread replaces the placeholder
/// `1` that `start` made when it holds nothing.
pub(crate) fn named_thread(b: &mut Builder, id: &str, crashed: bool) {
    let si = b.ensure_stop();
    let ti = match b.trace.stops[si].threads.iter().position(|th| &*th.id == id) {
        Some(i) => i,
        None => {
            let placeholder = b.trace.stops[si].threads.len() == 1
                && b.trace.stops[si].threads[0].frames.is_empty()
                && !b.handlers.named_threads;
            if placeholder {
                b.trace.stops[si].threads[0].id = id.into();
                0
            } else {
                b.trace.stops[si].threads.push(Thread { id: id.into(), ..Default::default() });
                b.trace.stops[si].threads.len() - 1
            }
        }
    };
    b.handlers.named_threads = true;
    for (i, th) in b.trace.stops[si].threads.iter_mut().enumerate() {
        if crashed {
            th.crashed = i == ti;
        } else if i == ti {
            th.crashed = false;
        }
    }
    b.thread = Some(ti);
    b.handlers.next_index = 0;
}

fn end(b: &mut Builder) -> bool {
    b.handlers.mode = HandlerMode::None;
    false
}

/// HotSpot's lines start with `# ` (or are a bare `#`).
fn strip_hash(t: &str) -> &str {
    match t.strip_prefix('#') {
        Some(r) if r.is_empty() || r.starts_with(' ') => r.trim(),
        _ => t,
    }
}

fn set_signal(b: &mut Builder, signo: i32) {
    let si = b.ensure_stop();
    let r = &mut b.trace.stops[si].reason;
    r.signo = Some(signo);
    r.signal = crate::model::signals::name(signo).map(Into::into);
}

fn frame(b: &mut Builder, f: Frame) {
    let ti = b.current_thread();
    b.put_frame(ti, f);
}

fn next_index(b: &mut Builder) -> u32 {
    let i = b.handlers.next_index;
    b.handlers.next_index += 1;
    i
}

fn clean_name(b: &mut Builder, raw: &str) -> Option<Sym> {
    let raw = raw.trim();
    if raw.is_empty() || raw == "??" || raw == "???" || raw == "<unknown>" {
        return None;
    }
    let d = crate::symbolize::demangle::demangle(raw);
    let name = crate::symbolize::demangle::strip_params(&d).to_string();
    let name = crate::input::rust::clean_symbol(&name);
    (!name.is_empty()).then(|| b.intern(&name))
}

/// `sym+0x59` → `sym`.
fn strip_offset(s: &str) -> &str {
    match s.rsplit_once('+') {
        Some((h, off)) if off.starts_with("0x") || off.bytes().all(|c| c.is_ascii_hexdigit()) => h,
        _ => s,
    }
}

// ---- HotSpot ------------------------------------------------------------------------------

fn hotspot_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let h = strip_hash(t);
    if h.is_empty() {
        return true;
    }
    // `SIGSEGV (0xb) at pc=0x…, pid=…, tid=…`, `EXCEPTION_ACCESS_VIOLATION (0xc0000005) at pc=…`.
    if let Some((what, rest)) = h.split_once(" at pc=") {
        let name = what.split_whitespace().next().unwrap_or("");
        let signo = crate::model::signals::signo(name).or(match name {
            "EXCEPTION_ACCESS_VIOLATION" | "EXCEPTION_STACK_OVERFLOW" => Some(11),
            "EXCEPTION_ILLEGAL_INSTRUCTION" => Some(4),
            "EXCEPTION_INT_DIVIDE_BY_ZERO" => Some(8),
            _ => None,
        });
        if let Some(s) = signo {
            set_signal(b, s);
        }
        b.handlers.named_pc = rest.split(',').next().and_then(parse_hex);
        b.add_message(h, n);
        return true;
    }
    const MESSAGES: &[&str] = &[
        "JRE version:",
        "Java VM:",
        "Failed to write core dump",
        "No core dump will be written",
        "Core dump will be written",
        "Core dumps may be processed",
        "An error report file with more information is saved as:",
        "If you would like to submit a bug report, please visit:",
        "The crash happened outside the Java Virtual Machine in native code.",
        "See problematic frame for where to report the bug.",
        "Problematic frame:",
        "Current thread (",
        "Top of Stack:",
        "Instructions: (pc=",
        "Register to memory mapping:",
        "Stack: [",
        "Native frames: (",
        "Java frames: (",
        "---------------  T H R E A D  ---------------",
        "---------------  P R O C E S S  ---------------",
        "---------------  S U M M A R Y ------------",
        "Registers:",
        "Host:",
        "Time:",
        "Command Line:",
    ];
    if let Some(m) = MESSAGES.iter().find(|m| h.starts_with(**m)) {
        // The native frame list restarts the frames: its first row is the problematic frame.
        if m.starts_with("Native frames:") {
            b.handlers.next_index = 0;
            let si = b.ensure_stop();
            let ti = b.current_thread();
            if let Some(th) = b.trace.stops[si].threads.get_mut(ti) {
                th.frames.clear();
            }
        }
        b.add_message(h, n);
        return true;
    }
    // The report file's path and the bug-report URL on their own lines.
    if (h.starts_with('/') || h.starts_with("http://") || h.starts_with("https://") || h.contains(":\\"))
        && !h.contains(' ')
    {
        b.add_message(h, n);
        return true;
    }
    // `siginfo: si_signo: 11 (SIGSEGV), si_code: 1 (SEGV_MAPERR), si_addr: 0x0000000000000000`
    if let Some(r) = h.strip_prefix("siginfo: ") {
        for part in r.split(", ") {
            if let Some(v) = part.strip_prefix("si_signo: ") {
                if let Some(s) = v.split_whitespace().next().and_then(|x| x.parse::<i32>().ok()) {
                    set_signal(b, s);
                }
            } else if let Some(v) = part.strip_prefix("si_code: ") {
                let code = v.split_whitespace().next().and_then(|x| x.parse::<i32>().ok());
                let si = b.ensure_stop();
                b.trace.stops[si].reason.si_code = code;
            } else if let Some(v) = part.strip_prefix("si_addr: ") {
                let si = b.ensure_stop();
                b.trace.stops[si].reason.address = parse_hex(v.trim()).map(Address);
            }
        }
        b.add_message(h, n);
        return true;
    }
    // Register rows: `RAX=0x…, RBX=0x…`, `R8 =0x…`, `EIP=0xa31c4e7a, EFLAGS=0x00010286, CR2=0x…`.
    let regs: Vec<(&str, &str)> = h.split(", ").filter_map(|p| p.split_once('=')).collect();
    if !regs.is_empty()
        && regs.len() == h.split(", ").count()
        && regs.iter().all(|(k, v)| {
            let k = k.trim();
            !k.is_empty() && k.len() <= 8 && k.bytes().all(|c| c.is_ascii_alphanumeric()) && v.starts_with("0x")
        })
    {
        for (k, v) in regs {
            let k = k.trim().to_ascii_lowercase();
            match k.as_str() {
                "rip" | "rsp" => b.trace.arch = Arch::X86_64,
                "eip" | "esp" if b.trace.arch != Arch::X86_64 => b.trace.arch = Arch::X86,
                _ => {}
            }
            b.put_register(&k, parse_hex(v), None, n);
        }
        return true;
    }
    // Top of Stack words: `0xb6c39a10:   00000000 b78a19c0 0000000c a31c4e60`.
    if let Some((a, rest)) = h.split_once(':')
        && parse_hex(a).is_some()
        && !rest.trim().is_empty()
        && rest.split_whitespace().all(|w| w.bytes().all(|c| c.is_ascii_hexdigit()))
    {
        b.add_message(h, n);
        return true;
    }
    if hotspot_frame(b, h, n) {
        return true;
    }
    end(b)
}

/// `C  [libfoo.so+0x4b27]  Java_x+0x187`, `C  [ld-linux-x86-64.so.2+0x10c41]`, `V  [libjvm.so+0x…]
/// JavaCalls::call_helper(…)+0x1056`, `v  ~BufferBlob::jni_fast_GetIntField`, `j
/// org.example.Port.poll(J)[[I+0`, `J 1234 C2 java.lang.String.hashCode()I (55 bytes) @ 0x…`.
fn hotspot_frame(b: &mut Builder, h: &str, n: u32) -> bool {
    let Some((kind, rest)) = h.split_once(' ') else { return false };
    if !matches!(kind, "C" | "V" | "v" | "j" | "J" | "A") {
        return false;
    }
    let rest = rest.trim();
    if rest.is_empty() {
        return false;
    }
    let (module, what) = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((m, w)) => (Some(m.rsplit_once('+').map_or(m, |(m, _)| m)), w.trim()),
        None => (None, rest),
    };
    let name = match kind {
        // `J 1234 C2 java.lang.String.hashCode()I (55 bytes) @ 0x…`: id, tier, then the method.
        "J" => what.split_whitespace().find(|w| w.contains('.') || w.contains('(')).unwrap_or(""),
        _ => what,
    };
    let name = match kind {
        "j" | "J" => name.split('(').next().unwrap_or(name),
        _ => strip_offset(name),
    };
    let index = next_index(b);
    let pc = if index == 0 { b.handlers.named_pc } else { None };
    let function = clean_name(b, name);
    let f = Frame {
        index,
        pc: pc.map(Address),
        function,
        module: module.filter(|m| !m.is_empty()).map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    };
    frame(b, f);
    true
}

// ---- WinDbg, kd, x64dbg -------------------------------------------------------------------

/// `(3a1c.41f0): Access violation - code c0000005 (first chance)`, `Access violation - code
/// c0000005 (!!! second chance !!!)`: the NT status code.
fn windbg_exception_line(t: &str) -> Option<u32> {
    let r = match t.strip_prefix('(') {
        Some(r) => r.split_once("): ")?.1,
        None => t,
    };
    let (_, code) = r.split_once(" - code ")?;
    let code = code.split_whitespace().next()?;
    if !(r.contains("(first chance)") || r.contains("second chance") || r.contains("(first/second chance")) {
        return None;
    }
    u32::from_str_radix(code, 16).ok()
}

/// `0:014> !analyze -v`, `0: kd> K`: the command.
fn windbg_prompt(t: &str) -> Option<&str> {
    let (head, cmd) = t.split_once("> ").or_else(|| t.strip_suffix('>').map(|h| (h, "")))?;
    let (proc_, rest) = head.split_once(':')?;
    if proc_.is_empty() || !proc_.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim();
    let ok = rest == "kd" || (!rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()));
    ok.then_some(cmd.trim())
}

/// A WinDbg session: one stop for everything it prints (registers may come before the
/// exception record).
fn windbg_open(b: &mut Builder, n: u32) {
    if !(b.handlers.open && b.handlers.windbg) {
        start(b, 0, "WinDbg", n);
        b.handlers.windbg = true;
    }
    b.handlers.mode = HandlerMode::WinDbg;
}

/// A debugger's hex word with or without `0x`, WinDbg's 64-bit values with their backtick
/// (`00007ff6`a41c2b57`).
fn hex_word(s: &str) -> Option<u64> {
    let s = s.trim();
    let s = s.strip_prefix("0x").unwrap_or(s);
    let d: String = s.chars().filter(|&c| c != '`').collect();
    if d.is_empty() || !d.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    super::lexemes::parse_hex_digits(&d)
}

/// An NT status code as a signal.
fn set_nt_status(b: &mut Builder, code: u32) {
    let signo = match code {
        0xc000_0005 | 0xc000_0006 | 0xc000_00fd => 11,
        0x8000_0003 | 0x8000_0004 => 5,
        0xc000_001d | 0xc000_0096 => 4,
        0xc000_0094 | 0xc000_008e | 0xc000_0090 | 0xc000_0091 | 0xc000_0093 => 8,
        0xc000_0409 | 0xc000_0374 | 0x4000_0015 => 6,
        _ => return,
    };
    set_signal(b, signo);
    // A break instruction the program executed (`int 3`, `__debugbreak`, a fail-fast): the
    // trap the kernel raised for it (SI_KERNEL), a crash, not a debugger's breakpoint.
    if code == 0x8000_0003 {
        let si = b.ensure_stop();
        b.trace.stops[si].reason.si_code = Some(0x80);
    }
    // A stack overflow is a fault on the stack's guard page; a fail-fast and heap
    // corruption are the runtime's own checks.
    let what = match code {
        0xc000_00fd => Some("Stack overflow (STATUS_STACK_OVERFLOW)"),
        0xc000_0374 => Some("heap corruption detected (STATUS_HEAP_CORRUPTION)"),
        0xc000_0409 => Some("stack buffer overrun or fail fast (STATUS_STACK_BUFFER_OVERRUN)"),
        _ => None,
    };
    if let Some(w) = what {
        let si = b.ensure_stop();
        let n = b.trace.stops[si].reason.span.first;
        b.add_message(w, n);
    }
}

fn windbg_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return true;
    }
    if let Some(cmd) = windbg_prompt(t) {
        b.handlers.windbg_table = false;
        // `.ecxr` switches to the exception's context: what was read before is the dump's
        // current thread parked in a wait.
        if cmd == ".ecxr" {
            let si = b.ensure_stop();
            b.trace.stops[si].disassembly.clear();
        }
        if matches!(cmd.split_whitespace().next(), Some(c) if c.eq_ignore_ascii_case("k") || c.starts_with('k') && c.len() <= 3)
        {
            b.handlers.next_index = 0;
            b.handlers.windbg_table = true;
        }
        return true;
    }
    if let Some(code) = windbg_exception_line(t) {
        if !b.handlers.windbg {
            start(b, 0, "WinDbg", n);
            b.handlers.windbg = true;
            b.handlers.mode = HandlerMode::WinDbg;
        }
        set_nt_status(b, code);
        b.add_message(t, n);
        return true;
    }
    // The `!analyze` banner and the rule that closes it.
    if t.starts_with('*') && t.ends_with('*') || t.len() >= 3 && t.bytes().all(|c| c == b'-') {
        return true;
    }
    // `ExceptionCode: c0000005 (Access violation)`, x64dbg's `ExceptionCode: C0000005 (EXCEPTION_…)`.
    if let Some(r) = t.strip_prefix("ExceptionCode: ") {
        if !b.handlers.open {
            start(b, 0, "WinDbg", n);
            b.handlers.windbg = true;
            b.handlers.mode = HandlerMode::WinDbg;
        }
        if let Some(code) = r.split_whitespace().next().and_then(|c| u32::from_str_radix(c, 16).ok()) {
            set_nt_status(b, code);
        }
        b.add_message(t, n);
        return true;
    }
    // `ExceptionAddress: 00007ff6a41c2b57 (tilemgr!TileCache::Lookup+0x…)`, x64dbg's `annotator.6E41B2C8`.
    if let Some(r) = t.strip_prefix("ExceptionAddress: ") {
        let a = r.split_whitespace().next().unwrap_or("");
        let a = a.rsplit_once('.').map_or(a, |(_, x)| x);
        b.handlers.named_pc = hex_word(a);
        b.add_message(t, n);
        return true;
    }
    // `Parameter[1]: 0000000000000018` (an access violation's address), x64dbg's
    // `ExceptionInformation[01]: 00000000 Inaccessible Address`.
    for key in ["Parameter[1]: ", "ExceptionInformation[01]: "] {
        if let Some(r) = t.strip_prefix(key) {
            let si = b.ensure_stop();
            if b.trace.stops[si].reason.signo == Some(11)
                && let Some(a) = r.split_whitespace().next().and_then(hex_word)
            {
                b.trace.stops[si].reason.address = Some(Address(a));
            }
            b.add_message(t, n);
            return true;
        }
    }
    // `Attempt to read from address 0000000000000018`, `READ_ADDRESS:  0000000000000018`.
    for key in ["Attempt to read from address ", "Attempt to write to address ", "READ_ADDRESS:", "WRITE_ADDRESS:"] {
        if let Some(r) = t.strip_prefix(key) {
            if let Some(a) = r.split_whitespace().next().and_then(hex_word) {
                let si = b.ensure_stop();
                b.trace.stops[si].reason.address = Some(Address(a));
                b.trace.stops[si].reason.si_code.get_or_insert(1);
            }
            b.add_message(t, n);
            return true;
        }
    }
    // Registers: `rax=0000000000000000 rbx=…`, ` r8=…`, `eip=00c41f7d esp=0019f6a0 ebp=… iopl=0 …`,
    // `cs=0023  ss=002b … efl=00010206`.
    let words: Vec<&str> = t.split_whitespace().collect();
    let pairs: Vec<(&str, &str)> = words.iter().filter_map(|w| w.split_once('=')).collect();
    if !pairs.is_empty()
        && pairs.iter().all(|(k, v)| {
            !k.is_empty()
                && k.len() <= 4
                && k.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                && !v.is_empty()
                && v.bytes().all(|c| c.is_ascii_hexdigit())
        })
        && words.iter().all(|w| w.contains('=') || w.len() == 2 && w.bytes().all(|c| c.is_ascii_lowercase()))
    {
        for (k, v) in pairs {
            match k {
                "rip" => b.trace.arch = Arch::X86_64,
                "eip" if b.trace.arch != Arch::X86_64 => b.trace.arch = Arch::X86,
                "iopl" => continue,
                _ => {}
            }
            b.put_register(k, u64::from_str_radix(v, 16).ok(), None, n);
        }
        return true;
    }
    // The symbol line before the instruction: `tilemgr!TileCache::Lookup+0x27:`.
    if t.ends_with(':') && t.contains('!') && !t.contains(' ') {
        return true;
    }
    // The instruction: `00007ff6`a41c2b57 488b4018        mov     rax,qword ptr [rax+18h] ds:…=????`.
    if let Some(insn) = windbg_instruction(t) {
        let (thread, frame_no) = b.selection();
        let si = b.ensure_stop();
        // A memory operand's effective address that could not be read (`ds:fffff960`0031a2f4=????`)
        // is the fault address when nothing else named it.
        if let Some(ea) = insn.unreadable
            && b.trace.stops[si].reason.address.is_none()
            && b.trace.stops[si].reason.signo == Some(11)
        {
            b.trace.stops[si].reason.address = Some(Address(ea));
        }
        b.trace.stops[si].disassembly.iter_mut().for_each(|d| d.current = false);
        b.trace.stops[si].disassembly.push(Instruction {
            address: Address(insn.address),
            thread,
            frame: frame_no,
            location: None,
            text: insn.text.into(),
            bytes: None,
            current: true,
            span: Span::line(n),
        });
        return true;
    }
    // The stack tables: `STACK_TEXT:` rows, `k`/`kb` rows and their headings.
    if t.starts_with("# Child-SP") || t.starts_with("# ChildEBP") || t.starts_with("Child-SP") {
        b.handlers.next_index = 0;
        b.handlers.windbg_table = true;
        return true;
    }
    if let Some(rest) = t.strip_prefix("STACK_TEXT:") {
        b.handlers.next_index = 0;
        b.handlers.windbg_table = true;
        return rest.trim().is_empty() || windbg_row(b, rest.trim(), n);
    }
    if b.handlers.windbg_table && windbg_row(b, t, n) {
        return true;
    }
    // `KEY_VALUES_STRING: 1`, `Key  : AV.Fault`, `Value: Read`, `SYMBOL_NAME:  …`, and the
    // dump's opening lines.
    let key = t.split(':').next().unwrap_or("");
    let caps_key = !key.is_empty()
        && key.len() < t.len()
        && key.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        && key.bytes().any(|c| c.is_ascii_uppercase());
    const OPENING: &[&str] = &[
        "Copyright (c) Microsoft Corporation.",
        "Loading Dump File [",
        "User Mini Dump File",
        "Kernel Bitmap Dump File",
        "Symbol search path is:",
        "Executable search path is:",
        "Windows ",
        "Product: ",
        "Edition build lab:",
        "Machine Name:",
        "Debug session time:",
        "System Uptime:",
        "Process Uptime:",
        "Loading unloaded module list",
        "This dump file has an exception of interest stored in it.",
        "The stored exception information can be accessed via .ecxr",
        "For analysis of this file, run !analyze -v",
        "First chance exceptions are reported before any exception handling.",
        "This exception may be expected and handled.",
        "*** WARNING: ",
        "Resetting default scope",
        "NatVis script ",
        "Key  : ",
        "Value: ",
        "ExceptionFlags: ",
        "NumberParameters: ",
        "Parameter[",
        "dwFirstChance: ",
        "ExceptionInformation[",
        "First chance exception on ",
        "Last chance exception on ",
    ];
    if caps_key || OPENING.iter().any(|o| t.starts_with(o)) || (!t.is_empty() && t.bytes().all(|c| c == b'.')) {
        if t.starts_with("Windows ") && t.contains(" Free x64") {
            b.trace.arch = Arch::X86_64;
        } else if t.starts_with("Windows ") && t.contains(" Free x86") && b.trace.arch != Arch::X86_64 {
            b.trace.arch = Arch::X86;
        }
        if (t.starts_with("First chance exception on ") || t.starts_with("Last chance exception on "))
            && let Some(code) =
                t.split_once(" (").and_then(|(_, r)| r.split(',').next()).and_then(|c| u32::from_str_radix(c, 16).ok())
        {
            set_nt_status(b, code);
        }
        if !caps_key || !key.ends_with("FLAG") && !key.ends_with("FLAGS") {
            b.add_message(t, n);
        }
        return true;
    }
    end(b)
}

struct WinInsn<'a> {
    address: u64,
    text: &'a str,
    unreadable: Option<u64>,
}

/// `00007ff6`a41c2b57 488b4018        mov     rax,qword ptr [rax+18h] ds:00000000`00000018=????`,
/// `776c2e4c c21400          ret     14h`, `fffff803`28dc5cab c3              ret`.
fn windbg_instruction(t: &str) -> Option<WinInsn<'_>> {
    let mut it = t.splitn(3, char::is_whitespace);
    let addr = it.next()?;
    let bytes = it.next()?;
    let rest = it.next()?.trim();
    if !(addr.len() == 8 || addr.len() == 17 && addr.as_bytes()[8] == b'`') {
        return None;
    }
    let address = u64::from_str_radix(&addr.replace('`', ""), 16).ok()?;
    if bytes.is_empty() || bytes.len() % 2 != 0 || !bytes.bytes().all(|c| c.is_ascii_hexdigit()) || rest.is_empty() {
        return None;
    }
    let mnemonic = rest.split_whitespace().next()?;
    if !mnemonic.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()) {
        return None;
    }
    let unreadable = rest.rsplit_once(' ').and_then(|(_, ea)| {
        let (seg, v) = ea.split_once(':')?;
        if !matches!(seg, "ds" | "ss" | "es" | "fs" | "gs" | "cs") {
            return None;
        }
        let (a, val) = v.split_once('=')?;
        let a = a.rsplit(':').next()?;
        val.starts_with('?').then(|| u64::from_str_radix(&a.replace('`', ""), 16).ok()).flatten()
    });
    Some(WinInsn { address, text: rest, unreadable })
}

/// A stack row: `STACK_TEXT`'s `sp retaddr : args : module!func+0xoff`, `k`'s `00 sp retaddr
/// module!func+0xoff` (`kb`: three argument words before the call site), `0x02000000`00200000`
/// for a call site without a symbol.
fn windbg_row(b: &mut Builder, t: &str, n: u32) -> bool {
    let (head, site) = match t.rsplit_once(" : ") {
        Some((h, s)) => (h.split(" : ").next().unwrap_or(h), s.trim()),
        None => {
            let mut w = t.split_whitespace();
            let num = w.next().unwrap_or("");
            if num.len() != 2 || !num.bytes().all(|c| c.is_ascii_hexdigit()) {
                return false;
            }
            let site = t.split_whitespace().last().unwrap_or("");
            (&t[..t.len() - site.len()], site)
        }
    };
    let hex_words: Vec<&str> = head.split_whitespace().collect();
    let is_addr = |w: &str| {
        let w = w.replace('`', "");
        !w.is_empty() && w.len() <= 16 && w.bytes().all(|c| c.is_ascii_hexdigit())
    };
    if hex_words.len() < 2 || !hex_words.iter().all(|w| is_addr(w)) || site.is_empty() {
        return false;
    }
    // The frame number column of `k` (two hex digits) comes first when present.
    let (sp, ret) = if hex_words[0].len() == 2 && hex_words.len() >= 3 {
        (hex_words[1], hex_words[2])
    } else {
        (hex_words[0], hex_words[1])
    };
    let _ = sp;
    let ret = u64::from_str_radix(&ret.replace('`', ""), 16).ok();
    let index = next_index(b);
    // Frame 0's pc is the exception's; a later frame's is the return address of the row above.
    let pc = if index == 0 { b.handlers.named_pc } else { b.handlers.last_ret };
    b.handlers.last_ret = ret;
    let (module, func, pc) = if let Some((m, f)) = site.split_once('!') {
        (Some(m), Some(strip_offset(f)), pc)
    } else if let Some(a) = site.strip_prefix("0x").and_then(hex_word) {
        (None, None, Some(a))
    } else {
        (Some(strip_offset(site)), None, pc)
    };
    let function = func.and_then(|f| clean_name(b, f));
    let f = Frame {
        index,
        pc: pc.map(Address),
        function,
        module: module.map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    };
    frame(b, f);
    true
}

// ---- Zig ----------------------------------------------------------------------------------

/// `Segmentation fault at address 0x1d2c4f0` (anywhere in the line: a progress line may come
/// first), `Illegal instruction at address 0x…`, `Bus error at address 0x…`, `General protection
/// exception (no address available)`.
fn zig_fault_line(t: &str) -> Option<(i32, Option<u64>)> {
    for (what, signo) in
        [("Segmentation fault at address ", 11), ("Illegal instruction at address ", 4), ("Bus error at address ", 7)]
    {
        // At the line's start, or after a progress line the program drew (`[1/1] `); not after a
        // program's own handler prefix (`crash handler: Segmentation fault at address 0x…` is
        // a `strsignal()` report, read as a message).
        if let Some(p) = t.find(what)
            && (p == 0 || t[..p].ends_with("] "))
        {
            let a = &t[p + what.len()..];
            if a.starts_with("0x") && !a.contains(' ') {
                return Some((signo, parse_hex(a)));
            }
        }
    }
    (t == "General protection exception (no address available)").then_some((11, None))
}

/// A Zig frame row's parts: file, line, column, pc, function, module.
type ZigFrame<'a> = (&'a str, Option<u32>, Option<u32>, u64, &'a str, &'a str);

/// `/path/file.zig:212:27: 0x10a61f3 in readList (lisp)`, `???:?:?: 0x41b2e6 in ??? (???)`.
fn zig_frame(t: &str) -> Option<ZigFrame<'_>> {
    let (loc, rest) = t.split_once(": 0x")?;
    let (pc, rest) = rest.split_once(" in ")?;
    let pc = u64::from_str_radix(pc, 16).ok()?;
    let (name, module) = rest.strip_suffix(')')?.rsplit_once(" (")?;
    let mut parts = loc.rsplitn(3, ':');
    let col = parts.next()?;
    let line = parts.next()?;
    let file = parts.next()?;
    Some((file, line.parse().ok(), col.parse().ok(), pc, name, module))
}

fn zig_line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    if let Some((file, line, col, pc, name, module)) = zig_frame(t) {
        let index = next_index(b);
        let function = clean_name(b, name);
        let f = Frame {
            index,
            pc: Some(Address(pc)),
            function,
            file: (file != "???").then(|| b.intern(file)),
            line,
            column: col,
            module: (module != "???").then(|| b.intern(module)),
            span: Span::line(n),
            ..Default::default()
        };
        frame(b, f);
        b.handlers.zig_source = file != "???";
        return true;
    }
    // The source line under a frame, then the caret under the column.
    if b.handlers.zig_source {
        b.handlers.zig_source = false;
        let _ = l;
        return true;
    }
    if !t.is_empty() && t.bytes().all(|c| c == b'^') {
        return true;
    }
    if b.handlers.zig_command {
        b.handlers.zig_command = false;
        b.add_message(t, n);
        return true;
    }
    // The compiler's context (`Analyzing file: decl`, ZIR instructions), the handler's notes, the
    // build runner's verdict (its next line is the command).
    if t.starts_with("Analyzing ")
        || t.starts_with('%') && t.contains(" = ")
        || t.starts_with("> %")
        || t.starts_with("Unable to dump stack trace")
        || t == "aborting due to recursive panic"
        || t == "Panicked during a panic. Aborting."
        || t.starts_with("error: the following test command crashed")
        || t.starts_with("error: the following command terminated unexpectedly")
    {
        b.handlers.zig_command = t.starts_with("error: the following");
        if t == "aborting due to recursive panic" || t == "Panicked during a panic. Aborting." {
            let si = b.ensure_stop();
            let _ = si;
        }
        b.add_message(t, n);
        return true;
    }
    end(b)
}

// ---- V8 ------------------------------------------------------------------------------------

fn v8_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let h = strip_hash(t);
    if h.is_empty() {
        return true;
    }
    if t.starts_with('#') {
        // `# Check failed: …`, `# CHECK(…) failed`, `# Debug check failed: …`,
        // `#FailureMessage Object: 0x…`.
        let h = h.trim_start_matches('#').trim();
        b.add_message(h, n);
        return true;
    }
    if h.starts_with("==== C stack trace ==") || h == "----- Native stack trace -----" {
        b.handlers.next_index = 0;
        return true;
    }
    // ` 1: ??`
    if let Some((num, rest)) = h.split_once(": ")
        && !num.is_empty()
        && num.bytes().all(|c| c.is_ascii_digit())
        && rest.trim() == "??"
    {
        let index = next_index(b);
        frame(b, Frame { index, span: Span::line(n), ..Default::default() });
        return true;
    }
    // ` 3: 0x5611c2f1a03d name [module]` (Node.js's rows).
    if let Some((num, rest)) = h.split_once(": ")
        && !num.is_empty()
        && num.bytes().all(|c| c.is_ascii_digit())
        && rest.trim_start().starts_with("0x")
    {
        let rest = rest.trim();
        let (pc, rest) = rest.split_once(' ').map_or((rest, ""), |(p, r)| (p, r.trim()));
        let (name, module) = match rest.rsplit_once(" [").or_else(|| rest.strip_prefix('[').map(|r| ("", r))) {
            Some((nm, m)) if m.ends_with(']') => (nm.trim(), Some(&m[..m.len() - 1])),
            _ => (rest, None),
        };
        let index = next_index(b);
        let function = clean_name(b, name);
        let f = Frame {
            index,
            pc: parse_hex(pc).map(Address),
            function,
            module: module.map(|m| b.intern(m)),
            span: Span::line(n),
            ..Default::default()
        };
        frame(b, f);
        return true;
    }
    // macOS-style rows: `2   node   0x00000001004f2abb v8::internal::Invoke(…) + 1499`.
    let mut w = h.split_whitespace();
    if let (Some(num), Some(module), Some(pc)) = (w.next(), w.next(), w.next())
        && num.bytes().all(|c| c.is_ascii_digit())
        && pc.starts_with("0x")
        && let Some(pcv) = parse_hex(pc)
    {
        let after = &h[h.find(pc).map_or(h.len(), |p| p + pc.len())..];
        let sym = after.trim().rsplit_once(" + ").map_or(after.trim(), |(s, _)| s);
        let index = next_index(b);
        let function = clean_name(b, sym);
        let f = Frame {
            index,
            pc: Some(Address(pcv)),
            function,
            module: Some(b.intern(module)),
            span: Span::line(n),
            ..Default::default()
        };
        frame(b, f);
        return true;
    }
    end(b)
}

// ---- GWP-ASan ---------------------------------------------------------------------------------

/// tcmalloc's log prefix: `2201837 /src/tcmalloc/tcmalloc/segv_handler.cc:168] text`.
fn tcmalloc_log(t: &str) -> Option<&str> {
    let (tid, rest) = t.split_once(' ')?;
    if tid.is_empty() || !tid.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (loc, text) = rest.split_once("] ")?;
    (loc.contains(".cc:") || loc.contains(".c:") || loc.contains(".h:")).then_some(text.trim())
}

fn gwp_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let m = tcmalloc_log(t).unwrap_or(t);
    if m == "*** End GWP-ASan report ***" {
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    // LLVM's: `Use After Free at 0x… (0 bytes into a 48-byte allocation at 0x…) by thread N here:`.
    for kind in ["Use After Free", "Double Free", "Buffer Overflow", "Buffer Underflow", "Invalid (Wild) Free"] {
        if let Some(r) = m.strip_prefix(kind).and_then(|r| r.strip_prefix(" at ")) {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.address = r.split_whitespace().next().and_then(parse_hex).map(Address);
            set_checker(b, "GWP-ASan", gwp_kind(kind), m, n);
            b.add_message(m, n);
            b.handlers.next_index = 0;
            return true;
        }
    }
    // tcmalloc's: `Buffer Access: Use after free`.
    if let Some(kind) = m.strip_prefix("Buffer Access: ") {
        set_checker(b, "GWP-ASan", gwp_kind(kind), m, n);
        b.add_message(m, n);
        return true;
    }
    // A deallocation or allocation stack heading: its rows are another stack.
    if m.ends_with(" here:") && (m.contains(" was deallocated by thread ") || m.contains(" was allocated by thread "))
        || m.starts_with("Error originates from memory allocated in thread ")
        || m.starts_with("The memory was freed in thread ")
    {
        b.handlers.gwp_side_stack = true;
        b.add_message(m, n);
        return true;
    }
    if m.starts_with(">>> Access at offset ")
        || m.starts_with("Error originates from a ")
        || m.starts_with("*** GWP-ASan")
    {
        b.add_message(m, n);
        return true;
    }
    // `  #0 ./ledger() [0x5c31af]`, `  #5 /lib/…/libc.so.6(fwrite+0xc1) [0x…]`, tcmalloc's `  @  0x4e7277`.
    let row = m.strip_prefix('#').and_then(|r| r.split_once(' ')).map(|(_, r)| r.trim());
    let at = m.strip_prefix("@ ").map(str::trim);
    if let Some(r) = row.or(at) {
        if b.handlers.gwp_side_stack {
            return true;
        }
        let (pc, module, function) = if let Some(a) = at {
            (parse_hex(a), None, None)
        } else if let Some((head, pc)) = r.rsplit_once(" [") {
            let pc = parse_hex(pc.trim_end_matches(']'));
            let (module, sym) = match head.strip_suffix(')').and_then(|h| h.rsplit_once('(')) {
                Some((m, s)) => (Some(m), Some(strip_offset(s)).filter(|s| !s.is_empty())),
                None => (Some(head), None),
            };
            (pc, module, sym)
        } else {
            return end(b);
        };
        let index = next_index(b);
        let function = function.and_then(|f| clean_name(b, f));
        let f = Frame {
            index,
            pc: pc.map(Address),
            function,
            module: module.map(|m| b.intern(m)),
            span: Span::line(n),
            ..Default::default()
        };
        frame(b, f);
        return true;
    }
    end(b)
}

/// GWP-ASan's error class as the rule that reports it.
fn gwp_kind(kind: &str) -> Option<&'static str> {
    let k = kind.to_ascii_lowercase();
    Some(if k.starts_with("use after free") {
        "use-after-free"
    } else if k.starts_with("double free") {
        "double-free"
    } else if k.starts_with("buffer overflow") || k.starts_with("buffer underflow") {
        "heap-buffer-overflow"
    } else if k.contains("free") {
        "invalid-access"
    } else {
        return None;
    })
}

fn set_checker(b: &mut Builder, tool: &str, kind: Option<&'static str>, text: &str, n: u32) {
    let si = b.ensure_stop();
    b.trace.stops[si].checker = Some(CheckerReport {
        tool: tool.into(),
        kind,
        text: text.into(),
        access: None,
        summary: None,
        at_system_call: false,
        span: Span::line(n),
    });
}

// ---- Swift's backtracer ----------------------------------------------------------------------

fn swift_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return true;
    }
    // `*** Program crashed: Bad pointer dereference at 0x0000000000000008 ***`
    if let Some(r) = t.strip_prefix("*** Program crashed: ").and_then(|r| r.strip_suffix(" ***")) {
        if let Some((_, a)) = r.rsplit_once(" at ")
            && let Some(a) = parse_hex(a)
        {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.address = Some(Address(a));
        }
        b.add_message(r, n);
        return true;
    }
    // `Thread 0 "indexer":`, `Thread 2 crashed:`, `Thread 3:`.
    if let Some(r) = t.strip_prefix("Thread ").and_then(|r| r.strip_suffix(':')) {
        let id = r.split_whitespace().next().unwrap_or("");
        if !id.is_empty() && id.bytes().all(|c| c.is_ascii_digit()) {
            named_thread(b, id, r.ends_with(" crashed"));
            b.handlers.next_index = 0;
            return true;
        }
    }
    // `0      0x00007f2c91d3a784 sym + 84 in libswiftCore.so`, `1 [ra] 0x… sym + 20 in lib`,
    // `0  0x00007f2c909fccce <unknown> in libc.so.6`.
    let mut w = t.split_whitespace();
    if let Some(num) = w.next()
        && num.bytes().all(|c| c.is_ascii_digit())
        && let Some(rest) =
            t[num.len()..].trim_start().strip_prefix("[ra]").map(str::trim_start).or(Some(t[num.len()..].trim_start()))
        && let Some((pc, rest)) = rest.split_once(' ')
        && let Some(pcv) = parse_hex(pc)
        && pc.starts_with("0x")
    {
        let (what, module) = rest.rsplit_once(" in ").map_or((rest, None), |(w, m)| (w, Some(m.trim())));
        let sym = what.trim().rsplit_once(" + ").map_or(what.trim(), |(s, _)| s);
        let index = num.parse().unwrap_or(0);
        let function = clean_name(b, sym);
        let f = Frame {
            index,
            pc: Some(Address(pcv)),
            function,
            module: module.map(|m| b.intern(m)),
            span: Span::line(n),
            ..Default::default()
        };
        let ti = b.current_thread();
        b.put_frame(ti, f);
        return true;
    }
    if t == "Registers:" || t == "Images:" || t.starts_with("Backtrace took ") {
        return true;
    }
    end(b)
}

// ---- Wasmtime --------------------------------------------------------------------------------

fn wasm_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t == "wasm backtrace:" {
        b.handlers.next_index = 0;
        return true;
    }
    if t.starts_with("note: run with `WASMTIME_BACKTRACE_DETAILS=1`") {
        b.add_message(t, n);
        return true;
    }
    // `    0: 0x1f3c4 - <unknown>!dlmalloc::…::free::h2a0c…`, `  1: 0x2b17a - module!func`.
    if let Some((num, rest)) = t.split_once(": ")
        && !num.is_empty()
        && num.bytes().all(|c| c.is_ascii_digit())
        && let Some((_off, site)) = rest.trim().split_once(" - ")
    {
        let (module, func) = site.split_once('!').map_or((None, site), |(m, f)| (Some(m), f));
        let index = next_index(b);
        let function = clean_name(b, func);
        let f = Frame {
            index,
            function,
            module: module.filter(|m| *m != "<unknown>").map(|m| b.intern(m)),
            span: Span::line(n),
            ..Default::default()
        };
        frame(b, f);
        return true;
    }
    // `  at /path/src/lib.rs:12:5` under a row (WASMTIME_BACKTRACE_DETAILS=1).
    if super::handlers::location_row(b, t) {
        return true;
    }
    end(b)
}

// ---- .NET ----------------------------------------------------------------------------------

fn dotnet_line(b: &mut Builder, t: &str, n: u32) -> bool {
    // `Repeat 2 times:` and the rules around the repeated block: the block is printed once.
    if t.starts_with("Repeat ") && t.ends_with(" times:") {
        b.handlers.dotnet_repeat = Some(false);
        b.add_message(t, n);
        return true;
    }
    if !t.is_empty() && t.bytes().all(|c| c == b'-') {
        if let Some(closed) = b.handlers.dotnet_repeat {
            b.handlers.dotnet_repeat = if closed { None } else { Some(true) };
        }
        return true;
    }
    // `   at Vision.Native.DetectorNative.ReleaseHandle(IntPtr)`
    if let Some(r) = t.strip_prefix("at ") {
        let name = r.split('(').next().unwrap_or(r).trim();
        if name.is_empty() || name.contains(' ') {
            return end(b);
        }
        let index = next_index(b);
        let function = Some(b.intern(name));
        frame(b, Frame { index, function, span: Span::line(n), ..Default::default() });
        return true;
    }
    end(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windbg_pieces() {
        assert_eq!(windbg_prompt("0:014> !analyze -v"), Some("!analyze -v"));
        assert_eq!(windbg_prompt("0: kd> K"), Some("K"));
        assert_eq!(windbg_prompt("(gdb) bt"), None);
        assert_eq!(
            windbg_exception_line("(4d10.3a2c): Access violation - code c0000005 (first chance)"),
            Some(0xc0000005)
        );
        assert_eq!(windbg_exception_line("Access violation - code c0000005 (!!! second chance !!!)"), Some(0xc0000005));
        assert_eq!(windbg_exception_line("Access violation - code c0000005"), None);
        let i = windbg_instruction(
            "00007ffc`2a41ebfb 0fb708          movzx   ecx,word ptr [rax] ds:fffff960`0031a2f4=????",
        )
        .expect("instruction");
        assert_eq!(i.address, 0x7ffc2a41ebfb);
        assert_eq!(i.unreadable, Some(0xfffff9600031a2f4));
        assert!(windbg_instruction("Resetting default scope").is_none());
    }

    #[test]
    fn zig_pieces() {
        assert_eq!(
            zig_fault_line("[2/3] Linking [1/1] Segmentation fault at address 0x1093fa000"),
            Some((11, Some(0x1093fa000)))
        );
        assert_eq!(zig_fault_line("Segmentation fault at address 0x3b8 and more"), None);
        let f = zig_frame("/home/k/src/reader.zig:212:27: 0x10a61f3 in readList (lisp)").expect("frame");
        assert_eq!(f, ("/home/k/src/reader.zig", Some(212), Some(27), 0x10a61f3, "readList", "lisp"));
        let f = zig_frame("???:?:?: 0x0 in ??? (???)").expect("frame");
        assert_eq!((f.3, f.4), (0, "???"));
    }
}
