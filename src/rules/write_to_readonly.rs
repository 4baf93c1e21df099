//! `write-to-readonly`: a write fault on a read-only or code mapping.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::insn::{self, Access};
use crate::model::signals::SEGV_ACCERR;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "write-to-readonly",
    title: "write to read-only or code memory",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A SIGSEGV whose fault address lies in a mapping without write
permission that is readable or executable (`r--p`, `r-xp`: `.rodata`, RELRO, code, a read-only
`mmap`), when the faulting instruction writes (`mov %dl,(%rax)`) or, without a disassembly,
when the kernel reported `SEGV_ACCERR`. Without `info proc mappings`, `SEGV_ACCERR` plus a
writing instruction is reported as a heuristic finding, except within 64 KiB of sp: that is the
stack running into its guard page, `stack-overflow`'s finding.

**Why it matters** Typical causes: modifying a string literal, writing through a `const` object
placed in `.rodata`, writing to a RELRO-protected GOT or vtable after startup, or a stray
pointer into code. The mapping tells which: the binary's `r--p` segment is `.rodata`/RELRO, an
`r-xp` segment is code.

**Example** `si_code = 2 (SEGV_ACCERR)`, `si_addr = 0x555555556004` in
`0x555555556000-0x555555557000 r--p /path/to/binary`, `=> mov %dl,(%rax)`.

**Known false positives** Guard pages (`---p`) are not readable, so faults there are left to
`stack-overflow`; so are the readable copies gdb's `generate-core-file` writes of them (a
small read-only anonymous page directly below a mapping holding a stack pointer). Without
mappings, a denied write within 64 KiB of sp is taken for a guard page too, and so is one at a
page's first byte (an overrun into an allocator's `PROT_NONE` guard page looks so; nothing tells
it from a read-only page); in a core, an anonymous read-only page written at its first byte just
after a writable mapping is too (gdb writes the `---p` guard as readable). A core of a
signal that was sent (`si_code` <= 0) with only the computed address is left alone: the write
did not run, so its page is unmodified, and cores do not dump unmodified file pages; their
permissions come from the file's load segment, which a page the program made writable with
`mprotect` no longer has. Copy-on-write and `userfaultfd` setups never reach the program as a signal.
A write fault in generated code (frame #0 without a symbol, in anonymous or rwx-mapped
executable memory) of a process running a runtime that takes write faults on purpose (SBCL's
write barrier on protected heap pages; the JVM, .NET, Mono) is that runtime's work, which its
own handler resolves after the debugger's stop: the finding is then `info` and says so.
With its signal handler installed, Julia's runtime turns such writes into `ReadOnlyMemoryError`
(a debugger stops before its handler runs). When Julia's GC faults setting the mark bits in the
header of an "object" (an atomic read-modify-write of `[reg-8]` in a mark-phase function) that
lies in read-only memory, the pointer is garbage and the write its symptom: the finding is a
warning that says so, and `heap-corruption`'s corrupt-GC-frame finding leads when the GC was
walking a task's GC frames (`gc_mark_stack`)."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/write-rodata.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// In a core, an anonymous page the program could not write, written at its first byte, with
/// a writable mapping ending right where it starts.
fn overrun_into_next_page(cx: &RuleContext<'_>, m: &crate::model::Mapping, addr: u64) -> bool {
    cx.trace.formats.contains(&crate::model::Format::Core)
        && m.path.is_none()
        && addr == m.start.0
        && cx.trace.mappings.iter().any(|below| below.end.0 == m.start.0 && below.writable() == Some(true))
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        // Julia's `ReadOnlyMemoryError()`: its SIGSEGV handler found a write fault on memory
        // mapped without write permission (an mmap'ed file opened read-only, a constant) and
        // threw instead of crashing. The runtime's word stands for the fault it saw.
        if let Some(m) =
            stop.messages.iter().find(|m| m.detail == Some(crate::model::MessageDetail::ReadOnlyMemoryError))
        {
            let th = stop.crashed_thread();
            let culprit = cx.named_culprit(stop).map(|(_, f)| f);
            let at = culprit.map(|c| format!(" in {}", c.location())).unwrap_or_default();
            let mut f = Finding::new(
                &RULE,
                format!("a write to read-only memory{at}: Julia's SIGSEGV handler saw a write fault on a mapping without write permission and threw ReadOnlyMemoryError (an array or pointer over memory mapped read-only — a file opened with `Mmap.mmap` for reading, a constant)"),
            )
            .at(si, th, culprit.map(|c| c.index))
            .rank(60);
            f = f.evidence(m.text.trim().to_string(), Some(m.span));
            if let Some(c) = culprit {
                f = f.evidence(format!("culprit: {}", c.location()), Some(c.span));
            }
            out.push(f.step("check how the memory written was mapped (`Mmap.mmap(io, …)` of a file opened read-only, `unsafe_wrap` over a constant) and with --check-bounds=yes that the index is in range"));
            continue;
        }
        if cx.signo(stop) != Some(11) {
            continue;
        }
        let th = stop.crashed_thread();
        let pc = cx.pc(stop);
        let insn = cx.fault_insn(stop);
        let decoded = insn.map(|i| insn::decode(&i.text));
        let access = decoded.as_ref().and_then(|d| d.access);
        let computed = decoded.as_ref().and_then(|d| d.mem.as_ref()).and_then(|m| cx.effective_address(stop, m));
        let accerr = stop.reason.si_code == Some(SEGV_ACCERR);
        let (addr, from_siginfo) = match (cx.fault_address(stop), computed) {
            (Some(a), _) => (a, true),
            (None, Some(c)) => (c, false),
            _ => continue,
        };
        if Some(addr) == pc {
            continue; // an instruction fetch: bad-pc's
        }
        // A core of a signal that was sent (kill, tgkill), with only the computed address: the
        // write did not run, so the page is still unmodified, and gdb's gcore (like the kernel)
        // does not dump an unmodified file page. Its permissions then come from the file's load
        // segment, not from the process: a page the program made writable with mprotect reads
        // as read-only. Nothing here says a write was refused.
        if !from_siginfo && stop.reason.is_sent() && cx.trace.formats.contains(&crate::model::Format::Core) {
            continue;
        }
        let writes = match access {
            Some(Access::Write) | Some(Access::ReadWrite) => true,
            Some(Access::Read) => false,
            None => accerr && insn.is_none(),
        };
        if !writes {
            continue;
        }
        let mapping = cx.trace.mapping_for(addr);
        let mut heuristic = false;
        let region = match mapping {
            // A stack's guard page (a core shows gdb's `---p` guard as readable): the stack ran
            // out, stack-overflow's case, not a write to read-only memory.
            Some(m) if cx.is_guard_page(m) => continue,
            // gdb's `generate-core-file` writes any `---p` page as readable: in a core, an
            // anonymous "read-only" page written at its first byte right after a writable
            // mapping is as likely the guard page an overrun ran into (an allocator's
            // PROT_NONE guard) as read-only memory.
            Some(m) if overrun_into_next_page(cx, m, addr) => continue,
            Some(m) => {
                let perms = m.perms.as_deref().unwrap_or("");
                let readable = m.readable() == Some(true);
                if m.writable() != Some(false) || !(readable || m.executable() == Some(true)) {
                    continue;
                }
                let kind = cx.classifier.classify(addr).kind.name();
                let path = m.path.as_deref().unwrap_or("anonymous");
                format!("{kind}, {perms} {}", path.rsplit('/').next().unwrap_or(path))
            }
            None if cx.classifier.has_mappings() => continue,
            None => {
                // No mappings: only the kernel's word that permissions were denied. A write
                // just past the stack pointer is the stack running into its guard page
                // (stack-overflow's case), not a write to read-only memory.
                if !accerr || access.is_none() || cx.fault_near_sp(stop).is_some() {
                    continue;
                }
                // A denied write at a page's first byte is what an overrun into a guard page
                // (PROT_NONE) looks like; without the mappings nothing tells it from a
                // read-only page.
                if addr % 0x1000 == 0 {
                    continue;
                }
                // A denied write within 64 KiB of sp is a stack's guard page (a stack is
                // writable): the stack ran out, stack-overflow's case. lldb's `memory region`
                // prints a guard page as `---` like no mapping at all.
                if th.and_then(|t| cx.sp_at(t, 0)).is_some_and(|sp| sp.abs_diff(addr) < 0x10000) {
                    continue;
                }
                heuristic = true;
                "no write permission per SEGV_ACCERR; no mappings printed".to_string()
            }
        };
        let kind_word = match access {
            Some(Access::ReadWrite) => "read-modify-write of",
            _ => "write to",
        };
        // The function by the ELF symbol table when gdb's debug-info name is another (a DWARF
        // that does not describe this code, docs/julia.md).
        let where_ = th
            .and_then(|t| {
                let shown = t.frames.first()?.function_name();
                let real = crate::julia::elf_symbol_any(cx.trace, stop, t, 0)
                    .map(|(n, _)| n)
                    .filter(|n| crate::julia::names_disagree(shown, n));
                Some(match real {
                    Some(r) => format!(" in {r} (bt: {shown})"),
                    None => format!(" in {shown}"),
                })
            })
            .unwrap_or_default();
        // Julia's GC setting mark bits in the header of an "object" that lies in read-only
        // memory: the pointer is garbage (from a corrupt GC frame when the GC was walking one),
        // the write only its symptom; heap-corruption's finding leads.
        let gc_write = match (th, insn, mapping) {
            (Some(t), Some(i), Some(_)) => crate::julia::gc_mark_header_write(cx.trace, stop, t, &i.text, addr),
            _ => None,
        };
        let mut msg = match gc_write {
            Some((gcfn, obj)) => {
                let from = if crate::julia::is_gc_frame_walk(gcfn) {
                    "a root read from the task's GC frames (a corrupt GC frame)"
                } else {
                    "a garbage pointer among the references of a marked object"
                };
                format!(
                    "Julia's GC set the mark bits in the header ({addr:#x}) of a pointer that is no object: {obj:#x} lies in {region}; it reached the mark phase as {from} in {gcfn}, and the write to read-only memory is its symptom"
                )
            }
            None => format!("{kind_word} {addr:#x} ({region}){where_}"),
        };
        if !from_siginfo {
            msg.push_str(" (address computed from the faulting instruction)");
        }
        // In generated code of a runtime that takes write faults on purpose (SBCL's write
        // barrier on protected heap pages; the JVM's and .NET's polls): the runtime's handler
        // unprotects the page and the write runs again. Under a debugger the stop comes first.
        let managed = cx.fault_runtime(stop);
        if let Some(rt) = managed {
            msg.push_str(&format!(
                ": frame #0 is generated code (no symbol) in a process running {rt}, which takes write faults in its own code on purpose (a write barrier, a poll page) and handles them; under a debugger this stop comes before that handler, so it is not by itself a crash"
            ));
        }
        let mut f = Finding::new(&RULE, msg).at(si, th, Some(0)).rank(60);
        if gc_write.is_some() {
            f.severity = super::Severity::Warning;
            f = f.rank(40);
        }
        if managed.is_some() {
            f = f
                .severity(super::Severity::Info)
                .rank(20)
                .heuristic()
                .step("handle SIGSEGV nostop noprint pass, then continue (the real crash, if any, stops later)");
        }
        if let Some(base) = decoded.as_ref().and_then(|d| d.mem.as_ref()).and_then(|m| m.base.clone())
            && let Some(r) = cx.reg0(stop, &base)
        {
            f = f.register(&base).evidence(format!("{base} = {:#x}", r.value.unwrap_or(0)), Some(r.span));
        }
        f = f.evidence(
            format!(
                "{} {} at {addr:#x}",
                stop.reason.signal.as_deref().unwrap_or("SIGSEGV"),
                stop.reason.code_name().unwrap_or("")
            )
            .replace("  ", " "),
            Some(stop.reason.span),
        );
        if let Some(i) = insn {
            f = f.evidence(format!("faulting instruction: {}", i.text.trim()), Some(i.span));
        }
        if let Some(m) = mapping {
            f = f.evidence(
                format!(
                    "mapping {:#x}-{:#x} {} {}",
                    m.start.0,
                    m.end.0,
                    m.perms.as_deref().unwrap_or("?"),
                    m.path.as_deref().unwrap_or("anonymous")
                ),
                Some(m.span),
            );
        }
        if let Some(s) = cx.symbol_at(stop, addr) {
            f = f.evidence(format!("{addr:#x} is {s}"), None);
        }
        f = f.step(format!("info symbol {addr:#x}")).step("maintenance info sections").step("info locals");
        if mapping.is_none() {
            f = f.step("info proc mappings");
        }
        if heuristic {
            f = f.heuristic();
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn quiet_on_a_write_into_the_stack_guard() {
        // No mappings, SEGV_ACCERR on a store just past rsp: the stack ran out (stack-overflow's
        // finding), not a write to read-only memory (lenticularis39/axpbox#112's shape).
        let t = "* thread #2, name = 'emu', stop reason = signal SIGSEGV: invalid permissions for mapped object (fault address: 0x8210e3ff8)
    frame #0: 0x00000000002a4b18 emu`Cpu::lookupTlb(unsigned long, int) + 8
->  0x2a4b18 <+8>:  movq   %rsi, -0x18(%rbp)
(lldb) register read rsp rbp
     rsp = 0x00000008210e3fe0
     rbp = 0x00000008210e4010
";
        assert!(run_rule(&RULE, t).is_empty());
        assert_eq!(run_rule(&crate::rules::stack_overflow::RULE, t).len(), 1);
        // The same store far from rsp is still a write to read-only memory.
        let far =
            t.replace("0x00000008210e3fe0", "0x00007ffd3e1c2f00").replace("0x00000008210e4010", "0x00007ffd3e1c2f40");
        let far = far.replace("0x8210e3ff8)", "0x55d1c3a0b010)");
        assert_eq!(run_rule(&RULE, &far).len(), 1);
    }

    #[test]
    fn write_rodata_sample() {
        let f = run_rule_on_sample(&RULE, "write-rodata.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "write to 0x555555556004 (read-only data, r--p write-rodata) in upcase");
        assert!(!f[0].heuristic);
    }

    #[test]
    fn quiet_on_reads_and_unmapped_writes() {
        for s in [
            "null-field.gdb.txt",
            "threads-crash.gdb.txt",
            "stack-overflow.gdb.txt",
            "julia-trampoline-bad-r13.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    const T: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x000055555555516e in patch () at t.c:9
(gdb) info registers
rax            0x555555555100      1
rip            0x55555555516e      0x55555555516e <patch+37>
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 2, _sifields = {_sigfault = {si_addr = 0x555555555100}}}
(gdb) x/i $pc
=> 0x55555555516e <patch+37>:\tmovl   $0x90909090,(%rax)
";

    #[test]
    fn write_to_code_and_heuristic_without_mappings() {
        let f = run_rule(&RULE, T);
        assert_eq!(f.len(), 1);
        assert!(f[0].heuristic);
        assert!(f[0].message.contains("SEGV_ACCERR; no mappings printed"), "{}", f[0].message);
        let maps = "\
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555555000     0x555555556000     0x1000     0x1000  r-xp   /tmp/t
";
        let f = run_rule(&RULE, &format!("{T}{maps}"));
        assert_eq!(f[0].message, "write to 0x555555555100 (code, r-xp t) in patch");
        // A read of the same address is not a write fault.
        let r = T.replace("movl   $0x90909090,(%rax)", "mov    (%rax),%edx");
        assert!(run_rule(&RULE, &format!("{r}{maps}")).is_empty());
    }
}
