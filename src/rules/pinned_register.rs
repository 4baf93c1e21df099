//! `pinned-register`: a runtime's pinned or context register (Julia pgcstack, Go g, GHC
//! BaseReg) cannot hold what the frame's calling convention says it holds.
//!
//! Which register, what it holds and how to check it come from [`crate::runtime`]'s table;
//! this file only runs the checks and words the finding.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::{Class, RegionKind};
use crate::insn::{self, RegUse};
use crate::julia;
use crate::model::*;
use crate::runtime::{self, PinnedRegister, Plausibility};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "pinned-register",
    title: "pinned runtime register does not hold what the calling convention says",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A frame whose calling convention pins a register to a runtime
value, where the printed value cannot be that value:

- Julia specsig code (`julia_*`, Julia >= 1.10) receives *pgcstack* (`&current_task->gcstack`)
  in r13 (x86-64) or x20 (AArch64), as LLVM's `swiftself` argument. A pgcstack points into
  writable heap or anonymous memory; the word it points to is NULL or this thread's innermost GC
  frame on the stack, the next word is the task's world age (a small integer) and the one after
  is `ptls` (heap). The rule flags r13 pointing into code, read-only data or the stack, holding
  a small integer or a non-canonical value, equal to an argument register (a leftover argument),
  or failing that shape in an `x/4gx $r13` dump. With the Julia task layout (read from the
  runtime's DWARF, or the version table row for the Julia version the trace names; the finding
  says which) it also checks that `r13 - offsetof(jl_task_t, gcstack)` has a Task header, that
  `task->ptls->current_task` is that task and that `ptls->system_id` is the stopped thread (a
  stale pgcstack of another thread); when all of that holds it reports an `info` finding saying
  r13 was checked, instead of staying silent (docs/julia.md). It names the call that broke the convention,
  for example a `jlcapi_*` @cfunction wrapper (C ABI) calling a `julia_*` body directly.
  With the machine code (a core and its executable, or a transcript read with `--exe`) the
  evidence also names the instruction that last wrote the register, walking out from frame #0
  through the frames whose code before their pc does not write it (`r13 was last written at
  run_pass_manager+0x8: mov %rsi,%r13 (frame #2)`; on AArch64, decoded with yaxpeax-arm:
  `x20 was last written at run_pass_manager+0x14: mov x20, x1 (frame #2)`). Without the binary
  (x86-64), the same walk reads the transcript's own disassembly of the frames (gdb
  `disassemble`, `/r`, `x/i`, AT&T or Intel; lldb `disassemble --frame`) and says so, with how
  much each frame's listing covered; a listing that does not start at the function's entry only
  shows that the register is "not written in the N instructions shown".
- Go ABIInternal frames keep `g` in r14 (amd64) or x28 (arm64): it must be a heap, anonymous or
  `.bss` pointer, and when `x/4gx $r14` shows `stack.lo`/`stack.hi`, sp should lie between them.
- GHC code keeps BaseReg in r13 (x19 on AArch64): a pointer into writable memory.

**Why it matters** r13 is an ordinary callee-saved register in C: a C frame that calls a
function expecting pgcstack in r13 without setting it passes whatever an older frame left
there. The callee then pushes GC frames through a stale pointer and crashes far from the cause
(the founding case: `r13 = rsi = thunk`, fault on `[[r13+0x10]+0x10]`).

**Example** `#0 julia_module_callback_4212` called from `#1 jlcapi_module_callback_4213`,
`r13 = 0x5555555593b0 = rsi` in `[heap]`, and `x/4gx $r13` showing a pointer into `.data.rel.ro`
where the GC-frame pointer should be: `r13 = 0x5555555593b0 (heap) equals rsi, not a pgcstack
in julia_module_callback_4212: [r13+0] = 0x555555557dd0 points into read-only data, not the
stack`.

**When it applies** Only with evidence that the runtime is in the process, never from a name
prefix alone: for Julia, Julia's crash output, libjulia/libjulia-internal in the mappings or
shared libraries, a runtime frame (`jl_*`, `ijl_*`, `jlplt_*`) or a codegen wrapper
(`jfptr_*`, `japi1_*`); for Go, Go's crash output or a `runtime.*` frame.

**Known false positives** The convention of a frame is inferred from its symbol name. Julia code compiled
with `gcstack_arg = false` (GPUCompiler) and Julia before 1.10 have `julia_*` names but do not
take pgcstack in r13; when the function's disassembly shows it writing r13 before reading it,
the rule stays quiet. It also stays quiet when all of the function's code is known (gdb's
`disassemble` from `<+0>`, or with a core or `--exe` the extent its CFI gives) and the function
is a leaf that never touches r13 (no call, no indirect or outward jump): such a function neither
takes the register nor passes it on, as a plain C function with a `julia_*` name in a program
with `jl_*`/`jfptr_*`-named C helpers is. Nor does it check a register the function read at
entry and then gave another value before the pc (`mov $3,%r13d` after `mov 8(%r13),%rbx`, from
the listing or, with process code, the code from the function's start; a `pop` restores and
does not count): a saved callee-saved register reused for the function's own data holds no
pgcstack there. When neither a disassembly nor the crash itself (the faulting instruction
dereferencing a word loaded through r13) shows the function reading r13, the finding is marked
heuristic (a warning) and says which command would decide it. Without mappings the region of
r13 is a guess, but a dumped word that fails by its value alone (`[r13+16] = 0x2a` is no ptls)
needs no mappings, so the same evidence is an error from gdb, lldb or AArch64 alike. Go assembly
(ABI0) functions (an ELF symbol ending in `.abi0`, or a source file ending in `.s`) keep no g
and are not checked; the `g0`/`gsignal` stacks make the Go check heuristic. In frames above #0
only callee-saved registers are meaningful, so the argument-register comparison is made in
frame #0 only. Julia's pgcstack is an argument (`swiftself`), fixed at the function's entry
only: LLVM copies it out and reuses r13 (a try block's jmp_buf, array data). So pgcstack is
checked only in the interrupted frame (the innermost, or one a signal handler interrupted), and
there only where r13 is provably still the incoming value (pc at the entry, or straight-line
code from the entry that never writes r13, from the machine code or a listing that starts at
the entry); elsewhere only a live task's pgcstack of another thread, or a kernel-reported
fault on the word loaded from `[r13+k]` (the prologue's ptls/safepoint chain), is flagged
(docs/julia.md, "Legal states"). Swift's r13 (self) may hold anything and is never checked."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[
        Sample::File("sample-traces/aarch64/julia-trampoline-bad-x20.collect.txt"),
        Sample::File("sample-traces/aarch64/julia-trampoline-bad-x20.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-bad-r13.gdb.txt"),
        Sample::File("sample-traces/lldb/julia-trampoline-bad-r13.lldb.txt"),
    ],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// Whether anything beyond a `julia_*` name says a Julia runtime is in the process
/// ([`crate::julia::runtime_present`]).
pub(crate) fn julia_runtime_present(trace: &Trace) -> bool {
    crate::julia::runtime_present(trace)
}

/// Whether a Go runtime is in the process: Go's own crash output, or a `runtime.*` frame
/// (every goroutine's stack ends in `runtime.goexit`/`runtime.main`, and faults go through
/// `runtime.sigpanic`). Go-looking symbol names alone (`main.work`) are not evidence.
fn go_runtime_present(trace: &Trace) -> bool {
    !gccgo_present(trace) && go_runtime_present_any(trace)
}

/// gccgo's runtime (libgo): its Go code follows the C ABI and keeps g in thread-local
/// storage, so r14 holds no g. Seen as libgo in the mappings, shared libraries or frame
/// modules, or a function only libgo has (`runtime.kickoff`, `__go_*`).
fn gccgo_present(trace: &Trace) -> bool {
    let libgo = |p: &str| p.rsplit('/').next().is_some_and(|b| b.starts_with("libgo.so"));
    trace.mappings.iter().any(|m| m.path.as_deref().is_some_and(libgo))
        || trace.libraries.iter().any(|l| libgo(&l.path))
        || trace.stops.iter().flat_map(|s| &s.threads).flat_map(|t| &t.frames).any(|f| {
            f.module.as_deref().is_some_and(libgo)
                || f.function.as_deref().is_some_and(|n| n == "runtime.kickoff" || n.starts_with("__go_"))
        })
}

fn go_runtime_present_any(trace: &Trace) -> bool {
    trace.formats.contains(&Format::Go)
        || trace
            .stops
            .iter()
            .flat_map(|s| &s.threads)
            .flat_map(|t| &t.frames)
            .any(|f| f.function.as_deref().is_some_and(|n| n.starts_with("runtime.")))
}

/// `n.trim_end_matches(".abi0")` without its substring searcher (built per call: on every
/// frame of a big transcript that was 10 M instructions).
fn trim_abi0(mut n: &str) -> &str {
    while let Some(s) = n.strip_suffix(".abi0") {
        n = s;
    }
    n
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let arch = cx.trace.arch;
    let layout = julia::layout_for(cx.trace);
    let julia_present = julia_runtime_present(cx.trace);
    let go_present = go_runtime_present(cx.trace);
    for (si, stop) in cx.stops() {
        for th in &stop.threads {
            // Frames inlined into one real frame share its registers: check each real frame once.
            let mut checked: Vec<usize> = Vec::new();
            // A Go thread's or goroutine's outermost function: what an unwinder finds past it
            // is not a frame (a sysmon thread "called" by `runtime.execute`).
            let entry = th.frames.iter().position(|f| {
                f.function
                    .as_deref()
                    .map(trim_abi0)
                    .is_some_and(|n| matches!(n, "runtime.mstart" | "runtime.goexit" | "runtime.rt0_go"))
            });
            for (&n, regs) in &th.registers {
                let Some(pos) = th.frames.iter().position(|f| f.index == n) else { continue };
                if entry.is_some_and(|e| pos > e) {
                    continue;
                }
                let (first, phys) = julia::inline_chain(th, pos);
                if checked.contains(&phys) {
                    continue;
                }
                checked.push(phys);
                // Julia's pgcstack is an argument (swiftself): the convention fixes r13 at the
                // function's entry, not at its call sites. In a frame that called another
                // function, r13 is whatever the frame keeps there across the call (LLVM spills
                // pgcstack and reuses r13, e.g. for a try block's jmp_buf or for array data), and
                // the callee, if it takes pgcstack, is checked in its own frame. So pgcstack is
                // checked only in a frame that was interrupted: the innermost one, or one a
                // signal handler interrupted (its registers come from the signal context).
                // (Go's g and GHC's BaseReg stay pinned across calls and are checked everywhere.)
                let interrupted = first == 0 || th.frames[first - 1].signal_handler;
                // The real function at pc: the ELF symbol (`info symbol $pc`) when gdb was asked,
                // else the outermost frame of the inline chain.
                let fname = julia::physical_name(cx.trace, stop, th, pos);
                let conv = runtime::convention_of_name(fname);
                for p in runtime::pinned_registers(conv, arch) {
                    let f = Site { cx, si, stop, th, pos, phys, fname, regs, p, layout: layout.as_ref() };
                    let finding = match p.check {
                        Plausibility::JuliaPgcstack if julia_present && interrupted => f.pgcstack(),
                        Plausibility::JuliaPgcstack => None,
                        // A Go assembly function (gdb names it without the `.abi0` of its
                        // ELF symbol, but its source is a `.s` file) keeps no g in r14.
                        Plausibility::GoG if th.frames[phys].file.as_deref().is_some_and(|f| f.ends_with(".s")) => None,
                        Plausibility::GoG if go_present => f.go_g(),
                        Plausibility::GoG => None,
                        Plausibility::WritablePointer => f.writable_pointer(),
                        Plausibility::Unchecked => None,
                    };
                    out.extend(finding);
                }
            }
        }
    }
}

/// One pinned register in one frame.
struct Site<'c, 'a> {
    cx: &'c RuleContext<'a>,
    si: usize,
    stop: &'a Stop,
    th: &'a Thread,
    /// Position of the frame in `th.frames`.
    pos: usize,
    /// Position of the real frame `pos` is inlined into (`pos` itself when not inlined).
    phys: usize,
    /// The real function's name (ELF symbol when known).
    fname: &'a str,
    regs: &'a RegisterSet,
    p: &'static PinnedRegister,
    /// The Julia task layout (DWARF or version table), if any.
    layout: Option<&'c JuliaLayout>,
}

/// What the task-layout check found.
#[derive(Default)]
struct TaskCheck {
    /// Failed facts, each with the dump it came from.
    problems: Vec<(String, Option<Span>)>,
    /// Facts that held.
    facts: Vec<(String, Option<Span>)>,
    /// The value is the pgcstack of a live task (a Task header, and the task is current on
    /// its ptls) that belongs to another thread.
    other_thread: bool,
    /// How many of the live-task facts (header, current_task) held.
    live: u8,
}

/// A word of an `x/4gx` dump that fails its check.
struct BadWord {
    offset: u64,
    value: u64,
    why: String,
    span: Option<Span>,
    /// Decided by the value alone (a small integer, NULL, a number too large for a world
    /// age), not by what region it points into: holds with or without mappings.
    by_value: bool,
}

/// How the frame's own code treats the register before pc.
enum Usage {
    /// Read (as a pointer or a value) before any write: the function takes it as input.
    ReadFirst(String, Span),
    /// Overwritten before any read: the function does not receive it (e.g. `gcstack_arg = false`).
    WrittenFirst,
    /// No listing of the function before pc, or the register is not touched there.
    Unknown,
    /// The listing shows all of the function's code, which never touches the register and
    /// calls nothing: it neither takes the register nor passes it on, so its value there is
    /// nobody's business (a C leaf that merely has a Julia-like name).
    NotTaken,
    /// Read at entry and then overwritten before pc (not by a `pop`): at pc it holds the
    /// function's own value, not the one it was passed.
    Reassigned,
}

/// Whether `code` (a listing that starts at a function's entry) is all of a leaf function
/// that never names `reg`: every instruction decodes, none calls, every direct branch lands
/// inside the listing, there is no indirect jump, and the last instruction returns or jumps
/// back into it. Then the register is neither read nor passed on by the function.
fn untouched_leaf(code: &[Instruction], reg: &str, arch: Arch) -> bool {
    let (Some(first), Some(last)) = (code.first(), code.last()) else { return false };
    let (lo, hi) = (first.address.0, last.address.0);
    let inside = |t: u64| t >= lo && t <= hi;
    for (k, i) in code.iter().enumerate() {
        if insn::reg_use(&i.text, reg).is_some() {
            return false;
        }
        let is_last = k + 1 == code.len();
        match arch {
            Arch::X86_64 => {
                let Some(x) = insn::X86Text::parse(&i.text) else { return false };
                if x.is_call() {
                    return false;
                }
                let jump = x.mnemonic.starts_with('j');
                if jump && !x.branch_target().is_some_and(|(t, _)| inside(t)) {
                    return false;
                }
                if is_last && !(x.is_ret() || (jump && x.mnemonic.starts_with("jmp"))) {
                    return false;
                }
            }
            Arch::Aarch64 => {
                let Some(a) = insn::A64Text::parse(&i.text) else { return false };
                if a.is_call() {
                    return false;
                }
                if a.is_jump() && !a.branch_target().is_some_and(inside) {
                    return false;
                }
                if is_last && !(a.is_ret() || a.mnemonic == "b") {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

impl<'c, 'a> Site<'c, 'a> {
    fn frame(&self) -> &'a Frame {
        &self.th.frames[self.pos]
    }
    fn name(&self) -> &'a str {
        self.fname
    }
    fn index(&self) -> u32 {
        self.frame().index
    }
    fn classify(&self, v: u64) -> Class {
        self.cx.classifier.classify(v)
    }

    /// The mapping that holds `v`, as `start-end name`.
    fn mapping_text(&self, v: u64) -> Option<String> {
        let m = self.cx.trace.mapping_for(v)?;
        let name = m.path.as_deref().unwrap_or("anonymous");
        Some(format!("{:#x}-{:#x} {}", m.start.0, m.end.0, name))
    }

    /// Reads of the pinned register in the frame's function, from the listing around its pc.
    fn usage(&self) -> Usage {
        let Some(pc) = self.frame().pc.map(|a| a.0).or_else(|| self.regs.get(self.cx.trace.arch.pc_register())) else {
            return Usage::Unknown;
        };
        // The listing around pc, or (when gdb's `disassemble` followed debug info that does
        // not match the code) one that starts at the function's ELF symbol (`x/24i $pc - off`).
        let start =
            julia::elf_symbol_any(self.cx.trace, self.stop, self.th, self.pos).map(|(_, off)| pc.wrapping_sub(off));
        let listing = self
            .cx
            .listing_around(self.stop, pc)
            .filter(|l| start.is_none_or(|s| l.first().is_some_and(|i| i.address.0 <= s)))
            .or_else(|| start.and_then(|s| self.cx.listing_around(self.stop, s)));
        // The instruction at pc itself (x/i $pc) reads the register: as telling as a listing.
        let at_pc = || {
            self.stop
                .disassembly
                .iter()
                .find(|i| i.address.0 == pc)
                .filter(|i| matches!(insn::reg_use(&i.text, self.p.register), Some(RegUse::Read)))
                .map(|i| Usage::ReadFirst(i.text.to_string(), i.span))
        };
        // With the process code (a core, or `--exe`): the function's whole extent from its CFI.
        if self.cx.trace.arch == Arch::X86_64
            && crate::provenance::leaf_without(self.cx.trace, pc, self.p.register) == Some(true)
        {
            return Usage::NotTaken;
        }
        // With the process code: read at entry, then reused before pc.
        if self.cx.trace.arch == Arch::X86_64
            && let Some((_, _, code)) =
                crate::provenance::code_before::<crate::provenance::X86>(self.cx.trace, self.th, self.pos == 0, pc)
            && crate::provenance::read_then_reassigned(&code, self.p.register)
        {
            return Usage::Reassigned;
        }
        let Some(listing) = listing else { return at_pc().unwrap_or(Usage::Unknown) };
        let mut first_read: Option<&Instruction> = None;
        let mut reassigned = false;
        let shown =
            || listing.iter().filter(|i| start.is_none_or(|s| i.address.0 >= s)).take_while(|i| i.address.0 <= pc);
        for i in shown() {
            match insn::reg_use(&i.text, self.p.register) {
                // The instruction at pc has not run yet, but a read there is as telling.
                Some(RegUse::Read) if first_read.is_none() => first_read = Some(i),
                Some(RegUse::Write) if i.address.0 < pc && first_read.is_none() => return Usage::WrittenFirst,
                // Read, then given another value before pc (`mov $3,%r13d`: a saved
                // callee-saved register reused as a counter). A `pop` restores a value.
                Some(RegUse::Write)
                    if i.address.0 < pc
                        && !insn::X86Text::parse(&i.text).is_some_and(|x| x.mnemonic.starts_with("pop")) =>
                {
                    reassigned = true;
                }
                Some(RegUse::Read) | Some(RegUse::Write) | Some(RegUse::Save) | None => {}
            }
        }
        // Only when every instruction from the function's entry to pc ran: the listing starts at
        // the entry and holds no jump before pc, so the write was not on a path not taken.
        let from_entry = listing.first().is_some_and(|i| match start {
            Some(s) => i.address.0 <= s,
            None => i.location.as_ref().and_then(|l| l.offset()) == Some(0),
        });
        let straight = || {
            shown()
                .filter(|i| i.address.0 < pc)
                .all(|i| insn::X86Text::parse(&i.text).is_some_and(|x| !x.mnemonic.starts_with('j') && !x.is_ret()))
        };
        if first_read.is_some() && reassigned && self.cx.trace.arch == Arch::X86_64 && from_entry && straight() {
            return Usage::Reassigned;
        }
        if let Some(i) = first_read {
            return Usage::ReadFirst(i.text.to_string(), i.span);
        }
        if let Some(read) = at_pc() {
            return read;
        }
        // The whole function is shown (from its entry: the ELF symbol's start, or the
        // instruction `disassemble` prints at `<+0>`) and it never touches the register.
        let at_entry = |i: &Instruction| match start {
            Some(s) => i.address.0 == s,
            None => i.location.as_ref().and_then(|l| l.offset()) == Some(0),
        };
        if self.cx.listings_with(self.stop, pc).into_iter().any(|l| {
            l.iter().position(at_entry).is_some_and(|k| untouched_leaf(&l[k..], self.p.register, self.cx.trace.arch))
        }) {
            return Usage::NotTaken;
        }
        Usage::Unknown
    }

    /// Whether the register at pc is provably still the value the function was called with:
    /// pc is the function's entry, or the code from the entry to pc (the machine code of a
    /// core or `--exe`, else a listing in the transcript that starts at the entry) is
    /// straight-line and never writes the register. A pinned argument such as pgcstack is
    /// fixed only at the entry: after it the function may spill it and reuse the register
    /// (julia_etc_couple_4561 keeps a try block's jmp_buf, then array data, in r13).
    fn incoming(&self) -> bool {
        let arch = self.cx.trace.arch;
        let Some(pc) = self.frame().pc.map(|a| a.0).or_else(|| self.regs.get(arch.pc_register())) else {
            return false;
        };
        let sym = julia::elf_symbol_any(self.cx.trace, self.stop, self.th, self.pos);
        if sym.is_some_and(|(_, off)| off == 0) {
            return true;
        }
        if arch == Arch::X86_64
            && let Some((_, _, code)) =
                crate::provenance::code_before::<crate::provenance::X86>(self.cx.trace, self.th, self.pos == 0, pc)
        {
            return crate::provenance::straight_unwritten(&code, self.p.register);
        }
        if arch == Arch::Aarch64
            && let Some((_, _, code)) =
                crate::provenance::code_before::<crate::provenance_a64::A64>(self.cx.trace, self.th, self.pos == 0, pc)
        {
            return crate::provenance_a64::straight_unwritten(&code, self.p.register);
        }
        let start = sym.map(|(_, off)| pc.wrapping_sub(off));
        let at_entry = |i: &Instruction| match start {
            Some(s) => i.address.0 == s,
            None => i.location.as_ref().and_then(|l| l.offset()) == Some(0),
        };
        if start == Some(pc) {
            return true;
        }
        self.cx.listings_with(self.stop, pc).into_iter().any(|l| {
            let Some(k) = l.iter().position(at_entry) else { return false };
            if l[k].address.0 == pc {
                return true;
            }
            let before: Vec<&Instruction> = l[k..].iter().take_while(|i| i.address.0 < pc).collect();
            // Contiguous up to pc (the listing reaches it), no branch, no write.
            l[k..].iter().any(|i| i.address.0 == pc)
                && before.iter().all(|i| {
                    let flows = match arch {
                        Arch::X86_64 => {
                            insn::X86Text::parse(&i.text).is_some_and(|x| !x.mnemonic.starts_with('j') && !x.is_ret())
                        }
                        Arch::Aarch64 => insn::A64Text::parse(&i.text).is_some_and(|a| !a.is_jump() && !a.is_ret()),
                        _ => false,
                    };
                    let push = insn::X86Text::parse(&i.text).is_some_and(|x| x.mnemonic.starts_with("push"));
                    flows && (push || insn::reg_use(&i.text, self.p.register) != Some(RegUse::Write))
                })
        })
    }

    /// Position of the caller frame: the real frame after this one's inline chain, itself
    /// named by the outermost frame of its own chain.
    fn caller_pos(&self) -> Option<usize> {
        let i = self.phys + 1;
        let f = self.th.frames.get(i).filter(|f| !f.signal_handler)?;
        let _ = f;
        Some(julia::inline_chain(self.th, i).1)
    }

    fn caller(&self) -> Option<&'a Frame> {
        self.caller_pos().map(|i| &self.th.frames[i])
    }

    /// `jlcapi_x (C ABI, frame #1) calls julia_y (specsig, expects pgcstack in r13, frame #0)
    /// without setting r13`.
    fn transition(&self, v: u64) -> Option<(String, Span)> {
        let callee_conv = runtime::convention_of_name(self.name());
        let cpos = self.caller_pos()?;
        let caller = &self.th.frames[cpos];
        let caller_name = julia::physical_name(self.cx.trace, self.stop, self.th, cpos);
        let caller_conv = runtime::convention_of_name(caller_name);
        let reg = self.p.register;
        let caller_same = self.cx.reg_at(self.th, caller.index, reg).and_then(|r| r.value) == Some(v);
        let caller_writes = caller.pc.and_then(|pc| self.cx.listing_around(self.stop, pc.0)).map(|l| {
            l.iter()
                .take_while(|i| Some(i.address) < caller.pc)
                .any(|i| insn::reg_use(&i.text, reg) == Some(RegUse::Write))
        });
        let tail = if caller_conv == callee_conv {
            format!(" and passes {reg} through")
        } else if caller_same || caller_writes == Some(false) {
            format!(" without setting {reg}")
        } else {
            String::new()
        };
        let span = Span {
            first: self.frame().span.first.min(caller.span.first),
            last: self.frame().span.last.max(caller.span.last),
        };
        Some((
            format!(
                "{} ({}, frame #{}) calls {} ({}, expects {} in {reg}, frame #{}){tail}",
                caller_name,
                caller_conv.name(),
                caller.index,
                self.name(),
                callee_conv.name(),
                self.p.holds,
                self.index()
            ),
            span,
        ))
    }

    /// The outer frame that last put `v` in the register: one whose `info frame` lists the
    /// register as saved (it saves its caller's value, so it uses the register itself) and
    /// that still shows `v`.
    fn setter(&self, v: u64) -> Option<(String, Span)> {
        let reg = self.p.register;
        for f in self.th.frames.iter().skip(self.pos + 1) {
            let shown = self.cx.reg_at(self.th, f.index, reg).and_then(|r| r.value);
            if shown.is_some_and(|s| s != v) {
                return None;
            }
            let info = self.stop.frame_info.iter().find(|fi| fi.level == Some(f.index));
            if let Some((_, slot)) = info.and_then(|fi| fi.saved_registers.iter().find(|(n, _)| &**n == reg))
                && shown == Some(v)
            {
                return Some((
                    format!(
                        "{reg} = {v:#x} was set by {} (frame #{}), which saves its caller's {reg} at {:#x}",
                        f.function_name(),
                        f.index,
                        slot.0
                    ),
                    info.map(|fi| fi.span).unwrap_or_default(),
                ));
            }
        }
        None
    }

    /// Register provenance from the machine code (a core, or a transcript with `--exe`), else
    /// from the transcript's own disassembly: the instruction that last wrote the register,
    /// walking out from frame #0 through the frames that pass it on unchanged.
    fn origin(&self) -> Option<String> {
        use crate::model::Arch;
        use crate::provenance::{Isa, Origin, X86, register_origin};
        use crate::provenance_a64::A64;
        if self.pos != 0 {
            return None;
        }
        let name = |pos: usize| {
            let f = &self.th.frames[pos];
            format!("{} (frame #{})", f.function_name(), f.index)
        };
        let named = |(pos, n): &(usize, String)| format!("{n} (frame #{})", self.th.frames[*pos].index);
        let (trace, th) = (self.cx.trace, self.th);
        let binary = match trace.arch {
            Arch::X86_64 => {
                X86::gpr(self.p.register).and_then(|r| register_origin(&mut X86::default(), trace, th, r, 32))
            }
            Arch::Aarch64 => A64::gpr(self.p.register).and_then(|r| register_origin(&mut A64, trace, th, r, 32)),
            _ => return None,
        };
        let (origin, source) = match binary {
            Some(o) => (o, String::new()),
            // Without the machine code, the transcript's own disassembly.
            None => {
                use crate::provenance_text::{ShownA64, ShownInsn, register_origin};
                let (st, th, r) = (self.stop, self.th, self.p.register);
                let (o, covers) = match self.cx.trace.arch {
                    Arch::X86_64 => register_origin::<ShownInsn>(st, th, r, 32)?,
                    _ => register_origin::<ShownA64>(st, th, r, 32)?,
                };
                let shown: Vec<String> = covers.iter().map(|c| c.describe(self.th)).collect();
                (o, format!(" (from the transcript's disassembly: {})", shown.join("; ")))
            }
        };
        let sentence = match origin {
            Origin::Written { pos, label, text, through, .. } => {
                let mut t = format!(
                    "{} was last written at {label}: `{text}` (frame #{})",
                    self.p.register, self.th.frames[pos].index
                );
                if !through.is_empty() {
                    let names: Vec<String> = through.iter().map(named).collect();
                    t.push_str(&format!("; not written since by {}, which pass it on", names.join(", ")));
                }
                t
            }
            Origin::NotFound { pos, through } => {
                let names: Vec<String> = through.iter().map(named).collect();
                format!(
                    "{} is not written in {} before their pc: inherited from {}",
                    self.p.register,
                    names.join(", "),
                    name(pos)
                )
            }
            Origin::NotInShown { pos, shown, through } => {
                let mut t = format!(
                    "{} is not written in the {shown} instructions shown of {} before its pc",
                    self.p.register,
                    name(pos)
                );
                if !through.is_empty() {
                    let names: Vec<String> = through.iter().map(named).collect();
                    t.push_str(&format!(", nor by {}, which pass it on", names.join(", ")));
                }
                t.push_str(&format!(
                    "; they are not all of its code before the pc (the listing starts after its entry, or jumps come from outside it), so where {} was set is not shown",
                    self.p.register
                ));
                t
            }
        };
        Some(sentence + &source)
    }

    /// Argument registers (frame #0 only: above it they show frame-0 values) equal to `v`.
    fn equal_argument(&self, v: u64) -> Option<&'a Register> {
        if self.index() != 0 {
            return None;
        }
        runtime::argument_registers(self.cx.trace.arch)
            .iter()
            .filter(|a| **a != self.p.register)
            .find_map(|a| self.regs.reg(a).filter(|r| r.value == Some(v)))
    }

    /// The word at `addr` and the span of the dump it came from.
    /// Prefers a dump of the pinned register itself (`x/4gx $r13`) over any other dump that
    /// happens to cover the same address, so the evidence cites the command a reader expects.
    fn word(&self, addr: u64) -> Option<(u64, Span)> {
        let own = format!("${}", self.p.register);
        let mine = self.stop.memory.iter().filter(|m| m.expr.as_deref() == Some(own.as_str()));
        let others = self.stop.memory.iter().filter(|m| m.expr.as_deref() != Some(own.as_str()));
        mine.chain(others)
            .find_map(|m| m.read_u64(addr).map(|w| (w, m.span)))
            // A core's memory, when the input was one.
            .or_else(|| self.cx.trace.read_u64(addr).map(|w| (w, Span::default())))
    }

    fn region_problem(&self, v: u64, c: &Class) -> Option<String> {
        Some(match c.kind {
            RegionKind::ZeroPage if v == 0 => "is NULL".to_string(),
            RegionKind::ZeroPage => "is in the zero page".to_string(),
            RegionKind::SmallInteger => "is a small integer".to_string(),
            RegionKind::NonCanonical => "is non-canonical".to_string(),
            RegionKind::Kernel => "is a kernel address".to_string(),
            RegionKind::Unmapped => "points into no mapping".to_string(),
            RegionKind::Code | RegionKind::Jit | RegionKind::ReadOnlyData | RegionKind::Special | RegionKind::Stack => {
                format!("points into {}", c.kind.name())
            }
            RegionKind::Heap | RegionKind::Anonymous | RegionKind::WritableData | RegionKind::Unknown => return None,
        })
    }

    fn pgcstack(&self) -> Option<Finding> {
        let reg = self.p.register;
        let r = self.regs.reg(reg)?;
        let v = r.value?;
        let usage = self.usage();
        if let Usage::WrittenFirst | Usage::NotTaken | Usage::Reassigned = usage {
            return None;
        }
        let incoming = self.incoming();
        let class = self.classify(v);
        let region = self.region_problem(v, &class);
        let equal = self.equal_argument(v);
        let sp0 = self.cx.sp_at(self.th, 0);
        let bad = self.pgcstack_shape(v, sp0);
        let dumped = self.word(v).is_some();
        let tc = if region.is_none() { self.task_check(v) } else { TaskCheck::default() };
        // The same evidence gives the same severity whatever the debugger printed it:
        // - the region of the value is a guess without mappings, but a dumped word that fails
        //   by its value alone (`[r13+16] = 0x2a`, a small integer, is no ptls) needs no mappings;
        // - the convention comes from the name unless the code shows the function reading the
        //   register, either in the listing before pc or in the crash itself (the faulting
        //   instruction dereferences a word loaded from [r13+k]).
        let chain = self.fault_chain(v);
        let by_value = bad.iter().any(|b| b.by_value);
        let region_guess = class.heuristic && !by_value;
        let usage_unknown = !matches!(usage, Usage::ReadFirst(..)) && chain.is_none();
        let mut heuristic = region_guess || usage_unknown;
        if region.is_none() && bad.is_empty() && tc.problems.is_empty() {
            if !tc.facts.is_empty() {
                return Some(self.valid_pgcstack(v, &tc, &usage));
            }
            if !incoming {
                return None;
            }
            // Only a coincidence with an argument register is left; with a dump that passes it
            // is a real pgcstack that also went out as an argument.
            if equal.is_none() || dumped {
                return None;
            }
            heuristic = true;
        }
        // Past the entry, unless the code shows the register unchanged since, it may hold the
        // function's own data: only a live task's pgcstack that belongs to another thread (no
        // reuse makes one of those) is still wrong there.
        // A kernel-reported fault (si_code > 0) on the word loaded from [r13+k] (the prologue's
        // ptls/safepoint chain) shows r13 used as the pgcstack at the crash itself.
        let kernel_fault = self.stop.reason.si_code.is_some_and(|c| c > 0) && self.stop.reason.address.is_some();
        if !(incoming || tc.other_thread || (chain.is_some() && kernel_fault)) {
            return None;
        }
        if bad.is_empty() && region.is_none() && !tc.problems.is_empty() && self.layout.is_some_and(|l| !l.verified) {
            // Only an assumed (unverified) layout says no.
            heuristic = true;
        }

        // Message: value (region), equality, then the first concrete failure.
        let mut msg = format!("{reg} = {v:#x}");
        if region.is_none() && class.kind != RegionKind::Unknown {
            msg.push_str(&format!(" ({})", class.kind.name()));
        }
        let mut reasons: Vec<String> = Vec::new();
        if let Some(e) = equal {
            reasons.push(format!("equals {}", e.name));
        }
        if let Some(p) = &region {
            reasons.push(p.clone());
        }
        msg.push_str(&format!(
            "{}{}, not a {} in {}",
            if reasons.is_empty() { "" } else { " " },
            reasons.join(" and "),
            self.p.holds,
            self.name()
        ));
        if let Some(b) = bad.first() {
            msg.push_str(&format!(": [{reg}+{}] = {:#x} {}", b.offset, b.value, b.why));
        } else if let Some((p, _)) = tc.problems.first() {
            msg.push_str(&format!(": {p}"));
        }
        if self.index() != 0 {
            msg.push_str(&format!(" (frame #{})", self.index()));
        }

        let mut f = Finding::new(&RULE, msg).at(self.si, Some(self.th), Some(self.index())).rank(100).register(reg);
        if let Some(e) = equal {
            f = f.register(&e.name);
        }
        if let Some((t, span)) = self.transition(v) {
            f = f.evidence(t, Some(span));
        }
        let where_ = match self.mapping_text(v) {
            Some(m) => format!("{} (mapping {m})", class),
            None => class.to_string(),
        };
        f = f.evidence(format!("{reg} = {v:#x} in frame #{} points into {where_}", self.index()), Some(r.span));
        if let Some(e) = equal {
            f = f.evidence(
                format!(
                    "{} = {v:#x}: {reg} holds the same value as an argument register (a leftover argument?)",
                    e.name
                ),
                Some(e.span),
            );
        }
        for b in &bad {
            f = f.evidence(format!("[{reg}+{}] = {:#x} {}", b.offset, b.value, b.why), b.span);
        }
        for (t, span) in tc.problems.iter().chain(&tc.facts) {
            f = f.evidence(t.clone(), *span);
        }
        match self.layout {
            Some(l) if !(tc.problems.is_empty() && tc.facts.is_empty()) => f = f.evidence(layout_evidence(l), None),
            Some(_) => {}
            // Say so rather than assume a layout.
            None => {
                f = f.evidence(
                    "task layout not checked: no Julia runtime DWARF and no Julia version in the trace (give libjulia-internal with --exe or --debug-dir)",
                    None,
                )
            }
        }
        if let Some(t) = self.name_mismatch() {
            f = f.evidence(t, None);
        }
        if let Some((t, span)) = &chain {
            f = f.evidence(t.clone(), Some(*span));
        }
        if let Some((t, span)) = self.setter(v) {
            f = f.evidence(t, Some(span));
        }
        if let Some(t) = self.origin() {
            f = f.evidence(t, None);
        }
        match &usage {
            Usage::ReadFirst(text, span) => {
                f = f.evidence(
                    format!(
                        "{} reads {reg} before writing it ({}): it expects the {} there",
                        self.name(),
                        text.trim(),
                        self.p.holds
                    ),
                    Some(*span),
                );
            }
            _ if chain.is_some() => {
                f = f.evidence(
                    format!(
                        "{} uses {reg} as the {}: the crash dereferences a word loaded from it",
                        self.name(),
                        self.p.holds
                    ),
                    None,
                );
            }
            _ => {
                f = f.evidence(
                    format!("convention inferred from the name {} only (no printed instruction of it reads {reg} before writing it); code built with gcstack_arg = false or Julia < 1.10 does not take pgcstack in {reg}", self.name()),
                    None,
                );
            }
        }
        // Say what would decide a guess.
        if usage_unknown {
            f = f.evidence(
                format!(
                    "missing: the code of {} before pc (run `x/16i $pc-48` or `disassemble`) would show whether it reads {reg}",
                    self.name()
                ),
                None,
            );
        }
        if region_guess {
            f = f.evidence(
                format!("missing: the mappings (run `info proc mappings`) would tell where {reg} = {v:#x} points"),
                None,
            );
        }
        if !dumped {
            f = f.step(format!("x/4gx ${reg}"));
        }
        f = f
            .step(format!("info symbol ${reg}"))
            .step(format!("p *(jl_task_t *)((char *)${reg} - offsetof(jl_task_t, gcstack))"));
        if let Some(c) = self.caller() {
            f = f.step(format!("frame {}", c.index)).step(format!("info registers {reg}"));
        }
        f = f.step(format!(
            "rr: watch ${reg}, then reverse-continue (or reverse-stepi until {reg} changes) to find who set it"
        ));
        if heuristic {
            f = f.heuristic();
        }
        Some(f)
    }

    /// gdb's frame name (DWARF) differs from the ELF symbol at pc (`info symbol $pc`).
    fn name_mismatch(&self) -> Option<String> {
        let (sym, off) = julia::elf_symbol_any(self.cx.trace, self.stop, self.th, self.pos)?;
        let (_, phys) = julia::inline_chain(self.th, self.pos);
        let shown = self.th.frames[phys].function_name();
        (shown != sym).then(|| {
            format!(
                "the ELF symbol table puts pc in {sym} + {off} where the debug info (bt) says {shown}: the debug info does not describe this code; {sym} is the function"
            )
        })
    }

    /// Checks `v` against the Julia task layout: `task = v - offsetof(jl_task_t, gcstack)`
    /// has a task header, `task->ptls->current_task == task`, and `ptls->system_id` is the
    /// pthread of the thread that stopped. Reads only words some dump (or the core) holds.
    fn task_check(&self, v: u64) -> TaskCheck {
        let mut tc = TaskCheck::default();
        let Some(l) = self.layout else { return tc };
        let reg = self.p.register;
        let task = v.wrapping_sub(l.task_gcstack);
        let back = l.task_gcstack + 8;
        if let Some(tag) = l.task_tag
            && let Some((h, span)) = self.word(task.wrapping_sub(8))
        {
            if h & !0xf == tag << 4 {
                tc.live += 1;
                tc.facts.push((
                    format!("[{reg}-{back}] = {h:#x}: the header of a Task (jl_task_tag {tag} << 4 = {:#x}) at {reg} - {} = {task:#x}", tag << 4, l.task_gcstack),
                    nz(span),
                ));
            } else {
                tc.problems.push((
                    format!("{reg} - {} = {task:#x} is not a Task: its header [{reg}-{back}] = {h:#x}, not jl_task_tag {tag} << 4 = {:#x}", l.task_gcstack, tag << 4),
                    nz(span),
                ));
            }
        }
        let poff = l.task_ptls - l.task_gcstack;
        let Some((ptls, _)) = self.word(v.wrapping_add(poff)) else { return tc };
        if let Some(ct_off) = l.tls_current_task
            && let Some((ct, span)) = self.word(ptls.wrapping_add(ct_off))
        {
            if ct == task {
                tc.live += 1;
                tc.facts.push((format!("ptls = {ptls:#x} and ptls->current_task = {ct:#x} = {reg} - {}: the task is current on its thread", l.task_gcstack), nz(span)));
            } else {
                tc.problems.push((
                    format!("ptls->current_task = {ct:#x}, not the task {reg} - {} = {task:#x}: {reg} is not the running task's pgcstack", l.task_gcstack),
                    nz(span),
                ));
            }
        }
        let tid = l.tls_tid.and_then(|o| self.word(ptls.wrapping_add(o))).map(|(w, _)| w & 0xffff);
        if let Some(sid_off) = l.tls_system_id
            && let Some((sid, span)) = self.word(ptls.wrapping_add(sid_off))
            && let Some(me) = self.th.handle.map(|a| a.0).or_else(|| self.thread_handle())
        {
            let tid_text = tid.map(|t| format!(" (Julia thread id {t})")).unwrap_or_default();
            if sid == me {
                tc.facts
                    .push((format!("ptls->system_id = {sid:#x}{tid_text} is this thread (Thread {me:#x})"), nz(span)));
            } else {
                let other = self
                    .stop
                    .threads
                    .iter()
                    .find(|t| t.handle.map(|a| a.0) == Some(sid))
                    .map(|t| format!("thread {} (Thread {sid:#x})", t.id))
                    .unwrap_or_else(|| format!("Thread {sid:#x}"));
                tc.other_thread = tc.live == 2;
                tc.problems.push((
                    format!("ptls->system_id = {sid:#x}{tid_text}: the task belongs to {other}, not to thread {} (Thread {me:#x}); {reg} is another thread's pgcstack", self.th.id),
                    nz(span),
                ));
            }
        }
        tc
    }

    /// This thread's pthread_t when only `info threads` printed it (another thread entry of the
    /// same stop with the same id).
    fn thread_handle(&self) -> Option<u64> {
        self.stop.threads.iter().filter(|t| t.id == self.th.id).find_map(|t| t.handle.map(|a| a.0))
    }

    /// The register passed the task-layout check: an info finding that says why it is quiet.
    fn valid_pgcstack(&self, v: u64, tc: &TaskCheck, usage: &Usage) -> Finding {
        let reg = self.p.register;
        let mut f = Finding::new(
            &RULE,
            format!("{reg} = {v:#x} is a valid pgcstack in {}: checked against the Julia task layout", self.name()),
        )
        .at(self.si, Some(self.th), Some(self.index()))
        .rank(5)
        .register(reg)
        .severity(Severity::Info);
        for (t, span) in &tc.facts {
            f = f.evidence(t.clone(), *span);
        }
        if let Some(l) = self.layout {
            f = f.evidence(layout_evidence(l), None);
        }
        if let Usage::ReadFirst(text, span) = usage {
            f = f.evidence(format!("{} reads {reg} before writing it ({})", self.name(), text.trim()), Some(*span));
        }
        if let Some(t) = self.name_mismatch() {
            f = f.evidence(t, None);
        }
        f
    }

    /// `x/4gx $r13` shape: gcstack (NULL or this thread's stack, at or above sp), world age
    /// (small integer), ptls (heap).
    fn pgcstack_shape(&self, v: u64, sp0: Option<u64>) -> Vec<BadWord> {
        let mut bad = Vec::new();
        let sp_name = self.cx.trace.arch.sp_register();
        if let Some((w, span)) = self.word(v)
            && w != 0
        {
            let c = self.classify(w);
            let why = if c.kind != RegionKind::Stack {
                Some(match c.kind {
                    RegionKind::ZeroPage | RegionKind::SmallInteger => {
                        "is a small integer, not a GC frame on the stack".to_string()
                    }
                    _ => format!("points into {}, not the stack", c.kind.name()),
                })
            } else {
                match sp0 {
                    Some(sp) if w < sp => Some(format!("is below {sp_name} = {sp:#x}: not a live GC frame")),
                    _ => None,
                }
            };
            if let Some(why) = why {
                let by_value =
                    matches!(c.kind, RegionKind::ZeroPage | RegionKind::SmallInteger | RegionKind::NonCanonical);
                bad.push(BadWord { offset: 0, value: w, why, span: Some(span), by_value });
            }
        }
        if let Some((w, span)) = self.word(v.wrapping_add(8))
            && w >= 1 << 32
            && w != u64::MAX
        {
            let c = self.classify(w);
            let what = if c.kind.is_pointer_like() {
                format!("points into {}", c.kind.name())
            } else {
                "is too large".to_string()
            };
            // A world age is a counter: at or above 2^32 it is not one, whatever it points into.
            bad.push(BadWord {
                offset: 8,
                value: w,
                why: format!("{what}, not a world age"),
                span: Some(span),
                by_value: true,
            });
        }
        if let Some((w, span)) = self.word(v.wrapping_add(16)) {
            let c = self.classify(w);
            let why = match c.kind {
                RegionKind::Heap | RegionKind::Anonymous | RegionKind::WritableData | RegionKind::Unknown => None,
                RegionKind::ZeroPage if w == 0 => Some("is NULL, not a ptls pointer".to_string()),
                RegionKind::ZeroPage | RegionKind::SmallInteger => {
                    Some("is a small integer, not a ptls pointer".to_string())
                }
                k => Some(format!("points into {}, not a ptls pointer", k.name())),
            };
            if let Some(why) = why {
                let by_value =
                    matches!(c.kind, RegionKind::ZeroPage | RegionKind::SmallInteger | RegionKind::NonCanonical);
                bad.push(BadWord { offset: 16, value: w, why, span: Some(span), by_value });
            }
        }
        bad
    }

    /// In frame #0: the faulting instruction dereferences a word read from the bad pgcstack
    /// (`rax = 0x2a = [r13+0x10]`), the safepoint chain of a Julia prologue.
    fn fault_chain(&self, v: u64) -> Option<(String, Span)> {
        if self.index() != 0 || self.stop.reason.kind != StopKind::Signal {
            return None;
        }
        let i = self.cx.fault_insn(self.stop)?;
        let d = insn::decode(&i.text);
        let base = d.mem.as_ref()?.base.clone()?;
        let bv = self.regs.get(&base)?;
        for off in [0u64, 8, 16] {
            if let Some((w, _)) = self.word(v.wrapping_add(off))
                && w == bv
                && base != self.p.register
            {
                return Some((
                    format!(
                        "the faulting instruction `{}` dereferences {base} = {bv:#x}, the word at [{}+{off:#x}]",
                        i.text.trim(),
                        self.p.register
                    ),
                    i.span,
                ));
            }
        }
        None
    }

    fn go_g(&self) -> Option<Finding> {
        let reg = self.p.register;
        let r = self.regs.reg(reg)?;
        let v = r.value?;
        let class = self.classify(v);
        let mut problem = self.region_problem(v, &class);
        // Go allocates g and goroutine stacks from the same heap arenas: "near a stack
        // pointer" is normal for g. Only the OS main-thread `[stack]` mapping is suspicious.
        if class.kind == RegionKind::Stack && (class.heuristic || class.path.as_deref() != Some("[stack]")) {
            problem = None;
        }
        let mut evidence: Vec<(String, Option<Span>)> = Vec::new();
        let sp = self.regs.get(self.cx.trace.arch.sp_register());
        if problem.is_none()
            && let (Some((lo, s1)), Some((hi, _)), Some(sp)) = (self.word(v), self.word(v.wrapping_add(8)), sp)
            && lo != 0
            && lo < hi
            && hi - lo <= 1 << 30
            && !(lo..hi).contains(&sp)
        {
            problem = Some(format!("has stack [{lo:#x}, {hi:#x}) but sp = {sp:#x} lies outside it"));
            evidence.push((format!("g.stack.lo = {lo:#x}, g.stack.hi = {hi:#x}"), Some(s1)));
        }
        let problem = problem?;
        let mut f =
            Finding::new(&RULE, format!("{reg} = {v:#x} {problem}: not the current goroutine g in {}", self.name()))
                .at(self.si, Some(self.th), Some(self.index()))
                .rank(90)
                .register(reg)
                .evidence(format!("{reg} = {v:#x} in frame #{} points into {class}", self.index()), Some(r.span));
        if let Some((t, span)) = self.transition(v) {
            f = f.evidence(t, Some(span));
        }
        for (t, s) in evidence {
            f = f.evidence(t, s);
        }
        f = f
            .evidence("Go assembly (ABI0) functions and the g0/gsignal stacks do not keep this invariant", None)
            .step(format!("x/4gx ${reg}"))
            .step(format!("info symbol ${reg}"))
            .step("info goroutines");
        Some(f.heuristic())
    }

    fn writable_pointer(&self) -> Option<Finding> {
        let reg = self.p.register;
        let r = self.regs.reg(reg)?;
        let v = r.value?;
        let class = self.classify(v);
        let problem = self.region_problem(v, &class)?;
        let f = Finding::new(&RULE, format!("{reg} = {v:#x} {problem}, not {} in {}", self.p.holds, self.name()))
            .at(self.si, Some(self.th), Some(self.index()))
            .rank(80)
            .register(reg)
            .evidence(format!("{reg} = {v:#x} in frame #{} points into {class}", self.index()), Some(r.span))
            .evidence(
                format!(
                    "{} follows the {} convention ({})",
                    self.name(),
                    runtime::convention(self.frame()).name(),
                    self.p.source
                ),
                None,
            )
            .step(format!("info symbol ${reg}"));
        Some(f.heuristic())
    }
}

/// A dump's span, or none for a word read from a core (no transcript line to point at).
fn nz(span: Span) -> Option<Span> {
    (span != Span::default()).then_some(span)
}

fn layout_evidence(l: &JuliaLayout) -> String {
    let v = l.version.as_deref().map(|v| format!("Julia {v}, ")).unwrap_or_default();
    format!(
        "layout: {v}offsetof(jl_task_t, gcstack) = {}, ptls = {}; from the {}{}",
        l.task_gcstack,
        l.task_ptls,
        l.source,
        if l.verified { "" } else { " (assumed, not verified)" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};
    use crate::runtime::{Convention, convention_of_name as conv_of};

    #[test]
    fn founding_case_fires_at_frame_0() {
        let f = run_rule_on_sample(&RULE, "julia-trampoline-bad-r13.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        let f = &f[0];
        assert_eq!(f.frame, Some(0));
        assert_eq!(f.severity, Severity::Error);
        assert!(!f.heuristic);
        assert_eq!(f.rank, 100);
        assert_eq!(
            f.message,
            "r13 = 0x5555555593b0 (heap) equals rsi, not a pgcstack in julia_module_callback_4212: [r13+0] = 0x555555557dd0 points into read-only data, not the stack"
        );
        assert_eq!(f.registers, vec!["r13", "rsi"]);
        let ev: Vec<&str> = f.evidence.iter().map(|e| e.text.as_str()).collect();
        let has = |s: &str| ev.iter().any(|e| e.contains(s));
        assert!(
            has(
                "jlcapi_module_callback_4213 (C ABI, frame #1) calls julia_module_callback_4212 (specsig, expects pgcstack in r13, frame #0) without setting r13"
            ),
            "{ev:#?}"
        );
        assert!(has("[heap]"), "{ev:#?}");
        assert!(has("[r13+8] = 0x555555555528 points into code, not a world age"), "{ev:#?}");
        assert!(has("[r13+16] = 0x2a is a small integer, not a ptls pointer"), "{ev:#?}");
        assert!(has("dereferences rax = 0x2a, the word at [r13+0x10]"), "{ev:#?}");
        assert!(
            has("was set by run_pass_manager (frame #2), which saves its caller's r13 at 0x7fffffffeae8"),
            "{ev:#?}"
        );
        assert!(has("reads r13 before writing it (mov    0x10(%r13),%rax)"), "{ev:#?}");
        // The register line and the dump lines are cited.
        assert!(
            f.evidence.iter().any(|e| e.text.starts_with("r13 = ") && e.lines == Some(Span::line(30))),
            "{:#?}",
            f.evidence
        );
        assert!(
            f.evidence.iter().any(|e| e.text.starts_with("[r13+0]") && e.lines == Some(Span { first: 54, last: 55 })),
            "{:#?}",
            f.evidence
        );
        assert!(f.next_steps.iter().any(|s| s.contains("reverse-continue")));
        assert!(f.next_steps.iter().any(|s| s == "frame 1"));
    }

    #[test]
    fn founding_case_outranks_null_dereference() {
        let path = format!("{}/sample-traces/julia-trampoline-bad-r13.gdb.txt", env!("CARGO_MANIFEST_DIR"));
        let parsed = crate::input::parse_bytes(&std::fs::read(path).unwrap_or_default());
        let all = crate::rules::run(&parsed.trace, &crate::rules::Selection::default());
        assert_eq!(all.first().map(|f| f.rule), Some("pinned-register"), "{all:#?}");
    }

    #[test]
    fn valid_pgcstack_and_c_frames_are_quiet() {
        assert!(run_rule_on_sample(&RULE, "julia-trampoline-good-r13.gdb.txt").is_empty());
        assert!(run_rule_on_sample(&RULE, "c-r13-plain.gdb.txt").is_empty());
    }

    const MAPS: &str = "\
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/j
      0x555555555000     0x555555556000     0x1000     0x1000  r-xp   /tmp/j
      0x555555559000     0x55555557a000    0x21000        0x0  rw-p   [heap]
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
";

    fn julia_trace(frame0: &str, r13: &str, extra: &str) -> String {
        format!(
            "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555549 in {frame0} ()
(gdb) bt
#0  0x0000555555555549 in {frame0} ()
#1  0x0000555555555535 in jfptr_f_2 ()
(gdb) info registers
rsi            0x1                 1
rsp            0x7fffffffea90      0x7fffffffea90
r13            {r13}      0
rip            0x555555555549      0x555555555549 <{frame0}+15>
{extra}{MAPS}"
        )
    }

    /// julia_f_1 from its entry to pc, straight-line, never naming r13: r13 at pc is still
    /// the argument it was called with (without this, a pc past the entry proves nothing).
    const ENTRY_TO_PC: &str = "\
(gdb) disassemble
Dump of assembler code for function julia_f_1:
   0x000055555555553a <+0>:\tpush   %rbp
   0x000055555555553b <+1>:\tmov    %rsp,%rbp
   0x000055555555553e <+4>:\tsub    $0x10,%rsp
   0x0000555555555542 <+8>:\tmov    %rdi,-0x8(%rbp)
   0x0000555555555546 <+12>:\tmov    %rsi,%rax
=> 0x0000555555555549 <+15>:\tmov    0x10(%rax),%rax
End of assembler dump.
";

    #[test]
    fn r13_past_the_entry_without_code_is_not_judged() {
        // pc is 15 bytes into julia_f_1 and nothing shows r13 unchanged since the entry:
        // Julia code reuses r13 after its prologue (tests/julia_real2.rs), so no finding.
        assert!(run_rule(&RULE, &julia_trace("julia_f_1", "0x7fffffffeb00", "")).is_empty());
    }

    #[test]
    fn r13_into_the_stack_fires() {
        let t = julia_trace("julia_f_1", "0x7fffffffeb00", ENTRY_TO_PC);
        let f = run_rule(&RULE, &t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("r13 = 0x7fffffffeb00 points into stack, not a pgcstack in julia_f_1"),
            "{}",
            f[0].message
        );
        // No disassembly shows julia_f_1 reading r13: heuristic.
        assert!(f[0].heuristic);
        assert_eq!(f[0].severity, Severity::Warning);
    }

    #[test]
    fn r13_read_first_in_listing_is_not_heuristic() {
        let extra = "\
(gdb) disassemble
Dump of assembler code for function julia_f_1:
   0x000055555555553a <+0>:\tpush   %rbp
   0x0000555555555545 <+11>:\tmov    0x10(%r13),%rax
=> 0x0000555555555549 <+15>:\tmov    0x10(%rax),%rax
End of assembler dump.
";
        let f = run_rule(&RULE, &julia_trace("julia_f_1", "0x2a", extra));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "r13 = 0x2a is in the zero page, not a pgcstack in julia_f_1");
        assert!(!f[0].heuristic);
    }

    #[test]
    fn function_that_writes_r13_first_is_not_checked() {
        // gcstack_arg = false code: loads pgcstack from TLS into r13 itself.
        let extra = "\
(gdb) disassemble
Dump of assembler code for function julia_f_1:
   0x000055555555553a <+0>:\tmov    %fs:0xfffffffffffffff8,%r13
   0x0000555555555545 <+11>:\tmov    0x10(%r13),%rax
=> 0x0000555555555549 <+15>:\tmov    0x10(%rax),%rax
End of assembler dump.
";
        assert!(run_rule(&RULE, &julia_trace("julia_f_1", "0x2a", extra)).is_empty());
    }

    #[test]
    fn heap_pgcstack_with_good_shape_is_quiet() {
        let extra = "\
(gdb) x/4gx $r13
0x555555559318:\t0x00007fffffffeb40\t0x0000000000006791
0x555555559328:\t0x0000555555559350\t0x0000000000000000
";
        assert!(run_rule(&RULE, &julia_trace("julia_f_1", "0x555555559318", extra)).is_empty());
    }

    #[test]
    fn gc_frame_below_sp_fails_shape() {
        let extra = "\
(gdb) x/4gx $r13
0x555555559318:\t0x00007fffffffe000\t0x0000000000006791
0x555555559328:\t0x0000555555559350\t0x0000000000000000
";
        let extra = format!("{extra}{ENTRY_TO_PC}");
        let f = run_rule(&RULE, &julia_trace("julia_f_1", "0x555555559318", &extra));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.ends_with("[r13+0] = 0x7fffffffe000 is below rsp = 0x7fffffffea90: not a live GC frame"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn equal_to_argument_without_dump_is_heuristic() {
        let t = julia_trace("julia_f_1", "0x555555559318", ENTRY_TO_PC)
            .replace("rsi            0x1                 1", "rsi            0x555555559318      1");
        let f = run_rule(&RULE, &t);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.starts_with("r13 = 0x555555559318 (heap) equals rsi, not a pgcstack"), "{}", f[0].message);
        assert!(f[0].heuristic);
    }

    #[test]
    fn ghc_and_swift_frames_do_not_get_the_pgcstack_check() {
        // r13 = a heap word that would fail the pgcstack shape: GHC's BaseReg and Swift's self
        // are not pgcstacks, so nothing fires.
        let dump = "\
(gdb) x/4gx $r13
0x555555559318:\t0x0000555555554100\t0x0000555555555100
0x555555559328:\t0x000000000000002a\t0x0000000000000000
";
        for name in ["Main_main1_info", "stg_ap_p_fast", "$s4main3FooV3baryyF"] {
            assert_ne!(conv_of(name), Convention::JuliaSpecsig);
            assert!(run_rule(&RULE, &julia_trace(name, "0x555555559318", dump)).is_empty(), "{name}");
        }
        // Swift self may point anywhere, even into the stack.
        assert!(run_rule(&RULE, &julia_trace("$s4main3FooV3baryyF", "0x7fffffffeb00", "")).is_empty());
        // GHC BaseReg pointing into code is flagged as a BaseReg problem, never as a pgcstack.
        let f = run_rule(&RULE, &julia_trace("Main_main1_info", "0x555555555100", ""));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "r13 = 0x555555555100 points into code, not BaseReg in Main_main1_info");
        assert!(f[0].heuristic);
    }

    #[test]
    fn go_frame_with_sane_g_is_quiet_and_wild_g_fires() {
        let go = |r14: &str, extra: &str| {
            format!(
                "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555549 in main.work ()
(gdb) bt
#0  0x0000555555555549 in main.work ()
#1  0x0000555555555535 in main.main ()
#2  0x0000555555555500 in runtime.main ()
(gdb) info registers
rsp            0x7fffffffea90      0x7fffffffea90
r14            {r14}      0
rip            0x555555555549      0x555555555549 <main.work+15>
{extra}{MAPS}"
            )
        };
        let dump = "\
(gdb) x/4gx $r14
0x555555559318:\t0x00007fffffffe000\t0x00007ffffffff000
0x555555559328:\t0x00007fffffffe3a0\t0xfffffffffffffade
";
        assert!(run_rule(&RULE, &go("0x555555559318", dump)).is_empty());
        let f = run_rule(&RULE, &go("0x555555555100", ""));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.starts_with("r14 = 0x555555555100 points into code: not the current goroutine g in main.work"),
            "{}",
            f[0].message
        );
        // Without a Go runtime (no runtime.* frame), Go-looking names are not evidence: quiet.
        assert!(run_rule(&RULE, &go("0x555555555100", "").replace("runtime.main", "start_main")).is_empty());
        let bad_bounds =
            dump.replace("0x00007fffffffe000\t0x00007ffffffff000", "0x00007fffffff0000\t0x00007fffffff8000");
        let f = run_rule(&RULE, &go("0x555555559318", &bad_bounds));
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("sp = 0x7fffffffea90 lies outside it"), "{}", f[0].message);
    }

    #[test]
    fn julia_frame_above_zero_is_judged_only_at_its_entry() {
        // A C frame #0 (memcpy) called from julia_g_3, whose own (callee-saved) r13 is a code
        // address.
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555549 in memcpy ()
(gdb) bt
#0  0x0000555555555549 in memcpy ()
#1  0x0000555555555535 in julia_g_3 ()
#2  0x0000555555555520 in jlcapi_g_4 ()
#3  0x0000555555555400 in ijl_apply_generic ()
(gdb) info registers
rsi            0x555555555100      1
rsp            0x7fffffffea90      0x7fffffffea90
r13            0x555555555100      0
(gdb) frame 1
#1  0x0000555555555535 in julia_g_3 ()
(gdb) info registers
rsi            0x555555555100      1
rsp            0x7fffffffeaa0      0x7fffffffeaa0
r13            0x555555555100      0
"
        .to_string()
            + MAPS;
        // r13 in frame #1 is what julia_g_3 keeps there across its call to memcpy: pgcstack is
        // an argument, fixed at julia_g_3's entry only, and LLVM reuses r13 after the prologue
        // (a try block's jmp_buf, array data: tests/julia_real2.rs). Not judged there.
        assert!(run_rule(&RULE, &t).is_empty());
        // The same value in the interrupted frame, at julia_g_3's entry, is judged.
        let at_entry = t
            .replace("(gdb) frame 1\n#1  0x0000555555555535 in julia_g_3 ()\n(gdb) info registers\nrsi            0x555555555100      1\nrsp            0x7fffffffeaa0      0x7fffffffeaa0\nr13            0x555555555100      0\n", "")
            .replace("#0  0x0000555555555549 in memcpy ()\n#1  0x0000555555555535 in julia_g_3 ()\n#2", "#0  0x0000555555555549 in julia_g_3 ()\n#1")
            .replace("0x0000555555555549 in memcpy ()", "0x0000555555555549 in julia_g_3 ()")
            + "(gdb) info symbol $pc\njulia_g_3 in section .text of /tmp/j\n";
        let f = run_rule(&RULE, &at_entry);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].frame, Some(0));
        assert!(f[0].message.starts_with("r13 = 0x555555555100 "), "{}", f[0].message);
        assert!(f[0].message.contains("points into code, not a pgcstack in julia_g_3"), "{}", f[0].message);
    }

    #[test]
    fn frames_above_zero_use_their_own_r13_but_not_argument_registers() {
        // Frame 4 julia_run_21 in the founding case has a valid r13 of its own: no finding there.
        let f = run_rule_on_sample(&RULE, "julia-trampoline-bad-r13.gdb.txt");
        assert!(f.iter().all(|f| f.frame == Some(0)));
        // A julia frame #1 whose r13 equals frame-0's rsi is not flagged for that.
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555549 in memcpy ()
(gdb) bt
#0  0x0000555555555549 in memcpy ()
#1  0x0000555555555535 in julia_g_3 ()
(gdb) info registers
rsi            0x555555559318      1
rsp            0x7fffffffea90      0x7fffffffea90
r13            0x555555559318      0
(gdb) frame 1
#1  0x0000555555555535 in julia_g_3 ()
(gdb) info registers
rsi            0x555555559318      1
rsp            0x7fffffffeaa0      0x7fffffffeaa0
r13            0x555555559318      0
"
        .to_string()
            + MAPS;
        assert!(run_rule(&RULE, &t).is_empty());
    }
}
