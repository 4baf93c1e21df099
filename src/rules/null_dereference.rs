//! `null-dereference`: the fault address is in the zero page.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::insn::{self, Access};
use crate::model::signals::{SEGV_MAPERR, SI_KERNEL};
use crate::model::*;

/// x86 instructions that touch no memory and fault in user mode with a general protection
/// fault (si_addr 0), by their base mnemonic.
const PRIVILEGED_NO_MEMORY: &[&str] =
    &["hlt", "cli", "sti", "in", "out", "rdmsr", "wrmsr", "invd", "wbinvd", "clts", "swapgs", "sysret"];

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "null-dereference",
    title: "memory access through a NULL pointer",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A SIGSEGV or SIGBUS whose fault address (`si_addr`) lies in the zero
page (below 0x1000): the program read or wrote a field of a NULL pointer. When the faulting
instruction is in the dump, the rule names the base register and the field offset, for example
`read of field at offset 0x18 through rax = 0x0`. A fault past the zero page counts too when
the faulting instruction's base register is 0 and its address (a large index or offset,
`mov 0x40(%rdi,%rsi,4)` with rdi = 0, rsi = 40000) is the unmapped fault address: an array
indexed through a NULL pointer (with scale 1 the index must be small, since the "index" may
be the real pointer). Without a fault address, a NULL base indexed
by a register that was not printed (`mov (%rax,%rdx,8),%rdi`, rax = 0) is a NULL array pointer
(heuristic: the offset is unknown).

When frame #0's argument list has pointer arguments printed as `0x0` (`f (p=0x0)`,
`p=p@entry=0x0`), an evidence line labelled `heuristic:` names them: a likely source of the
NULL base, not a proof (a function may take legal NULLs). The line never appears on its own:
only on this finding, which needs a fault in the zero page. One exception, a heuristic finding of
its own: a SIGSEGV/SIGBUS whose dump has neither a fault address nor the faulting instruction,
in a member function called with `this` in the zero page (`Cls::get (this=0x0)`, `this=0xe80`: a
member of a NULL object), on frame #0 only; a NULL `this` in an outer frame, a NULL argument of
another name, a SIGABRT, or a known fault address elsewhere keep it quiet.

When gdb printed a NULL argument's entry value beside it (`p=0x0, p@entry=0x5555555592e0`:
DWARF entry values, `DW_OP_entry_value` and the caller's call-site parameters), an evidence
line says the pointer was not NULL when the function was entered and became NULL in it.

In a process with a Julia runtime, a runtime function (`ijl_*`, `jl_*` by the ELF symbol, or a
runtime frame) reading through a NULL base at exactly `offsetof(jl_task_t, ptls) -
offsetof(jl_task_t, gcstack)` (0x10 in Julia 1.13) is `jl_current_task->ptls` computed from a
NULL pgcstack: the message says the thread was never adopted (a foreign thread calling the
runtime's C API), with the layout as evidence and the fix (`jl_adopt_thread`, or entering
through a `@ccallable`/`@cfunction` entry). When gdb's debug-info name for frame #0 is another
function than the ELF symbol (`info symbol $pc`), the message names both: `in
ijl_alloc_svec_uninit (bt: jl_iintrinsic_2)`.

**Why it matters** The offset tells which field was accessed and the base register which
pointer was NULL; together with the frame's source line that is usually the whole diagnosis.
A NULL *function pointer* call is reported by `bad-pc` instead (the pc itself is 0).

**Example** `Program received signal SIGSEGV` with `p $_siginfo` showing `si_addr = 0x18` and
`=> mov 0x18(%rax),%rax` with `rax = 0x0`.

**Known false positives** `si_addr` 0 with `si_code` SI_KERNEL (128) is a general-protection
fault (non-canonical address, misaligned SSE access), not a NULL dereference; the rule skips
it. lldb 14 prints such a fault as `invalid address (fault address: 0x0)`, like a fault at 0:
when the faulting instruction's own address is outside the zero page, the 0 is not taken. A SIGBUS with `si_code` BUS_ADRALN and `si_addr` 0 is
x86-64's alignment check (#AC, EFLAGS.AC set), which reports no address: also skipped. Without `p $_siginfo` the fault address comes from the faulting instruction's registers,
which needs a disassembly and register dump (the finding then says so); when the printed
memory map shows that address mapped with the access allowed (a program that mapped page 0
itself, where `vm.mmap_min_addr` lets it), the access is legal and nothing is reported. A NULL access in
generated code (frame #0 without a symbol, in anonymous executable memory) of a process that
runs the JVM (`libjvm.so`, a process named `java`), .NET (`libcoreclr.so`), Mono or SBCL
(`sbcl.core`) is how those runtimes work (implicit null checks, safepoint polls, the JVM's
start-up probe, SBCL's guard pages): their own SIGSEGV handler takes it, and a debugger stops
before it. The finding is then `info` and says so; without the memory map, frame #0 outside
every library in a process whose frames or thread names show such a runtime counts as such
code."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[
        Sample::File("sample-traces/aarch64/julia-trampoline-bad-x20.collect.txt"),
        Sample::File("sample-traces/aarch64/julia-trampoline-bad-x20.gdb.txt"),
        Sample::File("sample-traces/aarch64/null-field.gdb.txt"),
        Sample::File("sample-traces/c-r13-plain.gdb.txt"),
        Sample::File("sample-traces/go/cgo-segv.txt"),
        Sample::File("sample-traces/go/nil-deref-arm64.txt"),
        Sample::File("sample-traces/go/nil-deref.txt"),
        Sample::File("sample-traces/go/traceback-crash.txt"),
        Sample::File("sample-traces/julia-trampoline-bad-r13.gdb.txt"),
        Sample::File("sample-traces/lldb/julia-trampoline-bad-r13.lldb.txt"),
        Sample::File("sample-traces/lldb/null-field.lldb.txt"),
        Sample::File("sample-traces/lldb/threads-crash.lldb.txt"),
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/synthetic/rr-replay-watchpoint.rr.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
    ],
    quiet_on: &[
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
        Sample::File("sample-traces/assert-fail.gdb.txt"),
        Sample::File("sample-traces/write-rodata.gdb.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        let r = &stop.reason;
        if r.kind != StopKind::Signal || !matches!(r.signo, Some(11) | Some(7)) {
            continue;
        }
        if r.si_code == Some(SI_KERNEL) {
            continue;
        }
        let th = stop.crashed_thread();
        let pc = cx.pc(stop);
        // A NULL call is bad-pc's business.
        if matches!(pc, Some(p) if p < 0x1000) {
            continue;
        }
        let insn = cx.fault_insn(stop);
        let decoded = insn.map(|i| insn::decode(&i.text));
        // The address the instruction computed, from its base register when we have it.
        let mut via: Option<(String, u64, i64, Access)> = None;
        if let Some(d) = &decoded
            && let (Some(m), Some(acc)) = (&d.mem, d.access)
            && let Some(base) = &m.base
            && let Some(v) = cx.reg0(stop, base).and_then(|r| r.value)
            && (m.index.is_none()
                || m.index.as_ref().and_then(|i| cx.reg0(stop, i)).and_then(|r| r.value) == Some(0)
                || cx.null_based_fault(stop).as_deref() == Some(base.as_str()))
        {
            via = Some((base.clone(), v, m.disp, acc));
        }
        // A NULL base indexed by a register that was not printed (`mov (%rax,%rdx,8),%rdi` with
        // rax = 0): the address is index × scale + disp, unknown, but the array pointer is NULL.
        let mut null_array: Option<(String, String)> = None;
        if via.is_none()
            && (r.address.is_none()
                || crate::model::signals::zero_si_addr_is_no_address(r.signo, r.si_code, r.address.map(|a| a.0)))
            && let Some(d) = &decoded
            && let (Some(m), Some(_)) = (&d.mem, d.access)
            && let (Some(base), Some(index)) = (&m.base, &m.index)
            && cx.reg0(stop, base).and_then(|r| r.value) == Some(0)
            && cx.reg0(stop, index).and_then(|r| r.value).is_none()
        {
            null_array = Some((base.clone(), index.clone()));
        }
        // An access through the stack pointer (`movl (%rsp),%ebx`, a push, a call) when the
        // stack pointer itself is a small integer: the pointer that is wrong is sp, which
        // stack-pointer-wild names; no NULL pointer was followed.
        let sp_name = cx.trace.arch.sp_register();
        let sp_wild = th.and_then(|t| cx.sp_at(t, 0)).is_some_and(|sp| sp < 0x10000);
        if sp_wild
            && (via.as_ref().is_some_and(|(b, ..)| b.as_str() == sp_name)
                || decoded.as_ref().is_some_and(|d| d.stack_access && d.mem.is_none()))
        {
            continue;
        }
        let computed = via.as_ref().map(|(_, v, disp, _)| v.wrapping_add(*disp as u64));
        // What the instruction accessed, for checking a zero si_addr: push/call/ret access the
        // stack, at sp.
        let accessed = computed.or_else(|| {
            decoded.as_ref().filter(|d| d.stack_access && d.mem.is_none()).and(th).and_then(|t| cx.sp_at(t, 0))
        });
        // x86-64's alignment check (SIGBUS, BUS_ADRALN) reports si_addr 0 for any address: no
        // fault address at all, so only the instruction's own address counts.
        let reported =
            r.address.filter(|a| !crate::model::signals::zero_si_addr_is_no_address(r.signo, r.si_code, Some(a.0)));
        let (addr, from_siginfo) = match (reported, computed) {
            // si_addr 0 of unknown si_code (lldb 14 words a general protection fault, whose
            // si_addr is always 0, like a fault at 0) that the faulting instruction contradicts:
            // it accessed another address, so the 0 is no fault address.
            (Some(a), _) if a.0 == 0 && r.si_code.is_none() && accessed.is_some_and(|c| c >= 0x1000) => continue,
            // The same zero from an instruction that reads and writes no memory at all: a
            // privileged one (`hlt`, `cli`, `in`, …) faults with a general protection fault in
            // user mode, so the 0 is no fault address either.
            (Some(a), _)
                if a.0 == 0
                    && r.si_code.is_none()
                    && decoded.as_ref().is_some_and(|d| {
                        d.mem.is_none()
                            && !d.stack_access
                            && PRIVILEGED_NO_MEMORY.contains(&d.mnemonic.trim_end_matches(['b', 'w', 'l', 'q']))
                    }) =>
            {
                continue;
            }
            (Some(a), _) => (a.0, true),
            (None, Some(c)) => (c, false),
            (None, None) => {
                if let Some((base, index)) = null_array {
                    let where_ = th.and_then(|t| t.frames.first()).map(|f| format!(" in {}", f.function_name()));
                    let i = insn.map(|i| i.text.trim().to_string()).unwrap_or_default();
                    let mut f = Finding::new(
                        &RULE,
                        format!(
                            "`{i}` indexes through {base} = 0x0{}: a NULL array pointer ({index} was not printed, so the offset is unknown)",
                            where_.unwrap_or_default()
                        ),
                    )
                    .at(si, th, Some(0))
                    .rank(50)
                    .register(&base)
                    .heuristic();
                    if let Some(reg) = cx.reg0(stop, &base) {
                        f = f.evidence(format!("{base} = 0x0"), Some(reg.span));
                    }
                    if let Some(ins) = insn {
                        f = f.evidence(format!("faulting instruction: {}", ins.text), Some(ins.span));
                    }
                    out.push(f.step(format!("p ${index}")).step("p $_siginfo._sifields._sigfault.si_addr"));
                } else if decoded.is_none()
                    && !r.is_sent()
                    && let Some(t) = th
                    && let Some(f0) = t.frames.first()
                    && !f0.signal_handler
                    && let Some(this) = null_this(f0)
                {
                    out.push(null_this_finding(si, t, f0, this));
                }
                continue;
            }
        };
        // Past the zero page only through a NULL base with a large index or offset.
        if addr >= 0x1000 && !(from_siginfo && cx.null_based_fault(stop).is_some()) {
            continue;
        }
        // An address computed from the instruction (no fault address from the kernel) that the
        // printed memory map shows mapped with the access allowed: the program mapped page 0
        // itself (`mmap(0, …, MAP_FIXED)` where vm.mmap_min_addr allows it), so the access is
        // a legal one and the signal came from elsewhere.
        if !from_siginfo
            && let Some((_, _, _, acc)) = &via
            && cx.trace.mapping_for(addr).is_some_and(|m| {
                m.contains(addr.wrapping_add(7))
                    && (*acc == Access::Read || m.writable() == Some(true))
                    && (*acc == Access::Write || m.readable() == Some(true))
            })
        {
            continue;
        }
        if from_siginfo && r.si_code.is_some() && r.si_code != Some(SEGV_MAPERR) && r.signo == Some(11) {
            // ACCERR on page 0 happens with mmap_min_addr = 0 setups; still a NULL access.
        }
        let frame = th.and_then(|t| t.frames.first());
        // The function by the ELF symbol table when gdb's debug-info name is another (a DWARF
        // that does not describe this code, docs/julia.md).
        let real0 = th.and_then(|t| {
            crate::julia::elf_symbol_any(cx.trace, stop, t, 0)
                .map(|(n, _)| n)
                .filter(|n| frame.is_some_and(|f| crate::julia::names_disagree(f.function_name(), n)))
        });
        let where_ = frame
            .map(|f| match real0 {
                Some(r) => format!(" in {r} (bt: {})", f.function_name()),
                None => format!(" in {}", f.function_name()),
            })
            .unwrap_or_default();
        // A Julia runtime function reading the current task's ptls through a NULL pgcstack
        // (`jl_current_task->ptls` with pgcstack = 0: the address is offsetof(jl_task_t, ptls)
        // - offsetof(jl_task_t, gcstack)): the thread has no Julia task, it was never adopted.
        let unadopted = match (&via, th) {
            (Some((base, 0, _, Access::Read)), Some(t)) if crate::julia::runtime_present(cx.trace) => {
                let name = crate::julia::physical_name(cx.trace, stop, t, 0);
                let runtime = ["ijl_", "jl_", "_jl_"].iter().any(|p| name.starts_with(p))
                    || frame.is_some_and(|f| crate::julia::role(f) == crate::julia::FrameRole::Runtime);
                crate::julia::layout_for(cx.trace)
                    .filter(|l| runtime && l.task_ptls.checked_sub(l.task_gcstack) == Some(addr))
                    .map(|l| (base.clone(), name.to_string(), l))
            }
            _ => None,
        };
        let mut msg = match &via {
            Some((base, v, disp, acc)) if *v < 0x1000 => {
                let kind = match acc {
                    Access::Read => "read of",
                    Access::Write => "write to",
                    Access::ReadWrite => "access to",
                };
                if *v == 0 && addr >= 0x1000 {
                    format!(
                        "{kind} {addr:#x} through {base} = 0x0 (a NULL base with a large offset or index, past the zero page){where_}"
                    )
                } else if *v == 0 {
                    format!("{kind} field at offset {addr:#x} through {base} = 0x0{where_}")
                } else {
                    // Not NULL itself but a small integer used as a pointer: say so.
                    format!(
                        "{kind} {addr:#x} through {base} = {v:#x} (a small integer, not a pointer) at offset {:#x}{where_}",
                        addr.wrapping_sub(*v)
                    )
                }
            }
            _ => format!("fault address {:#x} is in the zero page{where_}", addr),
        };
        if !from_siginfo {
            msg.push_str(" (address computed from the faulting instruction)");
        }
        // In generated code of a runtime that handles SIGSEGV itself (the JVM's implicit null
        // checks, safepoint polls and start-up probe; .NET/Mono's null references), a NULL access
        // is how that runtime works: under a debugger the stop comes before its handler.
        let managed = managed_runtime(cx, stop, pc);
        if let Some(rt) = managed {
            msg.push_str(&format!(
                ": frame #0 is generated code (no symbol, anonymous executable memory) in a process running {rt}, which handles SIGSEGV in its generated code itself; under a debugger this stop comes before that handler, so it is not by itself a crash"
            ));
        }
        if let Some((base, name, _)) = &unadopted {
            msg.push_str(&format!(
                ": the Julia runtime ({name}) read the current task's ptls through a NULL pgcstack ({base} = 0): this thread has no Julia task, a thread the runtime never adopted called its C API"
            ));
        }
        let mut f = Finding::new(&RULE, msg).at(si, th, Some(0)).rank(50);
        if let Some((_, _, l)) = &unadopted {
            f = f
                .evidence(
                    format!(
                        "{addr:#x} = offsetof(jl_task_t, ptls) {} - offsetof(jl_task_t, gcstack) {}: jl_current_task computed from pgcstack 0 (layout: {})",
                        l.task_ptls, l.task_gcstack, l.source
                    ),
                    None,
                )
                .step("adopt the thread before it calls the runtime (jl_adopt_thread(), or enter Julia through a @ccallable / @cfunction entry, which adopts it), or call the runtime from a thread Julia started")
                .step("p ijl_get_pgcstack() on this thread: 0x0 means the runtime does not know it");
        }
        if matches!(&via, Some((_, v, _, _)) if *v != 0) {
            // The base was a small integer, not NULL: a symptom of a bad value whose origin
            // other rules (pinned-register, poison-value) usually explain.
            f = f.severity(Severity::Warning).rank(40);
        }
        if managed.is_some() {
            f = f
                .severity(Severity::Info)
                .rank(20)
                .heuristic()
                .step("handle SIGSEGV nostop noprint pass, then continue (the real crash, if any, stops later)");
        }
        if let Some((base, _, _, _)) = &via {
            f = f.register(base);
            if let Some(reg) = cx.reg0(stop, base) {
                f = f.evidence(format!("{base} = {:#x}", reg.value.unwrap_or(0)), Some(reg.span));
            }
        }
        f = f.evidence(
            format!(
                "{} {} at {:#x}{}",
                r.signal.as_deref().unwrap_or("signal"),
                r.code_name().unwrap_or(""),
                addr,
                if from_siginfo { " (si_addr)" } else { "" }
            )
            .replace("  ", " "),
            Some(r.span),
        );
        if let Some(p) = stop.printed.iter().find(|p| p.shows_si_addr) {
            // On a handled fault's view the siginfo came from the handler's report.
            f = match stop.reason.fault_source {
                Some((source, span)) => f.evidence(format!("si_addr from {source}"), span.or(Some(p.span))),
                None => f.evidence("si_addr from $_siginfo", Some(p.span)),
            };
        }
        if let Some(i) = insn {
            f = f.evidence(format!("faulting instruction: {}", i.text), Some(i.span));
        }
        if let Some(fr) = frame
            && let (Some(file), Some(line)) = (&fr.file, fr.line)
        {
            f = f.evidence(format!("at {file}:{line}"), Some(fr.span));
        }
        // A NULL pointer argument of the faulting frame is a likely (not certain) source of
        // the NULL base: labelled as a heuristic, since the function may also take legal NULLs.
        if let Some(fr) = frame {
            let nulls = fr.null_args();
            // DWARF entry values: gdb's `p@entry=` says what the argument held when the
            // function was entered, so a NULL that was not NULL at entry was made here.
            for e in fr.entry_values() {
                if nulls.contains(&e.name) && e.at_entry_pointer.is_some_and(|p| p != 0) {
                    f = f.evidence(
                        format!(
                            "{} = 0x0 now, but {}@entry = {}: it was not NULL when {} was entered and became NULL in it (gdb's entry value, DW_OP_entry_value)",
                            e.name,
                            e.name,
                            e.at_entry,
                            fr.function_name()
                        ),
                        Some(fr.span),
                    );
                }
            }
            if !nulls.is_empty() {
                let list = nulls.iter().map(|n| format!("{n} = 0x0")).collect::<Vec<_>>().join(", ");
                f = f.evidence(
                    format!("heuristic: NULL pointer argument of {}: {list}", fr.function_name()),
                    Some(fr.span),
                );
            }
        }
        if via.is_none() {
            f = f.step("x/i $pc");
            f = f.step("info registers");
        } else {
            f = f.step("info locals");
        }
        f = f.step("frame 0").step("list");
        out.push(f);
    }
}

/// The value of frame #0's `this` argument when it is in the zero page (`Cls::m (this=0x0)`,
/// `this=0xe80`: a member of a NULL object): a member function called on a NULL object.
fn null_this(f: &Frame) -> Option<u64> {
    f.arg_facts().this_ptr.filter(|&v| v < 0x1000)
}

/// A SIGSEGV whose fault address and faulting instruction are not in the dump, in a member
/// function called with `this` in the zero page: the object was NULL (heuristic).
fn null_this_finding(si: usize, th: &Thread, f0: &Frame, this: u64) -> Finding {
    let name = f0.function_name();
    let what = if this == 0 {
        "called on a NULL object".to_string()
    } else {
        format!("called on an object at {this:#x}, inside the zero page: a member of a NULL object at that offset")
    };
    let mut f = Finding::new(
        &RULE,
        format!(
            "`this` = {this:#x} in {name}: the member function was {what}, and its first access through `this` faults (heuristic: the dump has no fault address or faulting instruction)"
        ),
    )
    .at(si, Some(th), Some(0))
    .rank(45)
    .heuristic()
    .evidence(format!("#0 {name} (this={this:#x})"), Some(f0.span));
    if let (Some(file), Some(line)) = (&f0.file, f0.line) {
        f = f.evidence(format!("at {file}:{line}"), Some(f0.span));
    }
    f.step("p $_siginfo._sifields._sigfault.si_addr").step("x/i $pc").step("info registers").step("frame 1")
}

/// The managed runtime whose SIGSEGV handler owns faults in its generated code
/// (`RuleContext::fault_runtime`).
fn managed_runtime(cx: &RuleContext<'_>, stop: &Stop, pc: Option<u64>) -> Option<&'static str> {
    let _ = pc?;
    cx.fault_runtime(stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_rule;

    const NULL_FIELD: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in get_d (p=0x0) at t.c:4
4\t  return p->d;
(gdb) info registers
rax            0x0                 0
rbx            0x7fffffffe818      140737488349208
rip            0x555555555139      0x555555555139 <get_d+16>
(gdb) x/2i $pc
=> 0x555555555139 <get_d+16>:\tmov    0x18(%rax),%rax
   0x55555555513d <get_d+20>:\tpop    %rbp
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_sigfault = {si_addr = 0x18, _addr_lsb = 0}}}
";

    #[test]
    fn null_base_with_a_large_index() {
        // crashers/null-array-index: `mov 0x40(%rdi,%rsi,4)` with rdi = 0 and rsi = 40000
        // faults at 0x27140, past the zero page; wild-pointer leaves it to this rule.
        let t = |rdi: &str, scale: &str| {
            format!(
                "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555190 in cell (t=0x0, i=40000) at src/null-array-index.c:11
(gdb) info registers
rsi            0x9c40              40000
rdi            {rdi}
rip            0x555555555190      0x555555555190 <cell>
(gdb) p $_siginfo
$1 = {{si_signo = 11, si_errno = 0, si_code = 1, _sifields = {{_sigfault = {{si_addr = 0x27140}}}}}}
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/p
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
(gdb) x/i $pc
=> 0x555555555190 <cell>:\tmov    0x40(%rdi,%rsi,{scale}),%eax
"
            )
        };
        let f = run_rule(&RULE, &t("0x0                 0", "4"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "read of 0x27140 through rdi = 0x0 (a NULL base with a large offset or index, past the zero page) in cell"
        );
        assert!(run_rule(&crate::rules::wild_pointer::RULE, &t("0x0                 0", "4")).is_empty());
        // A non-NULL base: wild-pointer's, not this rule's.
        assert!(run_rule(&RULE, &t("0x10                16", "4")).is_empty());
        // Scale 1 with a large "index": the index may be the real pointer; not claimed.
        let s1 = t("0x0                 0", "1").replace("0x9c40              40000", "0x27100             160000");
        assert!(run_rule(&RULE, &s1).is_empty());
    }

    #[test]
    fn null_array_pointer_indexed_by_an_unprinted_register() {
        // JuliaLang/julia#53350's shape: a core, `p $rax` = 0, the index register not printed.
        let t = "Program terminated with signal SIGSEGV, Segmentation fault.
#0  0x00007f4a1c3e2fa6 in gc_should_mark (ptls=0x7f49a8000b70) at /julia/src/gc.c:2865
(gdb) x/i $pc
=> 0x7f4a1c3e2fa6 <gc_should_mark+166>:\tmov    (%rax,%rdx,8),%rdi
(gdb) p $rax
$3 = 0
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("indexes through rax = 0x0"), "{}", f[0].message);
        // The index printed and non-zero: the address is known and not in the zero page.
        let known = format!("{t}(gdb) p $rdx\n$4 = 4096\n");
        assert!(run_rule(&RULE, &known).is_empty());
        // A non-NULL base: quiet.
        assert!(run_rule(&RULE, &t.replace("$3 = 0", "$3 = 140737353")).is_empty());
    }

    #[test]
    fn fires_with_base_register_and_offset() {
        let f = run_rule(&RULE, NULL_FIELD);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "read of field at offset 0x18 through rax = 0x0 in get_d");
        assert_eq!(f[0].registers, vec!["rax"]);
        assert_eq!(f[0].frame, Some(0));
        assert!(
            f[0].evidence.iter().any(|e| e.text.contains("mov    0x18(%rax),%rax") && e.lines == Some(Span::line(9)))
        );
    }

    #[test]
    fn null_argument_is_heuristic_evidence() {
        let f = run_rule(&RULE, NULL_FIELD);
        assert!(
            f[0].evidence.iter().any(|e| e.text == "heuristic: NULL pointer argument of get_d: p = 0x0"),
            "{:#?}",
            f[0].evidence
        );
        // A non-NULL argument list gives no such line.
        let t = NULL_FIELD.replace("get_d (p=0x0)", "get_d (p=0x5555)");
        let f = run_rule(&RULE, &t);
        assert!(f[0].evidence.iter().all(|e| !e.text.starts_with("heuristic:")), "{:#?}", f[0].evidence);
    }

    #[test]
    fn quiet_on_general_protection_fault() {
        let t = NULL_FIELD.replace("si_code = 1", "si_code = 128").replace("si_addr = 0x18", "si_addr = 0x0");
        assert!(run_rule(&RULE, &t).is_empty());
    }

    #[test]
    fn quiet_on_wild_address() {
        let t = NULL_FIELD
            .replace("si_addr = 0x18", "si_addr = 0x5555deadbeef")
            .replace("rax            0x0                 0", "rax            0x5555deadbed7      1");
        assert!(run_rule(&RULE, &t).is_empty());
    }

    #[test]
    fn write_without_siginfo_uses_instruction() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in set (p=0x0) at t.c:4
(gdb) info registers
rdx            0x0                 0
rip            0x555555555139      0x555555555139 <set+16>
(gdb) x/i $pc
=> 0x555555555139 <set+16>:\tmovl   $0x2a,0x8(%rdx)
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.starts_with("write to field at offset 0x8 through rdx = 0x0 in set"), "{}", f[0].message);
    }
}
