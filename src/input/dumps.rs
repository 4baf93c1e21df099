//! Crash reports that programs and the system print without a debugger:
//!
//! LLVM's crash handler (`llvm::sys::PrintStackTrace`, in clang, opt, llc, lldb, Julia's and
//! Enzyme's LLVM, MLIR tools…):
//!
//! ```text
//! PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
//! Stack dump:
//! 0.<TAB>Program arguments: opt -passes=loop-vectorize -S reduced.ll
//!  #0 0x000055d7c3a41f28 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/opt/llvm/bin/opt+0x3241f28)
//!  #3 0x00007f3e21642520 (/lib/x86_64-linux-gnu/libc.so.6+0x42520)
//! #33 0x00007fcc3b645b f0 __libc_start_call_main ./csu/../sysdeps/nptl/libc_start_call_main.h:74:3
//! 0  lldb                     0x0000000100f24250 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) + 56
//! ```
//!
//! and `coredumpctl info` (systemd-coredump's journal entry):
//!
//! ```text
//!         Signal: 11 (SEGV)
//!     Executable: /usr/bin/thumbd
//!                 Stack trace of thread 41207:
//!                 #0  0x00007f8c1a2b5e3d __memmove_avx_unaligned_erms (libc.so.6 + 0x1a5e3d)
//!                 #1  0x000055e0b7c0a1f4 n/a (/usr/bin/thumbd + 0x41f4)
//! ```
//!
//! Each report is a stop; LLVM's frames go to thread `1`, each `Stack trace of thread N` to
//! thread `N` (the first one is the thread that took the signal). In an LLVM dump the frames of
//! the handler that printed it (`PrintStackTrace`, `RunSignalHandlers`, `SignalHandler`) come
//! first; the libc frame after them is the signal trampoline and is marked as such.

use super::Builder;
use super::lexemes::{file_line, open_paren_of_last_group, parse_hex};
use crate::model::*;

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) enum DumpMode {
    #[default]
    None,
    Llvm,
    Coredump,
    Tombstone,
}

#[derive(Clone, Default)]
pub(crate) struct DumpState {
    pub mode: DumpMode,
    /// Thread receiving frames.
    thread: Option<usize>,
    /// A `Stack trace of thread` section was seen (the first one is the crashed thread).
    coredump_threads: u32,
    /// LLVM: still inside the handler's own frames (the trampoline not seen yet).
    in_handler: bool,
    /// An `LLVM ERROR:` line was read (its bad-alloc handler's `Allocation failed` follows).
    after_fatal: bool,
}

/// `LLVM ERROR: …` and clang's `fatal error: error in backend: …`: LLVM's fatal errors, which
/// exit through the crash handler without a signal.
fn is_fatal_error(t: &str) -> bool {
    t.starts_with("LLVM ERROR: ") || t.starts_with("fatal error: error in backend: ")
}

pub(crate) struct DumpFrame<'a> {
    index: u32,
    pc: u64,
    function: Option<&'a str>,
    args: Option<&'a str>,
    module: Option<&'a str>,
    file: Option<(&'a str, u32, Option<u32>)>,
}

/// `#0  0x… name (module + 0xoff)`, ` #0 0x… name(args) (module+0xoff)`, `#3 0x… (module+0xoff)`,
/// `#2 0x… SignalHandler(int) Signals.cpp:0:0`, `#1  0x… n/a (module + 0xoff)`.
pub(crate) fn hash_frame(t: &str) -> Option<DumpFrame<'_>> {
    let r = t.trim_start().strip_prefix('#')?;
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 6 || !r[digits..].starts_with(' ') {
        return None;
    }
    let index: u32 = r[..digits].parse().ok()?;
    let r = r[digits..].trim_start();
    let (pc_s, rest) = r.split_once(' ').unwrap_or((r, ""));
    if !pc_s.starts_with("0x") {
        return None;
    }
    let pc = parse_hex(pc_s)?;
    let mut f = DumpFrame { index, pc, function: None, args: None, module: None, file: None };
    let mut rest = rest.trim();
    // `(module+0xoff)` / `(module + 0xoff)` at the end.
    if rest.ends_with(')')
        && let Some(open) = open_paren_of_last_group(rest)
    {
        let inner = &rest[open + 1..rest.len() - 1];
        if let Some((m, off)) = inner.rsplit_once('+')
            && off.trim().starts_with("0x")
            && !m.trim().is_empty()
            && !m.trim().contains(' ')
        {
            f.module = Some(m.trim());
            rest = rest[..open].trim_end();
        } else if open > 0
            && rest.as_bytes()[open - 1] == b' '
            && !inner.is_empty()
            && !inner.contains([' ', '+', ','])
            && (inner.contains(".so")
                || inner.contains('.')
                || inner.contains('/')
                || !rest[..open].trim().contains('('))
        {
            // systemd-coredump before 240: `#0  0x… n/a (libsystemd-shared-235.so)`, the
            // module without an offset.
            f.module = Some(inner);
            rest = rest[..open].trim_end();
        }
    }
    // ` file:line:col` at the end (llvm-symbolizer's form; `Signals.cpp:0:0` has no line).
    if f.module.is_none()
        && let Some((head, loc)) = rest.rsplit_once(' ')
        && let Some((file, line, col)) = file_line(loc)
    {
        if line > 0 {
            f.file = Some((file, line, col));
        }
        rest = head.trim_end();
    }
    if rest.is_empty() || rest == "n/a" {
        return Some(f);
    }
    set_function(&mut f, rest);
    Some(f)
}

fn set_function<'a>(f: &mut DumpFrame<'a>, text: &'a str) {
    let text = text.strip_suffix(" const").filter(|r| r.ends_with(')')).unwrap_or(text);
    if text.ends_with(')')
        && let Some(open) = open_paren_of_last_group(text)
        && open > 0
    {
        f.function = Some(&text[..open]);
        f.args = Some(&text[open + 1..text.len() - 1]);
    } else {
        f.function = Some(text);
    }
}

/// Unsymbolized or macOS LLVM rows: `0  lldb   0x0000000100f24250 llvm::sys::PrintStackTrace(…) + 56`,
/// `0  llc  0x000055d7c3a41f28`.
fn numbered_row(t: &str) -> Option<DumpFrame<'_>> {
    let mut w = t.split_whitespace();
    let index: u32 = w.next()?.parse().ok()?;
    let module = w.next()?;
    let pc_s = w.next()?;
    if !pc_s.starts_with("0x") || module.starts_with("0x") {
        return None;
    }
    let pc = parse_hex(pc_s)?;
    let mut f = DumpFrame { index, pc, function: None, args: None, module: Some(module), file: None };
    let after = t.find(pc_s).map(|p| t[p + pc_s.len()..].trim()).unwrap_or("");
    let after = match after.rsplit_once(" + ") {
        Some((name, off)) if off.bytes().all(|c| c.is_ascii_digit()) => name,
        _ => after,
    };
    if !after.is_empty() && !after.starts_with('(') {
        set_function(&mut f, after);
    }
    Some(f)
}

pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        return false;
    }
    if is_fatal_error(t) {
        b.saw(Format::Llvm);
        b.add_message(t, n);
        b.dumps.after_fatal = true;
        return true;
    }
    // LLVM's bad-alloc handler's second line (`LLVM ERROR: out of memory` / `Allocation failed`).
    if t == "Allocation failed" && b.dumps.after_fatal {
        b.add_message(t, n);
        return true;
    }
    // lldb's own crash: where it wrote its diagnostics, before LLVM's crash report.
    if t.starts_with("LLDB diagnostics will be written to ")
        || t == "Please include the directory content when filing a bug report"
    {
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("PLEASE submit a bug report to ") && t.contains("crash backtrace") {
        start_llvm(b, n);
        b.add_message(t, n);
        return true;
    }
    if t == "Stack dump:" || t.starts_with("Stack dump without symbol names") {
        if b.dumps.mode != DumpMode::Llvm {
            start_llvm(b, n);
        }
        return true;
    }
    if let Some(r) = t.strip_prefix("Stack trace of thread ")
        && let Some(id) = r.strip_suffix(':')
        && id.bytes().all(|c| c.is_ascii_digit())
    {
        coredump_thread(b, id, n);
        return true;
    }
    // bionic's line before debuggerd's report: `Fatal signal 11 (SIGSEGV), code 1 (SEGV_MAPERR),
    // fault addr 0x10 in tid 6201 (RenderThread), pid 6172 (example.viewer)`.
    if t.starts_with("Fatal signal ") && t.contains(" in tid ") {
        b.saw(Format::Tombstone);
        b.add_message(t, n);
        return true;
    }
    // A tombstone relayed without its `*** ***` header (an app's crash logger forwards from the
    // signal line on): `signal 11 (SIGSEGV), code 2 (SEGV_ACCERR), fault addr 0x…`.
    if b.dumps.mode == DumpMode::None
        && let Some(r) = t.strip_prefix("signal ")
        && r.split_once(" (SIG").is_some_and(|(num, _)| !num.is_empty() && num.bytes().all(|c| c.is_ascii_digit()))
        && r.contains(", fault addr ")
    {
        b.saw(Format::Tombstone);
        b.dumps = DumpState { mode: DumpMode::Tombstone, ..Default::default() };
        b.new_stop(StopReason { span: Span::line(n), ..Default::default() }, None);
        return tombstone_line(b, t, n);
    }
    if t.starts_with("*** *** *** *** *** *** *** ***") {
        b.saw(Format::Tombstone);
        b.dumps = DumpState { mode: DumpMode::Tombstone, ..Default::default() };
        b.new_stop(StopReason { span: Span::line(n), ..Default::default() }, None);
        return true;
    }
    match b.dumps.mode {
        DumpMode::Tombstone => tombstone_line(b, t, n),
        DumpMode::None => coredump_field(b, l, t, n),
        DumpMode::Llvm => llvm_line(b, t, n),
        DumpMode::Coredump => {
            if let Some(f) = hash_frame(t) {
                put(b, f, n);
                return true;
            }
            coredump_field(b, l, t, n)
        }
    }
}

fn start_llvm(b: &mut Builder, n: u32) {
    b.saw(Format::Llvm);
    // The assertion or `LLVM ERROR:` line printed just before belongs to this stop.
    let reason = StopReason {
        kind: StopKind::Signal,
        description: Some("LLVM crash handler (a fatal signal)".into()),
        span: Span::line(n),
        ..Default::default()
    };
    let i = b.new_stop(reason, Some("1"));
    // After `LLVM ERROR:` the handler runs from `exit`, not from a signal.
    let fatal = b.trace.stops[i].messages.iter().any(|m| is_fatal_error(&m.text));
    if fatal {
        let r = &mut b.trace.stops[i].reason;
        r.kind = StopKind::RuntimeError;
        r.description = Some("LLVM fatal error".into());
    }
    b.dumps = DumpState { mode: DumpMode::Llvm, in_handler: !fatal, ..Default::default() };
    b.dumps.thread = Some(b.current_thread());
}

/// A row of LLVM's stack dump on Windows: `0x…, PATH(0x…) + 0x… byte(s), FUNC() + 0x… byte(s)`
/// → (pc, the module's file name, the function as printed without `()`).
fn windows_row(t: &str) -> Option<(u64, &str, Option<&str>)> {
    let (pc, rest) = t.split_once(", ")?;
    let pc = parse_hex(pc).filter(|_| pc.starts_with("0x") && pc.len() >= 10)?;
    let (image, rest) = rest.split_once(" byte(s)")?;
    let (path, _) = image.rsplit_once("(0x")?;
    let module = path.rsplit(['\\', '/']).next().filter(|m| !m.is_empty())?;
    let function = rest
        .strip_prefix(", ")
        .and_then(|r| r.split_once(" + 0x"))
        .map(|(f, _)| f.trim().trim_end_matches("()"))
        .filter(|f| !f.is_empty() && !f.contains(", line "));
    Some((pc, module, function))
}

fn llvm_line(b: &mut Builder, t: &str, n: u32) -> bool {
    // `0.\tProgram arguments: …`, `1.\tRunning pass "…" on module "…"`: what LLVM was doing.
    if let Some((k, rest)) = t.split_once('.')
        && !k.is_empty()
        && k.bytes().all(|c| c.is_ascii_digit())
        && rest.starts_with(['\t', ' '])
    {
        b.add_message(t, n);
        return true;
    }
    if let Some(f) = hash_frame(t).or_else(|| numbered_row(t)) {
        put(b, f, n);
        return true;
    }
    // On Windows: `Exception Code: 0xC000001D`, then rows `0x0000000004A9BF56,
    // C:\…\libLLVM-15jl.dll(0x0000000004A80000) + 0x1BF56 byte(s), HandleAbort() + 0x6 byte(s)`
    // (a source location may follow: `, C:\src\x.cpp, line 42 + 0x5 byte(s)`).
    if let Some(code) = t.strip_prefix("Exception Code: 0x") {
        if let Ok(c) = u32::from_str_radix(code.trim(), 16) {
            let si = b.ensure_stop();
            let r = &mut b.trace.stops[si].reason;
            if r.description.is_none() {
                r.description = Some(format!("Windows exception 0x{c:08X}").into());
            }
        }
        b.add_message(t, n);
        return true;
    }
    if let Some((pc, module, function)) = windows_row(t) {
        let si = b.ensure_stop();
        let ti = match b.dumps.thread {
            Some(t) if t < b.trace.stops[si].threads.len() => t,
            _ => b.current_thread(),
        };
        let index = b.trace.stops[si].threads.get(ti).map_or(0, |th| th.frames.len() as u32);
        let name = function.map(|f| {
            let d = crate::symbolize::demangle::demangle(f);
            crate::symbolize::demangle::strip_params(&d).to_string()
        });
        put(b, DumpFrame { index, pc, function: name.as_deref(), args: None, module: Some(module), file: None }, n);
        return true;
    }
    // LLVM built without its own symbolizer prints glibc's `backtrace_symbols` rows:
    // `/lib/…/libclang-cpp.so.14(_ZN5clang…+0x4c)[0x7f…]`, `…/libLLVM-14.so.1(+0xe9c36b)[0x7f…]`,
    // `clang++[0x41328b]`; a parallel make may glue another job's `[ 81%] ` in front.
    if let Some((pc, function, module)) = super::handlers::backtrace_symbols_row(strip_make_progress(t)) {
        let name = function.map(|f| {
            let d = crate::symbolize::demangle::demangle(f);
            crate::symbolize::demangle::strip_params(&d).to_string()
        });
        let si = b.ensure_stop();
        let ti = match b.dumps.thread {
            Some(t) if t < b.trace.stops[si].threads.len() => t,
            _ => b.current_thread(),
        };
        let index = b.trace.stops[si].threads.get(ti).map_or(0, |th| th.frames.len() as u32);
        put(b, DumpFrame { index, pc, function: name.as_deref(), args: None, module, file: None }, n);
        return true;
    }
    // The driver's `Target: aarch64-unknown-linux-gnu` names the architecture.
    if let Some(triple) = t.strip_prefix("Target: ") {
        super::lldb::set_arch(b, triple.split('-').next().unwrap_or(""));
        b.add_message(t, n);
        return true;
    }
    // Which signal it was: the compiler driver's verdict (`clang: error: clang frontend command
    // failed with exit code 132`, 128 + the signal) or the shell's (`Segmentation fault (core
    // dumped)`).
    // zsh: `zsh: segmentation fault  lldb ./app`.
    // The driver's own: `clang: error: unable to execute command: Segmentation fault (core dumped)`.
    let t_sh = t
        .strip_prefix("zsh: ")
        .map(|r| r.split("  ").next().unwrap_or(r))
        .or_else(|| t.split_once(": error: unable to execute command: ").map(|(_, r)| r))
        .or_else(|| super::shell::script_job_report(t))
        .unwrap_or(t);
    let shell = match t_sh.strip_suffix(" (core dumped)").unwrap_or(t_sh) {
        "segmentation fault" => Some(11),
        "abort" => Some(6),
        "illegal hardware instruction" => Some(4),
        "bus error" => Some(7),
        "Segmentation fault" => Some(11),
        "Aborted" => Some(6),
        "Illegal instruction" => Some(4),
        "Bus error" => Some(7),
        "Floating point exception" => Some(8),
        "Trace/breakpoint trap" => Some(5),
        // macOS's shells add the signal number.
        "Segmentation fault: 11" => Some(11),
        "Abort trap: 6" => Some(6),
        "Illegal instruction: 4" => Some(4),
        // BSD numbering: SIGBUS is 10 on macOS (SIGUSR1 on Linux).
        "Bus error: 10" => Some(7),
        "Floating point exception: 8" => Some(8),
        "Trace/BPT trap: 5" => Some(5),
        _ => None,
    };
    let driver = t
        .split_once(": error: ")
        .and_then(|(_, r)| r.split_once(" command failed with exit code "))
        .and_then(|(_, c)| c.split_whitespace().next()?.parse::<i32>().ok())
        .filter(|c| (129..=159).contains(c))
        .map(|c| c - 128);
    if let Some(signo) = shell.or(driver) {
        let si = b.ensure_stop();
        let r = &mut b.trace.stops[si].reason;
        if r.signo.is_none() {
            r.signo = Some(signo);
            r.signal = crate::model::signals::name(signo).map(|x| x.into());
        }
        b.add_message(t, n);
        return true;
    }
    // The rest of the driver's report: version, target, where the reproducer was written.
    if t.contains(": note: diagnostic msg:")
        || t.contains(": error: ") && t.contains(" command failed")
        || t.bytes().all(|c| c == b'*')
        || t.starts_with("PLEASE ATTACH THE FOLLOWING FILES")
        || t.starts_with("Preprocessed source(s) and associated run script(s)")
        || t.starts_with("Target: ")
        || t.starts_with("Thread model: ")
        || t.starts_with("InstalledDir: ")
        || t.contains(" version ") && t.split_whitespace().count() <= 8 && !t.contains(": ")
    {
        b.add_message(t, n);
        return true;
    }
    false
}

/// A line without make's progress prefix (`[ 81%] `, `[100%] `).
fn strip_make_progress(t: &str) -> &str {
    let Some(r) = t.strip_prefix('[') else { return t };
    let Some((pct, rest)) = r.split_once("%] ") else { return t };
    if pct.len() == 3 && pct.trim_start().bytes().all(|c| c.is_ascii_digit()) && !pct.trim_start().is_empty() {
        rest
    } else {
        t
    }
}

fn put(b: &mut Builder, f: DumpFrame<'_>, n: u32) {
    let si = b.ensure_stop();
    let ti = match b.dumps.thread {
        Some(t) if t < b.trace.stops[si].threads.len() => t,
        _ => b.current_thread(),
    };
    // A mangled name (systemd-coredump and glibc print them as the symbol table has them).
    let demangled = f.function.filter(|s| s.starts_with("_Z") || s.starts_with("_R")).map(|s| {
        let d = crate::symbolize::demangle::demangle(s);
        crate::symbolize::demangle::strip_params(&d).to_string()
    });
    let mut frame = Frame {
        index: f.index,
        pc: Some(Address(f.pc)),
        function: demangled.as_deref().or(f.function).map(|s| b.intern(s)),
        args: f.args.map(Box::from),
        module: f.module.map(|s| b.intern(s)),
        span: Span::line(n),
        ..Default::default()
    };
    if let Some((file, line, col)) = f.file {
        frame.file = Some(b.intern(file));
        frame.line = Some(line);
        frame.column = col;
    }
    if b.dumps.mode == DumpMode::Llvm && b.dumps.in_handler {
        let name = f.function.unwrap_or("");
        if crate::roles::is_llvm_handler(name) {
            // Still printing.
        } else if f.index > 0 && is_trampoline(&f) {
            frame.signal_handler = true;
            b.dumps.in_handler = false;
        } else if f.function.is_some() || f.index > 6 {
            // No trampoline in sight: the handler frames were not printed.
            b.dumps.in_handler = false;
        }
    }
    b.put_frame(ti, frame);
}

/// The frame a signal returns through: libc's `__restore_rt` (printed as a bare libc offset by
/// LLVM), macOS's `_sigtramp`, the vDSO's sigreturn (AArch64, i386).
fn is_trampoline(f: &DumpFrame<'_>) -> bool {
    if matches!(f.function, Some("__restore_rt" | "_sigtramp" | "__kernel_rt_sigreturn")) {
        return true;
    }
    let m = f.module.unwrap_or("");
    let base = m.rsplit('/').next().unwrap_or(m);
    // On AArch64 Linux the kernel's sigreturn trampoline is in the vDSO (`__kernel_rt_sigreturn`,
    // printed as `(linux-vdso.so.1+0x7b0)` without a symbol).
    f.function.is_none()
        && (base.starts_with("libc.so")
            || base.starts_with("libsystem_platform")
            || base.starts_with("linux-vdso")
            || base.starts_with("linux-gate"))
}

fn coredump_thread(b: &mut Builder, id: &str, n: u32) {
    if b.dumps.mode != DumpMode::Coredump {
        b.saw(Format::Coredump);
        b.dumps.mode = DumpMode::Coredump;
    }
    let first = b.dumps.coredump_threads == 0;
    b.dumps.coredump_threads += 1;
    let ti = b.thread_by_id(id);
    let si = b.ensure_stop();
    let th = &mut b.trace.stops[si].threads[ti];
    th.span.extend_to(n);
    if first {
        th.crashed = true;
    }
    b.dumps.thread = Some(ti);
    b.trace.stops[si].span.extend_to(n);
}

/// `coredumpctl info`'s `Key: value` rows (keys right-aligned), the message's module lines.
fn coredump_field(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    const KEYS: &[&str] = &[
        "PID",
        "UID",
        "GID",
        "Signal",
        "Timestamp",
        "Command Line",
        "Executable",
        "Control Group",
        "Unit",
        "User Unit",
        "Slice",
        "Session",
        "Owner UID",
        "Boot ID",
        "Machine ID",
        "Hostname",
        "Storage",
        "Size on Disk",
        "Disk Size",
        "Package",
        "Message",
    ];
    // Other keys of newer or older systemd versions (`build-id`, `Disk Size`…) inside a report.
    let other_key = |k: &str| {
        b.dumps.mode == DumpMode::Coredump
            && l.starts_with(' ')
            && !k.is_empty()
            && k.len() <= 20
            && k.bytes().all(|c| c.is_ascii_alphabetic() || c == b' ' || c == b'-')
    };
    if let Some((k, v)) = t.split_once(": ").or_else(|| t.strip_suffix(':').map(|k| (k, "")))
        && (KEYS.contains(&k) || other_key(k))
        && (l.starts_with(' ') || b.dumps.mode == DumpMode::Coredump || k == "PID")
    {
        if b.dumps.mode != DumpMode::Coredump {
            b.saw(Format::Coredump);
            b.dumps = DumpState { mode: DumpMode::Coredump, ..Default::default() };
            b.new_stop(StopReason { span: Span::line(n), ..Default::default() }, None);
        }
        let si = b.ensure_stop();
        match k {
            "Signal" => {
                // `11 (SEGV)`
                let signo = v.split_whitespace().next().and_then(|x| x.parse::<i32>().ok());
                let r = &mut b.trace.stops[si].reason;
                if let Some(s) = signo {
                    r.kind = StopKind::Signal;
                    r.signo = Some(s);
                    r.signal = crate::model::signals::name(s).map(|x| x.into());
                    r.description = Some(v.into());
                    r.span.extend_to(n);
                }
            }
            "Executable" if b.trace.program.is_none() && !v.is_empty() => {
                b.trace.program = Some(v.into());
            }
            "Message" => b.add_message(v, n),
            _ => {}
        }
        b.trace.stops[si].span.extend_to(n);
        return true;
    }
    // The journal's form: `systemd-coredump[41212]: [🡕] Process 41207 (thumbd) of user 1000
    // dumped core.`, the same report without the `coredumpctl info` header.
    let t_msg = t.strip_prefix("[🡕] ").unwrap_or(t);
    if t_msg.starts_with("Process ") && t_msg.ends_with(" dumped core.") {
        if b.dumps.mode != DumpMode::Coredump {
            b.saw(Format::Coredump);
            b.dumps = DumpState { mode: DumpMode::Coredump, ..Default::default() };
            let reason = StopReason { kind: StopKind::Signal, span: Span::line(n), ..Default::default() };
            b.new_stop(reason, None);
        }
        b.add_message(t_msg, n);
        return true;
    }
    if b.dumps.mode != DumpMode::Coredump {
        return false;
    }
    if t.starts_with("Module ")
        || t.starts_with("Found module ")
        || t.starts_with("Metadata for module ")
        || t.starts_with("ELF object binary architecture: ")
    {
        if let Some(a) = t.strip_prefix("ELF object binary architecture: ") {
            let arch = match a {
                "AMD x86-64" => Arch::X86_64,
                "AARCH64" => Arch::Aarch64,
                "Intel 80386" => Arch::X86,
                _ => Arch::Unknown,
            };
            if b.trace.arch == Arch::Unknown {
                b.trace.arch = arch;
            }
        }
        return true;
    }
    false
}

/// An Android tombstone (debuggerd's crash report, also in logcat under `DEBUG`):
///
/// ```text
/// *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
/// ABI: 'arm64'
/// pid: 6172, tid: 6201, name: RenderThread  >>> com.example.viewer <<<
/// signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000010
///     x0  0000000000000000  x1  0000007a3c1e4f5a  …
/// backtrace:
///       #00 pc 000000000003f2e7  /data/app/…/libviewer.so (Texture::upload(Frame const*)+39) (BuildId: …)
/// ```
///
/// A backtrace row's `pc` is an offset in its module, not an address: it is not stored as the
/// frame's pc (the registers give frame #0's).
fn tombstone_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if let Some(abi) = t.strip_prefix("ABI: '").and_then(|r| r.strip_suffix('\'')) {
        let arch = match abi {
            "arm64" => Arch::Aarch64,
            "x86_64" => Arch::X86_64,
            "x86" => Arch::X86,
            _ => Arch::Unknown,
        };
        if b.trace.arch == Arch::Unknown {
            b.trace.arch = arch;
        }
        return true;
    }
    const HEADER: &[&str] = &[
        "Build fingerprint: ",
        "Revision: ",
        "Timestamp: ",
        "Process uptime: ",
        "Cmdline: ",
        "uid: ",
        "tagged_addr_ctrl: ",
        "pac_enabled_keys: ",
        "Abort message: ",
        "Cause: ",
    ];
    if HEADER.iter().any(|h| t.starts_with(h)) {
        if t.starts_with("Abort message: ") || t.starts_with("Cause: ") {
            b.add_message(t, n);
        }
        return true;
    }
    // `pid: 6172, tid: 6201, name: RenderThread  >>> com.example.viewer <<<`
    if let Some(r) = t.strip_prefix("pid: ")
        && let Some((_, r)) = r.split_once(", tid: ")
        && let Some((tid, r)) = r.split_once(", name: ")
        && tid.bytes().all(|c| c.is_ascii_digit())
    {
        let (name, proc_name) = match r.split_once(">>>") {
            Some((nm, p)) => (nm.trim(), Some(p.trim().trim_end_matches("<<<").trim())),
            None => (r.trim(), None),
        };
        let first = b.dumps.coredump_threads == 0;
        b.dumps.coredump_threads += 1;
        let ti = b.thread_by_id(tid);
        let si = b.ensure_stop();
        let th = &mut b.trace.stops[si].threads[ti];
        th.name = Some(name.into());
        th.crashed |= first;
        b.dumps.thread = Some(ti);
        if let Some(p) = proc_name
            && b.trace.program.is_none()
        {
            b.trace.program = Some(p.into());
        }
        return true;
    }
    // `signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000010`
    if let Some(r) = t.strip_prefix("signal ")
        && let Some((num, rest)) = r.split_once(' ')
        && let Ok(signo) = num.parse::<i32>()
    {
        let si = b.ensure_stop();
        let reason = &mut b.trace.stops[si].reason;
        reason.kind = StopKind::Signal;
        reason.signo = Some(signo);
        reason.signal = crate::model::signals::name(signo).map(Into::into);
        if let Some(c) = rest.split_once(", code ").and_then(|(_, c)| c.split_whitespace().next()) {
            reason.si_code = c.parse::<i32>().ok();
        }
        if let Some((_, a)) = rest.split_once("fault addr ") {
            reason.address = parse_hex(a.split_whitespace().next().unwrap_or("")).map(Address);
        }
        reason.span.extend_to(n);
        return true;
    }
    if t == "backtrace:" || t.starts_with("--- --- --- ---") || t == "stack:" {
        return true;
    }
    // `#00 pc 000000000003f2e7  /path/lib.so (func(args)+39) (BuildId: 7c1e…)`
    if let Some(r) = t.strip_prefix('#')
        && let Some((k, r)) = r.split_once(" pc ")
        && let Ok(index) = k.trim().parse::<u32>()
    {
        let r = r.trim();
        let (_, rest) = r.split_once(' ').unwrap_or((r, ""));
        let rest = rest.trim();
        let rest = match rest.rfind(" (BuildId: ") {
            Some(p) => &rest[..p],
            None => rest,
        };
        let (module, func) = match rest.find(" (") {
            Some(p) if rest.ends_with(')') => (&rest[..p], Some(&rest[p + 2..rest.len() - 1])),
            _ => (rest, None),
        };
        let mut f = DumpFrame { index, pc: 0, function: None, args: None, module: Some(module), file: None };
        if let Some(func) = func {
            let func = match func.rsplit_once('+') {
                Some((name, off)) if off.bytes().all(|c| c.is_ascii_digit()) => name,
                _ => func,
            };
            set_function(&mut f, func);
        }
        let si = b.ensure_stop();
        let ti = match b.dumps.thread {
            Some(t) if t < b.trace.stops[si].threads.len() => t,
            _ => b.current_thread(),
        };
        let frame = Frame {
            index,
            function: f.function.map(|s| b.intern(s)),
            args: f.args.map(Box::from),
            module: Some(b.intern(module)),
            span: Span::line(n),
            ..Default::default()
        };
        b.put_frame(ti, frame);
        return true;
    }
    // Register rows: `x0  0000000000000000  x1  0000007a3c1e4f5a`, `rax 0000…  rbx 0000…`.
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() >= 2 && words.len().is_multiple_of(2) {
        let pairs: Vec<(&str, Option<u64>)> = words
            .chunks(2)
            .map(|c| {
                (
                    c[0],
                    (c[1].len() >= 8 && c[1].bytes().all(|x| x.is_ascii_hexdigit()))
                        .then(|| u64::from_str_radix(c[1], 16).ok())
                        .flatten(),
                )
            })
            .collect();
        let regs = pairs.iter().all(|(name, v)| {
            v.is_some()
                && !name.is_empty()
                && name.len() <= 5
                && name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
        if regs {
            let si = b.ensure_stop();
            if let Some(ti) = b.dumps.thread.filter(|&t| t < b.trace.stops[si].threads.len()) {
                b.thread = Some(ti);
            }
            for (name, v) in pairs {
                let name = match name {
                    "lr" if b.trace.arch == Arch::Aarch64 => "x30",
                    "pst" => "cpsr",
                    x => x,
                };
                b.put_register(name, v, None, n);
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_shapes() {
        let f = hash_frame(
            " #4 0x000055d7c1f0a6b3 llvm::VPlan::execute(llvm::VPTransformState*) (/opt/llvm/bin/opt+0x170a6b3)",
        )
        .unwrap();
        assert_eq!((f.index, f.pc), (4, 0x55d7c1f0a6b3));
        assert_eq!(
            (f.function, f.args, f.module),
            (Some("llvm::VPlan::execute"), Some("llvm::VPTransformState*"), Some("/opt/llvm/bin/opt"))
        );
        let f = hash_frame(" #3 0x00007f3e21642520 (/lib/x86_64-linux-gnu/libc.so.6+0x42520)").unwrap();
        assert_eq!((f.function, f.module), (None, Some("/lib/x86_64-linux-gnu/libc.so.6")));
        assert!(is_trampoline(&f));
        let f = hash_frame(" #2 0x000055d7c3a425da SignalHandler(int) Signals.cpp:0:0").unwrap();
        assert_eq!((f.function, f.file), (Some("SignalHandler"), None));
        let f = hash_frame(
            "#33 0x00007fcc3b64524a __libc_start_call_main ./csu/../sysdeps/nptl/libc_start_call_main.h:74:3",
        )
        .unwrap();
        assert_eq!(f.file, Some(("./csu/../sysdeps/nptl/libc_start_call_main.h", 74, Some(3))));
        let f = hash_frame("#0  0x00007f8c1a2b5e3d __memmove_avx_unaligned_erms (libc.so.6 + 0x1a5e3d)").unwrap();
        assert_eq!((f.function, f.module), (Some("__memmove_avx_unaligned_erms"), Some("libc.so.6")));
        let f = hash_frame("#1  0x000055e0b7c0a1f4 n/a (/usr/bin/thumbd + 0x41f4)").unwrap();
        assert_eq!((f.function, f.module), (None, Some("/usr/bin/thumbd")));
        let f = numbered_row("4  LLDB                     0x000000010fb34ef8 lldb_private::ProcessGDBRemote::SetThreadStopInfo(lldb_private::StructuredData::Dictionary*) + 576").unwrap();
        assert_eq!(
            (f.index, f.module, f.function),
            (4, Some("LLDB"), Some("lldb_private::ProcessGDBRemote::SetThreadStopInfo"))
        );
        assert!(hash_frame("#include <stdio.h>").is_none());
        assert!(numbered_row("0  1  2").is_none());
    }

    #[test]
    fn llvm_dump_is_a_stop_with_the_handler_marked() {
        let t = "\
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
Stack dump:
0.\tProgram arguments: opt -S x.ll
 #0 0x000055d7c3a41f28 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/opt/llvm/bin/opt+0x3241f28)
 #1 0x000055d7c3a3f8be llvm::sys::RunSignalHandlers() (/opt/llvm/bin/opt+0x323f8be)
 #2 0x000055d7c3a425da SignalHandler(int) Signals.cpp:0:0
 #3 0x00007f3e21642520 (/lib/x86_64-linux-gnu/libc.so.6+0x42520)
 #4 0x000055d7c1f0a6b3 llvm::VPlan::execute(llvm::VPTransformState*) (/opt/llvm/bin/opt+0x170a6b3)
 #5 0x000055d7c1a0e4c6 main (/opt/llvm/bin/opt+0x120e4c6)
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let stop = &p.trace.stops[0];
        let th = &stop.threads[0];
        assert_eq!(th.frames.len(), 6);
        assert!(th.frames[3].signal_handler && !th.frames[2].signal_handler);
        let (_, f) = crate::roles::named_culprit(stop).unwrap();
        assert_eq!(f.function.as_deref(), Some("llvm::VPlan::execute"));
        let p = crate::input::parse(&format!("{t}Segmentation fault (core dumped)\n"));
        assert_eq!(p.trace.stops[0].reason.signo, Some(11));
        let p = crate::input::parse(&format!(
            "{t}clang: error: clang frontend command failed with exit code 132 (use -v to see invocation)\n"
        ));
        assert_eq!(p.trace.stops[0].reason.signal.as_deref(), Some("SIGILL"));
        let p = crate::input::parse(&format!("{t}zsh: segmentation fault  opt -S x.ll\n"));
        assert_eq!(p.trace.stops[0].reason.signo, Some(11));
    }

    #[test]
    fn llvm_fatal_error_is_not_a_signal() {
        let t = "\
fatal error: error in backend: cannot select
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
Stack dump:
 #0 0x00007f2f9fca5291 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/lib/libLLVM-14.so.1+0xea5291)
 #1 0x00007f2f9fc9f627 llvm::sys::Process::Exit(int, bool) (/lib/libLLVM-14.so.1+0xe9f627)
 #2 0x00007f2f9fbda393 llvm::report_fatal_error(llvm::Twine const&, bool) (/lib/libLLVM-14.so.1+0xdda393)
 #3 0x00007f2fa621971f clang::Preprocessor::HandlePragmaDirective(clang::PragmaIntroducer) (/lib/libclang-cpp.so.14+0xa1971f)
";
        let p = crate::input::parse(t);
        assert_eq!(p.trace.stops.len(), 1);
        let stop = &p.trace.stops[0];
        assert_eq!(stop.reason.kind, StopKind::RuntimeError);
        assert!(!p.trace.formats.contains(&Format::Go));
        let (_, f) = crate::roles::named_culprit(stop).unwrap();
        assert_eq!(f.function.as_deref(), Some("clang::Preprocessor::HandlePragmaDirective"));
    }

    #[test]
    fn android_tombstone() {
        let t = "*** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
ABI: 'arm64'
pid: 6172, tid: 6201, name: RenderThread  >>> com.example.viewer <<<
signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000010
Cause: null pointer dereference
    x0  0000000000000000  x1  0000007a3c1e4f5a
    sp  0000007a2f8ff5b0  lr  0000007a9c41d2a0  pc  0000007a9c41d2e7  pst 0000000060001000

backtrace:
      #00 pc 000000000003f2e7  /data/app/lib/arm64/libviewer.so (Texture::upload(Frame const*)+39) (BuildId: 7c1e0f5a)
      #01 pc 000000000003e8b1  /data/app/lib/arm64/libviewer.so (Renderer::drawFrame()+145) (BuildId: 7c1e0f5a)
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        assert_eq!(p.trace.arch, Arch::Aarch64);
        let stop = &p.trace.stops[0];
        assert_eq!(
            (stop.reason.signo, stop.reason.si_code, stop.reason.address),
            (Some(11), Some(1), Some(Address(0x10)))
        );
        let th = stop.crashed_thread().unwrap();
        assert_eq!((&*th.id, th.name.as_deref()), ("6201", Some("RenderThread")));
        assert_eq!(th.frames[0].function.as_deref(), Some("Texture::upload"));
        assert_eq!(th.frames[0].pc, None);
        assert_eq!(th.registers[&0].get("pc"), Some(0x7a9c41d2e7));
        assert_eq!(th.registers[&0].get("x30"), Some(0x7a9c41d2a0));
    }

    #[test]
    fn coredumpctl_info() {
        let t = "\
           PID: 41207 (thumbd)
        Signal: 11 (SEGV)
    Executable: /usr/bin/thumbd
       Message: Process 41207 (thumbd) of user 1000 dumped core.
                
                Module /usr/bin/thumbd without build-id.
                Stack trace of thread 41207:
                #0  0x00007f8c1a2b5e3d __memmove_avx_unaligned_erms (libc.so.6 + 0x1a5e3d)
                #1  0x000055e0b7c0a1f4 scale_row (/usr/bin/thumbd + 0x41f4)
                
                Stack trace of thread 41209:
                #0  0x00007f8c1a1a43bd syscall (libc.so.6 + 0x1143bd)
                ELF object binary architecture: AMD x86-64
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        assert_eq!(p.trace.arch, Arch::X86_64);
        let stop = &p.trace.stops[0];
        assert_eq!((stop.reason.kind, stop.reason.signo), (StopKind::Signal, Some(11)));
        assert_eq!(stop.threads.len(), 2);
        assert!(stop.threads[0].crashed && !stop.threads[1].crashed);
        let (_, f) = crate::roles::named_culprit(stop).unwrap();
        assert_eq!(f.function.as_deref(), Some("scale_row"));
        // The journal's form of the same report.
        let j = "Feb 11 14:22:10 ws systemd-coredump[41212]: [🡕] Process 41207 (thumbd) of user 1000 dumped core.
                                                   Module libc.so.6 from rpm glibc-2.39-22.fc40.x86_64
                                                   Stack trace of thread 41207:
                                                   #0  0x00007f8c1a2b5e3d __memmove_avx_unaligned_erms (libc.so.6 + 0x1a5e3d)
                                                   #1  0x000055e0b7c0a1f4 scale_row (/usr/bin/thumbd + 0x41f4)
";
        let p = crate::input::parse(j);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        assert_eq!(p.trace.stops.len(), 1);
        assert_eq!(p.trace.stops[0].threads[0].frames.len(), 2);
    }
}
