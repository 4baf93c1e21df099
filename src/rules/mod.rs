//! ABI-anomaly rules. Each rule is one file with its [`RuleInfo`] and a `check` function
//! that reads the trace through a [`RuleContext`] and pushes [`Finding`]s.
//!
//! Rules only read the model; they never parse text. To add a rule: create
//! `rules/<id_with_underscores>.rs`, list it once in [`RULES`], and add `docs/rules/<id>.md`
//! (the registry tests check all three).

use crate::classify::Classifier;
use crate::model::*;
/// Re-exported from the model, where the finding types live.
pub use crate::model::{Evidence, Finding, Maturity, RuleInfo, Severity};

pub mod assertion_failure;
pub mod bad_pc;
pub mod callee_saved_changed;
pub mod corrupt_backtrace;
pub mod data_race;
pub mod double_free;
pub mod heap_buffer_overflow;
pub mod heap_corruption;
pub mod invalid_access;
pub mod memory_leak;
pub mod mismatched_files;
pub mod noncanonical_address;
pub mod null_dereference;
pub mod panic;
pub mod pinned_register;
pub mod poison_value;
pub mod stack_buffer_overflow;
pub mod stack_misaligned;
pub mod stack_overflow;
pub mod stack_pointer_wild;
pub mod uncaught_exception;
pub mod undefined_behavior;
pub mod uninitialized_read;
pub mod use_after_free;
pub mod wild_pointer;
pub mod write_to_readonly;

/// What a rule sees: the trace, each stop's culprit frame (computed once, by
/// [`crate::roles`]) and shared helpers (address classification).
pub struct RuleContext<'a> {
    pub trace: &'a Trace,
    pub classifier: Classifier<'a>,
    /// Per stop (same order as `trace.stops`): the frame a reader should look at first.
    pub culprits: std::borrow::Cow<'a, [Option<Culprit>]>,
    /// [`Self::region_kind`]'s answers by value: two rules ask for every frame's pc, and a
    /// `thread apply all bt` repeats its pcs across threads (docs/performance.md, "2h").
    kinds: std::cell::RefCell<rustc_hash::FxHashMap<u64, crate::classify::RegionKind>>,
}

/// How close to sp a page fault still counts as the stack running out (no mappings printed).
pub(crate) const FAULT_NEAR_SP: u64 = 64 << 10;
/// Larger than any thread's stack in practice (the main thread's default limit is 8 MiB):
/// frames further apart than this are not on one stack.
pub(crate) const MAX_STACK_SPAN: u64 = 1 << 30;

impl<'a> RuleContext<'a> {
    pub fn new(parsed: &'a Parsed) -> Self {
        Self::from_trace(&parsed.trace)
    }
    pub fn from_trace(trace: &'a Trace) -> Self {
        let culprits = trace.stops.iter().map(crate::roles::culprit).collect::<Vec<_>>();
        RuleContext { trace, classifier: Classifier::new(trace), culprits: culprits.into(), kinds: Default::default() }
    }
    pub fn with_culprits(trace: &'a Trace, culprits: &'a [Option<Culprit>]) -> Self {
        RuleContext { trace, classifier: Classifier::new(trace), culprits: culprits.into(), kinds: Default::default() }
    }
    /// `classifier.classify(v).kind`, remembered per value for this run (the classifier's
    /// answer depends only on the trace and the value).
    pub fn region_kind(&self, v: u64) -> crate::classify::RegionKind {
        if let Some(&k) = self.kinds.borrow().get(&v) {
            return k;
        }
        let k = self.classifier.classify(v).kind;
        self.kinds.borrow_mut().insert(v, k);
        k
    }

    /// The culprit's thread and frame of `stop` (one of `trace.stops`), when the frame has a
    /// name or a source file (an `unknown function (ip: …)` frame names nothing a message
    /// could point at).
    pub fn named_culprit(&self, stop: &Stop) -> Option<(&'a Thread, &'a Frame)> {
        let si = self.trace.stops.iter().position(|s| std::ptr::eq(s, stop))?;
        let c = self.culprits.get(si)?.as_ref()?;
        let stop = &self.trace.stops[si];
        let th = stop.threads.iter().find(|t| *t.id == *c.thread)?;
        let f = th.frames.get(c.frame_position()?)?;
        (f.function.is_some() || f.file.is_some()).then_some((th, f))
    }
    /// Stops worth checking, with their index.
    pub fn stops(&self) -> impl Iterator<Item = (usize, &'a Stop)> {
        self.trace.stops.iter().enumerate()
    }

    /// The pc of the crashed thread's innermost frame (from registers, else the frame).
    pub fn pc(&self, stop: &Stop) -> Option<u64> {
        let th = stop.crashed_thread()?;
        th.registers
            .get(&0)
            .and_then(|r| r.get(self.trace.arch.pc_register()).or_else(|| r.get("pc")))
            .or_else(|| th.frames.first().and_then(|f| f.pc).map(|a| a.0))
    }

    /// The instruction at pc: the `=>` line of a disassembly, else the one at pc.
    pub fn fault_insn(&self, stop: &'a Stop) -> Option<&'a Instruction> {
        let pc = self.pc(stop);
        if let Some(pc) = pc
            && let Some(i) = stop.disassembly.iter().find(|i| i.address.0 == pc)
        {
            return Some(i);
        }
        stop.disassembly.iter().find(|i| i.current).filter(|i| pc.is_none() || Some(i.address.0) == pc)
    }

    /// An 8-byte little-endian word at `addr`: from the stop's `x/` dumps, else from the
    /// trace's process memory (a core). `None` when neither holds all 8 bytes.
    pub fn read_u64(&self, stop: &Stop, addr: u64) -> Option<u64> {
        stop.read_u64(addr).or_else(|| self.trace.read_u64(addr))
    }

    /// A guard page: a no-access (`---p`) mapping, or, in a core, a small read-only anonymous
    /// mapping directly below a writable anonymous one (gdb's `generate-core-file` writes a
    /// `---p` guard page as a readable segment, so the core shows it as `r--p`).
    pub fn is_guard_page(&self, m: &Mapping) -> bool {
        if m.no_access() {
            return true;
        }
        let read_only = m.readable() == Some(true) && m.writable() == Some(false);
        if !self.trace.formats.contains(&Format::Core) || m.path.is_some() || !read_only {
            return false;
        }
        let size = m.end.0.saturating_sub(m.start.0);
        // The mapping above must be a stack: some frame's stack pointer is in it, or the
        // page itself holds one (a thread that ran into its guard page, with no outer frame
        // unwound).
        let sp_name = self.trace.arch.sp_register();
        let sps = || {
            self.trace
                .stops
                .iter()
                .flat_map(|s| &s.threads)
                .flat_map(|t| t.registers.values())
                .filter_map(|r| r.get(sp_name))
        };
        size <= 1 << 20
            && self.trace.mappings.iter().any(|above| {
                above.start.0 == m.end.0
                    && above.path.as_deref().is_none_or(|p| p.starts_with("[stack"))
                    && above.readable() == Some(true)
                    && above.writable() == Some(true)
                    && sps().any(|sp| above.contains(sp) || m.contains(sp))
            })
    }

    /// A register of the crashed thread's frame 0.
    pub fn reg0(&self, stop: &'a Stop, name: &str) -> Option<&'a Register> {
        stop.crashed_thread()?.registers.get(&0)?.reg(name)
    }

    /// A runtime that generates machine code at run time (the JVM, V8/node, .NET, Mono,
    /// LuaJIT, SBCL, Erlang's BEAM JIT, Chez Scheme), when the trace shows it: its library or
    /// image in the shared-library list, the mappings or a frame's `from …` module, a frame of
    /// its own (`v8::`, `node::`, V8's embedded `Builtins_*`), or the names it gives its
    /// threads (HotSpot's `VM Thread` and compiler threads, a process named `sbcl`, the BEAM's
    /// schedulers).
    pub fn jit_runtime(&self) -> Option<&'static str> {
        const LIBS: &[(&str, &str)] = &[
            ("libjvm.so", "the JVM (libjvm.so)"),
            ("libcoreclr.so", ".NET (libcoreclr.so)"),
            ("libmonosgen-2.0.so", "Mono (libmonosgen-2.0.so)"),
            ("libnode.so", "node (libnode.so)"),
            ("libv8.so", "V8 (libv8.so)"),
            ("libluajit", "LuaJIT"),
            ("luajit", "LuaJIT"),
            ("sbcl.core", "SBCL (sbcl.core)"),
            ("beam.smp", "Erlang's BEAM (beam.smp)"),
            ("petite.boot", "Chez Scheme"),
        ];
        // Thread names only a runtime gives (the process's own name for thread 1).
        const THREADS: &[(&str, &str)] = &[
            ("VM Thread", "the JVM (its VM Thread)"),
            ("C2 CompilerThre", "the JVM (its C2 compiler thread)"),
            ("C1 CompilerThre", "the JVM (its C1 compiler thread)"),
            ("sbcl", "SBCL (a process named sbcl)"),
            ("java", "the JVM (a process named java)"),
            ("beam.smp", "Erlang's BEAM (beam.smp)"),
            ("1_scheduler", "Erlang's BEAM (its scheduler threads)"),
        ];
        let t = self.trace;
        let file = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
        let frames = || t.stops.iter().flat_map(|s| &s.threads).flat_map(|th| &th.frames);
        let loaded: Vec<String> = t
            .libraries
            .iter()
            .map(|l| file(&l.path))
            .chain(t.mappings.iter().filter_map(|m| m.path.as_deref().map(file)))
            .chain(frames().filter_map(|f| f.module.as_deref().map(file)))
            .collect();
        if let Some((_, name)) = LIBS.iter().find(|(lib, _)| loaded.iter().any(|l| l.starts_with(lib))) {
            return Some(name);
        }
        // The program itself (`Reading symbols from …`, `Core was generated by …`, `--exe`).
        const PROGRAMS: &[(&str, &str)] = &[
            ("java", "the JVM (java)"),
            ("sbcl", "SBCL (sbcl)"),
            ("beam.smp", "Erlang's BEAM (beam.smp)"),
            ("luajit", "LuaJIT"),
            ("scheme", "Chez Scheme"),
            ("chezscheme", "Chez Scheme"),
        ];
        let program = t
            .program
            .as_deref()
            .or(t.core_command.as_deref())
            .and_then(|p| p.split_whitespace().next())
            .map(|p| file(p).to_string());
        if let Some((_, name)) = PROGRAMS.iter().find(|(n, _)| program.as_deref() == Some(*n)) {
            return Some(name);
        }
        let threads = || t.stops.iter().flat_map(|s| &s.threads).filter_map(|th| th.name.as_deref());
        if let Some((_, name)) = THREADS.iter().find(|(n, _)| threads().any(|t| t == *n)) {
            return Some(name);
        }
        frames()
            .any(|f| {
                f.function
                    .as_deref()
                    .is_some_and(|n| n.starts_with("v8::") || n.starts_with("node::") || n.starts_with("Builtins_"))
            })
            .then_some("V8 (node)")
    }

    /// Whether a frame is JIT-generated code: no symbol and no module, and its pc in anonymous
    /// executable memory (with the mappings; any executable mapping when a JIT runtime runs),
    /// or (without them) outside every listed library, in the range where anonymous mappings
    /// go, in a process running a JIT runtime.
    pub fn is_jit_frame(&self, f: &Frame) -> bool {
        // V8's embedded builtins (`Builtins_InterpreterEntryTrampoline`, `Builtins_JSEntry`):
        // generated code linked into the node binary with a symbol but no unwind information,
        // entered from and returning into generated code: the caller the unwinder prints past
        // one is a guess, as past any JIT code.
        if f.function.as_deref().is_some_and(|n| n.starts_with("Builtins_")) && self.jit_runtime().is_some() {
            return true;
        }
        // (A memfd as the module, which a core's file notes give JIT code mapped from one, is
        // no file of code.)
        if f.function.is_some() || f.module.as_deref().is_some_and(|m| !m.starts_with("/memfd:")) {
            return false;
        }
        let Some(pc) = f.pc.map(|a| a.0) else { return false };
        if self.classifier.has_mappings() {
            // Anonymous executable memory; or, in a process running a JIT runtime, a second
            // executable mapping of a file whose code is mapped elsewhere too (V8 remaps its
            // embedded builtins from the node binary to an address gdb has no symbols for).
            let Some(m) = self.trace.mapping_for(pc) else { return false };
            if m.executable() != Some(true) {
                return false;
            }
            let Some(path) = m.path.as_deref() else { return true };
            // A file mapped writable and executable (not a stack): an image of code a runtime
            // loads and patches itself (SBCL's `sbcl.core`), which has no ELF symbols or
            // unwind information, in a process running such a runtime.
            if m.writable() == Some(true) && !path.starts_with('[') && self.jit_runtime().is_some() {
                return true;
            }
            // Code in a memfd: a JIT that maps its code twice, writable here and executable
            // there (W^X; the BEAM's `/memfd:vmem`), in a process running such a runtime.
            if path.starts_with("/memfd:") && self.jit_runtime().is_some() {
                return true;
            }
            return self.jit_runtime().is_some()
                && self
                    .trace
                    .mappings
                    .iter()
                    .any(|o| o.start < m.start && o.executable() == Some(true) && o.path.as_deref() == Some(path));
        }
        // (Unknown: an address the layout guesses cannot place, such as SBCL's code spaces at
        // fixed addresses below the executable.)
        self.trace.library_for(pc).is_none()
            && matches!(
                self.classifier.classify(pc).kind,
                crate::classify::RegionKind::Anonymous | crate::classify::RegionKind::Unknown
            )
            && self.jit_runtime().is_some()
    }

    /// The managed runtime whose own signal handler owns a fault in its generated code, when
    /// frame #0 of the stop's crashed thread is such code (`is_jit_frame`) and the process runs
    /// a runtime that takes faults there on purpose: the JVM (implicit null checks, safepoint
    /// polls, stack banging), .NET, Mono, and SBCL (a write barrier on protected pages, guard
    /// pages, traps). V8, LuaJIT, Chez Scheme and the BEAM do not fault in their code as part
    /// of their work. Under a debugger that stops on the signal, the stop comes before that
    /// handler: a rule may describe the access, not call it the crash.
    pub fn fault_runtime(&self, stop: &'a Stop) -> Option<&'static str> {
        let f0 = stop.crashed_thread()?.frames.first()?;
        if !self.is_jit_frame(f0) {
            return None;
        }
        self.jit_runtime().filter(|rt| {
            rt.starts_with("the JVM") || rt.starts_with(".NET") || rt.starts_with("Mono") || rt.starts_with("SBCL")
        })
    }

    /// Whether the instruction at pc cannot have raised the stop's SIGSEGV/SIGBUS, so that the
    /// signal came from elsewhere (kill, tgkill, raise, a debugger) even when `$_siginfo` is
    /// not in the dump to say so: the instruction touches no memory at all (a `test`, a `cmp`
    /// of registers, a conditional jump, a register move: whitelisted families only, never a
    /// stack, string, privileged or indirect-branch instruction); or, with the memory map
    /// printed, every address it touches (its memory operand, a rip-relative operand's address
    /// from gdb's comment, the slot a `push`/`pop`/`ret` uses) lies in a mapping that allows
    /// the access and is no guard page (for SIGBUS, no file mapping). Only without `$_siginfo`
    /// (with it, si_code says where the signal came from), and never when the mappings show
    /// less than 8 KiB of writable stack below sp (where the kernel could not push a signal
    /// frame). `false` whenever the instruction is not in the dump or cannot be judged.
    pub fn signal_not_from_insn(&self, stop: &'a Stop) -> bool {
        let Some(signo) = self.signo(stop) else { return false };
        if !matches!(signo, 11 | 7) {
            return false;
        }
        // With `$_siginfo` the kernel's si_code says it: a sent signal is `is_sent`, and a
        // kernel-raised one (SI_KERNEL when a signal frame could not be pushed on an exhausted
        // stack) may stop the thread at any instruction.
        if stop.reason.si_code.is_some() {
            return false;
        }
        let Some(i) = self.fault_insn(stop) else { return false };
        let text = i.text.trim();
        let d = crate::insn::decode(text);
        if d.mnemonic.is_empty() || d.indirect_target.is_some() || d.needs_alignment.is_some() {
            return false;
        }
        // A stack with no room left below sp: the kernel's SIGSEGV for a signal frame it could
        // not push looks like any other, at whatever instruction ran.
        let sp = self.reg0(stop, self.trace.arch.sp_register()).and_then(|r| r.value);
        if let Some(sp) = sp
            && !self.trace.mappings.is_empty()
            && !self
                .trace
                .mapping_for(sp.wrapping_sub(0x2000))
                .is_some_and(|m| !self.is_guard_page(m) && m.writable() == Some(true) && m.contains(sp.wrapping_sub(1)))
        {
            return false;
        }
        if d.mem.is_none() && !d.stack_access {
            return cannot_fault_without_memory(text, &d.mnemonic);
        }
        if self.trace.mappings.is_empty() {
            return false;
        }
        let x86 = matches!(self.trace.arch, Arch::X86_64 | Arch::Unknown);
        let value = |r: &str| self.reg0(stop, r).and_then(|r| r.value);
        // (address, write) of each access, 16 bytes wide to stay on the safe side of a page end.
        // gdb's comment names the address of a rip-relative operand (`# 0x7ffff7f73de0`).
        let commented = || crate::insn::commented_address(text);
        let access: Option<(u64, bool, bool)> = if let Some(m) = &d.mem {
            if m.pc_relative && !d.stack_access && m.segment.is_none() && x86 {
                match (commented(), d.access) {
                    (Some(a), Some(acc)) => {
                        Some((a, acc != crate::insn::Access::Read, acc != crate::insn::Access::Write))
                    }
                    _ => None,
                }
            } else if d.stack_access || m.pc_relative || m.segment.is_some() || !x86 {
                None
            } else {
                let base = match &m.base {
                    Some(b) => value(b),
                    None => Some(0),
                };
                let index = match &m.index {
                    Some(x) => value(x).map(|v| v.wrapping_mul(u64::from(m.scale.max(1)))),
                    None => Some(0),
                };
                match (base, index, d.access) {
                    (Some(b), Some(x), Some(a)) => Some((
                        b.wrapping_add(x).wrapping_add(m.disp as u64),
                        a != crate::insn::Access::Read,
                        a != crate::insn::Access::Write,
                    )),
                    _ => None,
                }
            }
        } else if x86 && matches!(d.mnemonic.as_str(), "push" | "pushq") {
            value("rsp").map(|sp| (sp.wrapping_sub(8), true, false))
        } else if x86 && matches!(d.mnemonic.as_str(), "pop" | "popq") {
            value("rsp").map(|sp| (sp, false, true))
        } else if x86 && matches!(d.mnemonic.as_str(), "ret" | "retq") {
            // A return to a non-canonical address faults (#GP, SIGSEGV) at the `ret` itself:
            // for SIGSEGV judged only when the return address is in the dump and canonical.
            value("rsp")
                .filter(|&sp| signo == 7 || self.read_u64(stop, sp).is_some_and(|w| self.classifier.is_canonical(w)))
                .map(|sp| (sp, false, true))
        } else {
            None
        };
        let Some((addr, write, read)) = access else { return false };
        let allows = |a: u64| {
            self.trace.mapping_for(a).is_some_and(|m| {
                !self.is_guard_page(m)
                    && (!write || m.writable() == Some(true))
                    && (!read || m.readable() == Some(true))
                    // SIGBUS comes from a file mapping (a page past the end of the file); an
                    // access to anonymous memory, the stack or the heap raises none.
                    && (signo != 7 || m.path.as_deref().is_none_or(|p| p.is_empty() || p.starts_with('[')))
            })
        };
        allows(addr) && allows(addr.wrapping_add(15))
    }
}

/// An instruction (already known to have no memory operand and no stack access) from a family
/// that raises no SIGSEGV/SIGBUS in user mode: register moves and arithmetic, compares, direct
/// and conditional branches, register-only vector arithmetic. Anything else (string and I/O
/// instructions, `syscall`, `hlt`, `cpuid`/`rdtsc` that a kernel may trap, segment or control
/// register moves, `ud2`, …) may fault and is not listed.
fn cannot_fault_without_memory(text: &str, mn: &str) -> bool {
    let ops = text.split_once(char::is_whitespace).map(|x| x.1).unwrap_or("").split(" #").next().unwrap_or("");
    // Segment, control and debug registers (`mov %ax,%ds`, `mov %cr0,%rax`) may trap; `%esi`
    // is no `%es`.
    let special = ops.split('%').skip(1).any(|r| {
        let name: String = r.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        matches!(name.as_str(), "ds" | "es" | "ss" | "fs" | "gs" | "cs")
            || (name.starts_with("cr") || name.starts_with("dr")) && name[2..].chars().all(|c| c.is_ascii_digit())
    });
    if special {
        return false;
    }
    let vector = ops.contains("mm") || ops.contains("%k");
    const X86: &[&str] = &[
        "mov", "movabs", "movzb", "movzw", "movzx", "movsx", "movsb", "movsw", "movsl", "movslq", "cmov", "set", "lea",
        "nop", "endbr64", "endbr32", "test", "cmp", "add", "adc", "sub", "sbb", "and", "or", "xor", "not", "neg",
        "inc", "dec", "shl", "shr", "sal", "sar", "rol", "ror", "rcl", "rcr", "bt", "bsf", "bsr", "lzcnt", "tzcnt",
        "popcnt", "bswap", "xchg", "xadd", "imul", "mul", "cltq", "cqto", "cltd", "cwtl", "cdqe", "cqo", "cdq", "cbw",
        "cwd", "andn", "bzhi", "pdep", "pext", "rorx", "sarx", "shlx", "shrx", "mulx", "adcx", "adox", "crc32",
        "pause", "lfence", "sfence", "mfence", "clc", "stc", "cmc", "cld", "lahf", "sahf", "xbegin",
    ];
    // String instructions printed without operands (`movsq`, `stos`) touch memory.
    let string_op = ["movs", "stos", "lods", "scas", "cmps", "ins", "outs"]
        .iter()
        .any(|p| mn.strip_prefix(p).is_some_and(|rest| matches!(rest, "" | "b" | "w" | "l" | "q" | "d")));
    if string_op && !ops.contains('%') {
        return false;
    }
    if X86.iter().any(|p| mn.starts_with(p)) && !mn.starts_with("outs") && !mn.starts_with("ins") {
        return true;
    }
    // Direct branches: a bad target faults at the target, not here.
    if mn.starts_with('j') && (ops.trim_start().starts_with("0x") || ops.contains('<')) && !ops.contains('*') {
        return true;
    }
    // Register-only SSE/AVX arithmetic (`pxor %xmm0,%xmm0`, `vaddsd %xmm1,%xmm2,%xmm3`).
    if vector && !mn.starts_with("vm") && !mn.starts_with("push") && !mn.starts_with("pop") {
        return true;
    }
    const A64: &[&str] = &[
        "add", "adds", "sub", "subs", "cmp", "cmn", "mov", "movz", "movk", "movn", "orr", "eor", "and", "ands", "tst",
        "lsl", "lsr", "asr", "ror", "mul", "madd", "msub", "smull", "umull", "smulh", "umulh", "sdiv", "udiv", "csel",
        "csinc", "csinv", "csneg", "cset", "csetm", "cinc", "cneg", "cbz", "cbnz", "tbz", "tbnz", "adr", "adrp",
        "ubfx", "sbfx", "ubfiz", "sbfiz", "bfi", "bfxil", "extr", "sxtw", "uxtw", "sxtb", "uxtb", "sxth", "uxth",
        "neg", "negs", "mvn", "bic", "orn", "eon", "clz", "rev", "fmov", "fadd", "fsub", "fmul", "fdiv", "fcmp",
        "scvtf", "ucvtf", "fcvtzs", "fcvtzu",
    ];
    if A64.contains(&mn) || (mn == "b" || mn == "bl" || mn.starts_with("b.")) && !ops.contains('x') {
        return true;
    }
    false
}

// ---- Machine-state helpers shared by the ABI rules (pinned-register, bad-pc, stack-*) ----

impl<'a> RuleContext<'a> {
    /// `si_addr` when it really is a fault address: a fault signal raised by the kernel for a
    /// page fault (`si_code` > 0 and not SI_KERNEL). For SIGABRT and other sent signals the
    /// same field holds the sender's pid; for SI_KERNEL (#GP) it is always 0.
    pub fn fault_address(&self, stop: &Stop) -> Option<u64> {
        let r = &stop.reason;
        let signo = r.signo.or_else(|| r.signal.as_deref().and_then(crate::model::signals::signo))?;
        if !crate::model::signals::has_fault_address(signo) {
            return None;
        }
        if crate::model::signals::zero_si_addr_is_no_address(Some(signo), r.si_code, r.address.map(|a| a.0)) {
            return None;
        }
        match r.si_code {
            Some(c) if c > 0 && c != crate::model::signals::SI_KERNEL => r.address.map(|a| a.0),
            _ => None,
        }
    }

    /// The signal number of a signal stop.
    pub fn signo(&self, stop: &Stop) -> Option<i32> {
        if stop.reason.kind != StopKind::Signal {
            return None;
        }
        stop.reason.signo.or_else(|| stop.reason.signal.as_deref().and_then(crate::model::signals::signo))
    }

    /// A register of frame `frame` of `th`, when `info registers` was printed there.
    pub fn reg_at(&self, th: &'a Thread, frame: u32, name: &str) -> Option<&'a Register> {
        th.registers.get(&frame)?.reg(name)
    }

    /// The stack pointer of frame `frame` of `th`.
    pub fn sp_at(&self, th: &Thread, frame: u32) -> Option<u64> {
        th.registers.get(&frame)?.get(self.trace.arch.sp_register())
    }

    /// Frame #0 moved sp below the whole stack in one step (a huge `alloca`, VLA or local
    /// array; no recursion needed): its sp is below the stack mapping while its frame pointer
    /// or an outer frame's sp is still inside it, and the fault (when known) is at most 64 KiB
    /// from sp, and no other mapping lies between sp and the stack. The kernel refused to grow
    /// the stack that far: a stack overflow, not a corrupted sp. Returns (sp, the stack mapping).
    pub fn oversized_frame(&self, stop: &Stop, th: &'a Thread) -> Option<(u64, &'a Mapping)> {
        let sp = self.sp_at(th, 0)?;
        let is_stack = |m: &Mapping| {
            !self.is_guard_page(m)
                && (m.path.as_deref().is_some_and(|p| p == "[stack]" || p.starts_with("[stack:"))
                    || self.classifier.classify(m.start.0).kind == crate::classify::RegionKind::Stack)
        };
        let fp = match self.trace.arch {
            Arch::X86_64 => Some("rbp"),
            Arch::X86 => Some("ebp"),
            Arch::Aarch64 => Some("x29"),
            _ => None,
        };
        let anchors = th
            .registers
            .iter()
            .filter(|(n, _)| **n > 0)
            .filter_map(|(_, r)| r.get(self.trace.arch.sp_register()))
            .chain(fp.and_then(|n| self.reg_at(th, 0, n)).and_then(|r| r.value));
        let stack = anchors
            .filter(|&a| a > sp)
            .find_map(|a| self.trace.mapping_for(a).filter(|m| is_stack(m) && sp < m.start.0))?;
        if self.trace.mapping_for(sp).is_some() {
            return None;
        }
        // A stack grows down into free address space only: an sp beyond another mapping below
        // the stack (a library, an mmap'ed region) was not reached by growing it, but loaded
        // (a stack pivot, a corrupted saved sp).
        if self.trace.mappings.iter().any(|m| m.start.0 > sp && m.end.0 <= stack.start.0 && !self.is_guard_page(m)) {
            return None;
        }
        match self.fault_address(stop) {
            Some(a) if a >= stack.start.0 || a.abs_diff(sp) > 64 << 10 => None,
            _ => Some((sp, stack)),
        }
    }

    /// Without mappings, a page fault this close to the crashed thread's frame-0 stack pointer
    /// is the stack running out (`stack-overflow`'s heuristic): the fault address and sp.
    /// Other rules stay quiet on it (a write into the guard page is not a write to read-only
    /// memory).
    pub fn fault_near_sp(&self, stop: &Stop) -> Option<(u64, u64)> {
        if self.classifier.has_mappings() {
            return None;
        }
        let a = self.fault_address(stop)?;
        let th = stop.crashed_thread()?;
        let sp = self.sp_at(th, 0)?;
        // The stack that ran out holds the frames above sp: its frame pointer, or the nearest
        // outer frame's sp, is close above (within any real stack's size). An sp a world away
        // from them was loaded, not grown into (a stack pivot, a corrupted saved sp).
        let fp = match self.trace.arch {
            Arch::X86_64 => Some("rbp"),
            Arch::X86 => Some("ebp"),
            Arch::Aarch64 => Some("x29"),
            _ => None,
        };
        let nearest_above = th
            .registers
            .iter()
            .filter(|(n, _)| **n > 0)
            .filter_map(|(_, r)| r.get(self.trace.arch.sp_register()))
            .chain(fp.and_then(|n| self.reg_at(th, 0, n)).and_then(|r| r.value))
            .filter(|&v| v > sp)
            .min();
        if nearest_above.is_some_and(|v| v - sp > MAX_STACK_SPAN) {
            return None;
        }
        let pagefault = match stop.reason.si_code {
            Some(c) => c == crate::model::signals::SEGV_MAPERR || c == crate::model::signals::SEGV_ACCERR,
            // lldb's `EXC_BAD_ACCESS (code=…, address=…)` carries no si_code.
            None => stop.reason.address.is_some(),
        };
        (pagefault && a.abs_diff(sp) <= FAULT_NEAR_SP && a >= 0x10000).then_some((a, sp))
    }

    /// The address a memory operand refers to, computed from frame-0 registers. `None` when
    /// a register was not printed or the operand is segment- or pc-relative.
    pub fn effective_address(&self, stop: &Stop, m: &crate::insn::MemOperand) -> Option<u64> {
        if m.segment.is_some() || m.pc_relative {
            return None;
        }
        let regs = stop.registers()?;
        let base = match &m.base {
            Some(b) => regs.get(b)?,
            None => 0,
        };
        let index = match &m.index {
            Some(i) => regs.get(i)?.wrapping_mul(m.scale.max(1) as u64),
            None => 0,
        };
        Some(base.wrapping_add(index).wrapping_add(m.disp as u64))
    }

    /// A fault past the zero page through a NULL base (`mov 0x40(%rdi,%rsi,4)` with rdi = 0
    /// and a large index): the faulting instruction's base register is 0, its effective
    /// address is the fault address, and that address is in no mapping. With scale 1 the
    /// "index" may be the real pointer (compilers swap base and index freely), so then the
    /// index must be small. Returns the base register's name.
    pub fn null_based_fault(&self, stop: &Stop) -> Option<String> {
        let r = &stop.reason;
        if r.kind != StopKind::Signal || r.signo != Some(11) || r.si_code == Some(crate::model::signals::SI_KERNEL) {
            return None;
        }
        let addr = r.address?.0;
        if addr < 0x1000 || Some(addr) == self.pc(stop) {
            return None;
        }
        let i = self.fault_insn(stop)?;
        let d = crate::insn::decode(&i.text);
        let m = d.mem.as_ref()?;
        d.access?;
        let base = m.base.as_ref()?;
        if self.reg0(stop, base).and_then(|r| r.value) != Some(0) || self.effective_address(stop, m) != Some(addr) {
            return None;
        }
        if let Some(ix) = &m.index {
            let v = self.reg0(stop, ix).and_then(|r| r.value)?;
            if m.scale <= 1 && v >= 0x10000 {
                return None;
            }
        }
        // Unmapped by the printed mappings, or, with none printed, by the kernel's own word:
        // SEGV_MAPERR (lldb: `invalid address`) is a fault on an address no mapping holds.
        let unmapped = match self.classifier.classify(addr).kind {
            crate::classify::RegionKind::Unmapped | crate::classify::RegionKind::SmallInteger => true,
            crate::classify::RegionKind::Unknown => r.si_code == Some(crate::model::signals::SEGV_MAPERR),
            _ => false,
        };
        unmapped.then(|| base.clone())
    }

    /// A symbol the transcript printed for `addr` (`stream_fill+49`): from disassembly
    /// locations, the natural column of registers, `0x… <sym>` in printed values and argument
    /// lists (all typed at input time), else the function of a frame at that pc.
    pub fn symbol_at(&self, stop: &Stop, addr: u64) -> Option<SymbolRef> {
        if let Some(s) =
            stop.disassembly.iter().find(|i| i.address.0 == addr).and_then(|i| i.location.as_ref()?.symbol())
        {
            return Some(s.clone());
        }
        let printed = stop
            .threads
            .iter()
            .flat_map(|t| t.registers.values())
            .flat_map(|rs| rs.regs.iter())
            .filter(|r| r.value == Some(addr))
            .find_map(|r| r.natural.as_ref()?.symbol())
            .or_else(|| {
                stop.printed
                    .iter()
                    .flat_map(|p| &p.symbols)
                    .chain(stop.threads.iter().flat_map(|t| t.frames.iter()).flat_map(|f| f.arg_symbols()))
                    .find(|(a, _)| a.0 == addr)
                    .map(|(_, s)| s)
            });
        if let Some(s) = printed {
            return Some(s.clone());
        }
        stop.threads
            .iter()
            .flat_map(|t| t.frames.iter())
            .find(|f| f.pc.map(|p| p.0) == Some(addr))
            .and_then(|f| f.function.clone())
            .map(|name| SymbolRef { name, offset: None, hex: false })
            // What the symbolizer found for it in the binary (`--exe`, a core).
            .or_else(|| self.trace.code_symbol_ref(addr).cloned())
    }

    /// The disassembly listing (a run of instructions printed on consecutive lines) that
    /// contains `addr`; of several, the one with the most instructions before it.
    /// Every run of consecutive disassembly lines of `stop` that holds an instruction at `addr`
    /// (`x/6i $pc` and `disassemble` both hold the pc), in the order printed.
    pub fn listings_with(&self, stop: &'a Stop, addr: u64) -> Vec<&'a [Instruction]> {
        let d = &stop.disassembly;
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=d.len() {
            if i == d.len() || d[i].span.first != d[i - 1].span.last + 1 {
                let run = &d[start..i];
                if run.iter().any(|x| x.address.0 == addr) {
                    out.push(run);
                }
                start = i;
            }
        }
        out
    }

    pub fn listing_around(&self, stop: &'a Stop, addr: u64) -> Option<&'a [Instruction]> {
        let d = &stop.disassembly;
        let mut best: Option<(&'a [Instruction], usize)> = None;
        let mut start = 0;
        for i in 1..=d.len() {
            let end_of_run = i == d.len() || d[i].span.first != d[i - 1].span.last + 1;
            if end_of_run {
                let run = &d[start..i];
                if let Some(pos) = run.iter().position(|x| x.address.0 == addr)
                    && best.is_none_or(|(_, b)| pos > b)
                {
                    best = Some((run, pos));
                }
                start = i;
            }
        }
        best.map(|(r, _)| r)
    }
}

pub type CheckFn = fn(&RuleContext<'_>, &mut Vec<Finding>);

pub struct Rule {
    pub info: &'static RuleInfo,
    pub check: CheckFn,
    /// Where it must fire and where it must stay quiet.
    pub samples: &'static RuleSamples,
}

/// One input a rule is tried on.
#[derive(Clone, Copy, Debug)]
pub enum Sample {
    /// A file of the repository (a real transcript), by its path from the repository root.
    File(&'static str),
    /// A hand-written transcript, for a shape no recorded sample has.
    Synthetic { name: &'static str, text: &'static str },
}

/// The samples a rule declares: it must fire on each of `fires_on` and stay quiet on each of
/// `quiet_on`. A registry test runs every rule on its samples and fails on a rule that
/// declares none.
#[derive(Clone, Copy, Debug)]
pub struct RuleSamples {
    pub fires_on: &'static [Sample],
    pub quiet_on: &'static [Sample],
}

/// Every rule, once.
pub static RULES: &[Rule] = &[
    Rule { info: &null_dereference::RULE, check: null_dereference::check, samples: &null_dereference::SAMPLES },
    Rule { info: &pinned_register::RULE, check: pinned_register::check, samples: &pinned_register::SAMPLES },
    Rule {
        info: &callee_saved_changed::RULE,
        check: callee_saved_changed::check,
        samples: &callee_saved_changed::SAMPLES,
    },
    Rule { info: &bad_pc::RULE, check: bad_pc::check, samples: &bad_pc::SAMPLES },
    Rule {
        info: &noncanonical_address::RULE,
        check: noncanonical_address::check,
        samples: &noncanonical_address::SAMPLES,
    },
    Rule { info: &write_to_readonly::RULE, check: write_to_readonly::check, samples: &write_to_readonly::SAMPLES },
    Rule { info: &stack_overflow::RULE, check: stack_overflow::check, samples: &stack_overflow::SAMPLES },
    Rule { info: &stack_misaligned::RULE, check: stack_misaligned::check, samples: &stack_misaligned::SAMPLES },
    Rule { info: &stack_pointer_wild::RULE, check: stack_pointer_wild::check, samples: &stack_pointer_wild::SAMPLES },
    Rule { info: &assertion_failure::RULE, check: assertion_failure::check, samples: &assertion_failure::SAMPLES },
    Rule { info: &corrupt_backtrace::RULE, check: corrupt_backtrace::check, samples: &corrupt_backtrace::SAMPLES },
    Rule { info: &heap_corruption::RULE, check: heap_corruption::check, samples: &heap_corruption::SAMPLES },
    Rule { info: &panic::RULE, check: panic::check, samples: &panic::SAMPLES },
    Rule { info: &poison_value::RULE, check: poison_value::check, samples: &poison_value::SAMPLES },
    Rule { info: &uncaught_exception::RULE, check: uncaught_exception::check, samples: &uncaught_exception::SAMPLES },
    Rule { info: &wild_pointer::RULE, check: wild_pointer::check, samples: &wild_pointer::SAMPLES },
    Rule {
        info: &heap_buffer_overflow::RULE,
        check: heap_buffer_overflow::check,
        samples: &heap_buffer_overflow::SAMPLES,
    },
    Rule {
        info: &stack_buffer_overflow::RULE,
        check: stack_buffer_overflow::check,
        samples: &stack_buffer_overflow::SAMPLES,
    },
    Rule { info: &use_after_free::RULE, check: use_after_free::check, samples: &use_after_free::SAMPLES },
    Rule { info: &double_free::RULE, check: double_free::check, samples: &double_free::SAMPLES },
    Rule { info: &invalid_access::RULE, check: invalid_access::check, samples: &invalid_access::SAMPLES },
    Rule { info: &uninitialized_read::RULE, check: uninitialized_read::check, samples: &uninitialized_read::SAMPLES },
    Rule { info: &data_race::RULE, check: data_race::check, samples: &data_race::SAMPLES },
    Rule { info: &memory_leak::RULE, check: memory_leak::check, samples: &memory_leak::SAMPLES },
    Rule { info: &mismatched_files::RULE, check: mismatched_files::check, samples: &mismatched_files::SAMPLES },
    Rule { info: &undefined_behavior::RULE, check: undefined_behavior::check, samples: &undefined_behavior::SAMPLES },
];

/// The finding of a checker-report rule: every stop whose [`CheckerReport`] has the rule's
/// id as its kind (sanitizers and valgrind name the error themselves, so the finding is exact).
/// The message quotes the report and names the culprit frame (the first frame outside the
/// checker's interceptors and the C library); the evidence is the report's own lines.
pub(crate) fn checker_findings(cx: &RuleContext<'_>, info: &RuleInfo, next_steps: &[&str], out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        let Some(rep) = stop.checker.as_ref().filter(|r| r.kind == Some(info.id)) else { continue };
        let culprit = cx.named_culprit(stop);
        let mut msg = format!("{}: {}", rep.tool, rep.text);
        if let Some((_, f)) = culprit {
            msg.push_str(&format!(" in {}", f.location()));
        }
        let mut f = Finding::new(info, msg);
        f.stop = Some(si);
        if let Some((th, fr)) = culprit {
            f.thread = Some(th.id.to_string());
            f.frame = Some(fr.index);
        }
        f.evidence.push(Evidence::new(format!("{} report: {}", rep.tool, rep.text), Some(rep.span)));
        if let Some(a) = &rep.access {
            f.evidence.push(Evidence::new(format!("access: {a}"), None));
        }
        if let Some(sm) = &rep.summary {
            f.evidence.push(Evidence::new(sm.to_string(), None));
        }
        f.next_steps = next_steps.iter().map(|s| s.to_string()).collect();
        f.rank = 90;
        out.push(f);
    }
}

/// The page `docs/rules/<id>.md` holds (written by `tracecheck rules --write-docs docs/rules`).
pub fn doc_page(info: &RuleInfo) -> String {
    format!(
        "# `{}`\n\n{}\n\n- Default severity: {}\n- Maturity: {}\n\n{}\n\n_This page is generated from the rule's source by `tracecheck rules --write-docs docs/rules`; `tracecheck explain {}` prints the same text._\n",
        info.id,
        info.title,
        info.default_severity.name(),
        match info.maturity {
            Maturity::Stable => "stable (on by default)",
            Maturity::Experimental => "experimental (enable with `--rule`)",
        },
        info.explanation,
        info.id
    )
}

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.info.id == id)
}

/// Which rules to run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only these (when non-empty). Selecting an experimental rule enables it.
    pub only: Vec<String>,
    pub skip: Vec<String>,
}

impl Selection {
    pub fn enabled(&self, info: &RuleInfo) -> bool {
        if self.skip.iter().any(|s| s == info.id) {
            return false;
        }
        if !self.only.is_empty() {
            return self.only.iter().any(|s| s == info.id);
        }
        info.maturity == Maturity::Stable
    }
}

/// Runs the selected rules and ranks the findings (most likely root cause first).
pub fn run(trace: &Trace, sel: &Selection) -> Vec<Finding> {
    run_maybe_handled(trace, sel, None)
}

/// [`run`] with the culprits already computed (by the analyze stage).
pub fn run_with_culprits(trace: &Trace, sel: &Selection, culprits: &[Option<Culprit>]) -> Vec<Finding> {
    run_maybe_handled(trace, sel, Some(culprits))
}

/// A fault that the program's own handler caught before it aborted: the rules see a view of
/// the trace where that stop is the fault itself (`handled_fault`), with its own culprits.
fn run_maybe_handled(trace: &Trace, sel: &Selection, culprits: Option<&[Option<Culprit>]>) -> Vec<Finding> {
    if let Some((view, views)) = crate::handled_fault::view(trace) {
        let mut out = run_in(&RuleContext::from_trace(&view), sel);
        crate::handled_fault::map_back(&mut out, &views);
        return sorted(out);
    }
    match culprits {
        Some(c) => run_in(&RuleContext::with_culprits(trace, c), sel),
        None => run_in(&RuleContext::from_trace(trace), sel),
    }
}

fn sorted(mut out: Vec<Finding>) -> Vec<Finding> {
    out.sort_by(|a, b| {
        b.severity.cmp(&a.severity).then(b.rank.cmp(&a.rank)).then(a.stop.cmp(&b.stop)).then(a.frame.cmp(&b.frame))
    });
    out
}

fn run_in(cx: &RuleContext<'_>, sel: &Selection) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in RULES {
        if sel.enabled(r.info) {
            (r.check)(cx, &mut out);
        }
    }
    out.sort_by(|a, b| {
        b.severity.cmp(&a.severity).then(b.rank.cmp(&a.rank)).then(a.stop.cmp(&b.stop)).then(a.frame.cmp(&b.frame))
    });
    out
}

#[cfg(test)]
pub(crate) mod testutil {
    use super::*;
    /// Runs one rule over a transcript.
    pub fn run_rule(rule: &RuleInfo, text: &str) -> Vec<Finding> {
        let parsed = crate::input::parse(text);
        let sel = Selection { only: vec![rule.id.to_string()], skip: vec![] };
        run(&parsed.trace, &sel)
    }
    /// Runs one rule over a bundled sample trace (read at test time).
    pub fn run_rule_on_sample(rule: &RuleInfo, name: &str) -> Vec<Finding> {
        let path = format!("{}/sample-traces/{}", env!("CARGO_MANIFEST_DIR"), name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let parsed = crate::input::parse_bytes(&bytes);
        let sel = Selection { only: vec![rule.id.to_string()], skip: vec![] };
        run(&parsed.trace, &sel)
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn every_rule_file_is_registered_and_documented() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rs") && n != "mod.rs")
            .map(|n| n.trim_end_matches(".rs").replace('_', "-"))
            .collect();
        files.sort();
        let mut ids: Vec<String> = RULES.iter().map(|r| r.info.id.to_string()).collect();
        ids.sort();
        assert_eq!(files, ids, "rule files and RULES differ");
        let mut dedup = ids.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), ids.len(), "duplicate rule ids");
        for id in &ids {
            let doc = format!("{}/docs/rules/{}.md", env!("CARGO_MANIFEST_DIR"), id);
            let text = std::fs::read_to_string(&doc).unwrap_or_default();
            assert_eq!(
                text,
                doc_page(find(id).unwrap().info),
                "{doc} is stale: run `cargo run -- rules --write-docs docs/rules`"
            );
        }
    }

    /// Every rule fires on each sample it declares and stays quiet on each it declares quiet;
    /// a rule that declares none fails.
    #[test]
    fn every_rule_fires_and_stays_quiet_on_its_declared_samples() {
        let mut bad = Vec::new();
        for r in RULES {
            let id = r.info.id;
            if r.samples.fires_on.is_empty() || r.samples.quiet_on.is_empty() {
                bad.push(format!("{id}: declares no sample to fire on or to stay quiet on (SAMPLES)"));
                continue;
            }
            let sel = Selection { only: vec![id.to_string()], skip: vec![] };
            let fires = |s: &Sample| -> (String, bool) {
                let (name, parsed) = match s {
                    Sample::File(p) => {
                        let path = format!("{}/{p}", env!("CARGO_MANIFEST_DIR"));
                        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{id}: {path}: {e}"));
                        (p.to_string(), crate::input::parse_bytes(&bytes))
                    }
                    Sample::Synthetic { name, text } => (format!("synthetic: {name}"), crate::input::parse(text)),
                };
                (name, run(&parsed.trace, &sel).iter().any(|f| f.rule == id))
            };
            for s in r.samples.fires_on {
                if let (name, false) = fires(s) {
                    bad.push(format!("{id}: does not fire on {name}"));
                }
            }
            for s in r.samples.quiet_on {
                if let (name, true) = fires(s) {
                    bad.push(format!("{id}: fires on {name}, declared quiet"));
                }
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    fn titles_and_explanations_are_well_formed() {
        for r in RULES {
            let i = r.info;
            assert!(i.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", i.id);
            assert!(!i.title.ends_with('.'), "{} title ends with a period", i.id);
            assert!(i.title.chars().next().unwrap().is_lowercase(), "{} title starts uppercase", i.id);
            for h in ["**What it flags**", "**Why it matters**", "**Known false positives**"] {
                assert!(i.explanation.contains(h), "{} explanation lacks {h}", i.id);
            }
        }
    }
}

#[cfg(test)]
mod fault_insn_tests {
    use super::cannot_fault_without_memory as no_fault;

    fn check(text: &str) -> bool {
        let d = crate::insn::decode(text);
        no_fault(text, &d.mnemonic)
    }

    #[test]
    fn register_only_instructions_cannot_fault_and_traps_can() {
        // The sweep's states: a compare with `%esi` (no `%es`), a test, a conditional jump.
        for t in ["cmp    $0x3ef,%esi", "test   %rdi,%rdi", "je     0x7ffff7d8cfb8 <free+200>", "mov    %rsi,%r13"] {
            assert!(check(t), "{t}");
        }
        assert!(check("vaddsd %xmm1,%xmm2,%xmm3"));
        assert!(check("cbz    x0, 0x4006f0"));
        // Segment and control registers, string instructions without operands, traps.
        for t in [
            "mov    %ax,%ds",
            "mov    %cr0,%rax",
            "movsq",
            "stos",
            "hlt",
            "syscall",
            "rdtsc",
            "cpuid",
            "ud2",
            "in     (%dx),%al",
            "int3",
        ] {
            assert!(!check(t), "{t}");
        }
    }
}
