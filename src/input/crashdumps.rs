//! Crash reports written by a tool or a runtime with no debugger involved, read as a handler's
//! report (`Format::Handler`, one stop):
//!
//! Breakpad's `minidump_stackwalk` (and rust-minidump's `minidump-stackwalk`):
//!
//! ```text
//! Crash reason:  SIGSEGV
//! Crash address: 0x194
//! Thread 0 (crashed)
//!  0  phantomjs + 0x464386
//!     eip = 0x084ac386   esp = 0xbfd96dc8   ebp = 0xbfd96dc8   ebx = 0x0a4f62bc
//!     Found by: given as instruction pointer in context
//!  2  XUL!nsThread::ProcessNextEvent(bool, bool*) [nsThread.cpp:hash : 1095 + 0x10c]
//! ```
//!
//! Ruby's `[BUG]` report (`file.rb:12: [BUG] Segmentation fault at 0x0000000000000000`, its
//! `-- Machine register context --` and `-- C level backtrace information --` sections), and
//! Cygwin's `.stackdump` (`Exception: STATUS_ACCESS_VIOLATION at rip=…`, register rows,
//! `Stack trace:` rows) with the console lines that announce it.

use super::Builder;
use super::handlers::{HandlerMode, start};
use super::lexemes::parse_hex;
use crate::model::*;

/// The first line of one of these reports. `t` is trimmed.
pub(crate) fn opening(b: &mut Builder, t: &str, n: u32) -> bool {
    // Breakpad: the crash reason opens the report. The header before it (`Operating system:
    // Linux`, `CPU: x86` and their indented details) is read while it lasts but opens nothing:
    // an issue template's `Operating system: Linux` is no crash.
    if t.starts_with("Crash reason:  ") && !(b.handlers.open && b.handlers.mode == HandlerMode::Breakpad) {
        let arch = b.handlers.breakpad_arch;
        start(b, 0, "Breakpad's minidump_stackwalk", n);
        b.handlers.mode = HandlerMode::Breakpad;
        if let Some(a) = arch {
            b.trace.arch = a;
        }
        return breakpad_line(b, t, n);
    }
    if t.starts_with("Operating system: ") && b.handlers.mode == HandlerMode::None {
        b.handlers.mode = HandlerMode::BreakpadHeader;
        b.handlers.breakpad_arch = None;
        return true;
    }
    // Ruby: `path.rb:12: [BUG] Segmentation fault at 0x0000000000000000`, `[BUG] …`.
    if let Some(p) = t.find("[BUG] ")
        && ruby_bug_opening(t, p)
    {
        let what = &t[p + "[BUG] ".len()..];
        let (signo, addr) = ruby_bug(what);
        start(b, signo, "Ruby's crash report (rb_bug)", n);
        if let Some(a) = addr {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.address = Some(Address(a));
        }
        b.add_message(&t[p..], n);
        b.handlers.mode = HandlerMode::Ruby;
        return true;
    }
    // Cygwin: the stackdump's first line.
    if let Some(r) = t.strip_prefix("Exception: STATUS_")
        && let Some((status, pc)) = r.split_once(" at ")
    {
        start(b, nt_status_signal(status), "Cygwin's exception handler (stackdump)", n);
        if let Some((reg, v)) = pc.split_once('=') {
            let v = u64::from_str_radix(v.trim(), 16).ok();
            b.handlers.named_pc = v;
            set_arch_by(b, reg);
            b.put_register(reg, v, None, n);
        }
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Cygwin;
        return true;
    }
    // Cygwin's console lines: `      1 [main] prog 6120 exception::handle: Exception: STATUS_…`.
    if let Some((_, what)) = cygwin_console(t) {
        if let Some(status) =
            what.split_once("Exception: STATUS_").map(|(_, s)| s.split_whitespace().next().unwrap_or(""))
        {
            if !(b.handlers.open && b.handlers.mode == HandlerMode::Cygwin) {
                start(b, nt_status_signal(status), "Cygwin's exception handler (stackdump)", n);
            }
            b.add_message(what, n);
            b.handlers.mode = HandlerMode::Cygwin;
            return true;
        }
        if b.handlers.open && what.contains("Dumping stack trace to ") {
            b.add_message(what, n);
            return true;
        }
    }
    super::toolreports::opening(b, t, n)
}

/// One line inside a report `opening` started.
pub(crate) fn line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    match b.handlers.mode {
        HandlerMode::BreakpadHeader => breakpad_header(b, l, t),
        HandlerMode::Breakpad => breakpad_line(b, t, n),
        HandlerMode::Ruby => ruby_line(b, l, t, n),
        HandlerMode::Cygwin => cygwin_line(b, t, n),
        _ => super::toolreports::line(b, l, t, n),
    }
}

fn end(b: &mut Builder) -> bool {
    b.handlers.mode = HandlerMode::None;
    false
}

fn set_signal(b: &mut Builder, signo: i32) {
    let si = b.ensure_stop();
    let r = &mut b.trace.stops[si].reason;
    r.signo = Some(signo);
    r.signal = crate::model::signals::name(signo).map(Into::into);
}

fn set_arch_by(b: &mut Builder, reg: &str) {
    match reg {
        "rip" | "rsp" => b.trace.arch = Arch::X86_64,
        "eip" | "esp" if b.trace.arch != Arch::X86_64 => b.trace.arch = Arch::X86,
        _ => {}
    }
}

fn name(b: &mut Builder, raw: &str) -> Option<Sym> {
    let raw = raw.trim();
    if raw.is_empty() || raw == "??" || raw == "???" {
        return None;
    }
    let d = crate::symbolize::demangle::demangle(raw);
    let s = crate::symbolize::demangle::strip_params(&d).to_string();
    (!s.is_empty()).then(|| b.intern(&s))
}

fn put(b: &mut Builder, f: Frame) {
    let ti = b.current_thread();
    b.put_frame(ti, f);
}

/// The signal an NT status code stands for (`ACCESS_VIOLATION` after `STATUS_`).
fn nt_status_signal(status: &str) -> i32 {
    match status.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
        "ILLEGAL_INSTRUCTION" | "PRIVILEGED_INSTRUCTION" => 4,
        "INTEGER_DIVIDE_BY_ZERO" | "FLOAT_DIVIDE_BY_ZERO" | "INTEGER_OVERFLOW" => 8,
        "BREAKPOINT" | "SINGLE_STEP" => 5,
        "DATATYPE_MISALIGNMENT" => 7,
        _ => 11,
    }
}

// ---- Breakpad ------------------------------------------------------------------------------

/// The signal behind a crash reason: `SIGSEGV /SEGV_MAPERR`, `EXC_BAD_ACCESS /
/// KERN_INVALID_ADDRESS`, `EXCEPTION_ACCESS_VIOLATION_READ`, `EXC_CRASH / SIGABRT`.
fn crash_reason_signal(r: &str) -> Option<(i32, Option<i32>)> {
    let mut parts = r.split('/').map(str::trim);
    let first = parts.next()?;
    let second = parts.next().unwrap_or("");
    if let Some(s) = crate::model::signals::signo(first) {
        let code = match second {
            "SEGV_MAPERR" | "BUS_ADRALN" | "ILL_ILLOPC" | "FPE_INTDIV" => Some(1),
            "SEGV_ACCERR" | "BUS_ADRERR" | "ILL_ILLOPN" | "FPE_INTOVF" => Some(2),
            _ => None,
        };
        return Some((s, code));
    }
    if let Some(s) = crate::model::signals::signo(second) {
        return Some((s, None));
    }
    Some((
        match first {
            f if f.starts_with("EXC_BAD_ACCESS") || f.starts_with("EXCEPTION_ACCESS_VIOLATION") => 11,
            f if f.starts_with("EXCEPTION_STACK_OVERFLOW") => 11,
            f if f.starts_with("EXC_BAD_INSTRUCTION") || f.starts_with("EXCEPTION_ILLEGAL_INSTRUCTION") => 4,
            f if f.starts_with("EXC_ARITHMETIC") || f.starts_with("EXCEPTION_INT_DIVIDE_BY_ZERO") => 8,
            f if f.starts_with("EXC_BREAKPOINT") || f.starts_with("EXCEPTION_BREAKPOINT") => 5,
            _ => return None,
        },
        None,
    ))
}

/// The header before Breakpad's crash reason: `CPU: x86`, `GPU: UNKNOWN`, and the indented
/// detail lines under each (`0.0.0 Linux 3.16.0-4-686-pae …`, `2 CPUs`).
fn breakpad_header(b: &mut Builder, l: &str, t: &str) -> bool {
    if t.is_empty() || l.starts_with(' ') {
        return true;
    }
    if let Some(cpu) = t.strip_prefix("CPU:") {
        b.handlers.breakpad_arch = match cpu.trim() {
            "x86" => Some(Arch::X86),
            "amd64" => Some(Arch::X86_64),
            "arm64" => Some(Arch::Aarch64),
            _ => None,
        };
        return true;
    }
    if t.starts_with("GPU:") {
        return true;
    }
    end(b)
}

fn breakpad_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return true;
    }
    if let Some(r) = t.strip_prefix("Crash reason:") {
        if let Some((signo, code)) = crash_reason_signal(r.trim()) {
            set_signal(b, signo);
            let si = b.ensure_stop();
            b.trace.stops[si].reason.si_code = code;
        }
        b.add_message(t, n);
        return true;
    }
    if let Some(r) = t.strip_prefix("Crash address:") {
        // Only a fault has one; a SIGABRT's `0x0` (or the sender's pid) is none.
        let si = b.ensure_stop();
        if matches!(b.trace.stops[si].reason.signo, Some(11 | 7 | 4 | 8)) {
            b.trace.stops[si].reason.address = parse_hex(r.trim()).map(Address);
        }
        b.add_message(t, n);
        return true;
    }
    // The header and its details, and the sections after the threads.
    const KEYS: &[&str] =
        &["Operating system:", "CPU:", "GPU:", "Process uptime:", "Assertion:", "Loaded modules:", "Found by:"];
    if KEYS.iter().any(|k| t.starts_with(k)) {
        if let Some(cpu) = t.strip_prefix("CPU:") {
            match cpu.trim() {
                "x86" => b.trace.arch = Arch::X86,
                "amd64" => b.trace.arch = Arch::X86_64,
                "arm64" => b.trace.arch = Arch::Aarch64,
                _ => {}
            }
        }
        if t.starts_with("Operating system:") || t.starts_with("Assertion:") {
            b.add_message(t, n);
        }
        b.handlers.last_frame = None;
        return true;
    }
    // `Thread 0 (crashed)`, `Thread 3`.
    if let Some(r) = t.strip_prefix("Thread ") {
        let id = r.split_whitespace().next().unwrap_or("");
        if !id.is_empty() && id.bytes().all(|c| c.is_ascii_digit()) && (r.len() == id.len() || r.contains('(')) {
            super::runtimes::named_thread(b, id, r.contains("(crashed)"));
            b.handlers.last_frame = None;
            return true;
        }
    }
    // Register rows: `eip = 0x084ac386   esp = 0xbfd96dc8`.
    let toks: Vec<&str> = t.split_whitespace().collect();
    if toks.len() >= 3 && toks.len().is_multiple_of(3) && toks.chunks(3).all(|c| c[1] == "=" && c[2].starts_with("0x"))
    {
        let frame_index = b.handlers.last_frame;
        for c in toks.chunks(3) {
            let v = parse_hex(c[2]);
            if matches!(c[0], "eip" | "rip" | "pc")
                && let (Some(v), Some(k)) = (v, frame_index)
            {
                set_frame_pc(b, k, v);
            }
            if frame_index == Some(0) {
                set_arch_by(b, c[0]);
                b.put_register(c[0], v, None, n);
            }
        }
        return true;
    }
    // Loaded modules: `0x08048000 - 0x08a4bfff  phantomjs  ???  (main)`.
    if toks.len() >= 4 && toks[0].starts_with("0x") && toks[1] == "-" && toks[2].starts_with("0x") {
        return true;
    }
    // The header's indented detail lines (`0.0.0 Linux 3.2.0-4-686-pae …`, `GenuineIntel
    // family 15 model 6 stepping 4`, `2 CPUs`) before the first thread.
    if !b.handlers.named_threads {
        return true;
    }
    // Frames: ` 0  module + 0x464386`, ` 2  module!func(args) [file : line + 0x10c]`,
    // ` 7  libsystem_pthread.dylib!_pthread_start + 0xdf`, ` 4  0x7f…`.
    if let Some((num, rest)) = t.split_once(char::is_whitespace)
        && let Ok(index) = num.parse::<u32>()
    {
        let rest = rest.trim();
        let (head, source) = match rest.rsplit_once(" [") {
            Some((h, s)) if s.ends_with(']') && s.contains(" : ") => (h, Some(&s[..s.len() - 1])),
            _ => (rest, None),
        };
        let mut f = Frame { index, span: Span::line(n), ..Default::default() };
        if let Some(a) = head.strip_prefix("0x").and_then(|_| parse_hex(head)) {
            f.pc = Some(Address(a));
        } else if let Some((module, func)) = head.split_once('!') {
            f.module = Some(b.intern(module));
            let func = match func.rsplit_once(" + 0x") {
                Some((h, _)) => h,
                None => func,
            };
            f.function = name(b, func);
        } else if let Some((module, off)) = head.split_once(" + 0x") {
            if module.contains(char::is_whitespace) || u64::from_str_radix(off, 16).is_err() {
                return end(b);
            }
            f.module = Some(b.intern(module));
        } else {
            return end(b);
        }
        // `nsThread.cpp:4c1e88d2a0f1 : 1151 + 0x10c`
        if let Some(s) = source
            && let Some((file, rest)) = s.split_once(" : ")
        {
            let file = file.split(':').next().unwrap_or(file);
            f.file = Some(b.intern(file));
            f.line = rest.split_whitespace().next().and_then(|x| x.parse().ok());
        }
        put(b, f);
        b.handlers.last_frame = Some(index);
        return true;
    }
    end(b)
}

fn set_frame_pc(b: &mut Builder, index: u32, pc: u64) {
    let si = b.ensure_stop();
    let ti = b.current_thread();
    if let Some(f) =
        b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.iter_mut().find(|f| f.index == index))
        && f.pc.is_none()
    {
        f.pc = Some(Address(pc));
    }
}

// ---- Ruby -----------------------------------------------------------------------------------

/// Ruby's `[BUG]` line: after the script's `path:line: ` (`-e:1: `, `app.rb:12: `), or at the
/// start of the line before a signal's name (`[BUG] Segmentation fault at 0x…`). An issue
/// title's `[BUG] something` is not one.
fn ruby_bug_opening(t: &str, p: usize) -> bool {
    let what = &t[p + "[BUG] ".len()..];
    if p == 0 {
        return ruby_bug(what).0 != 6;
    }
    let Some(head) = t[..p].strip_suffix(": ") else { return false };
    head.rsplit_once(':').is_some_and(|(file, line)| {
        !file.is_empty() && !file.contains(' ') && !line.is_empty() && line.bytes().all(|c| c.is_ascii_digit())
    })
}

/// `Segmentation fault at 0x0000000000000000` → (11, Some(0)); any other `[BUG]` is rb_bug's
/// abort.
fn ruby_bug(what: &str) -> (i32, Option<u64>) {
    let (head, addr) = match what.split_once(" at 0x") {
        Some((h, a)) => (h, u64::from_str_radix(a.trim(), 16).ok()),
        None => (what.trim(), None),
    };
    let signo = match head {
        h if h.starts_with("Segmentation fault") => 11,
        h if h.starts_with("Bus Error") || h.starts_with("Bus error") => 7,
        h if h.starts_with("Illegal instruction") => 4,
        h if h.starts_with("Floating point exception") => 8,
        _ => 6,
    };
    (signo, if matches!(signo, 11 | 7 | 4 | 8) { addr } else { None })
}

fn ruby_line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return true;
    }
    // Section headings: `-- C level backtrace information -------------------------------`.
    if let Some(r) = t.strip_prefix("-- ")
        && r.ends_with("--")
    {
        b.handlers.last_frame = None;
        b.handlers.ruby_c = r.starts_with("C level backtrace");
        b.handlers.ruby_regs = r.starts_with("Machine register context");
        return true;
    }
    // The version line: `ruby 3.2.2 (2023-03-30 revision e51014f9c0) [x86_64-linux]`.
    if let Some(r) = t.strip_prefix("ruby ")
        && t.ends_with(']')
    {
        if let Some((_, triple)) = r.rsplit_once('[') {
            let triple = triple.trim_end_matches(']');
            if triple.starts_with("x86_64") {
                b.trace.arch = Arch::X86_64;
            } else if triple.starts_with("arm64") || triple.starts_with("aarch64") {
                b.trace.arch = Arch::Aarch64;
            }
        }
        b.add_message(t, n);
        return true;
    }
    if b.handlers.ruby_regs {
        // ` RIP: 0x00007ff8cc87a857 RBP: 0x…`, ` rax: 0x… rbx: 0x…`, `  R8: 0x…`.
        let toks: Vec<&str> = t.split_whitespace().collect();
        if toks.len() >= 2
            && toks.len().is_multiple_of(2)
            && toks.chunks(2).all(|c| c[0].ends_with(':') && c[1].starts_with("0x"))
        {
            for c in toks.chunks(2) {
                let reg = c[0].trim_end_matches(':').to_ascii_lowercase();
                let reg = match reg.as_str() {
                    "efl" | "rfl" => "eflags".to_string(),
                    _ => reg,
                };
                set_arch_by(b, &reg);
                b.put_register(&reg, parse_hex(c[1]), None, n);
            }
            return true;
        }
    }
    if b.handlers.ruby_c
        && let Some(f) = ruby_c_row(b, t, n)
    {
        let tramp = b.handlers.last_frame.is_some_and(|_| {
            b.handlers.ruby_after_handler
                && (f.function.is_none()
                    || matches!(f.function.as_deref(), Some("__restore_rt" | "_sigtramp" | "__kernel_rt_sigreturn")))
        });
        let is_handler = matches!(f.function.as_deref(), Some("sigsegv" | "sigbus" | "sigill" | "sigfpe"));
        let index = f.index;
        put(b, f);
        if tramp {
            let si = b.ensure_stop();
            let ti = b.current_thread();
            if let Some(fr) = b.trace.stops[si].threads[ti].frames.iter_mut().find(|fr| fr.index == index) {
                fr.signal_handler = true;
            }
            b.handlers.ruby_after_handler = false;
        } else {
            b.handlers.ruby_after_handler = is_handler;
        }
        b.handlers.last_frame = Some(index);
        return true;
    }
    // Everything else of the report: control frames (`c:0004 p:---- s:0017 …`), Ruby-level
    // rows (`parse.rb:1:in `<main>'`), `* Loaded features:` and their indented rows, its
    // closing advice. A line at column 0 that is none of these ends it.
    let ruby_text = t.starts_with("c:0")
        || t.contains(":in `")
        || t.contains(":in '")
        || t.starts_with("* ")
        || t.starts_with("- ")
        || l.starts_with(' ')
        || t.starts_with("You may have encountered a bug in the Ruby interpreter")
        || t.starts_with("Bug reports are welcome.")
        || t.starts_with("For details: https://www.ruby-lang.org/bugreport")
        || t == "[IMPORTANT]"
        || t.starts_with("Don't forget to include the Crash Report log file")
        || t.starts_with("DiagnosticReports directory in bug reports.")
        || t.starts_with("[NOTE]");
    if ruby_text {
        return true;
    }
    end(b)
}

/// A C level backtrace row: `lib(func+0x4b) [0x7fa7dae2df9b] file.c:964`, `lib(func) file.c:1080`,
/// `/lib64/libpthread.so.0 [0x3ebf20f7e0]`, `[0x7a62ecda6390]`, `lib(0xa7868) [0x…]`, or macOS's
/// `4   libclntsh.dylib   0x0000000109be12a3 kpuhhfre + 3459`.
fn ruby_c_row(b: &mut Builder, t: &str, n: u32) -> Option<Frame> {
    let index = b.handlers.next_index;
    let mut f = Frame { index, span: Span::line(n), ..Default::default() };
    let mut w = t.split_whitespace();
    let first = w.next()?;
    if let Ok(depth) = first.parse::<u32>() {
        // macOS.
        let module = w.next()?;
        let pc = parse_hex(w.next()?)?;
        let sym = w.next();
        f.index = depth;
        f.pc = Some(Address(pc));
        f.module = Some(b.intern(module));
        f.function = sym.filter(|s| !s.starts_with("0x")).and_then(|s| name(b, s));
        b.handlers.next_index = depth + 1;
        return Some(f);
    }
    // Linux: the module and symbol, then `[0x…]`, then `file:line`.
    let (head, rest) = match t.find(" [0x").or_else(|| t.starts_with("[0x").then_some(0)) {
        Some(p) => (t[..p].trim(), &t[p..]),
        None => match t.find(") ") {
            Some(p) => (&t[..=p], &t[p + 1..]),
            None => (t, ""),
        },
    };
    let rest = rest.trim();
    let (pc, after) = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((pc, after)) => (Some(parse_hex(pc)?), after.trim()),
        None => (None, rest),
    };
    let (module, sym) = match head.strip_suffix(')').and_then(|h| h.rsplit_once('(')) {
        Some((m, s)) => (m, Some(s)),
        None => (head, None),
    };
    if module.contains(char::is_whitespace) || (module.is_empty() && pc.is_none()) {
        return None;
    }
    if sym.is_none() && pc.is_none() {
        return None;
    }
    f.pc = pc.map(Address);
    if !module.is_empty() {
        f.module = Some(b.intern(module));
    }
    if let Some(s) = sym {
        let s = s.rsplit_once('+').map_or(s, |(h, _)| h);
        if !s.is_empty() && !s.starts_with("0x") {
            f.function = name(b, s);
        }
    }
    // `file.c:964`, `(null):0`.
    if let Some((file, line)) = after.rsplit_once(':')
        && let Ok(line) = line.parse::<u32>()
        && !file.is_empty()
        && file != "(null)"
        && !file.contains(char::is_whitespace)
    {
        f.file = Some(b.intern(file));
        f.line = Some(line);
    } else if !after.is_empty() && after != "(null):0" {
        return None;
    }
    b.handlers.next_index = index + 1;
    Some(f)
}

// ---- Cygwin ---------------------------------------------------------------------------------

/// `      1 [main] prog 6120 exception::handle: …` → (`prog`, `exception::handle: …`).
fn cygwin_console(t: &str) -> Option<(&str, &str)> {
    let mut w = t.splitn(5, char::is_whitespace).filter(|s| !s.is_empty());
    let ticks = w.next()?;
    let thread = w.next()?;
    if !(ticks.bytes().all(|c| c.is_ascii_digit()) && thread.starts_with('[') && thread.ends_with(']')) {
        return None;
    }
    let r = t[t.find(thread)? + thread.len()..].trim_start();
    let (prog, r) = r.split_once(' ')?;
    let (pid, what) = r.trim_start().split_once(' ')?;
    pid.bytes().all(|c| c.is_ascii_digit()).then_some((prog, what.trim()))
}

fn cygwin_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return true;
    }
    if t == "Stack trace:" || t.starts_with("Frame ") && t.contains("Function") && t.contains("Args") {
        b.handlers.next_index = 0;
        return true;
    }
    if t.starts_with("End of stack trace") {
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    // Register rows (`r8 =…` with a space before its `=`), `program=…, pid N, thread main` at
    // the end of one on 32-bit, the segment registers.
    let norm = t.replace(" =", "=");
    let (regs, program) = match norm.find("program=") {
        Some(p) => (norm[..p].trim(), Some(&norm[p..])),
        None => (norm.trim(), None),
    };
    let pairs: Vec<(&str, &str)> = regs.split_whitespace().filter_map(|w| w.split_once('=')).collect();
    if (!pairs.is_empty() || program.is_some())
        && pairs.len() == regs.split_whitespace().count()
        && pairs.iter().all(|(k, v)| {
            k.len() <= 3 && k.bytes().all(|c| c.is_ascii_alphanumeric()) && v.bytes().all(|c| c.is_ascii_hexdigit())
        })
    {
        for (k, v) in pairs {
            let v = u64::from_str_radix(v, 16).ok();
            set_arch_by(b, k);
            b.put_register(k, v, None, n);
        }
        if let Some(p) = program {
            b.add_message(p, n);
        }
        return true;
    }
    // `000FFFFC4E0  0010040B7A2 (0003F89D37F, …)`: the frame, the pc, the first arguments.
    let mut w = t.split_whitespace();
    if let (Some(frame), Some(pc)) = (w.next(), w.next())
        && frame.bytes().all(|c| c.is_ascii_hexdigit())
        && let Ok(pc) = u64::from_str_radix(pc, 16)
    {
        let index = b.handlers.next_index;
        b.handlers.next_index += 1;
        let args = t.split_once('(').map(|(_, a)| a.trim_end_matches(')').into());
        put(b, Frame { index, pc: Some(Address(pc)), args, span: Span::line(n), ..Default::default() });
        return true;
    }
    end(b)
}
