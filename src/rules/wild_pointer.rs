//! `wild-pointer`: a page fault on an address that no mapping holds, outside the zero page
//! and the stack guard area — the generic "pointer to nowhere" that the more specific rules
//! (null-dereference, stack-overflow, noncanonical-address, poison-value) do not explain.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::RegionKind;
use crate::insn::{self, Access};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "wild-pointer",
    title: "memory access through a pointer into unmapped memory",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** A SIGSEGV with `SEGV_MAPERR` whose fault address lies in no mapping of
the process (when `info proc mappings` or a core gives the mappings) and is neither in the zero
page nor reached through a NULL base register with a large index (`null-dereference`), just below a stack (`stack-overflow`), nor a fill pattern
(`poison-value`). When the faulting instruction is in the dump, the rule names the base
register and what it holds, e.g. `read of 0x1018 through rax = 0x1018: no mapping holds it`.

**Why it matters** A pointer to nowhere is a dangling pointer into memory that was unmapped
(`munmap`, a freed large allocation, a finished thread's stack), an uninitialised or
integer-valued pointer, or pointer arithmetic gone wrong. The base register, its value and the
field offset are the starting point for `watch`-ing where it was set.

**Example** Rust `ptr::read_volatile(0x1018 as *const u64)`: `si_addr = 0x1018`, `rax = 0x1018`.

**Known false positives** Without mappings the rule only fires for addresses below 64 KiB
(which Linux never maps by default, `vm.mmap_min_addr`), marked heuristic. A fault in a
mapping created after the dump's `info proc mappings` was printed would be misreported;
mappings printed at the stop are what the rule trusts."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/rust-null.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        if cx.signo(stop) != Some(11) || stop.reason.si_code != Some(crate::model::signals::SEGV_MAPERR) {
            continue;
        }
        let Some(addr) = cx.fault_address(stop) else { continue };
        if addr < 0x1000 || cx.null_based_fault(stop).is_some() {
            continue; // null-dereference
        }
        if Some(addr) == cx.pc(stop) {
            continue; // an instruction fetch at a bad pc: bad-pc's
        }
        let class = cx.classifier.classify(addr);
        let heuristic = match class.kind {
            RegionKind::Unmapped => false,
            RegionKind::SmallInteger => !cx.classifier.has_mappings(),
            _ => continue,
        };
        // Just below a stack mapping: stack-overflow's case.
        let near_stack = cx
            .trace
            .mappings
            .iter()
            .any(|m| m.path.as_deref() == Some("[stack]") && addr < m.start.0 && m.start.0 - addr <= 64 << 10)
            || cx
                .trace
                .stops
                .iter()
                .flat_map(|s| s.threads.iter())
                .flat_map(|t| t.registers.values())
                .filter_map(|r| r.get(cx.trace.arch.sp_register()))
                .any(|sp| addr <= sp && sp - addr <= 64 << 10);
        if near_stack {
            continue;
        }
        let alloc = crate::fills::allocator(cx.trace);
        if crate::fills::fill_near(addr, cx.trace.arch, alloc).is_some() {
            continue; // poison-value
        }
        let th = stop.crashed_thread();
        let frame = th.and_then(|t| t.frames.first());
        let insn = cx.fault_insn(stop);
        let mut via: Option<(String, u64, Access)> = None;
        if let Some(i) = insn {
            let d = insn::decode(&i.text);
            if let (Some(m), Some(acc)) = (&d.mem, d.access)
                && let (Some(base), Some(ea)) = (&m.base, cx.effective_address(stop, m))
                && ea == addr
                && let Some(v) = cx.reg0(stop, base).and_then(|r| r.value)
            {
                via = Some((base.clone(), v, acc));
            }
            // Implicit stack accesses: `leave` reads [rbp]; `pop` and `ret` read [rsp].
            let base = match d.mnemonic.as_str() {
                "leave" | "leaveq" => Some("rbp"),
                "ret" | "retq" | "pop" | "popq" => Some("rsp"),
                _ => None,
            };
            if via.is_none()
                && cx.trace.arch == crate::model::Arch::X86_64
                && let Some(base) = base
                && let Some(v) = cx.reg0(stop, base).and_then(|r| r.value)
                && v == addr
            {
                via = Some((base.to_string(), v, Access::Read));
            }
        }
        let where_ = frame.map(|f| format!(" in {}", f.function_name())).unwrap_or_default();
        let msg = match &via {
            Some((base, v, acc)) => {
                let kind = match acc {
                    Access::Read => "read of",
                    Access::Write => "write to",
                    Access::ReadWrite => "access to",
                };
                let off = addr.wrapping_sub(*v);
                let off = if off != 0 && off < 0x10000 { format!(" + {off:#x}") } else { String::new() };
                format!("{kind} {addr:#x} through {base} = {v:#x}{off}: no mapping holds it{where_}")
            }
            None => format!("fault address {addr:#x} is in no mapping{where_}"),
        };
        let mut f = Finding::new(&RULE, msg).at(si, th, Some(0)).rank(30);
        if let Some((base, _, _)) = &via {
            f = f.register(base);
            if let Some(r) = cx.reg0(stop, base) {
                f = f.evidence(format!("{base} = {:#x}", r.value.unwrap_or(0)), Some(r.span));
            }
        }
        f = f.evidence(format!("SIGSEGV SEGV_MAPERR at {addr:#x} (si_addr)"), Some(stop.reason.span));
        if heuristic {
            f = f.evidence(
                "no mappings in the dump: addresses below 64 KiB are never mapped by default (vm.mmap_min_addr)",
                None,
            );
        } else if let Some(m) = cx.trace.mappings.iter().rev().find(|m| m.end.0 <= addr) {
            f = f.evidence(
                format!("nearest mapping below ends at {:#x} ({})", m.end.0, m.path.as_deref().unwrap_or("anonymous")),
                Some(m.span),
            );
        }
        if let Some(i) = insn {
            f = f.evidence(format!("faulting instruction: {}", i.text), Some(i.span));
        }
        if let Some(fr) = frame
            && let (Some(file), Some(line)) = (&fr.file, fr.line)
        {
            f = f.evidence(format!("at {file}:{line}"), Some(fr.span));
        }
        let reg = via.as_ref().map(|v| v.0.clone()).unwrap_or_else(|| "pc".into());
        f = f
            .step("info proc mappings")
            .step("info symbol $pc")
            .step(format!("rr: watch -l <the variable {reg} was loaded from>, then reverse-continue"));
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
    fn fires_on_rust_null_sample() {
        // The sample prints `info proc mappings`, so this is not a guess.
        let f = run_rule_on_sample(&RULE, "rust-null.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "read of 0x1018 through rax = 0x1018: no mapping holds it in core::ptr::read_volatile<u64>"
        );
        assert!(!f[0].heuristic);
        assert!(f[0].evidence.iter().any(|e| e.text == "faulting instruction: mov    (%rax),%rax"));
    }

    #[test]
    fn without_mappings_it_is_a_labelled_guess() {
        let t = UNMAPPED
            .split("(gdb) info proc mappings")
            .next()
            .unwrap()
            .replace("0x600000000008", "0x2008")
            .replace("0x600000000000      105553116266496", "0x2000      8192");
        let f = run_rule(&RULE, &t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].heuristic);
        assert_eq!(f[0].severity, Severity::Info);
    }

    const UNMAPPED: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in get (p=0x600000000000) at t.c:4
(gdb) info registers
rax            0x600000000000      105553116266496
rip            0x555555555139      0x555555555139 <get+16>
(gdb) x/i $pc
=> 0x555555555139 <get+16>:\tmov    0x8(%rax),%rax
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_sigfault = {si_addr = 0x600000000008}}}
(gdb) info proc mappings
process 1
Mapped address spaces:

          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555556000     0x2000        0x0  r-xp   /tmp/t
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
";

    #[test]
    fn fires_with_base_register() {
        let f = run_rule(&RULE, UNMAPPED);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "read of 0x600000000008 through rax = 0x600000000000 + 0x8: no mapping holds it in get"
        );
        assert_eq!(f[0].registers, vec!["rax"]);
        assert!(!f[0].heuristic);
        assert_eq!(f[0].severity, Severity::Warning);
    }

    #[test]
    fn quiet_when_the_address_is_mapped_null_or_near_the_stack() {
        // Mapped (ACCERR-free read of a mapped page cannot fault with MAPERR; make it mapped).
        let t = UNMAPPED.replace("0x600000000008", "0x555555554008");
        assert!(run_rule(&RULE, &t).is_empty());
        let t = UNMAPPED.replace("si_addr = 0x600000000008", "si_addr = 0x8");
        assert!(run_rule(&RULE, &t).is_empty());
        let t = UNMAPPED.replace("si_addr = 0x600000000008", "si_addr = 0x7ffffffdd000");
        assert!(run_rule(&RULE, &t).is_empty());
        let t = UNMAPPED.replace("si_code = 1", "si_code = 2");
        assert!(run_rule(&RULE, &t).is_empty());
    }

    #[test]
    fn quiet_on_every_other_sample() {
        for s in [
            "null-field.gdb.txt",
            "stack-overflow.gdb.txt",
            "julia-trampoline-bad-r13.gdb.txt",
            "threads-crash.gdb.txt",
            "write-rodata.gdb.txt",
            "null-fnptr.gdb.txt",
            "poison.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }
}
