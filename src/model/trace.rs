//! The trace itself: stops, threads, frames, memory, mappings.

use super::registers::RegisterSet;
use super::symbols::{Location, Natural, SymbolRef};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// An address or register value. Prints as lowercase `0x…` hex, padded to 16 digits when
/// it is pointer-sized (`{:#}` prints it unpadded).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Address(pub u64);

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() { write!(f, "0x{:x}", self.0) } else { write!(f, "0x{:016x}", self.0) }
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:x}", self.0)
    }
}

impl Serialize for Address {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("0x{:x}", self.0))
    }
}

/// Where a fact came from: 1-based line numbers, inclusive, in the (cleaned) input.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Span {
    pub first: u32,
    pub last: u32,
}

impl Span {
    pub fn line(n: u32) -> Span {
        Span { first: n, last: n }
    }
    /// Grows the span so that it also covers line `n`.
    pub fn extend_to(&mut self, n: u32) {
        if self.first == 0 {
            self.first = n;
        }
        if n > self.last {
            self.last = n;
        }
    }
}

/// A string shared between many frames (function and file names repeat a lot in
/// `thread apply all bt` output, so parsers intern them).
pub type Sym = Arc<str>;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Arch {
    X86_64,
    Aarch64,
    X86,
    Arm,
    Riscv64,
    /// 64-bit POWER (big or little endian: gdb names the registers alike).
    Ppc64,
    S390x,
    #[default]
    Unknown,
}

impl Arch {
    pub fn name(self) -> Option<&'static str> {
        match self {
            Arch::X86_64 => Some("x86_64"),
            Arch::Aarch64 => Some("aarch64"),
            Arch::X86 => Some("x86"),
            Arch::Arm => Some("arm"),
            Arch::Riscv64 => Some("riscv64"),
            Arch::Ppc64 => Some("ppc64"),
            Arch::S390x => Some("s390x"),
            Arch::Unknown => None,
        }
    }
    /// The name the JSON contract `tracecheck/1` allows in `arch` (`x86_64`, `aarch64`, `x86`,
    /// `arm`, `riscv64`); architectures read since the contract was fixed have none there and
    /// are named in `arch_detail` instead.
    pub fn contract_name(self) -> Option<&'static str> {
        match self {
            Arch::Ppc64 | Arch::S390x => None,
            other => other.name(),
        }
    }
    /// The register that holds the program counter, as debuggers name it.
    pub fn pc_register(self) -> &'static str {
        match self {
            Arch::X86_64 => "rip",
            Arch::X86 => "eip",
            _ => "pc",
        }
    }
    pub fn sp_register(self) -> &'static str {
        match self {
            Arch::X86_64 => "rsp",
            Arch::X86 => "esp",
            _ => "sp",
        }
    }
}

/// Which dialect(s) of text an input held. Reported in `formats`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Gdb,
    Rr,
    Julia,
    Go,
    Lldb,
    Core,
    /// AddressSanitizer (and LeakSanitizer) reports.
    Asan,
    /// UndefinedBehaviorSanitizer `runtime error:` lines.
    Ubsan,
    /// ThreadSanitizer reports.
    Tsan,
    /// MemorySanitizer reports.
    Msan,
    /// valgrind (memcheck) `==PID==` output.
    Valgrind,
    /// strace's signal and exit lines.
    Strace,
    /// Kernel log lines (`dmesg`, `journalctl -k`).
    Kernel,
    /// LLVM's crash handler output (`PLEASE submit a bug report…`, `Stack dump:`).
    Llvm,
    /// `coredumpctl info` (systemd-coredump's report with `Stack trace of thread N:`).
    Coredump,
    /// The Rust runtime's panic and stack-overflow reports (`thread 'main' panicked at …`).
    Rust,
    /// Android's debuggerd tombstone (`*** *** ***`, `backtrace:`, `#00 pc …`).
    Tombstone,
    /// A report from the program's own signal handler or its C library: glibc's `*** Error in`
    /// with `======= Backtrace:` and `======= Memory map:`, glog's failure handler, Open MPI's
    /// `*** Process received signal ***`, backward-cpp's `Stack trace (most recent call last):`.
    Handler,
}

impl Format {
    /// Every format, in the order `formats` lists them.
    pub const ALL: [Format; 18] = [
        Format::Gdb,
        Format::Rr,
        Format::Julia,
        Format::Go,
        Format::Lldb,
        Format::Core,
        Format::Asan,
        Format::Ubsan,
        Format::Tsan,
        Format::Msan,
        Format::Valgrind,
        Format::Strace,
        Format::Kernel,
        Format::Llvm,
        Format::Coredump,
        Format::Rust,
        Format::Tombstone,
        Format::Handler,
    ];
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Gdb => "gdb",
            Format::Rr => "rr",
            Format::Julia => "julia",
            Format::Go => "go",
            Format::Lldb => "lldb",
            Format::Core => "core",
            Format::Asan => "asan",
            Format::Ubsan => "ubsan",
            Format::Tsan => "tsan",
            Format::Msan => "msan",
            Format::Valgrind => "valgrind",
            Format::Strace => "strace",
            Format::Kernel => "kernel",
            Format::Llvm => "llvm",
            Format::Coredump => "coredump",
            Format::Rust => "rust",
            Format::Tombstone => "tombstone",
            Format::Handler => "handler",
        }
    }
}

/// Why the program was stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StopKind {
    /// A signal was delivered (or a core was written because of one).
    Signal,
    Breakpoint,
    Watchpoint,
    /// The process exited (normally or with a status).
    Exited,
    /// A runtime printed a fatal error without a signal (Go `fatal error:`, Julia assertion).
    RuntimeError,
    /// An rr `[FATAL ...]` or assertion inside rr itself.
    RrFatal,
    /// A core written of a process that had not crashed (gdb's `gcore` of a running process,
    /// `generate-core-file` at a breakpoint or a step, a core with no signal at all): a
    /// snapshot. The signal (gcore's SIGSTOP, the breakpoint's SIGTRAP) is kept in `signal`;
    /// no thread crashed.
    Snapshot,
    /// Stopped for a reason the transcript does not say (e.g. only `bt` was pasted).
    #[default]
    Unknown,
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct StopReason {
    pub kind: StopKind,
    /// `SIGSEGV`, `SIGABRT`, … when known.
    pub signal: Option<Sym>,
    pub signo: Option<i32>,
    /// `si_code` as a number, when printed.
    pub si_code: Option<i32>,
    /// `si_addr` (the fault address) when printed.
    pub address: Option<Address>,
    /// The human description printed with the stop (`Segmentation fault`, breakpoint location…).
    pub description: Option<Box<str>>,
    /// Breakpoint/watchpoint number, or the exit status for `Exited`.
    pub number: Option<i64>,
    /// Watchpoint `Old value` / `New value` text.
    pub old_value: Option<Box<str>>,
    pub new_value: Option<Box<str>>,
    /// A Julia `ERROR:` description, typed (filled at input time for runtime-error stops).
    pub julia_error: Option<JuliaErrorText>,
    /// Set on the handled-fault view of a stop (`crate::handled_fault`): where this fault's
    /// siginfo comes from instead of gdb's `$_siginfo` (`the handler's report`), and the lines
    /// it rests on.
    pub fault_source: Option<(&'static str, Option<Span>)>,
    /// The signal arrived inside a function the debugger called (`p f(x)`; gdb: `The program
    /// being debugged was signaled while in a function called from GDB.`): gdb abandoned that
    /// call, so the stop is not the program's crash.
    pub in_called_function: bool,
    /// A SIGTRAP whose siginfo was not printed, where the transcript's disassembly shows the
    /// trap instruction that raised it: `int3` ending at frame #0's pc (x86), `brk` at the pc
    /// (AArch64). lldb prints `stop reason = signal SIGTRAP` only for a trap it did not plant
    /// (its own are `breakpoint N.M`), and prints no siginfo; set by the input's finish step,
    /// or at read time for lldb's `EXC_BREAKPOINT` (the program's own `brk`/`int3` on macOS).
    pub trap_shown: bool,
    pub span: Span,
}

impl StopReason {
    /// A signal some process sent with kill/tgkill/sigqueue (`si_code` <= 0: SI_USER, SI_QUEUE,
    /// SI_TKILL, …), not one the kernel raised for an instruction of the thread. Such a
    /// SIGSEGV/SIGBUS/SIGILL/SIGFPE stops the program wherever it was, in a legal state (a
    /// watchdog, `kill -SEGV` from a shell, a profiler); `raise()` in the program is one too.
    /// `false` when `si_code` was not printed.
    pub fn is_sent(&self) -> bool {
        self.kind == StopKind::Signal && self.si_code.is_some_and(|c| c <= 0)
    }

    /// A stop that is not a crash: a breakpoint, a watchpoint, or a signal that debuggers stop
    /// on or that ends a process without a fault (SIGTRAP, SIGINT, SIGUSR1, SIGTERM…). Such a
    /// stop has no crashed thread and no culprit; crash-only findings do not apply.
    pub fn is_non_crash(&self) -> bool {
        if self.in_called_function {
            return true;
        }
        match self.kind {
            StopKind::Breakpoint | StopKind::Watchpoint | StopKind::Snapshot => true,
            StopKind::Signal if self.is_trap_instruction() => false,
            StopKind::Signal => matches!(
                self.signal.as_deref(),
                Some(
                    "SIGTRAP"
                        | "SIGINT"
                        | "SIGUSR1"
                        | "SIGUSR2"
                        | "SIGSTOP"
                        | "SIGTSTP"
                        | "SIGCONT"
                        | "SIGCHLD"
                        | "SIGWINCH"
                        | "SIGPROF"
                        | "SIGALRM"
                        | "SIGVTALRM"
                        | "SIGTTIN"
                        | "SIGTTOU"
                        | "SIGURG"
                        | "SIGIO"
                        | "SIGPWR"
                        | "SIGHUP"
                        | "SIGTERM"
                        | "SIGPIPE"
                )
            ),
            _ => false,
        }
    }

    /// A SIGTRAP raised by a trap instruction the program itself executed: x86 `int3`
    /// (`si_code` SI_KERNEL, 128) or an AArch64 `brk` (`__builtin_trap`, Rust's and Swift's
    /// aborts; TRAP_BRKPT, 1), reported as a signal, not as one of the debugger's own
    /// breakpoints. Without a debugger the process dies of it: a crash, with a culprit. A
    /// SIGTRAP without its `si_code` is one only when the transcript's disassembly shows the
    /// trap instruction at the pc ([`StopReason::trap_shown`]); one sent with kill/raise
    /// (SI_USER, SI_TKILL), or from single-stepping stays a debugger stop.
    pub fn is_trap_instruction(&self) -> bool {
        self.kind == StopKind::Signal
            && (self.signal.as_deref() == Some("SIGTRAP") || self.signo == Some(5))
            && (matches!(self.si_code, Some(128) | Some(1)) || (self.si_code.is_none() && self.trap_shown))
    }

    /// The symbolic `si_code` name for this signal (`SEGV_MAPERR`, `SI_KERNEL`, …).
    pub fn code_name(&self) -> Option<&'static str> {
        let code = self.si_code?;
        super::signals::si_code_name(
            self.signo.or_else(|| self.signal.as_deref().and_then(super::signals::signo))?,
            code,
        )
    }
}

/// One line of a backtrace.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Frame {
    /// gdb's frame number (`#3`). For runtime traces without numbers, the position.
    pub index: u32,
    pub pc: Option<Address>,
    /// Function name as printed (demangled when the debugger demangled it). `None` for `??`.
    pub function: Option<Sym>,
    /// The argument list as printed, without the parentheses.
    pub args: Option<Box<str>>,
    pub file: Option<Sym>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// The shared object the pc is in (`from /lib/libc.so.6`), or the Go/Julia module.
    pub module: Option<Sym>,
    /// This frame's code was inlined into the next outer frame (`index + 1`): the two share
    /// one real stack frame, so they have the same pc and registers. gdb shows it by printing
    /// the *outer* frame without an address; Julia prints `[inlined]` on this frame itself.
    pub inlined: bool,
    /// gdb's `<signal handler called>` marker frame.
    pub signal_handler: bool,
    /// Locals printed by `bt full`, one `name = value` per line, as printed.
    pub locals: Option<Box<str>>,
    /// What `args` says, typed ([`ArgFacts`]; read with [`Frame::string_args`],
    /// [`Frame::int_args`], …). The reader that filled `args` sets how it is typed when it
    /// hands the trace over; the typing runs on the first read, so the frames no rule looks
    /// at (most of a `thread apply all bt`) cost nothing.
    pub arg_facts: ArgFactsCell,
    pub span: Span,
}

/// The typed facts of a frame's argument list: everything a rule needs from it, so nothing
/// downstream parses the list.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ArgFacts {
    /// The C string arguments (`str=0x… "free(): …"`), unescaped, each with what its text
    /// says when it is a fatal message.
    pub string_args: Vec<StringArg>,
    /// The arguments printed as decimal integers (`line=9`, `line=line@entry=9`).
    pub int_args: Vec<(Sym, i64)>,
    /// The pointer arguments printed as exactly `0x0` (`p=0x0`, `p=p@entry=0x0`).
    pub null_args: Vec<Sym>,
    /// Arguments whose entry value differs from their value now (`p=0x0, p@entry=0x…`).
    pub entry_values: Vec<EntryValue>,
    /// Every `0x… <sym>` in `args` (`cb=0x401126 <handler>`).
    pub arg_symbols: Vec<(Address, SymbolRef)>,
    /// Function-pointer arguments and the function each names: gdb's
    /// `main=main@entry=0x555555555139 <main>`, lldb's `main=(prog\`main at prog.c:9:1)`.
    pub fn_args: Vec<(Sym, Sym)>,
    /// A member function's `this` as printed in hex (`this=0x0`, `this=0x555555f2c4a0`).
    pub this_ptr: Option<u64>,
}

static NO_ARG_FACTS: ArgFacts = ArgFacts {
    string_args: Vec::new(),
    int_args: Vec::new(),
    null_args: Vec::new(),
    entry_values: Vec::new(),
    arg_symbols: Vec::new(),
    fn_args: Vec::new(),
    this_ptr: None,
};

/// How a frame's argument list is typed: a function of the list's text, given by the reader
/// that parsed it (the model itself imports no parser).
pub type ArgTyper = fn(&str) -> ArgFacts;

/// A frame's [`ArgFacts`], computed on the first read. Empty (no typer) until the reader
/// sets one ([`ArgFactsCell::typed_by`]); two cells compare equal when both or neither have
/// a typer, since the facts are a function of the frame's `args`.
#[derive(Clone, Default)]
pub struct ArgFactsCell {
    typer: Option<ArgTyper>,
    facts: std::sync::OnceLock<Box<ArgFacts>>,
}

impl ArgFactsCell {
    /// A cell whose facts `typer` computes from the frame's argument list when first read.
    pub fn typed_by(typer: ArgTyper) -> Self {
        ArgFactsCell { typer: Some(typer), facts: std::sync::OnceLock::new() }
    }
    /// Whether the facts were computed (read) already.
    pub fn is_computed(&self) -> bool {
        self.facts.get().is_some()
    }
    fn get(&self, args: Option<&str>) -> &ArgFacts {
        match (self.typer, args) {
            (Some(typer), Some(args)) => self.facts.get_or_init(|| Box::new(typer(args))),
            _ => &NO_ARG_FACTS,
        }
    }
}

impl PartialEq for ArgFactsCell {
    fn eq(&self, other: &Self) -> bool {
        self.typer.is_some() == other.typer.is_some()
    }
}

impl Eq for ArgFactsCell {}

impl fmt::Debug for ArgFactsCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArgFactsCell").field("typed", &self.typer.is_some()).finish()
    }
}

/// A C string argument of a frame (`str=0x7ffff7f5d2c8 "free(): invalid pointer"`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StringArg {
    pub name: Sym,
    /// The string, unescaped.
    pub text: Box<str>,
    /// What the string says when it is one of the fatal messages (`malloc_printerr`'s `str`,
    /// `__fortify_fail`'s `msg`), typed like a [`Message`]'s detail.
    pub detail: Option<MessageDetail>,
}

impl Frame {
    /// `buffer_release at src/glibc-abort.c:10`, or just the name when there is no line.
    pub fn location(&self) -> String {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => format!("{} at {file}:{line}", self.function_name()),
            _ => self.function_name().to_string(),
        }
    }
    /// The typed facts of `args` (computed on the first read).
    pub fn arg_facts(&self) -> &ArgFacts {
        self.arg_facts.get(self.args.as_deref())
    }
    /// The C string arguments in `args` (`str=0x… "free(): …"`), unescaped, each with what
    /// its text says when it is a fatal message.
    pub fn string_args(&self) -> &[StringArg] {
        &self.arg_facts().string_args
    }
    /// The arguments printed as decimal integers (`line=9`, `line=line@entry=9`).
    pub fn int_args(&self) -> &[(Sym, i64)] {
        &self.arg_facts().int_args
    }
    /// The pointer arguments printed as exactly `0x0` (`p=0x0`, `p=p@entry=0x0`).
    pub fn null_args(&self) -> &[Sym] {
        &self.arg_facts().null_args
    }
    /// Arguments whose entry value differs from their value now (`p=0x0, p@entry=0x…`).
    pub fn entry_values(&self) -> &[EntryValue] {
        &self.arg_facts().entry_values
    }
    /// Every `0x… <sym>` in `args` (`cb=0x401126 <handler>`).
    pub fn arg_symbols(&self) -> &[(Address, SymbolRef)] {
        &self.arg_facts().arg_symbols
    }
    /// The function that function-pointer argument `name` names (`main=… <main>`).
    pub fn fn_arg(&self, name: &str) -> Option<&str> {
        self.arg_facts().fn_args.iter().find(|(n, _)| &**n == name).map(|(_, f)| &**f)
    }
    /// The C string gdb printed for argument `name`, unescaped (see `string_args`).
    pub fn arg_string(&self, name: &str) -> Option<&str> {
        self.string_arg(name).map(|a| &*a.text)
    }
    /// The C string argument `name`, typed (see `string_args`).
    pub fn string_arg(&self, name: &str) -> Option<&StringArg> {
        self.string_args().iter().find(|a| &*a.name == name)
    }
    /// The decimal integer gdb printed for argument `name` (see `int_args`).
    pub fn arg_int(&self, name: &str) -> Option<i64> {
        self.int_args().iter().find(|(n, _)| &**n == name).map(|(_, v)| *v)
    }
    /// `(name, value)` pairs from `bt full` locals.
    pub fn locals(&self) -> impl Iterator<Item = (&str, &str)> {
        // `str::lines`, `str::trim` and `split_once(" = ")`, with shortcuts: lines are split
        // with memchr (a "\r" before "\n" goes with the trim, empty lines are skipped either
        // way), the parser stores locals trimmed, and " = " is found from its '=' (no substring
        // searcher per line; names are short).
        let mut rest = self.locals.as_deref();
        std::iter::from_fn(move || {
            let r = rest?;
            match memchr::memchr(b'\n', r.as_bytes()) {
                Some(i) => {
                    rest = Some(&r[i + 1..]);
                    Some(&r[..i])
                }
                None => {
                    rest = None;
                    Some(r)
                }
            }
        })
        .filter_map(|l| {
            let l = match l.as_bytes() {
                [a, .., b] if a.is_ascii_graphic() && b.is_ascii_graphic() => l,
                [a] if a.is_ascii_graphic() => l,
                _ => l.trim(),
            };
            let b = l.as_bytes();
            let eq = (1..b.len().saturating_sub(1)).find(|&i| b[i] == b'=' && b[i - 1] == b' ' && b[i + 1] == b' ');
            match eq.map(|i| (&l[..i - 1], &l[i + 2..])) {
                Some((n, v)) => Some((n, v)),
                None if l == "No locals." || l.is_empty() => None,
                None => Some((l, "")),
            }
        })
    }
    pub fn function_name(&self) -> &str {
        self.function.as_deref().unwrap_or("??")
    }
}

/// A thread at one stop.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Thread {
    /// The debugger's thread number as printed (`1`, `3`, `1.2`), or a goroutine id.
    pub id: Box<str>,
    /// OS thread id (LWP) when printed.
    pub lwp: Option<u64>,
    pub name: Option<Box<str>>,
    /// `Thread 0x7ffff7d8a740 (LWP 123)`: the pthread_t.
    pub handle: Option<Address>,
    /// The thread the stop happened on (received the signal / was current).
    pub crashed: bool,
    /// Marked current (`*`) in `info threads`.
    pub current: bool,
    pub frames: Vec<Frame>,
    /// Why the backtrace ended early (`Backtrace stopped: …`), as printed.
    pub backtrace_stopped: Option<Box<str>>,
    /// The same reason, typed (filled at input time).
    pub backtrace_stop: Option<BacktraceStop>,
    /// Registers per frame index, when `info registers` was printed with that frame selected.
    pub registers: BTreeMap<u32, RegisterSet>,
    pub span: Span,
}

/// A run of memory words read with `x/` (or from a core).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MemoryDump {
    /// The expression the user asked for (`$sp`, `$r13`), when the command was echoed.
    pub expr: Option<Box<str>>,
    /// The thread selected when it was printed (register expressions like `$r13` are read
    /// in that thread and frame).
    pub thread: Option<Sym>,
    /// The frame selected when it was printed (`frame 4` then `x/4gx $r13` reads frame 4's r13).
    pub frame: u32,
    pub address: Address,
    /// Width of each unit in bytes (1, 2, 4, 8). 0 for strings.
    pub unit: u8,
    pub words: Vec<u64>,
    /// `x/s` output: the string as printed (with quotes and escapes).
    pub string: Option<Box<str>>,
    pub span: Span,
}

impl MemoryDump {
    /// Reads the 8-byte word at `addr` from this dump, if it covers it (little-endian).
    pub fn read_u64(&self, addr: u64) -> Option<u64> {
        // Words are held in a u64: only units of 1, 2, 4 and 8 bytes can be read back.
        if !matches!(self.unit, 1 | 2 | 4 | 8) || self.words.is_empty() {
            return None;
        }
        let unit = self.unit as u64;
        let start = self.address.0;
        let end = start.checked_add(unit.checked_mul(self.words.len() as u64)?)?;
        if addr < start || addr.checked_add(8)? > end {
            return None;
        }
        let mut v: u64 = 0;
        for i in 0..8u64 {
            let a = addr + i;
            let idx = ((a - start) / unit) as usize;
            let shift = ((a - start) % unit) * 8;
            let byte = (self.words[idx] >> shift) & 0xff;
            v |= byte << (8 * i);
        }
        Some(v)
    }
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Instruction {
    pub address: Address,
    /// The thread selected when it was printed.
    pub thread: Option<Sym>,
    /// The frame selected when it was printed: `=>` marks that frame's pc (the return address
    /// for an outer frame), so only frame 0's marker is the faulting instruction.
    pub frame: u32,
    /// `<main+16>` as printed, without the brackets; its symbol typed ([`Location::symbol`]).
    pub location: Option<Location>,
    /// Mnemonic and operands as printed (raw bytes, when printed, are in `bytes`).
    pub text: Box<str>,
    /// The machine code bytes gdb's `disassemble /r` printed before the text.
    pub bytes: Option<Box<[u8]>>,
    /// gdb's `=>` marker: the instruction at pc.
    pub current: bool,
    pub span: Span,
}

/// A value printed with `p` / `print`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PrintedValue {
    /// The expression, when the command was echoed (`$_siginfo`, `$rip`).
    pub expr: Option<Box<str>>,
    /// The thread selected when it was printed.
    pub thread: Option<Sym>,
    /// The frame selected when it was printed.
    pub frame: u32,
    /// `$1`
    pub history: Option<u32>,
    pub value: Box<str>,
    /// Every `0x… <sym>` in `value` (filled at input time).
    pub symbols: Vec<(Address, SymbolRef)>,
    /// Every `0x…` number in `value`, in order (filled at input time).
    pub words: Vec<u64>,
    /// The value shows a fault address (`si_addr`: a printed `$_siginfo`), filled at input
    /// time.
    pub shows_si_addr: bool,
    pub span: Span,
}

/// `info frame` output, kept to the facts rules use.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct FrameInfo {
    pub level: Option<u32>,
    /// The thread selected when it was printed.
    pub thread: Option<Sym>,
    /// `frame at 0x…`: the frame's CFA.
    pub frame_at: Option<Address>,
    pub pc: Option<Address>,
    /// The function named on the `rip = 0x… in f (file:line)` line.
    pub function: Option<Sym>,
    pub saved_pc: Option<Address>,
    /// The level of the inner frame (`caller of frame at …` was printed): `level - 1`.
    pub caller_of: Option<u32>,
    /// The level of the outer frame (`called by frame at …` was printed): `level + 1`.
    pub called_by: Option<u32>,
    /// `caller of frame at 0x…`: the inner frame's CFA.
    pub caller_of_frame_at: Option<Address>,
    /// `called by frame at 0x…`: the outer frame's CFA.
    pub called_by_frame_at: Option<Address>,
    /// `Arglist at 0x…`
    pub arglist_at: Option<Address>,
    /// `Locals at 0x…`
    pub locals_at: Option<Address>,
    /// `Previous frame's sp is 0x…`: the caller's sp after return (the CFA).
    pub previous_sp: Option<Address>,
    /// `source language c.`
    pub language: Option<Box<str>>,
    /// `Saved registers:` name -> address of the slot.
    pub saved_registers: Vec<(Sym, Address)>,
    pub span: Span,
}

/// One stop of the program: a point in time where it was inspected.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Stop {
    pub reason: StopReason,
    /// rr event number (`when`).
    pub rr_event: Option<u64>,
    pub rr_ticks: Option<u64>,
    pub threads: Vec<Thread>,
    pub memory: Vec<MemoryDump>,
    pub disassembly: Vec<Instruction>,
    pub printed: Vec<PrintedValue>,
    pub frame_info: Vec<FrameInfo>,
    /// `info symbol EXPR` answers.
    pub symbols: Vec<SymbolLookup>,
    /// rr `when-tid`: the recorded tid of the current task.
    pub rr_tid: Option<u64>,
    /// Reached by a reverse-execution command (`reverse-continue`, `reverse-step`…).
    pub reverse: bool,
    /// Messages the program or runtime printed that explain the stop
    /// (`free(): double free detected`, `thread 'main' panicked at …`, assertion text).
    pub messages: Vec<Message>,
    /// What a memory or thread checker (a sanitizer, valgrind) reported at this stop.
    pub checker: Option<CheckerReport>,
    /// memcheck's last `Warning: client switching stacks?  SP change: FROM --> TO` before this
    /// stop: (FROM, TO, the warning's line).
    pub sp_switch: Option<(Address, Address, Span)>,
    /// The code being run when the runtime stopped (Julia's `in expression starting at
    /// FILE:LINE`), as printed.
    pub expression: Option<Box<str>>,
    pub span: Span,
}

/// One error report of a memory or thread checker (AddressSanitizer, LeakSanitizer,
/// UndefinedBehaviorSanitizer, ThreadSanitizer, MemorySanitizer, valgrind memcheck).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CheckerReport {
    /// `AddressSanitizer`, `valgrind`…
    pub tool: Box<str>,
    /// The error class, normalized to the id of the rule that reports it:
    /// `heap-buffer-overflow`, `stack-buffer-overflow`, `use-after-free`, `double-free`,
    /// `memory-leak`, `data-race`, `uninitialized-read`, `undefined-behavior`,
    /// `invalid-access`; `None` for a class no rule covers (the report still is a stop).
    pub kind: Option<&'static str>,
    /// The error line as printed (`heap-buffer-overflow on address 0x… at pc …`).
    pub text: Box<str>,
    /// `READ of size 4 at 0x603000000060 thread T0`, `Invalid write of size 1`.
    pub access: Option<Box<str>>,
    /// The `SUMMARY:` line.
    pub summary: Option<Box<str>>,
    /// Raised at a system call (memcheck's `Syscall param write(buf) points to uninitialised
    /// byte(s)`): frame #0 is libc's wrapper, which passed on what its caller gave it.
    pub at_system_call: bool,
    pub span: Span,
}

/// One `info symbol EXPR` answer: `stream_fill + 49 in section .text of /path/prog`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SymbolLookup {
    /// The expression asked about, when the command was echoed.
    pub expr: Option<Box<str>>,
    /// `None` for `No symbol matches EXPR.`
    pub symbol: Option<Sym>,
    pub offset: u64,
    pub section: Option<Box<str>>,
    /// The object file, when gdb names it (it omits it for the main executable of a live
    /// process in some versions).
    pub objfile: Option<Sym>,
    pub thread: Option<Sym>,
    pub frame: u32,
    pub span: Span,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Message {
    pub text: Box<str>,
    pub span: Span,
    /// What kind of fatal message this is (filled at input time).
    pub kind: Option<MessageKind>,
    /// The parts of an assertion message (`prog: file.c:5: func: Assertion `x' failed.`).
    pub assertion: Option<AssertionText>,
    /// The parts of a Rust panic header (`thread 'main' panicked at src/main.rs:13:5:`).
    pub panic: Option<PanicText>,
    /// The type in `terminate called after throwing an instance of '…'`.
    pub thrown: Option<Box<str>>,
    /// What the text says beyond its kind (filled at input time): which heap check failed,
    /// which terminate, a `what():` or `note:` line, …
    pub detail: Option<MessageDetail>,
    /// The exception's text on a `  what():  …` line ([`MessageDetail::ExceptionWhat`]).
    pub what: Option<Box<str>>,
    /// A fault a signal handler reported on this line (`fatal: Segmentation fault (Address not
    /// mapped to object [0x28])`), typed.
    pub fault: Option<FaultReport>,
    /// The pointer an allocator's invalid-free message names (`free(): invalid pointer:
    /// 0x7ffd…`, tcmalloc's `Attempt to free invalid pointer 0x…`), typed.
    pub pointer: Option<u64>,
    /// Read from a core's memory, not printed: a Go core's `fatal error: …`, whose text is
    /// `runtime.throw`'s argument in its frame (a core holds no stderr).
    pub from_memory: bool,
}

/// The fault a program's own signal handler printed: signal, `si_code`, address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultReport {
    pub signo: i32,
    pub si_code: Option<i32>,
    pub address: Option<u64>,
}

impl Message {
    /// A message line; its typed parts are filled when the input is finished.
    pub fn new(text: impl Into<Box<str>>, span: Span) -> Message {
        Message {
            text: text.into(),
            span,
            kind: None,
            assertion: None,
            panic: None,
            thrown: None,
            detail: None,
            what: None,
            fault: None,
            pointer: None,
            from_memory: false,
        }
    }
}

/// What a message (or a C string argument carrying one) says beyond its [`MessageKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageDetail {
    /// `longjmp causes uninitialized stack frame` (glibc's `__longjmp_chk`).
    LongjmpCheck,
    /// `buffer overflow detected` (a fortified `…_chk` call).
    FortifyOverflow,
    /// `bit out of range 0 - FD_SETSIZE on fd_set` (glibc's fortified `FD_SET`/`FD_CLR`/
    /// `FD_ISSET`, `__fdelt_chk`: a descriptor number of 1024 or more).
    FortifyFdSet,
    /// Go's `panic: …` line (the runtime's report of a panic nothing recovered).
    GoPanic,
    /// Rust's `thread panicked while processing panic. aborting.` (older: `… while panicking.`):
    /// a panic inside the panic hook, or in a destructor run by the panic's own unwinding.
    PanicWhilePanicking,
    /// `*** %n in writable segment detected ***` (fortified printf: a `%n` in a format string
    /// that is in writable memory).
    FortifyPercentN,
    /// `stack smashing detected` (the stack protector's canary).
    StackCanary,
    /// `double free or corruption (…)`.
    DoubleFreeOrCorruption,
    /// `free(): double free detected in tcache 2`.
    DoubleFree,
    /// `free(): invalid pointer`, `… invalid size`, `munmap_chunk(): invalid pointer`.
    InvalidFree,
    /// `terminate called without an active exception`.
    TerminateWithoutException,
    /// `terminate called recursively`.
    TerminateRecursively,
    /// glibc's `FATAL: exception not rethrown`: a thread's cancellation or `pthread_exit`
    /// unwinds it with a forced-unwind exception, and a `catch (...)` ended without rethrowing it.
    ForcedUnwindNotRethrown,
    /// Rust's `fatal runtime error: Rust cannot catch foreign exceptions`: an exception of
    /// another language (a C++ `throw`) unwound into Rust frames, which abort on it.
    ForeignException,
    /// Lua's `PANIC: unprotected error in call to Lua API (…)`: an error raised outside any
    /// protected call; the host program is then aborted.
    LuaUnprotectedError,
    /// V8's `Uncaught TypeError: …` (node `--abort-on-uncaught-exception`), before `FROM` and
    /// the JavaScript stack.
    V8Uncaught,
    /// Julia's `ERROR: ReadOnlyMemoryError()`: its SIGSEGV handler turned a write fault on
    /// read-only memory into an exception.
    ReadOnlyMemoryError,
    /// Julia's `fatal: error thrown and no exception handler available.` (`jl_no_exc_handler`):
    /// an exception was thrown where no Julia handler (try, or the task's base handler) was
    /// active; the next line shows the exception (`ErrorException("…")`).
    JuliaNoHandler,
    /// Go's `fatal error: concurrent map writes` (`… map read and map write`, `… map
    /// iteration and map write`, `… map clone and map write`): the runtime's own check found
    /// two goroutines using one map, at least one writing.
    GoMapRace,
    /// `  what():  …`: the text of the exception std::terminate reports (in `Message::what`).
    ExceptionWhat,
    /// `pure virtual method called`.
    PureVirtualCall,
    /// `deleted virtual method called`.
    DeletedVirtualCall,
    /// A `note: …` line (Rust's `note: run with RUST_BACKTRACE=1 …`).
    Note,
    /// Rust's `thread '…' has overflowed its stack`; valgrind's `Stack overflow in thread #1`;
    /// Go's `runtime: goroutine stack exceeds 1000000000-byte limit` / `fatal error: stack
    /// overflow`.
    StackOverflow,
    /// Go's traceback found a saved return address outside every Go function: `runtime: g 20:
    /// unexpected return pc for F called from 0x…` (the goroutine's stack was overwritten).
    UnexpectedReturnPc,
    /// Julia's `!!! ERROR in jl_ -- ABORTING !!!` banner.
    RuntimeAbortBanner,
    /// Julia's `Allocations: …` summary after a GC error.
    AllocationSummary,
    /// ASan's `Hint: this fault was caused by a dereference of a high value address`: a
    /// general-protection fault on a non-canonical pointer, which reports no address.
    HighValueAddress,
}

/// An uncaught Julia exception as `ERROR:` prints it: `LoadError: T: message`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct JuliaErrorText {
    /// The exception type (`BoundsError`); empty when the message names none (older versions
    /// print a bare message).
    pub exception: Box<str>,
    /// The message after `T: `, or the whole text when no type is named.
    pub message: Box<str>,
    /// The wrappers around the innermost exception (`LoadError`, `TaskFailedException`), in
    /// order; empty when it was not wrapped.
    pub wrappers: Vec<Box<str>>,
}

/// What kind of fatal message a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// glibc malloc consistency checks.
    HeapCorruption,
    /// `*** stack smashing detected ***`
    StackSmashing,
    /// C++ `terminate called after throwing an instance of '…'`
    UncaughtException,
    /// Rust `thread '…' panicked at …`
    Panic,
    /// `Assertion `…' failed.` (glibc, Julia, LLVM)
    Assertion,
    /// Julia `GC error (probable corruption)`
    GcCorruption,
    /// `LLVM ERROR:`, `fatal runtime error:`, `fatal error:` (Go)
    FatalError,
    /// glibc's `_FORTIFY_SOURCE` checks: `*** buffer overflow detected ***: terminated`.
    FortifyFail,
}

/// The parts of an assertion message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssertionText {
    /// The program name glibc prints first (`julia-debug`).
    pub program: Option<Box<str>>,
    pub file: Option<Box<str>>,
    pub line: Option<u32>,
    pub function: Option<Box<str>>,
    pub expr: Box<str>,
}

/// The parts of a Rust panic header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicText {
    /// The thread name (`main`, `<unnamed>`).
    pub thread: Box<str>,
    /// `src/main.rs:13:5`
    pub location: Option<Box<str>>,
    /// The payload, when it is on the same line (the format before Rust 1.73).
    pub payload: Option<Box<str>>,
}

impl Stop {
    /// A stop the abort rules may explain: SIGABRT, or no signal at all (only messages or a
    /// backtrace were pasted).
    pub fn abort_like(&self) -> bool {
        match self.reason.kind {
            StopKind::Signal => self.reason.signo == Some(6),
            StopKind::Unknown | StopKind::RuntimeError => true,
            _ => false,
        }
    }

    /// The thread that crashed (received the signal), or the current one, or the first.
    pub fn crashed_thread(&self) -> Option<&Thread> {
        self.threads
            .iter()
            .find(|t| t.crashed)
            .or_else(|| self.threads.iter().find(|t| t.current))
            .or_else(|| self.threads.first())
    }
    pub fn crashed_thread_index(&self) -> Option<usize> {
        self.threads
            .iter()
            .position(|t| t.crashed)
            .or_else(|| self.threads.iter().position(|t| t.current))
            .or(if self.threads.is_empty() { None } else { Some(0) })
    }
    /// Registers of the crashed thread's innermost frame.
    pub fn registers(&self) -> Option<&RegisterSet> {
        self.crashed_thread().and_then(|t| t.registers.get(&0))
    }
    /// Reads a little-endian 8-byte word from any memory dump of this stop.
    pub fn read_u64(&self, addr: u64) -> Option<u64> {
        self.memory.iter().find_map(|m| m.read_u64(addr))
    }
    /// Whether something printed with `thread` selected belongs to the crashed thread.
    fn in_crashed_thread(&self, thread: &Option<Sym>) -> bool {
        match (thread, self.crashed_thread()) {
            (Some(t), Some(c)) => **t == *c.id,
            _ => true,
        }
    }
    /// The `=>` instruction printed (`x/i $pc`, `disassemble`) while `frame` of the crashed
    /// thread was selected. For frame 0 that is the faulting instruction; for an outer frame
    /// it is the return address.
    pub fn current_instruction(&self, frame: u32) -> Option<&Instruction> {
        self.disassembly.iter().find(|i| i.current && i.frame == frame && self.in_crashed_thread(&i.thread))
    }
    /// The words of `x/… expr` printed while `frame` of the crashed thread was selected
    /// (`x/4gx $r13` reads a different r13 in each frame).
    pub fn memory_dump(&self, expr: &str, frame: u32) -> Option<&MemoryDump> {
        self.memory.iter().find(|m| {
            m.expr.as_deref() == Some(expr)
                && m.frame == frame
                && m.string.is_none()
                && self.in_crashed_thread(&m.thread)
        })
    }
}

/// A memory mapping (`info proc mappings`, core NT_FILE notes).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Mapping {
    pub start: Address,
    pub end: Address,
    pub offset: u64,
    /// `r-xp` when printed (gdb 12+); `None` in older gdb output.
    pub perms: Option<Box<str>>,
    pub path: Option<Sym>,
    pub span: Span,
}

impl Mapping {
    pub fn contains(&self, a: u64) -> bool {
        self.start.0 <= a && a < self.end.0
    }
    pub fn executable(&self) -> Option<bool> {
        self.perms.as_deref().map(|p| p.as_bytes().get(2) == Some(&b'x'))
    }
    pub fn writable(&self) -> Option<bool> {
        self.perms.as_deref().map(|p| p.as_bytes().get(1) == Some(&b'w'))
    }
    pub fn readable(&self) -> Option<bool> {
        self.perms.as_deref().map(|p| p.as_bytes().first() == Some(&b'r'))
    }
    /// No access at all (`---p`): a guard page.
    pub fn no_access(&self) -> bool {
        self.perms.as_deref().is_some_and(|p| p.starts_with("---"))
    }
}

/// A shared library (`info sharedlibrary`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Library {
    /// Start and end of its `.text`.
    pub from: Option<Address>,
    pub to: Option<Address>,
    pub syms_read: bool,
    pub path: Sym,
    pub span: Span,
}

/// What kind of mismatch the debugger reported between a core and the files it was given.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MismatchKind {
    /// `warning: exec file is newer than core file.` (a timestamp comparison: a rebuild, or
    /// only a copy or `touch`).
    ExecNewer,
    /// `warning: core file may not match specified executable file.`
    ExecMayNotMatch,
    /// `warning: Build-id of PATH does not match core file.`
    BuildId,
    /// `warning: .dynamic section for "PATH" is not at the expected address (wrong library or
    /// version mismatch?)`
    LibraryAddress,
    /// `warning: the debug information found in "DEBUG" does not match "PATH" (CRC mismatch).`
    DebugCrc,
}

/// A debugger warning that a file it loaded is not the one the crashed process ran.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FileMismatch {
    pub kind: MismatchKind,
    /// The library or executable the warning names, when it names one.
    pub path: Option<Sym>,
    pub span: Span,
}

/// Everything one input held.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Trace {
    pub formats: Vec<Format>,
    pub arch: Arch,
    pub stops: Vec<Stop>,
    pub mappings: Vec<Mapping>,
    /// Single regions the debugger described on request (lldb's `memory region $pc`): each is
    /// true, but together they are no map of the process, so an address in none of them is not
    /// thereby unmapped. `mapping_for` consults them after `mappings`.
    pub regions: Vec<Mapping>,
    pub libraries: Vec<Library>,
    /// `Core was generated by `…'`.
    pub core_command: Option<Box<str>>,
    /// The program being debugged, when the transcript names it.
    pub program: Option<Box<str>>,
    /// Inferior environment variables the transcript shows (`set environment X=Y`,
    /// `show environment X`): `MALLOC_PERTURB_` explains 0xa5 patterns, for example.
    pub environment: Vec<(Box<str>, Box<str>)>,
    /// The process memory, when the input was a core (its PT_LOAD segments plus the code of
    /// the executables given with `--exe`). Rules read it through `RuleContext::read_u64`.
    pub memory: Option<TraceMemory>,
    /// Code addresses seen in registers, memory words and branch targets, with what the
    /// symbolizer made of them (`<sym+off> at file:line`, the symbol typed), sorted by address.
    pub code_symbols: CodeSymbols,
    /// The Julia runtime's task and thread-state layout, read from its DWARF when the runtime
    /// library was found (`crate::symbolize::julia_layout::attach_layout`). Without it, rules fall back to the
    /// version table in `crate::julia`, keyed by the Julia version the trace names.
    pub julia_layout: Option<JuliaLayout>,
    /// The debugger's warnings that a file does not match the core (a library upgraded or a
    /// program rebuilt since the crash): frames and symbols through those files may be wrong.
    pub file_mismatches: Vec<FileMismatch>,
}

/// The symbolizer's description of code addresses, each typed when it is added (the text is
/// a [`Natural`]: `<sym+off> at file:line`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CodeSymbols(pub Vec<(Address, Natural)>);

impl CodeSymbols {
    /// Adds descriptions (text as the symbolizer wrote it); each symbol is parsed once here.
    pub fn extend<T: Into<Natural>>(&mut self, items: impl IntoIterator<Item = (Address, T)>) {
        self.0.extend(items.into_iter().map(|(a, t)| (a, t.into())));
    }
}

impl std::ops::Deref for CodeSymbols {
    type Target = [(Address, Natural)];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

/// Byte offsets of the Julia runtime fields a pgcstack check reads (64-bit targets).
/// pgcstack is `&task->gcstack`, so `task = pgcstack - task_gcstack`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct JuliaLayout {
    /// The Julia version the layout is for (`1.13.1`, `1.10`), when known.
    pub version: Option<Box<str>>,
    /// Where the offsets come from: `DWARF of …/libjulia-internal.so.1.13` or
    /// `version table (1.10)`; quoted in findings so no layout is assumed silently.
    pub source: Box<str>,
    /// Read from the runtime's own debug information (not assumed from a version table).
    pub from_dwarf: bool,
    /// The table row was checked against a real build of that version.
    pub verified: bool,
    /// `offsetof(jl_task_t, gcstack)`, `world_age`, `ptls`.
    pub task_gcstack: u64,
    pub task_world_age: u64,
    pub task_ptls: u64,
    /// `offsetof(jl_tls_states_t, tid)`, `current_task`, `system_id` (the pthread_t).
    pub tls_tid: Option<u64>,
    pub tls_current_task: Option<u64>,
    pub tls_system_id: Option<u64>,
    /// `jl_task_tag` (small type tags): a task's header word is `tag << 4` plus GC bits.
    pub task_tag: Option<u64>,
}

/// Reads process memory: a core's segments, mapped files. Implementations never panic on
/// addresses they do not hold; they just read nothing.
pub trait MemorySource: Send + Sync {
    /// Copies the bytes at `addr` into `buf`; returns how many leading bytes were available
    /// (0 when `addr` is not readable).
    fn read(&self, addr: u64, buf: &mut [u8]) -> usize;
    /// A short description for diagnostics (`core.1234 (12 segments)`).
    fn describe(&self) -> String;
    /// Where the call-frame information (`.eh_frame`/`.debug_frame`) of the code at `pc`
    /// says the callee-saved register `dwarf_reg` is saved, at `pc`: (CFA register, CFA
    /// offset, save-slot offset from the CFA). Only sources backed by module files know.
    fn cfi_saved_slot(&self, _pc: u64, _dwarf_reg: u16) -> Option<(u16, i64, i64)> {
        None
    }
    /// The extent `[start, end)` of the function holding `pc`, from the call-frame
    /// information's FDE that covers it. Only sources backed by module files know.
    fn function_range(&self, _pc: u64) -> Option<(u64, u64)> {
        None
    }
}

/// A shared [`MemorySource`] that [`Trace`] can hold while still deriving `Clone`, `Debug`,
/// `PartialEq` and `Eq`: two handles are equal when they are the same source.
#[derive(Clone)]
pub struct TraceMemory(pub Arc<dyn MemorySource>);

impl TraceMemory {
    pub fn new(src: impl MemorySource + 'static) -> Self {
        TraceMemory(Arc::new(src))
    }
    /// A little-endian 8-byte word, if all 8 bytes are readable.
    pub fn read_u64(&self, addr: u64) -> Option<u64> {
        let mut b = [0u8; 8];
        (self.0.read(addr, &mut b) == 8).then(|| u64::from_le_bytes(b))
    }
}

impl PartialEq for TraceMemory {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for TraceMemory {}

impl fmt::Debug for TraceMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TraceMemory({})", self.0.describe())
    }
}

impl Trace {
    /// The mapping that holds `addr`, if mappings were printed.
    pub fn mapping_for(&self, addr: u64) -> Option<&Mapping> {
        // Mappings are sorted by start after parsing.
        let i = self.mappings.partition_point(|m| m.start.0 <= addr);
        let m = i.checked_sub(1).map(|i| &self.mappings[i]).filter(|m| m.contains(addr));
        m.or_else(|| self.regions.iter().find(|m| m.contains(addr)))
    }
    pub fn library_for(&self, addr: u64) -> Option<&Library> {
        self.libraries.iter().find(|l| match (l.from, l.to) {
            (Some(f), Some(t)) => f.0 <= addr && addr < t.0,
            _ => false,
        })
    }
    /// Reads process memory (cores only); returns how many bytes were readable.
    pub fn read_memory(&self, addr: u64, buf: &mut [u8]) -> usize {
        self.memory.as_ref().map(|m| m.0.read(addr, buf)).unwrap_or(0)
    }
    /// What the symbolizer said about a code address (`<sym+off> at file:line`).
    pub fn code_symbol(&self, addr: u64) -> Option<&str> {
        self.code_natural(addr).map(|n| n.as_str())
    }
    /// The symbol the symbolizer found for a code address, typed (`sym`, `off`).
    pub fn code_symbol_ref(&self, addr: u64) -> Option<&SymbolRef> {
        self.code_natural(addr)?.symbol()
    }
    fn code_natural(&self, addr: u64) -> Option<&Natural> {
        let i = self.code_symbols.0.binary_search_by_key(&addr, |c| c.0.0).ok()?;
        Some(&self.code_symbols.0[i].1)
    }
    /// A little-endian word from the process memory (cores only). Rules should prefer
    /// `RuleContext::read_u64`, which also looks at the stop's `x/` dumps.
    pub fn read_u64(&self, addr: u64) -> Option<u64> {
        self.memory.as_ref()?.read_u64(addr)
    }
    /// The last stop that has threads: the one a reader usually means by "the crash".
    pub fn main_stop(&self) -> Option<&Stop> {
        self.stops
            .iter()
            .rev()
            .find(|s| s.reason.kind == StopKind::Signal && !s.threads.is_empty())
            .or_else(|| self.stops.iter().rev().find(|s| !s.threads.is_empty()))
            .or_else(|| self.stops.last())
    }
}

/// Why a backtrace stopped early, as far as it matters to the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BacktraceStop {
    /// `Cannot access memory at address X`.
    Memory(Address),
    /// `… (corrupt stack?)`.
    CorruptStack,
    /// Any other reason (`previous frame identical to this frame`, …).
    Other,
}

/// An argument whose value at the function's entry gdb printed beside its current value
/// (`p=0x0, p@entry=0x5555555592c0`, from DWARF entry values: `DW_OP_entry_value` and
/// call-site parameters). `now` is `None` when gdb printed `<optimized out>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryValue {
    pub name: Sym,
    pub now: Option<Box<str>>,
    pub at_entry: Box<str>,
    /// `at_entry` as a number when gdb printed it as a hex pointer (`0x5555555592c0`).
    pub at_entry_pointer: Option<u64>,
}
