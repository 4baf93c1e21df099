//! `bad-pc`: the program counter itself is not a code address (0, non-canonical, unmapped, or
//! in a non-executable mapping).

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::RegionKind;
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "bad-pc",
    title: "program counter is not a code address",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A signal stop whose pc (frame #0) is 0 or in the zero page, a
small integer, non-canonical, in no mapping, or in a mapping without execute permission (heap,
stack, data), or, with no mapping printed for it, the fault address itself (lldb's `fault
address:`, gdb's `si_addr`): fetching the instruction faulted, so no executable page is there.
The program called or jumped through a bad function pointer or returned through a
corrupted return address. When `x/gx $sp` shows a return address on top of the stack, the rule
names the caller it points into (a call pushed it, so the bad pc came from a call).

**Why it matters** The frame that crashed has no code of its own; the culprit is the caller,
whose function pointer (a vtable slot, a callback field, an ops table) was NULL or garbage.
`bt` usually still shows that caller as frame #1 because the return address is on the stack.

**Example** `0x0000000000000000 in ?? ()`, `rip = 0x0`, and `x/4gx $sp` starting with
`0x00005555555551a7` (`stream_fill+49`): `pc = 0x0: call through a NULL function pointer; the
return address at [sp] = 0x5555555551a7 is stream_fill+49 (frame #1)`.

**Known false positives** Without `info proc mappings` only pc values that cannot be code (0,
small integers, non-canonical) are reported; JIT code lives in anonymous executable memory, so
anonymous mappings are reported only when their permissions say they are not executable. A
`ret` to a corrupted but canonical address also lands here; a `ret` that faults on a
non-canonical target leaves pc at the `ret` and is `noncanonical-address`'s finding."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/null-fnptr.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let arch = cx.trace.arch;
    for (si, stop) in cx.stops() {
        if cx.signo(stop).is_none() {
            continue;
        }
        let Some(th) = stop.crashed_thread() else { continue };
        let Some(pc) = cx.pc(stop) else { continue };
        let class = cx.classifier.classify(pc);
        let mapping = cx.trace.mapping_for(pc);
        // The fault address the debugger printed is the pc itself (lldb's `fault address:`,
        // also without an si_code): fetching the instruction faulted, so no executable page
        // is there, whatever a guess from the address says. Only when no printed mapping
        // holds the pc (one that says executable would contradict it).
        let fetch_fault = cx.signo(stop) == Some(11) && pc != 0 && stop.reason.address == Some(Address(pc));
        let what = match class.kind {
            RegionKind::Code
            | RegionKind::Jit
            | RegionKind::Special
            | RegionKind::Unknown
            | RegionKind::Stack
            | RegionKind::Heap
            | RegionKind::Anonymous
            | RegionKind::ReadOnlyData
            | RegionKind::WritableData
                if fetch_fault && mapping.is_none() =>
            {
                "is not in executable memory: the fault address is the pc itself, so the instruction fetch faulted"
                    .to_string()
            }
            RegionKind::ZeroPage if pc == 0 => "is NULL".to_string(),
            RegionKind::ZeroPage => "is in the zero page".to_string(),
            RegionKind::SmallInteger => "is a small integer, not a code address".to_string(),
            RegionKind::NonCanonical => "is non-canonical".to_string(),
            RegionKind::Kernel => "is a kernel address".to_string(),
            RegionKind::Unmapped => "is in no mapping".to_string(),
            RegionKind::Code | RegionKind::Jit | RegionKind::Special | RegionKind::Unknown => continue,
            // Data mappings: only when the printed permissions say so (guesses without mappings
            // cannot tell a library's text from a stack).
            _ => match mapping.and_then(|m| m.executable()) {
                Some(false) => format!("is in a non-executable mapping ({})", class),
                _ => continue,
            },
        };
        // Where it came from: a call leaves the return address at [sp] (x86-64) or in lr.
        let sp = cx.sp_at(th, 0);
        let ret = match arch {
            Arch::Aarch64 => {
                cx.reg0(stop, "x30").or_else(|| cx.reg0(stop, "lr")).and_then(|r| r.value.map(|v| (v, r.span, "lr")))
            }
            _ => sp.and_then(|sp| {
                stop.memory
                    .iter()
                    .find_map(|m| m.read_u64(sp).map(|w| (w, m.span, "[sp]")))
                    // A core's stack memory (no dump line to point at).
                    .or_else(|| cx.read_u64(stop, sp).map(|w| (w, Span::default(), "[sp]")))
            }),
        };
        let ret = ret.filter(|(w, _, _)| {
            let c = cx.classifier.classify(*w);
            matches!(c.kind, RegionKind::Code | RegionKind::Jit)
                || th.frames.iter().any(|f| f.pc.map(|p| p.0) == Some(*w))
        });
        let caller = ret.and_then(|(w, _, _)| th.frames.iter().skip(1).find(|f| f.pc.map(|p| p.0) == Some(w)));
        let pcname = arch.pc_register();
        let mut msg = format!("pc = {pc:#x}");
        let call = ret.is_some();
        // x86-64: the return address follows a direct `call rel32` (e8) whose target is not
        // the pc: no function pointer was called; the direct callee (or something it
        // called) returned or jumped here. Needs the code bytes (a core, or `--exe`).
        let direct = match arch {
            Arch::X86_64 => ret.and_then(|(w, _, _)| {
                let word = cx.read_u64(stop, w.checked_sub(8)?)?;
                ((word >> 24) & 0xff == 0xe8).then(|| w.wrapping_add(((word >> 32) as u32 as i32) as i64 as u64))
            }),
            _ => None,
        }
        .filter(|&target| target != pc);
        // The direct callee's own code, when readable: an indirect `jmp` in it is a tail call
        // through a function pointer, the usual way to land on a bad pc without a call.
        let tail = direct.and_then(|t| indirect_tail_jump(cx, stop, t));
        match (pc, call, direct) {
            (_, true, Some(target)) => {
                let callee = cx.symbol_at(stop, target).map(|s| s.name.to_string()).unwrap_or(format!("{target:#x}"));
                match &tail {
                    Some((off, text)) => msg.push_str(&format!(
                        " {what}: the return address follows a direct call to {callee}, which ends in an indirect tail call (`{text}` at {callee}+{off:#x}) and left no frame: it jumped through a {} function pointer",
                        if pc == 0 { "NULL" } else { "bad" }
                    )),
                    None => msg.push_str(&format!(
                        " {what}: the return address follows a direct call to {callee}, so {callee} (or a function it called) returned or jumped here: a tail call through a bad function pointer, an unbalanced stack or an overwritten return address"
                    )),
                }
            }
            (0, true, None) => msg.push_str(": call through a NULL function pointer"),
            (0, false, _) => msg.push_str(": jump or call to address 0"),
            (_, true, None) => msg.push_str(&format!(" {what}: call through a bad function pointer")),
            (_, false, _) => msg.push_str(&format!(" {what}")),
        }
        if let Some((w, _, place)) = ret {
            let sym = cx.symbol_at(stop, w);
            msg.push_str(&format!("; the return address at {place} = {w:#x}"));
            if let Some(s) = &sym {
                msg.push_str(&format!(" is {s}"));
            }
            if let Some(c) = caller {
                msg.push_str(&format!(" (frame #{})", c.index));
            }
        }
        let mut f = Finding::new(&RULE, msg).at(si, Some(th), Some(0)).rank(80).register(pcname);
        if let Some(r) = cx.reg0(stop, pcname) {
            f = f.evidence(format!("{pcname} = {pc:#x}"), Some(r.span));
        } else if let Some(fr) = th.frames.first() {
            f = f.evidence(format!("frame #0 at {pc:#x}"), Some(fr.span));
        }
        if let Some(m) = mapping {
            f = f.evidence(
                format!(
                    "{pc:#x} is in {:#x}-{:#x} {} {}",
                    m.start.0,
                    m.end.0,
                    m.perms.as_deref().unwrap_or("?"),
                    m.path.as_deref().unwrap_or("anonymous")
                ),
                Some(m.span),
            );
        }
        if let Some(a) = cx.fault_address(stop).filter(|a| *a == pc) {
            f = f.evidence(format!("si_addr = {a:#x} = pc: the instruction fetch faulted"), Some(stop.reason.span));
        } else if fetch_fault {
            f = f
                .evidence(format!("fault address {pc:#x} = pc: the instruction fetch faulted"), Some(stop.reason.span));
        }
        if let Some((w, span, place)) = ret {
            let text = match direct {
                Some(t) => format!(
                    "{place} = {w:#x}: the return address of a direct call to {} (the code before it is `call rel32`), which is not the pc",
                    cx.symbol_at(stop, t).map(|s| format!("{t:#x} <{s}>")).unwrap_or(format!("{t:#x}"))
                ),
                None => format!("{place} = {w:#x}: a return address, so a call brought the program here"),
            };
            f = f.evidence(text, Some(span));
        }
        if let (Some(t), Some((off, text))) = (direct, &tail) {
            f = f.evidence(format!("{:#x}: `{text}`, an indirect jump with no return", t + off), None);
            match cx.symbol_at(stop, t) {
                Some(s) => f = f.step(format!("disassemble {}", s.name)),
                None => f = f.step(format!("x/8i {t:#x}")),
            }
        }
        if let Some(c) = caller {
            f = f.evidence(format!("caller: frame #{} {}", c.index, c.function_name()), Some(c.span));
            f = f.step(format!("frame {}", c.index)).step("info locals");
        }
        if ret.is_none() && arch == Arch::X86_64 {
            f = f.step("x/4gx $sp").step("info symbol *(void **)$sp");
        }
        if let Some((w, _, _)) = ret {
            // The call instruction just before the return address, shown from its function's
            // start (disassembling backwards from an address can start mid-instruction).
            match cx.symbol_at(stop, w).map(|s| s.name) {
                Some(func) => f = f.step(format!("disassemble {func}")),
                None => f = f.step(format!("info symbol {w:#x}")),
            }
        }
        f = f.step("rr: reverse-stepi (one step back is the call or jump that went here)");
        out.push(f);
    }
}

/// The first indirect near `jmp` (through a register or memory: a tail call through a
/// function pointer) in the first 32 instructions of the code at `start`, before any `ret`:
/// its offset from `start` and its text. x86-64, from the process's code (a core or `--exe`).
fn indirect_tail_jump(cx: &RuleContext<'_>, stop: &Stop, start: u64) -> Option<(u64, String)> {
    use iced_x86::{Decoder, DecoderOptions, FlowControl, Formatter, GasFormatter, Mnemonic};
    if cx.trace.arch != Arch::X86_64 {
        return None;
    }
    let mut code = Vec::with_capacity(128);
    for k in 0..16u64 {
        let Some(w) = cx.read_u64(stop, start.checked_add(8 * k)?) else { break };
        code.extend_from_slice(&w.to_le_bytes());
    }
    let mut d = Decoder::with_ip(64, &code, start, DecoderOptions::NONE);
    let mut fmt = GasFormatter::new();
    for _ in 0..32 {
        if !d.can_decode() {
            break;
        }
        let i = d.decode();
        if i.is_invalid() || i.mnemonic() == Mnemonic::Ret || i.flow_control() == FlowControl::Interrupt {
            break;
        }
        if i.flow_control() == FlowControl::IndirectBranch && i.mnemonic() == Mnemonic::Jmp {
            let mut text = String::new();
            fmt.format(&i, &mut text);
            return Some((i.ip() - start, text));
        }
        // An unconditional direct jump leaves the straight-line code this scan follows.
        if i.flow_control() == FlowControl::UnconditionalBranch {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn return_after_a_direct_call_is_not_a_function_pointer() {
        // crashers/asm-push-imbalance: sum_pair pushed a register and returned without popping
        // it, so `ret` jumped to the pushed data pointer; [sp] is main's return address, after
        // a direct `call sum_pair` (e8, rel32 = 0x113). With the code bytes the rule says so.
        let t = |code: &str| {
            format!(
                "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555558030 in pair ()
(gdb) bt
#0  0x0000555555558030 in pair ()
#1  0x000055555555507d in main () at src/asm-push-imbalance.c:10
(gdb) info registers
rsp            0x7fffffffec48      0x7fffffffec48
rip            0x555555558030      0x555555558030 <pair>
(gdb) p $_siginfo
$1 = {{si_signo = 11, si_errno = 0, si_code = 2, _sifields = {{_sigfault = {{si_addr = 0x555555558030}}}}}}
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555555000     0x555555556000     0x1000     0x1000  r-xp   /tmp/p
      0x555555558000     0x555555559000     0x1000     0x3000  rw-p   /tmp/p
(gdb) x/2gx $sp
0x7fffffffec48:\t0x000055555555507d\t0x00007fffffffed68
{code}"
            )
        };
        let f = run_rule(&RULE, &t("(gdb) x/gx 0x555555555075\n0x555555555075 <main+37>:\t0x00000113e8c78948\n"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("the return address follows a direct call to 0x555555555190, so 0x555555555190 (or a function it called) returned or jumped here"),
            "{}",
            f[0].message
        );
        // Without the code bytes: the old reading (a call through a bad pointer).
        let f = run_rule(&RULE, &t(""));
        assert!(f[0].message.contains("call through a bad function pointer"), "{}", f[0].message);
        // The culprit is the caller, not the data symbol the pc landed on.
        let p = crate::input::parse(&t(""));
        assert_eq!(crate::roles::culprit(p.trace.main_stop().unwrap()).map(|c| c.index), Some(1));
    }

    #[test]
    fn null_fnptr_sample_names_the_caller() {
        let f = run_rule_on_sample(&RULE, "null-fnptr.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "pc = 0x0: call through a NULL function pointer; the return address at [sp] = 0x5555555551a7 is stream_fill+49 (frame #1)"
        );
        assert_eq!(f[0].frame, Some(0));
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.text.starts_with("[sp] = 0x5555555551a7") && e.lines == Some(Span { first: 50, last: 51 })),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn quiet_when_pc_is_code() {
        for s in
            ["smashed-stack.gdb.txt", "null-field.gdb.txt", "julia-trampoline-bad-r13.gdb.txt", "glibc-abort.gdb.txt"]
        {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    const MAPS: &str = "\
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/t
      0x555555555000     0x555555556000     0x1000     0x1000  r-xp   /tmp/t
      0x555555559000     0x55555557a000    0x21000        0x0  rw-p   [heap]
      0x7ffff7fc0000     0x7ffff7fc1000     0x1000        0x0  r-xp   
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
";

    fn at_pc(pc: &str) -> String {
        format!(
            "\
Program received signal SIGSEGV, Segmentation fault.
{pc} in ?? ()
(gdb) info registers
rsp            0x7fffffffeba8      0x7fffffffeba8
rip            {pc}      {pc}
{MAPS}"
        )
    }

    #[test]
    fn jump_into_heap_fires_and_jit_is_quiet() {
        let f = run_rule(&RULE, &at_pc("0x5555555592a0"));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].message, "pc = 0x5555555592a0 is in a non-executable mapping (heap)");
        assert!(run_rule(&RULE, &at_pc("0x7ffff7fc0010")).is_empty());
        let f = run_rule(&RULE, &at_pc("0x4141414141414141"));
        assert_eq!(f[0].message, "pc = 0x4141414141414141 is non-canonical");
        let f = run_rule(&RULE, &at_pc("0x600000000000"));
        assert_eq!(f[0].message, "pc = 0x600000000000 is in no mapping");
    }

    #[test]
    fn breakpoint_stops_are_not_checked() {
        let t = at_pc("0x5555555592a0").replace(
            "Program received signal SIGSEGV, Segmentation fault.",
            "Breakpoint 1, 0x00005555555592a0 in ?? ()",
        );
        assert!(run_rule(&RULE, &t).is_empty());
    }
}
