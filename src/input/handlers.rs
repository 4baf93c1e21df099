//! Crash reports a program's own signal handler or its C library prints, without a debugger:
//!
//! glibc (before 2.26) on a heap check or the stack protector, with its backtrace and the
//! process's memory map:
//!
//! ```text
//! *** Error in `/home/dev/interp': realloc(): invalid next size: 0x0000000001a6e2b0 ***
//! *** stack smashing detected ***: ./peerd terminated
//! ======= Backtrace: =========
//! /lib/x86_64-linux-gnu/libc.so.6(realloc+0x179)[0x7fb0c3a1ec89]
//! /home/dev/interp[0x43a1bf]
//! ======= Memory map: ========
//! 00400000-0047a000 r-xp 00000000 fc:01 5121803       /home/dev/interp
//! ```
//!
//! glog's failure signal handler (`InstallFailureSignalHandler`):
//!
//! ```text
//! *** Aborted at 1710148364 (unix time) try "date -d @1710148364" if you are using GNU date ***
//! PC: @     0x7f2a81c9e9fc pthread_kill
//! *** SIGSEGV (@0x0) received by PID 77410 (TID 0x7f2a7d9f1b80) from PID 0; stack trace: ***
//!     @     0x55c1d8e3ae04 scene::RegionDetector::refineBorder()
//! ```
//!
//! Open MPI's (`opal_show_stackframe`), with glibc's `backtrace_symbols` rows or macOS's:
//!
//! ```text
//! [host:51877] *** Process received signal ***
//! [host:51877] Signal: Segmentation fault (11)
//! [host:51877] Signal code: Address not mapped (1)
//! [host:51877] Failing at address: 0x10
//! [host:51877] [ 0] /lib64/libpthread.so.0(+0xf630)[0x7f...]
//! [host:51877] [ 1] 0   libmodel.so   0x0000000104c1a2d0 _ZN4Core3getEv + 36
//! [host:51877] *** End of error message ***
//! ```
//!
//! and backward-cpp's `SignalHandling` (frames printed outermost first, `#0` last):
//!
//! ```text
//! Stack trace (most recent call last):
//! #1    Object "/home/dev/tool", at 0x55b3c1e4af5c, in Table::at(unsigned long) const
//!       Source "/home/dev/tool/table.h", line 19, in at [0x55b3c1e4af5c]
//!          18:     return rows_[i];
//!       >  19: }
//! ```
//!
//! Each report is a stop with one thread, `1`. Frame rows name a pc and a module; mangled C++
//! names are demangled.

use super::Builder;
use super::lexemes::parse_hex;
use crate::model::*;

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) enum HandlerMode {
    #[default]
    None,
    /// Inside glibc's `======= Backtrace: =========`.
    GlibcBacktrace,
    /// Inside glibc's `======= Memory map: ========`.
    GlibcMaps,
    /// After glog's `*** SIG… received by PID …; stack trace: ***`.
    Glog,
    /// Between Open MPI's `*** Process received signal ***` and `*** End of error message ***`.
    OpenMpi,
    /// After backward-cpp's `Stack trace (most recent call last):`.
    Backward,
    /// gdb's report of its own crash: `Fatal signal: …`, `----- Backtrace -----`, rows up to
    /// `---------------------`, then its closing text.
    GdbInternal,
    /// Chromium's (and Electron's, and every Chromium-based browser's) handler: `Received signal
    /// 11 SEGV_MAPERR 000000000000`, `#N 0x… name` rows, a register block, `[end of stack
    /// trace]`.
    Chromium,
    /// A Rust program's handler printing the `backtrace` crate's frames after `Received
    /// signal: SIGSEGV`: `N: symbol` rows (CodeLLDB's), blank lines between them.
    BacktraceCrate,
    /// Node.js's `FATAL ERROR:` report: ` N: 0x… name [node]` rows.
    Node,
    /// Wine's debugger: `Unhandled exception: page fault on read access to 0x… in 32-bit code
    /// (0x…).`, `Register dump:`, `Stack dump:`, `Backtrace:`, the faulting instruction,
    /// `Modules:`.
    Wine,
    /// CPython's faulthandler: `Fatal Python error: Segmentation fault`, then `Current thread
    /// 0x… (most recent call first):` / `Thread 0x… …:` with `  File "…", line N in f` rows.
    Python,
    /// A program's own handler printing `#N  0x… sym + 0xoff` (or `#N  0x… 0x…`) rows after
    /// `received signal SIGBUS, PC 0x…`.
    SignalRows,
    /// HotSpot's fatal error report (`runtimes.rs`).
    HotSpot,
    /// WinDbg, kd and x64dbg (`runtimes.rs`).
    WinDbg,
    /// Zig's segfault handler and panics (`runtimes.rs`).
    Zig,
    /// V8's fatal error (`runtimes.rs`).
    V8,
    /// GWP-ASan's report (`runtimes.rs`).
    GwpAsan,
    /// Swift's runtime backtracer (`runtimes.rs`).
    Swift,
    /// Wasmtime's trap (`runtimes.rs`).
    Wasm,
    /// .NET's fatal unhandled exception (`runtimes.rs`).
    DotNet,
    /// Breakpad's `minidump_stackwalk` output (`crashdumps.rs`).
    Breakpad,
    /// The header before Breakpad's crash reason (`crashdumps.rs`): no stop yet.
    BreakpadHeader,
    /// Ruby's `[BUG]` crash report (`crashdumps.rs`).
    Ruby,
    /// Cygwin's stackdump (`crashdumps.rs`).
    Cygwin,
    /// DynamoRIO's report of an application's fault or of its own crash (`toolreports.rs`).
    DynamoRio,
    /// AMReX's handler and its `Backtrace.N` file (`toolreports.rs`).
    Amrex,
    /// `addr2line -Cfpi` blocks after an abort message (`toolreports.rs`).
    Addr2line,
    /// Envoy's backtrace handler (`toolreports.rs`).
    Envoy,
    /// A radare2 debugger session (`toolreports.rs`).
    Radare2,
    /// An IDE's copied call stack after an abort message (`toolreports.rs`).
    IdeStack,
}

impl HandlerMode {
    /// The modes `runtimes.rs` reads; blank lines inside their reports are theirs.
    fn is_runtime(self) -> bool {
        matches!(
            self,
            HandlerMode::HotSpot
                | HandlerMode::WinDbg
                | HandlerMode::Zig
                | HandlerMode::V8
                | HandlerMode::GwpAsan
                | HandlerMode::Swift
                | HandlerMode::Wasm
                | HandlerMode::DotNet
                | HandlerMode::Breakpad
                | HandlerMode::BreakpadHeader
                | HandlerMode::Ruby
                | HandlerMode::Cygwin
                | HandlerMode::DynamoRio
                | HandlerMode::Amrex
                | HandlerMode::Addr2line
                | HandlerMode::Envoy
                | HandlerMode::Radare2
                | HandlerMode::IdeStack
        )
    }
}

#[derive(Clone, Default)]
pub(crate) struct HandlerState {
    pub mode: HandlerMode,
    pub(crate) next_index: u32,
    /// backward-cpp: the frame the `Source "…"` line belongs to.
    pub(crate) last_frame: Option<u32>,
    /// A report is open (its first line was seen): later section headings belong to it.
    pub(crate) open: bool,
    /// A macOS crash report (`.crash`, `Process:` … `Thread N Crashed::`) is open.
    mac: bool,
    /// The next unnamed libc row is the signal trampoline (after a handler's `Error: signal N:`).
    tramp_pending: bool,
    /// A CPython faulthandler report is open: its thread headings come after blank lines.
    python: bool,
    /// rustc's fatal-signal handler's report is open (its `###` cycle lines and notes).
    rust_handler: bool,
    /// AMReX's `Backtrace.N` file: inside an advice paragraph (`=== …` and its indented lines).
    pub(crate) advice: bool,
    /// Envoy's backtrace: the module (`thr<N> obj<path>`) of the rows that follow.
    pub(crate) module: Option<Box<str>>,
    /// A report read through a bare `prog[pid]: ` prefix: that prefix.
    pub bare: Option<Box<str>>,
    /// The pc a handler named (`received signal SIGBUS, PC 0x…`): the row at it is the fault's.
    pub(crate) named_pc: Option<u64>,
    /// A HotSpot report is open (its header may be printed twice: console and log).
    pub(crate) hotspot: bool,
    /// A WinDbg session's exception is open.
    pub(crate) windbg: bool,
    /// Inside a WinDbg stack table (`STACK_TEXT:`, `k`).
    pub(crate) windbg_table: bool,
    /// The return address of the last WinDbg stack row: the next frame's pc.
    pub(crate) last_ret: Option<u64>,
    /// Zig: the next line is the source line of the frame just read.
    pub(crate) zig_source: bool,
    /// Zig's build runner: the next line is the command that crashed.
    pub(crate) zig_command: bool,
    /// GWP-ASan: inside the allocation or deallocation stack (not the faulting thread's).
    pub(crate) gwp_side_stack: bool,
    /// The report named a thread (Swift's backtracer, Breakpad): later threads are new ones.
    pub(crate) named_threads: bool,
    /// .NET's `Repeat N times:` block: `Some(false)` before its first rule, `Some(true)` inside.
    pub(crate) dotnet_repeat: Option<bool>,
    /// Ruby's report: inside its C level backtrace / its register context.
    pub(crate) ruby_c: bool,
    pub(crate) ruby_regs: bool,
    /// Ruby's C backtrace: the row before was the runtime's signal handler (`sigsegv`), so an
    /// unnamed row or `__restore_rt` after it is the trampoline.
    pub(crate) ruby_after_handler: bool,
    /// Breakpad's header named the CPU before the report opened.
    pub(crate) breakpad_arch: Option<Arch>,
}

pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if t.is_empty() {
        // The `backtrace` crate's rows may come with a blank line after each; the runtimes'
        // reports have blank lines between their sections.
        if b.handlers.mode.is_runtime() {
            return super::runtimes::line(b, l, t, n);
        }
        // rustc's handler puts blank lines around its `###` cycle lines and its notes.
        return b.handlers.mode == HandlerMode::BacktraceCrate || b.handlers.open && b.handlers.rust_handler;
    }
    if opening(b, t, n) {
        return true;
    }
    // The closing text of gdb's report of its own crash.
    if b.handlers.open
        && (t.starts_with("A fatal error internal to GDB has been detected")
            || t == "debugging is not possible.  GDB will now terminate."
            || t.starts_with("This is a bug, please report it."))
    {
        b.add_message(t, n);
        return true;
    }
    // rustc's fatal-signal handler (and programs that copied it) between and after its rows:
    // `### cycle encountered after 3 frames with period 4`, `### recursed 61 times` (rows
    // follow again), `note: NAME unexpectedly overflowed its stack! this is a bug`, `note:
    // maximum backtrace depth reached, …`, `note: we would appreciate a report at URL`,
    // `help: you can increase rustc's stack size by setting RUST_MIN_STACK=N`, `note:
    // backtrace dumped due to SIGSEGV! resuming signal`.
    if b.handlers.open && b.handlers.rust_handler {
        let cycle = t.strip_prefix("### cycle encountered after ").is_some_and(|r| r.contains(" frames with period "))
            || t.strip_prefix("### recursed ").is_some_and(|r| r.ends_with(" times"));
        let note = t.starts_with("note: ")
            && (t.contains(" unexpectedly overflowed its stack!")
                || t.starts_with("note: maximum backtrace depth reached")
                || t.starts_with("note: we would appreciate a report at ")
                || t.starts_with("note: backtrace dumped due to SIG"))
            || t.starts_with("help: you can increase ") && t.contains("RUST_MIN_STACK=");
        if cycle || note {
            if cycle {
                b.handlers.mode = HandlerMode::GlibcBacktrace;
            }
            b.add_message(t, n);
            return true;
        }
    }
    // The shell's verdict after the report (`Aborted`, macOS's `Segmentation fault: 11`).
    if b.handlers.open && (super::shell::is_shell_verdict(t) || super::shell::shell_job_signal(t).is_some()) {
        let runtime = std::mem::replace(&mut b.handlers.mode, HandlerMode::None).is_runtime();
        // The report named no signal (V8's and Zig's checks end in a trap or an abort): the
        // shell's verdict says which.
        if runtime
            && let Some(signo) = super::shell::shell_verdict_signal(t).or_else(|| super::shell::shell_job_signal(t))
        {
            let si = b.ensure_stop();
            let r = &mut b.trace.stops[si].reason;
            if r.signo.is_none() {
                r.signo = Some(signo);
                r.signal = crate::model::signals::name(signo).map(Into::into);
            }
        }
        b.add_message(t, n);
        return true;
    }
    match b.handlers.mode {
        HandlerMode::None => false,
        HandlerMode::GlibcBacktrace => {
            if t.starts_with("======= Memory map:") {
                b.handlers.mode = HandlerMode::GlibcMaps;
                return true;
            }
            match glibc_row(t) {
                Some(r) => {
                    let tramp = b.handlers.tramp_pending
                        && r.function.is_none()
                        && r.module.is_some_and(|m| m.rsplit('/').next().is_some_and(|f| f.starts_with("libc.so")))
                        || matches!(
                            r.function,
                            Some("__kernel_rt_sigreturn" | "__kernel_sigreturn" | "__restore_rt" | "__sigtramp")
                        );
                    put(b, r, n);
                    if tramp {
                        b.handlers.tramp_pending = false;
                        let si = b.ensure_stop();
                        let ti = b.current_thread();
                        if let Some(f) = b.trace.stops[si].threads[ti].frames.last_mut() {
                            f.signal_handler = true;
                        }
                    }
                    true
                }
                None => end(b),
            }
        }
        HandlerMode::GlibcMaps => maps_row(b, t, n) || end(b),
        HandlerMode::Glog => match t.strip_prefix("@ ").and_then(glog_row) {
            Some(r) => {
                put(b, r, n);
                true
            }
            None => end(b),
        },
        HandlerMode::OpenMpi => openmpi_line(b, t, n),
        HandlerMode::GdbInternal => gdb_internal_line(b, l, t, n),
        HandlerMode::Backward => backward_line(b, l, t, n),
        HandlerMode::Chromium => chromium_line(b, t, n),
        HandlerMode::Node => node_line(b, t, n),
        HandlerMode::Wine => wine_line(b, l, t, n),
        HandlerMode::Python => python_line(b, t, n),
        HandlerMode::SignalRows => signal_row(b, t, n),
        HandlerMode::BacktraceCrate => backtrace_crate_row(b, t, n),
        _ => super::runtimes::line(b, l, t, n),
    }
}

/// One line of Chromium's report after `Received signal …`.
fn chromium_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t == "[end of stack trace]" {
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    // `#4 0x5581c014b067 ui::Foo::Bar()`, `#3 0x7f1e2a1c72e0 <unknown>`, `#3 0x7f… (/lib/…/libc.so.6+0x4251f)`,
    // symbolized: `#6 0x55e1a86ad7d0 in content::Crash() ./../../content/x.cc:23:3`, `#5 0x… in ?? ??:0`.
    if let Some(r) = t.strip_prefix('#')
        && let Some((num, rest)) = r.split_once(' ')
        && num.bytes().all(|c| c.is_ascii_digit())
        && let Some((pc, what)) = rest.trim_start().split_once(' ').or(Some((rest.trim(), "")))
        && let Some(pc) = parse_hex(pc).filter(|_| pc.starts_with("0x"))
    {
        let what = what.trim();
        let what = what.strip_prefix("in ").unwrap_or(what);
        let (function, module) = if what.is_empty() || what == "<unknown>" {
            (None, None)
        } else if let Some(m) = what.strip_prefix('(').and_then(|m| m.strip_suffix(')')) {
            (None, Some(m.rsplit_once('+').map_or(m, |(m, _)| m)))
        } else {
            // A trailing location (`./../../x.cc:23:3`, `??:0`, `??:?`) is not part of the name.
            let name = match what.rsplit_once(' ') {
                Some((name, loc)) if loc.contains(':') && !loc.contains('(') => name,
                _ => what,
            };
            ((name != "??").then_some(name), None)
        };
        let index = b.handlers.next_index;
        b.handlers.next_index += 1;
        let ti = b.current_thread();
        let si = b.ensure_stop();
        let frames = &b.trace.stops[si].threads[ti].frames;
        // The signal trampoline: the frame after the handler's own (`StackDumpSignalHandler`),
        // and any row at the same pc (an inlined copy of it).
        let after_handler =
            frames.last().and_then(|f| f.function.as_deref()).is_some_and(|f| f.contains("StackDumpSignalHandler"));
        let same_as_tramp = frames.last().is_some_and(|f| f.signal_handler && f.pc == Some(Address(pc)));
        // Two rows at one pc: the first was inlined into the second.
        if let Some(last) = b.trace.stops[si].threads[ti].frames.last_mut()
            && last.pc == Some(Address(pc))
            && !last.signal_handler
        {
            last.inlined = true;
        }
        let function = function.map(|f| {
            let d = crate::symbolize::demangle::demangle(f);
            b.intern(crate::symbolize::demangle::strip_params(&d))
        });
        let frame = Frame {
            index,
            pc: Some(Address(pc)),
            function,
            module: module.map(|m| b.intern(m)),
            signal_handler: after_handler || same_as_tramp,
            span: Span::line(n),
            ..Default::default()
        };
        b.put_frame(ti, frame);
        return true;
    }
    // The register block: `  r8: 0000000000000000  r9: … r10: … r11: …`, ` trp: 000000000000000e msk: … cr2: …`.
    let words: Vec<&str> = t.split_whitespace().collect();
    if !words.is_empty()
        && words.len().is_multiple_of(2)
        && words
            .chunks(2)
            .all(|c| c[0].ends_with(':') && c[1].len() == 16 && c[1].bytes().all(|x| x.is_ascii_hexdigit()))
    {
        for c in words.chunks(2) {
            let k = c[0].trim_end_matches(':');
            let name = match k {
                "di" | "si" | "bp" | "bx" | "dx" | "ax" | "cx" | "sp" | "ip" => format!("r{k}"),
                "efl" => "eflags".to_string(),
                _ => k.to_string(),
            };
            b.put_register(&name, u64::from_str_radix(c[1], 16).ok(), None, n);
        }
        if b.trace.arch == Arch::Unknown {
            b.trace.arch = Arch::X86_64;
        }
        return true;
    }
    end(b)
}

/// A row of gdb's own backtrace (`0x55d1a2e15211 ???`, `0x7f3c1bc12882 newterm_sp`), the
/// `\tfile:line` under a row, the closing rule and the text after it.
fn gdb_internal_line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    if t == "----- Backtrace -----" {
        return true;
    }
    if t.bytes().all(|c| c == b'-') && t.len() >= 8 {
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    if l.starts_with('\t') && t.rsplit_once(':').is_some_and(|(_, line)| line.bytes().all(|c| c.is_ascii_digit())) {
        return true;
    }
    if let Some((pc, name)) = t.split_once(' ')
        && let Some(pc) = parse_hex(pc).filter(|_| pc.starts_with("0x"))
        && !name.contains(' ')
    {
        let function = (name != "???").then_some(name);
        put(b, Row { pc, function, module: None }, n);
        return true;
    }
    end(b)
}

fn end(b: &mut Builder) -> bool {
    b.handlers.mode = HandlerMode::None;
    false
}

/// The first line of a report.
fn opening(b: &mut Builder, t: &str, n: u32) -> bool {
    // glibc's report: its first line (`*** Error in `prog': MESSAGE: 0x… ***`, `*** stack
    // smashing detected ***: prog terminated`) is an abort message like any other (newer glibc
    // prints only that line, before the debugger's own stop); the backtrace that only older glibc
    // prints after it opens the report.
    if t.starts_with("======= Backtrace: ") && t.trim_end_matches('=').trim_end() == "======= Backtrace:" {
        if !b.handlers.open {
            start(b, 6, "glibc detected an error and aborted", n);
        }
        b.handlers.mode = HandlerMode::GlibcBacktrace;
        b.handlers.next_index = 0;
        return true;
    }
    // glog: `*** Aborted at 1710148364 (unix time) try "date -d @…" if you are using GNU date ***`
    if t.starts_with("*** Aborted at ") && t.contains("(unix time)") {
        start(b, 0, "glog's failure signal handler", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Glog;
        return true;
    }
    // gdb's (and other GNU tools') report of their own crash: `Fatal signal: Segmentation
    // fault` (localized: `Fatal signal: Speicherzugriffsfehler`), then `----- Backtrace -----`.
    if t == "----- Backtrace -----" && b.handlers.mode == HandlerMode::None {
        b.handlers.mode = HandlerMode::GdbInternal;
        b.handlers.next_index = 0;
        if !b.handlers.open {
            start(b, 0, "the debugger's own fatal signal handler", n);
        }
        return true;
    }
    if let Some(desc) = t.strip_prefix("Fatal signal: ") {
        let signo = crate::model::signals::from_description(desc).and_then(crate::model::signals::signo).unwrap_or(0);
        start(b, signo, "the debugger's own fatal signal handler", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::GdbInternal;
        b.handlers.next_index = 0;
        return true;
    }
    if mac_line(b, t, n) {
        return true;
    }
    // A program's own handler (VPP's and alike): `received signal SIGBUS, PC 0x7f3ac41d58ba`.
    if let Some(r) = t.strip_prefix("received signal ")
        && let Some((sig, pc)) = r.split_once(", PC ")
        && let Some(signo) = crate::model::signals::signo(sig.trim())
        && let Some(pc) = parse_hex(pc.trim())
    {
        start(b, signo, "the program's own fatal-signal handler", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::SignalRows;
        b.handlers.named_pc = Some(pc);
        return true;
    }
    // CPython's faulthandler, also glued to a test runner's progress dots (`test_x.py .Fatal
    // Python error: Segmentation fault`).
    if let Some(p) = t.find("Fatal Python error: ") {
        let what = t[p + 20..].trim();
        let sig = crate::model::signals::from_description(what).and_then(crate::model::signals::signo);
        // Not a signal: `Py_FatalError`'s message, after which CPython aborts.
        start(b, sig.unwrap_or(6), "CPython's fatal error handler", n);
        b.add_message(&t[p..], n);
        b.handlers.mode = HandlerMode::Python;
        b.handlers.python = true;
        return true;
    }
    if b.handlers.python
        && b.handlers.mode == HandlerMode::None
        && (t.starts_with("Current thread 0x") || t.starts_with("Thread 0x"))
        && t.ends_with("(most recent call first):")
    {
        b.handlers.mode = HandlerMode::Python;
        return python_line(b, t, n);
    }
    // Wine: `wine: Unhandled page fault on read access to 00000000 at address 01fd9418 (thread
    // 0031), starting debugger...` (a message before the report), then the report.
    if t.starts_with("wine: Unhandled ") && t.ends_with("starting debugger...") {
        b.add_message(t, n);
        return true;
    }
    if let Some(r) = t.strip_prefix("Unhandled exception: ") {
        let (signo, addr) = if let Some(a) = r.strip_prefix("page fault on ").and_then(|x| x.split_once(" access to "))
        {
            (11, a.1.split_whitespace().next().and_then(parse_hex))
        } else if r.starts_with("illegal instruction") || r.starts_with("privileged instruction") {
            (if r.starts_with("illegal") { 4 } else { 11 }, None)
        } else if r.starts_with("divide by zero") {
            (8, None)
        } else if r.starts_with("stack overflow") {
            (11, None)
        } else {
            (0, None)
        };
        start(b, signo, "Wine's debugger (winedbg)", n);
        let si = b.ensure_stop();
        b.trace.stops[si].reason.address = addr.map(Address);
        if r.contains(" in 32-bit code") || r.contains(" in wow64 32-bit code") {
            b.trace.arch = Arch::X86;
        } else if r.contains(" in 64-bit code") {
            b.trace.arch = Arch::X86_64;
        }
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Wine;
        return true;
    }
    // Node.js: `FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal.` (the process aborts), then
    // ` 1: 0x95c1f8 node::Abort() [node]` rows (newer versions: `----- Native stack trace -----`).
    if let Some(msg) = t.strip_prefix("FATAL ERROR: ") {
        start(b, 6, "Node.js fatal error", n);
        b.add_message(msg, n);
        b.handlers.mode = HandlerMode::Node;
        return true;
    }
    // rustc's own fatal-signal handler (copied by other Rust programs): `error: rustc
    // interrupted by SIGSEGV, printing backtrace`, then glibc `backtrace_symbols` rows.
    if let Some(r) = t.strip_prefix("error: ")
        && let Some((prog, rest)) = r.split_once(" interrupted by ")
        && !prog.is_empty()
        && !prog.contains(char::is_whitespace)
        && let Some(sig) = rest.strip_suffix(", printing backtrace")
        && let Some(signo) = crate::model::signals::signo(sig)
    {
        start(b, signo, "rustc's fatal-signal handler (glibc backtrace_symbols rows)", n);
        b.saw(Format::Rust);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::GlibcBacktrace;
        b.handlers.rust_handler = true;
        // The handler's own row comes first, then the kernel's return into it: the first
        // unnamed libc row (or the vDSO's `__kernel_rt_sigreturn`) is the trampoline.
        b.handlers.tramp_pending = true;
        b.handlers.next_index = 0;
        return true;
    }
    // `Received signal: SIGSEGV` (a Rust program's handler, CodeLLDB's), then the `backtrace`
    // crate's `N: symbol` rows.
    if let Some(sig) = t.strip_prefix("Received signal: ")
        && let Some(signo) = crate::model::signals::signo(sig.trim())
    {
        start(b, signo, "a program's fatal-signal handler (the backtrace crate)", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::BacktraceCrate;
        return true;
    }
    // glibc `backtrace_symbols` rows printed by a program's fatal-signal handler without a
    // heading (rustc's: `/lib/…/librustc_driver-….so(+0x6c4430)[0x7f8a1c4430]`, then the
    // trampoline `linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0x…]`): a row naming a shared
    // library by its absolute path opens the report.
    if b.handlers.mode == HandlerMode::None
        && let Some(r) = glibc_row(t)
        && r.module.is_some_and(|m| m.starts_with('/') && m.contains(".so"))
    {
        start(b, 0, "a program's fatal-signal handler (glibc backtrace_symbols rows)", n);
        b.handlers.mode = HandlerMode::GlibcBacktrace;
        b.handlers.next_index = 0;
        put(b, r, n);
        return true;
    }
    // A native addon's segfault handler (npm `segfault-handler` and alike): `Error: signal 11:`
    // then glibc `backtrace_symbols` rows; the first unnamed libc row is the trampoline.
    if let Some(r) = t.strip_prefix("Error: signal ").and_then(|r| r.strip_suffix(':'))
        && let Ok(signo) = r.parse::<i32>()
        && (1..=64).contains(&signo)
    {
        start(b, signo, "a native addon's segfault handler", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::GlibcBacktrace;
        b.handlers.tramp_pending = true;
        return true;
    }
    // Chromium's handler: `Received signal 11 SEGV_MAPERR 000000000000`, `Received signal 6`.
    if let Some(r) = t.strip_prefix("Received signal ") {
        let mut w = r.split_whitespace();
        if let Some(signo) = w.next().and_then(|x| x.parse::<i32>().ok()).filter(|s| (1..=64).contains(s)) {
            let code = w.next();
            let addr = w.next().filter(|a| a.len() >= 8 && a.bytes().all(|c| c.is_ascii_hexdigit()));
            if w.next().is_none() && code.is_none_or(|c| c.bytes().all(|x| x.is_ascii_uppercase() || x == b'_')) {
                start(b, signo, "Chromium's fatal signal handler", n);
                let si = b.ensure_stop();
                let reason = &mut b.trace.stops[si].reason;
                if let Some(c) = code {
                    reason.si_code = crate::model::signals::si_code_value(c);
                }
                if let Some(a) = addr {
                    reason.address = u64::from_str_radix(a, 16).ok().map(Address);
                }
                b.add_message(t, n);
                b.handlers.mode = HandlerMode::Chromium;
                return true;
            }
        }
    }
    // Its closing line.
    if t == "Calling _exit(1). Core file will not be generated." {
        b.add_message(t, n);
        return true;
    }
    // folly's (glog-like) handler: `*** Aborted at N (Unix time, try 'date -d @N') ***`.
    if t.starts_with("*** Aborted at ") && t.contains("(Unix time, try 'date -d @") {
        start(b, 0, "folly's fatal signal handler", n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Glog;
        return true;
    }
    // folly: `*** Signal 7 (SIGBUS) (0x7f…) received by PID 6120 (pthread TID 0x…) (linux TID
    // 6141) (code: nonexistent physical address), stack trace: ***`.
    if let Some(r) = t.strip_prefix("*** Signal ")
        && t.ends_with("stack trace: ***")
        && let Some((num, rest)) = r.split_once(" (")
        && let Some(signo) = num.parse::<i32>().ok()
    {
        if b.handlers.mode != HandlerMode::Glog {
            start(b, 0, "folly's fatal signal handler", n);
        }
        let si = b.ensure_stop();
        let reason = &mut b.trace.stops[si].reason;
        reason.signo = Some(signo);
        reason.signal = crate::model::signals::name(signo).map(Into::into);
        // The second parenthesis is si_addr for a fault.
        if matches!(signo, 11 | 7 | 4 | 8)
            && let Some((_, after)) = rest.split_once(") (")
            && let Some((addr, _)) = after.split_once(')')
        {
            reason.address = parse_hex(addr).map(Address);
        }
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Glog;
        b.handlers.next_index = 0;
        return true;
    }
    if b.handlers.mode == HandlerMode::Glog && t.starts_with("PC: @ ") {
        b.add_message(t, n);
        return true;
    }
    // `*** SIGSEGV (@0x0) received by PID 77410 (TID 0x…) from PID 0; stack trace: ***`
    if let Some(r) = t.strip_prefix("*** SIG")
        && t.ends_with("stack trace: ***")
        && let Some((name, rest)) = r.split_once(" (@")
        && let Some((addr, _)) = rest.split_once(')')
    {
        if b.handlers.mode != HandlerMode::Glog {
            start(b, 0, "glog's failure signal handler", n);
        }
        let signame = format!("SIG{name}");
        let si = b.ensure_stop();
        let r = &mut b.trace.stops[si].reason;
        r.signo = crate::model::signals::signo(&signame);
        r.signal = Some(signame.as_str().into());
        // For a fault the `@` is si_addr; for a sent signal glog prints the sender's (pid, uid).
        if matches!(r.signo, Some(11) | Some(7) | Some(4) | Some(8)) {
            r.address = parse_hex(addr).map(Address);
        }
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Glog;
        b.handlers.next_index = 0;
        return true;
    }
    // Open MPI: `[host:pid] *** Process received signal ***`
    if let Some(rest) = openmpi_rest(t)
        && rest == "*** Process received signal ***"
    {
        start(b, 0, "Open MPI's signal handler", n);
        b.handlers.mode = HandlerMode::OpenMpi;
        b.handlers.next_index = 0;
        return true;
    }
    if t == "Stack trace (most recent call last):" || t.starts_with("Stack trace (most recent call last) in thread ") {
        start(b, 0, "backward-cpp's signal handler", n);
        b.handlers.mode = HandlerMode::Backward;
        return true;
    }
    super::runtimes::opening(b, t, n)
}

pub(crate) fn start(b: &mut Builder, signo: i32, desc: &str, n: u32) {
    b.saw(Format::Handler);
    let mut reason = StopReason {
        kind: StopKind::Signal,
        description: Some(desc.into()),
        span: Span::line(n),
        ..Default::default()
    };
    if signo != 0 {
        reason.signo = Some(signo);
        reason.signal = crate::model::signals::name(signo).map(Into::into);
    }
    b.new_stop(reason, Some("1"));
    b.handlers = HandlerState { open: true, ..Default::default() };
    if let Some(si) = b.stop {
        b.trace.stops[si].threads.iter_mut().for_each(|th| th.crashed = true);
    }
}

struct Row<'a> {
    pc: u64,
    function: Option<&'a str>,
    module: Option<&'a str>,
}

fn put(b: &mut Builder, r: Row<'_>, n: u32) {
    let index = b.handlers.next_index;
    b.handlers.next_index += 1;
    put_at(b, index, r, n);
}

fn put_at(b: &mut Builder, index: u32, r: Row<'_>, n: u32) {
    let function = r.function.map(|f| {
        let d = crate::symbolize::demangle::demangle(f);
        b.intern(crate::symbolize::demangle::strip_params(&d))
    });
    let frame = Frame {
        index,
        pc: Some(Address(r.pc)),
        function,
        module: r.module.map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    };
    let ti = b.current_thread();
    b.put_frame(ti, frame);
}

/// `at src/x.rs:12:5` under a backtrace row (the backtrace crate's and Wasmtime's detail
/// lines): the location of the frame above it. False when `t` is no such line.
pub(super) fn location_row(b: &mut Builder, t: &str) -> bool {
    let Some((file, line, col)) = t.strip_prefix("at ").and_then(super::lexemes::file_line) else {
        return false;
    };
    let file = b.intern(file);
    let si = b.ensure_stop();
    let ti = b.current_thread();
    if let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.last_mut()) {
        f.file = Some(file);
        f.line = Some(line);
        f.column = col;
    }
    true
}

/// `3: __ZN5swift8importer24shouldSuppressDeclImportEPKN5clang4DeclE` (a Mach-O symbol keeps
/// its extra leading underscore), `2: __sigtramp` (the trampoline), `  at src/x.rs:12:5`.
fn backtrace_crate_row(b: &mut Builder, t: &str, n: u32) -> bool {
    if location_row(b, t) {
        return true;
    }
    let Some((num, sym)) = t.split_once(": ") else { return end(b) };
    let Ok(index) = num.parse::<u32>() else { return end(b) };
    let sym = sym.trim();
    let mangled = sym.strip_prefix('_').filter(|s| s.starts_with("_Z")).unwrap_or(sym);
    let d = crate::symbolize::demangle::demangle(mangled);
    let name = crate::symbolize::demangle::strip_params(&d).to_string();
    let rust = crate::input::rust::clean_symbol(&name);
    let frame = Frame {
        index,
        function: (!rust.is_empty()).then(|| b.intern(&rust)),
        signal_handler: matches!(sym, "__sigtramp" | "_sigtramp" | "__restore_rt" | "__kernel_rt_sigreturn"),
        span: Span::line(n),
        ..Default::default()
    };
    let ti = b.current_thread();
    b.put_frame(ti, frame);
    true
}

/// [`glibc_row`]'s parts, for other readers: (pc, mangled function, module).
pub(crate) fn backtrace_symbols_row(t: &str) -> Option<(u64, Option<&str>, Option<&str>)> {
    glibc_row(t).map(|r| (r.pc, r.function, r.module))
}

/// glibc's `backtrace_symbols` row: `/lib/libc.so.6(realloc+0x179)[0x7fb0c3a1ec89]`,
/// `/lib/libc.so.6(+0x777e5)[0x7fb0c3a127e5]`, `./prog[0x43a1bf]`, `[0x6e3f1c27]`.
fn glibc_row(t: &str) -> Option<Row<'_>> {
    let (head, pc) = t.strip_suffix(']')?.rsplit_once('[')?;
    let pc = parse_hex(pc)?;
    if !t[head.len() + 1..].starts_with("0x") {
        return None;
    }
    let (module, function) = match head.strip_suffix(')').and_then(|h| h.rsplit_once('(')) {
        Some((m, sym)) => {
            let name = sym.rsplit_once('+').map_or(sym, |(s, _)| s);
            (m, (!name.is_empty()).then_some(name))
        }
        None => (head, None),
    };
    if module.contains(char::is_whitespace) {
        return None;
    }
    Some(Row { pc, function, module: (!module.is_empty()).then_some(module) })
}

/// A `/proc/PID/maps` row: `00400000-0047a000 r-xp 00000000 fc:01 5121803   /path`.
fn maps_row(b: &mut Builder, t: &str, n: u32) -> bool {
    let mut w = t.split_whitespace();
    let (Some(range), Some(perms), Some(off), Some(dev), Some(inode)) =
        (w.next(), w.next(), w.next(), w.next(), w.next())
    else {
        return false;
    };
    let path = w.collect::<Vec<_>>().join(" ");
    let Some((lo, hi)) = range.split_once('-') else { return false };
    let hex = |s: &str| u64::from_str_radix(s, 16).ok();
    let (Some(lo), Some(hi), Some(off)) = (hex(lo), hex(hi), hex(off)) else { return false };
    let perms_ok = perms.len() == 4 && perms.bytes().zip(*b"rwxp").all(|(c, f)| c == f || c == b'-' || c == b's');
    if !perms_ok || !dev.contains(':') || !inode.bytes().all(|c| c.is_ascii_digit()) || hi < lo {
        return false;
    }
    let m = Mapping {
        start: Address(lo),
        end: Address(hi),
        offset: off,
        perms: Some(perms.into()),
        path: (!path.is_empty()).then(|| b.intern(&path)),
        span: Span::line(n),
    };
    b.trace.mappings.push(m);
    true
}

/// glog's row after `@`: `0x55c1d8e3ae04 scene::RegionDetector::refineBorder()`,
/// `0x7f2a81c4a520 (unknown)`.
fn glog_row(r: &str) -> Option<Row<'_>> {
    let r = r.trim_start();
    let (pc, sym) = r.split_once(char::is_whitespace).unwrap_or((r, ""));
    let pc = parse_hex(pc)?;
    let sym = sym.trim();
    let function = match sym {
        "" | "(unknown)" => None,
        s => Some(s.strip_suffix("()").unwrap_or(s)),
    };
    Some(Row { pc, function, module: None })
}

/// `[host:51877] rest` -> `rest`.
fn openmpi_rest(t: &str) -> Option<&str> {
    let (head, rest) = t.strip_prefix('[')?.split_once("] ")?;
    // A poster's redaction of the `host:pid` prefix, `[<machine stuff>]`, `[<redacted>]`.
    if head.len() > 2 && head.starts_with('<') && head.ends_with('>') && !head[1..head.len() - 1].contains(['<', '>']) {
        return Some(rest);
    }
    let (_, pid) = head.rsplit_once(':')?;
    (!pid.is_empty() && pid.bytes().all(|c| c.is_ascii_digit())).then_some(rest)
}

fn openmpi_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let Some(rest) = openmpi_rest(t) else { return end(b) };
    let si = b.ensure_stop();
    if rest == "*** End of error message ***" {
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    // `Signal: Segmentation fault (11)`, macOS `Signal: Segmentation fault: 11 (11)`.
    if let Some(s) = rest.strip_prefix("Signal: ") {
        let num = s.rsplit_once('(').and_then(|(_, x)| x.strip_suffix(')')).and_then(|x| x.parse::<i32>().ok());
        let r = &mut b.trace.stops[si].reason;
        if let Some(no) = num {
            let desc = s.rsplit_once('(').map_or(s, |(d, _)| d).trim();
            let no = crate::model::signals::from_number_and_description(no, desc);
            r.signo = Some(no);
            r.signal = crate::model::signals::name(no).map(Into::into);
        }
        b.add_message(rest, n);
        return true;
    }
    // `Signal code: Address not mapped (1)`, `Signal code: Invalid permissions (2)`.
    if let Some(s) = rest.strip_prefix("Signal code: ") {
        let code = s.rsplit_once('(').and_then(|(_, x)| x.strip_suffix(')')).and_then(|x| x.parse::<i32>().ok());
        b.trace.stops[si].reason.si_code = code;
        b.add_message(rest, n);
        return true;
    }
    if let Some(a) = rest.strip_prefix("Failing at address: ") {
        let v = if a.trim() == "(nil)" { Some(0) } else { parse_hex(a.trim()) };
        b.trace.stops[si].reason.address = v.map(Address);
        b.add_message(rest, n);
        return true;
    }
    // `[ 3] …`: a frame; `[ 0]` is the signal trampoline the handler runs on.
    if let Some(r) = rest.strip_prefix('[')
        && let Some((idx, row)) = r.split_once(']')
        && let Ok(index) = idx.trim().parse::<u32>()
    {
        let row = row.trim();
        let parsed = glibc_row(row).or_else(|| mac_row(row));
        let Some(parsed) = parsed else { return false };
        put_at(b, index, parsed, n);
        if index == 0 {
            let ti = b.current_thread();
            if let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.first_mut()) {
                f.signal_handler = true;
            }
        }
        return true;
    }
    b.add_message(rest, n);
    true
}

/// macOS `backtrace_symbols`: `0   libmodel.so     0x0000000104c1a2d0 _ZN4Core3getEv + 36`.
fn mac_row(r: &str) -> Option<Row<'_>> {
    let mut w = r.split_whitespace();
    let _depth: u32 = w.next()?.parse().ok()?;
    let module = w.next()?;
    let pc = parse_hex(w.next()?)?;
    let sym = w.next();
    Some(Row { pc, function: sym, module: Some(module) })
}

fn backward_line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    // `#3    Object "/home/dev/tool", at 0x55b3c1e4b2a6, in main`
    if let Some(r) = t.strip_prefix('#')
        && let Some((idx, rest)) = r.split_once(char::is_whitespace)
        && let Ok(index) = idx.parse::<u32>()
        && let Some(rest) = rest.trim_start().strip_prefix("Object \"")
        && let Some((module, rest)) = rest.split_once("\", at ")
        && let Some((pc, func)) = rest.split_once(", in ")
        && let Some(pc) = parse_hex(pc)
    {
        let module = module.rsplit('/').next().unwrap_or(module);
        put_at(b, index, Row { pc, function: Some(func.trim()), module: Some(module) }, n);
        b.handlers.last_frame = Some(index);
        return true;
    }
    // `      Source "/home/dev/tool/main.cpp", line 41, in main [0x55b3c1e4b2a6]`
    if let Some(rest) = t.strip_prefix("Source \"")
        && let Some((file, rest)) = rest.split_once("\", line ")
        && let Some((line, _)) = rest.split_once(", in ")
        && let Ok(line) = line.parse::<u32>()
    {
        if let Some(idx) = b.handlers.last_frame {
            let file = b.intern(file);
            let si = b.ensure_stop();
            let ti = b.current_thread();
            if let Some(f) =
                b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.iter_mut().find(|f| f.index == idx))
            {
                f.file = Some(file);
                f.line = Some(line);
            }
        }
        return true;
    }
    // The source snippet: `         38: int main(…) {`, `      >  41:     return run(cfg);`.
    if l.starts_with(' ') {
        let s = t.strip_prefix('>').unwrap_or(t).trim_start();
        if let Some((num, _)) = s.split_once(':')
            && !num.is_empty()
            && num.bytes().all(|c| c.is_ascii_digit())
        {
            return true;
        }
    }
    end(b)
}

/// A macOS crash report (the `.crash` text of ReportCrash and Xcode): the header fields, the
/// exception (`Exception Type:  EXC_BAD_ACCESS (SIGSEGV)`, `Exception Codes: KERN_INVALID_ADDRESS
/// at 0x…`), `Crashed Thread:  N`, `VM Regions Near …` rows, `Thread N Crashed:: queue` with
/// `N   image   0x…  symbol + off (file:line)` rows, and the crashed thread's state.
fn mac_line(b: &mut Builder, t: &str, n: u32) -> bool {
    const HEADER: &[&str] = &[
        "Path:",
        "Identifier:",
        "Version:",
        "Code Type:",
        "Parent Process:",
        "Responsible:",
        "User ID:",
        "Date/Time:",
        "OS Version:",
        "Report Version:",
        "Anonymous UUID:",
        "Sleep/Wake UUID:",
        "Time Awake Since Boot:",
        "Time Since Wake:",
        "System Integrity Protection:",
        "Exception Note:",
        "Termination Signal:",
        "Termination Reason:",
        "Terminating Process:",
        "Logical CPU:",
        "Error Code:",
        "Trap Number:",
        "Interval Since Last Report:",
        "Crashes Since Last Report:",
        "Per-App Interval Since Last Report:",
        "Per-App Crashes Since Last Report:",
        "Application Specific Information:",
        "Hardware Model:",
        "Launch Time:",
        "Role:",
        "Beta Identifier:",
        "Incident Identifier:",
        "CrashReporter Key:",
    ];
    let opener = t.strip_prefix("Process:").is_some_and(|r| r.trim_end().ends_with(']') && r.contains(" ["))
        || t.starts_with("Exception Type:") && t.contains("EXC_");
    if opener && !b.handlers.mac {
        start(b, 0, "macOS crash report", n);
        b.handlers.mac = true;
        b.add_message(t, n);
        return true;
    }
    if !b.handlers.mac {
        return false;
    }
    let si = b.ensure_stop();
    if let Some(r) = t.strip_prefix("Exception Type:") {
        if let Some(sig) = r.split_once('(').and_then(|(_, x)| x.split_once(')')).map(|(x, _)| x.trim())
            && let Some(no) = crate::model::signals::signo(sig)
        {
            let reason = &mut b.trace.stops[si].reason;
            reason.signo = Some(no);
            reason.signal = crate::model::signals::name(no).map(Into::into);
        }
        b.add_message(t, n);
        return true;
    }
    if let Some(r) = t.strip_prefix("Exception Codes:") {
        let r = r.trim();
        let reason = &mut b.trace.stops[si].reason;
        if let Some((kind, a)) = r.split_once(" at ") {
            reason.address = parse_hex(a.trim()).map(Address);
            // What XNU's sendsig puts in si_code: SEGV_MAPERR / SEGV_ACCERR, and BUS_ADRERR for
            // a SIGBUS from EXC_BAD_ACCESS (the kernel raised it: the address is the fault's).
            reason.si_code = match (reason.signo, kind.trim()) {
                (Some(11), "KERN_INVALID_ADDRESS") => Some(1),
                (Some(11), "KERN_PROTECTION_FAILURE") => Some(2),
                (Some(7), "KERN_PROTECTION_FAILURE" | "KERN_INVALID_ADDRESS") => Some(2),
                _ => None,
            };
        }
        b.add_message(t, n);
        return true;
    }
    if let Some(r) = t.strip_prefix("Crashed Thread:") {
        if let Some(id) = r.split_whitespace().next().filter(|x| x.bytes().all(|c| c.is_ascii_digit())) {
            let ti = b.thread_by_id(id);
            for (i, th) in b.trace.stops[si].threads.iter_mut().enumerate() {
                th.crashed = i == ti;
            }
        }
        b.add_message(t, n);
        return true;
    }
    // `VM Region Info: 0x… is in 0x…-0x…;  bytes after start: …` and the region table's
    // heading (`REGION TYPE   START - END   [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL`).
    if t.starts_with("Process:")
        || HEADER.iter().any(|h| t.starts_with(h))
        || t.starts_with("VM Regions Near ")
        || t.starts_with("VM Region Info:")
        || t.starts_with("REGION TYPE ") && t.contains("START - END")
    {
        b.add_message(t, n);
        return true;
    }
    // `--> ` alone, and region rows: `    __TEXT   000000010a2f6000-000000010a323000 [  180K] r-x/rwx SM=COW  /path`
    // (`--->  STACK GUARD  38a1b8000-38a1bc000 [ 16K] ---/rwx SM=NUL  stack guard for thread 8`:
    // the row the fault address is in).
    if t == "-->"
        || t.contains(" [")
            && t.contains(" SM=")
            && t.split_whitespace()
                .any(|w| w.contains('-') && w.len() >= 17 && w.bytes().any(|c| c.is_ascii_hexdigit()))
    {
        b.add_message(t, n);
        return true;
    }
    // `Thread 0 Crashed:: Dispatch queue: com.apple.main-thread`, `Thread 1:: …`, `Thread 2:`,
    // `Thread 4 crashed with X86 Thread State (64-bit):`.
    if let Some(r) = t.strip_prefix("Thread ")
        && let Some(id) = r.split([' ', ':']).next().filter(|x| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit()))
        && (r[id.len()..].starts_with(':')
            || r[id.len()..].starts_with(" Crashed:")
            || r[id.len()..].starts_with(" crashed with "))
    {
        b.select_thread(id);
        let ti = b.current_thread();
        b.handlers.next_index = 0;
        // `Thread 8 Crashed:` names the crashed thread when no `Crashed Thread:` line did.
        if r[id.len()..].starts_with(" Crashed:")
            && !b.trace.stops[si].threads.iter().any(|t| t.crashed && &*t.id != id && !t.frames.is_empty())
        {
            for (i, th) in b.trace.stops[si].threads.iter_mut().enumerate() {
                th.crashed = i == ti;
            }
        }
        if r[id.len()..].starts_with(" crashed with ") {
            if r.contains("X86 Thread State (64-bit)") && b.trace.arch == Arch::Unknown {
                b.trace.arch = Arch::X86_64;
            }
            // The registers follow; no frames.
            b.handlers.next_index = u32::MAX;
        } else if let Some(th) = b.trace.stops[si].threads.get_mut(ti) {
            th.name = r.split_once(":: ").map(|(_, q)| q.trim().into()).or(th.name.take());
        }
        return true;
    }
    // `0   org.example.App   \t0x000000010a3114b8 -[Cls sel] + 280 (File.m:42)`.
    let mut w = t.splitn(2, char::is_whitespace);
    if let (Some(num), Some(rest)) = (w.next(), w.next())
        && num.bytes().all(|c| c.is_ascii_digit())
        && b.handlers.next_index != u32::MAX
        && let Some(p) = rest.find("\t0x").or_else(|| rest.find(" 0x"))
    {
        let image = rest[..p].trim();
        let after = rest[p + 1..].trim_start();
        let (pc, what) = after.split_once(' ').unwrap_or((after, ""));
        if let (Some(pc), Ok(index)) = (parse_hex(pc), num.parse::<u32>()) {
            let (what, loc) = match what.rsplit_once(" (") {
                Some((w, l)) if l.ends_with(')') && l.contains(':') => (w, Some(&l[..l.len() - 1])),
                _ => (what, None),
            };
            let name = what.rsplit_once(" + ").map_or(what, |(s, _)| s).trim();
            let function = (!name.is_empty() && !name.starts_with("0x") && name != "???").then(|| b.intern(name));
            put_located_frame(b, n, index, pc, function, loc, Some(image));
            return true;
        }
    }
    // Thread state rows: `  rax: 0x0000000000000000  rbx: 0x00007fa1c3e1b2a0 …`.
    let words: Vec<&str> = t.split_whitespace().collect();
    if !words.is_empty()
        && words.len().is_multiple_of(2)
        && words.chunks(2).all(|c| c[0].ends_with(':') && c[1].starts_with("0x"))
    {
        for c in words.chunks(2) {
            let k = c[0].trim_end_matches(':');
            let name = if k == "rfl" { "eflags" } else { k };
            b.put_register(name, parse_hex(c[1]), None, n);
        }
        return true;
    }
    false
}

/// A row of Node.js's native stack: ` 4: 0xa241c1 node::TTYWrap::Initialize(…) [node]`,
/// ` 6: 0xb96717  [node]`, ` 8: 0x2a1e5d94fc5d ` (JIT code), Windows's ` 1: node::DecodeWrite`.
/// Files a frame read from a crash reporter's row on the current thread: `loc` is `file:line`
/// (or a bare file), `module` the image it names (empty means none).
fn put_located_frame(
    b: &mut Builder,
    n: u32,
    index: u32,
    pc: u64,
    function: Option<Sym>,
    loc: Option<&str>,
    module: Option<&str>,
) {
    let (file, line) = match loc.and_then(|x| x.rsplit_once(':')) {
        Some((f, ln)) => (Some(b.intern(f)), ln.parse().ok()),
        None => (None, None),
    };
    let ti = b.current_thread();
    let frame = Frame {
        index,
        pc: Some(Address(pc)),
        function,
        file,
        line,
        module: module.filter(|m| !m.is_empty()).map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    };
    b.put_frame(ti, frame);
}

fn node_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t == "----- Native stack trace -----" || t == "----- JavaScript stack trace -----" {
        return true;
    }
    let Some((num, rest)) = t.split_once(": ") else { return end(b) };
    if num.is_empty() || !num.bytes().all(|c| c.is_ascii_digit()) {
        return end(b);
    }
    let rest = rest.trim();
    let (pc, rest) = match rest.split_once(' ') {
        Some((p, r)) if p.starts_with("0x") => (parse_hex(p), r.trim()),
        None if rest.starts_with("0x") => (parse_hex(rest), ""),
        _ => (None, rest),
    };
    let (name, module) = match rest.rsplit_once(" [").or_else(|| rest.strip_prefix('[').map(|r| ("", r))) {
        Some((nm, m)) if m.ends_with(']') => (nm.trim(), Some(&m[..m.len() - 1])),
        _ => (rest, None),
    };
    let function = (!name.is_empty()).then(|| {
        let d = crate::symbolize::demangle::demangle(name);
        b.intern(crate::symbolize::demangle::strip_params(&d))
    });
    let index = b.handlers.next_index;
    b.handlers.next_index += 1;
    let frame = Frame {
        index,
        pc: pc.map(Address),
        function,
        module: module.map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    };
    let ti = b.current_thread();
    b.put_frame(ti, frame);
    true
}

/// One line of Wine's debugger report after `Unhandled exception:`.
fn wine_line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    if matches!(t, "Register dump:" | "Stack dump:" | "Backtrace:" | "Modules:" | "Threads:" | "System information:") {
        return true;
    }
    // Register rows: ` EIP:01fd9418 ESP:0022ed84 EBP:0022ee0c EFLAGS:00010246(  R- --  I  Z- -P- )`,
    // ` rip:0000000493b2e1 rsp:… eflags:00000246 (   - --  I  Z- -P- )`, ` CS:0023 SS:002b …`.
    let head = t.split('(').next().unwrap_or(t);
    let regs: Vec<(&str, &str)> = head.split_whitespace().filter_map(|w| w.split_once(':')).collect();
    if !regs.is_empty()
        && regs.len() == head.split_whitespace().count()
        && regs.iter().all(|(k, v)| {
            !k.is_empty()
                && k.len() <= 6
                && k.bytes().all(|c| c.is_ascii_alphanumeric())
                && !v.is_empty()
                && v.len() <= 16
                && v.bytes().all(|c| c.is_ascii_hexdigit())
        })
    {
        let si = b.ensure_stop();
        b.thread = Some(b.current_thread()).filter(|&x| x < b.trace.stops[si].threads.len());
        for (k, v) in regs {
            b.put_register(&k.to_ascii_lowercase(), u64::from_str_radix(v, 16).ok(), None, n);
        }
        return true;
    }
    // The end of an `EFLAGS:00010246(  R- --  I  Z- -P- )` row the terminal wrapped: `P- )`.
    if t.ends_with(')')
        && t.len() <= 24
        && !t.contains('(')
        && t.bytes().all(|c| matches!(c, b' ' | b'-' | b')') || c.is_ascii_uppercase())
    {
        return true;
    }
    // The faulting instruction when the pc is in no code: `0x42424242: -- no code accessible --`.
    if let Some((a, rest)) = t.split_once(": ")
        && parse_hex(a).is_some()
        && rest.trim() == "-- no code accessible --"
    {
        b.add_message(t, n);
        return true;
    }
    // Stack dump rows: `0x0022ed84:  00000000 68e9a44e 6ed9e538 86000000`.
    if let Some((a, rest)) = t.split_once(": ")
        && parse_hex(a).is_some()
        && !rest.is_empty()
        && rest.split_whitespace().all(|w| w.bytes().all(|c| c.is_ascii_hexdigit()))
    {
        b.add_message(t, n);
        return true;
    }
    // Backtrace rows: `=>0 0x01fd9418 EntryPoint+0x305af() in syncsvc_main (0x0022ee0c)`,
    // `  3 0x6ed9e03c f+0xeac(hwnd=…) [Z:\\…\\winpos.c:3056] in user32 (0x0022eeb8)`,
    // `=>0 0x0000000493b2e1 in webcore5 (+0x2cbb2e1) (0000000000000000)`.
    let row = t.strip_prefix("=>").unwrap_or(t);
    if let Some((num, rest)) = row.split_once(' ')
        && let Ok(index) = num.parse::<u32>()
        && let Some((pc, rest)) = rest.trim_start().split_once(' ')
        && let Some(pc) = parse_hex(pc)
    {
        let rest = rest.trim();
        let (what, module) = match rest.rsplit_once(" in ").or_else(|| rest.strip_prefix("in ").map(|r| ("", r))) {
            Some((w, m)) => (w.trim(), Some(m.split(" (").next().unwrap_or(m).trim())),
            None => (rest, None),
        };
        let (what, loc) = match what.rsplit_once(" [") {
            Some((w, l)) if l.ends_with(']') => (w, Some(&l[..l.len() - 1])),
            _ => (what, None),
        };
        let name = what.split(['+', '(']).next().unwrap_or("").trim();
        let function = (!name.is_empty()).then(|| b.intern(name));
        put_located_frame(b, n, index, pc, function, loc, module);
        return true;
    }
    // The faulting instruction: `0x01fd9418 EntryPoint+0x305af in syncsvc_main: movl\t0x0(%edi),%eax`.
    if let Some((head, text)) = t.split_once(": ")
        && let Some(a) = head.split_whitespace().next().and_then(parse_hex)
        && head.contains(' ')
    {
        let (thread, frame) = b.selection();
        let si = b.ensure_stop();
        b.trace.stops[si].disassembly.push(Instruction {
            address: Address(a),
            thread,
            frame,
            location: None,
            text: text.trim().into(),
            bytes: None,
            current: true,
            span: Span::line(n),
        });
        return true;
    }
    // `Module\tAddress\t\t\tDebug info\tName (4 modules)`, `PE\t00400000-00553000\tDeferred        x`,
    // `  \\-PE\t7b420000-7b7f0000\t\\               kernel32`.
    let first = t.split_whitespace().next().unwrap_or("");
    if t.starts_with("Module\t")
        || t.starts_with("Module ") && t.contains("Debug info")
        || matches!(first.trim_start_matches("\\-"), "PE" | "ELF" | "PE-Wine" | "ELF-Wine")
            && t.split_whitespace().nth(1).is_some_and(|r| r.contains('-'))
    {
        b.add_message(t, n);
        return true;
    }
    let _ = l;
    end(b)
}

/// One line of CPython's faulthandler report.
fn python_line(b: &mut Builder, t: &str, n: u32) -> bool {
    // `Current thread 0x00007f3c2d91e740 (most recent call first):`, `Thread 0x… (most recent call first):`.
    let current = t.starts_with("Current thread 0x");
    if (current || t.starts_with("Thread 0x")) && t.ends_with(':') {
        let id = t.split_whitespace().nth(if current { 2 } else { 1 }).unwrap_or("");
        b.select_thread(id);
        b.handlers.next_index = 0;
        if current {
            let si = b.ensure_stop();
            for th in b.trace.stops[si].threads.iter_mut() {
                th.crashed = &*th.id == id;
            }
        }
        return true;
    }
    // `  File "/x/model.py", line 131 in train`.
    if let Some(r) = t.strip_prefix("File \"")
        && let Some((file, rest)) = r.split_once("\", line ")
        && let Some((line, func)) = rest.split_once(" in ")
        && let Ok(line) = line.parse::<u32>()
    {
        let index = b.handlers.next_index;
        b.handlers.next_index += 1;
        let frame = Frame {
            index,
            function: Some(b.intern(func.trim())),
            file: Some(b.intern(file)),
            line: Some(line),
            span: Span::line(n),
            ..Default::default()
        };
        let ti = b.current_thread();
        b.put_frame(ti, frame);
        return true;
    }
    // `  <no Python frame>`, `Extension modules: numpy.core._multiarray_umath, … (total: 12)`.
    if t == "<no Python frame>" || t.starts_with("Extension modules: ") || t.starts_with("Python runtime state: ") {
        b.add_message(t, n);
        return true;
    }
    end(b)
}

/// `#0  0x00007f3ac4c6697d 0x7f3ac4c6697d` (no symbol), `#4  0x00007f3ac454f673
/// pmalloc_create_shared_arena + 0x213`. The row at the pc the report named is the faulting
/// frame: the rows before it are the handler's own and the signal trampoline.
fn signal_row(b: &mut Builder, t: &str, n: u32) -> bool {
    let Some(r) = t.strip_prefix('#') else { return end(b) };
    let Some((num, rest)) = r.split_once(char::is_whitespace) else { return end(b) };
    let Ok(index) = num.parse::<u32>() else { return end(b) };
    let rest = rest.trim();
    let (pc, what) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let Some(pc) = parse_hex(pc) else { return end(b) };
    let what = what.trim();
    let name = what.rsplit_once(" + ").map_or(what, |(s, _)| s).trim();
    let function = (!name.is_empty() && parse_hex(name).is_none()).then(|| b.intern(name));
    let ti = b.current_thread();
    let si = b.ensure_stop();
    if b.handlers.named_pc == Some(pc) {
        // The frames before this one were the handler's; the last of them is the trampoline.
        if let Some(last) = b.trace.stops[si].threads[ti].frames.last_mut() {
            last.signal_handler = true;
        }
    }
    let frame = Frame { index, pc: Some(Address(pc)), function, span: Span::line(n), ..Default::default() };
    b.put_frame(ti, frame);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(p: &crate::model::Parsed) -> Vec<(u32, String)> {
        p.trace.stops[0].threads[0]
            .frames
            .iter()
            .map(|f| (f.index, f.function.as_deref().unwrap_or("??").to_string()))
            .collect()
    }

    #[test]
    fn glibc_error_with_backtrace_and_maps() {
        let t = "*** Error in `/x/interp': realloc(): invalid next size: 0x0000000001a6e2b0 ***
======= Backtrace: =========
/lib/x86_64-linux-gnu/libc.so.6(realloc+0x179)[0x7fb0c3a1ec89]
/x/interp[0x43a1bf]
[0x6e3f1c27]
======= Memory map: ========
00400000-0047a000 r-xp 00000000 fc:01 5121803                            /x/interp
01a6e000-01ab0000 rw-p 00000000 00:00 0                                  [heap]
7ffd3e1c2000-7ffd3e1e3000 rw-p 00000000 00:00 0
Aborted (core dumped)
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let stop = &p.trace.stops[0];
        assert_eq!(stop.reason.signo, Some(6));
        assert!(stop.messages.iter().any(|m| m.kind == Some(MessageKind::HeapCorruption)));
        assert_eq!(frames(&p), [(0, "realloc".to_string()), (1, "??".into()), (2, "??".into())]);
        assert_eq!(stop.threads[0].frames[1].pc, Some(Address(0x43a1bf)));
        assert_eq!(p.trace.mappings.len(), 3);
        assert_eq!(p.trace.mappings[1].path.as_deref(), Some("[heap]"));
        assert_eq!(p.trace.mappings[2].path, None);
    }

    #[test]
    fn glog_failure_handler() {
        let t = "*** Aborted at 1710148364 (unix time) try \"date -d @1710148364\" if you are using GNU date ***
PC: @     0x55c1d8e3ae04 refine()
*** SIGSEGV (@0x18) received by PID 77410 (TID 0x7f2a7d9f1b80) from PID 24; stack trace: ***
    @     0x7f2a81c4a520 (unknown)
    @     0x55c1d8e3ae04 refine()
    @     0x55c1d8e31aff main
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let r = &p.trace.stops[0].reason;
        assert_eq!((r.signo, r.address), (Some(11), Some(Address(0x18))));
        assert_eq!(frames(&p), [(0, "??".to_string()), (1, "refine".into()), (2, "main".into())]);
    }

    #[test]
    fn openmpi_report() {
        let t = "[node7:4410] *** Process received signal ***
[node7:4410] Signal: Segmentation fault (11)
[node7:4410] Signal code: Address not mapped (1)
[node7:4410] Failing at address: 0x10
[node7:4410] [ 0] /lib64/libpthread.so.0(+0xf630)[0x7f9a1c6e3630]
[node7:4410] [ 1] ./solver(_ZN6Solver4stepEv+0x2c)[0x401b2c]
[node7:4410] [ 2] 0   simx    0x00000001023e1bc0 main + 220
[node7:4410] *** End of error message ***
Segmentation fault: 11
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let r = &p.trace.stops[0].reason;
        assert_eq!((r.signo, r.si_code, r.address), (Some(11), Some(1), Some(Address(0x10))));
        assert_eq!(frames(&p), [(0, "??".to_string()), (1, "Solver::step".into()), (2, "main".into())]);
        assert!(p.trace.stops[0].threads[0].frames[0].signal_handler);
    }

    #[test]
    fn backward_cpp_report() {
        let t = "Stack trace (most recent call last):
#1    Object \"/x/tool\", at 0x55b3c1e4af5c, in Table::at(unsigned long) const
      Source \"/x/table.h\", line 19, in at [0x55b3c1e4af5c]
         18:     return rows_[i];
      >  19: }
#0    Object \"/x/tool\", at 0x55b3c1e4ae12, in Row::cell(unsigned long) const
Segmentation fault (Address not mapped to object [(nil)])
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        assert_eq!(frames(&p), [(0, "Row::cell".to_string()), (1, "Table::at".into())]);
        let f1 = &p.trace.stops[0].threads[0].frames[1];
        assert_eq!((f1.file.as_deref(), f1.line), (Some("/x/table.h"), Some(19)));
        // psiginfo's line after the frames names the fault (`[(nil)]` is a NULL si_addr).
        let r = &p.trace.stops[0].reason;
        assert_eq!((r.signo, r.si_code, r.address), (Some(11), Some(1), Some(Address(0))));
    }

    #[test]
    fn look_alikes_are_not_reports() {
        assert!(glibc_row("see [0x10]").is_none());
        assert!(glibc_row("a b(+0x1)[0x2]").is_none());
        assert!(openmpi_rest("[a:b] x").is_none());
        assert!(mac_row("0 x y z").is_none());
        // Newer glibc's one line before gdb's stop is a message of that stop, not a report.
        let p = crate::input::parse(
            "*** stack smashing detected ***: terminated\n\nProgram received signal SIGABRT, Aborted.\n",
        );
        assert_eq!(p.trace.stops.len(), 1);
        assert!(!p.trace.formats.contains(&Format::Handler));
        assert_eq!(p.trace.stops[0].messages.len(), 1);
        let p = crate::input::parse("*** Aborted ***\n");
        assert!(!p.trace.formats.contains(&Format::Handler));
        assert_eq!(p.diagnostics.lines_unrecognized, 1);
    }
}
