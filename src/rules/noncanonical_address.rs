//! `noncanonical-address`: the faulting instruction used a non-canonical pointer, which on
//! x86-64 raises a general-protection fault reported as `si_code` SI_KERNEL with `si_addr` 0.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::insn;
use crate::model::signals::SI_KERNEL;
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "noncanonical-address",
    title: "faulting instruction used a non-canonical address",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A SIGSEGV or SIGBUS where the faulting instruction's memory
operand, indirect branch target or `ret` target is a non-canonical address (on x86-64, bits
63..47 not all equal). It names the register that holds it, for example
`rax = 0xdead000000000000 is non-canonical: mov 0x8(%rax),%rax accesses 0xdead000000000008`.
For a `ret` the target comes from the `x/gx $sp` dump. A kernel oops's `general protection
fault, probably for non-canonical address 0x…` names the address the kernel decoded itself.

**Why it matters** x86-64 does not page-fault on a non-canonical address; it raises #GP, and
Linux reports that as `si_code = 128` (SI_KERNEL) with `si_addr = 0`. The zero `si_addr`
looks like a NULL dereference, but the real address is only in the instruction and its
registers. Non-canonical values are typically poison or junk patterns (freed memory filled with
0xa5/0x5a, list poison 0xdead…, overflowed strings 0x4141…).

**Example** `si_code = 128, si_addr = 0x0`, `=> mov 0x8(%rax),%rax`, `rax = 0xa5a5a5a5a5a5a5a5`.

**Known false positives** Needs the faulting instruction (`x/i $pc`) and the registers it uses;
without them the rule says nothing. Other #GP causes (misaligned SSE operands, privileged
instructions) are not reported here. On AArch64 a fault address with a non-canonical tag is
reported directly. AddressSanitizer's `Hint: this fault was caused by a dereference of a high
value address` (with `SEGV on unknown address` and no address) is its own decoding of such a
fault and is reported as one."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[
        Sample::File("sample-traces/noncanonical.gdb.txt"),
        Sample::File("sample-traces/poison.gdb.txt"),
        Sample::File("sample-traces/smashed-stack.gdb.txt"),
    ],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// What was found: the message, the registers it names, and evidence lines.
type Hit = (String, Vec<String>, Vec<(String, Option<Span>)>);

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        let Some(signo) = cx.signo(stop) else { continue };
        if !matches!(signo, 7 | 11) {
            continue;
        }
        let th = stop.crashed_thread();
        let canon = |v: u64| cx.classifier.is_canonical(v);
        // AArch64 (and any page fault) reports the address itself.
        // A kernel oops's #GP line names the address it decoded from the faulting instruction
        // (`general protection fault, probably for non-canonical address 0x…`).
        let kernel_decoded = stop.reason.si_code == Some(SI_KERNEL) && cx.trace.formats.contains(&Format::Kernel);
        if let Some(a) = stop.reason.address.map(|a| a.0).filter(|a| !canon(*a))
            && (stop.reason.si_code.is_some_and(|c| c > 0 && c != SI_KERNEL) || kernel_decoded)
        {
            let how =
                if kernel_decoded { " (the kernel's #GP report decoded it from the faulting instruction)" } else { "" };
            let f = Finding::new(&RULE, format!("fault address {a:#x} is non-canonical{how}"))
                .at(si, th, Some(0))
                .rank(60)
                .evidence(format!("si_addr = {a:#x}"), Some(stop.reason.span))
                .step("x/i $pc")
                .step("info registers");
            out.push(f);
            continue;
        }
        // x86-64: #GP (SI_KERNEL) or no siginfo at all.
        if stop.reason.si_code.is_some_and(|c| c != SI_KERNEL) {
            continue;
        }
        let Some(i) = cx.fault_insn(stop) else {
            // ASan decoded the #GP itself: `Hint: this fault was caused by a dereference of a
            // high value address` (its `SEGV on unknown address` then names no address).
            if let Some(m) = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::HighValueAddress)) {
                out.push(
                    Finding::new(
                        &RULE,
                        "the sanitizer found a dereference of a high value (non-canonical) address: a general-protection fault, which reports no address, not a NULL dereference".to_string(),
                    )
                    .at(si, th, Some(0))
                    .rank(60)
                    .evidence(m.text.trim().to_string(), Some(m.span))
                    .step("x/i $pc (the faulting instruction names the register)")
                    .step("info registers"),
                );
            }
            continue;
        };
        let d = insn::decode(&i.text);
        let text = i.text.trim();
        let reg = |n: &str| cx.reg0(stop, n).and_then(|r| r.value.map(|v| (v, r.span)));
        let sp_name = cx.trace.arch.sp_register();
        let mut hit: Option<Hit> = None;
        if let Some(m) = &d.mem {
            for r in [m.base.as_deref(), m.index.as_deref()].into_iter().flatten() {
                if let Some((v, span)) = reg(r).filter(|(v, _)| !canon(*v)) {
                    let ea = cx.effective_address(stop, m);
                    let mut msg = format!("{r} = {v:#x} is non-canonical: `{text}`");
                    if let Some(ea) = ea.filter(|ea| *ea != v) {
                        msg.push_str(&format!(" accesses {ea:#x}"));
                    } else {
                        msg.push_str(" dereferences it");
                    }
                    hit = Some((msg, vec![r.to_string()], vec![(format!("{r} = {v:#x}"), Some(span))]));
                    break;
                }
            }
            if hit.is_none()
                && let Some(ea) = cx.effective_address(stop, m).filter(|ea| !canon(*ea))
            {
                let regs: Vec<String> = [m.base.clone(), m.index.clone()].into_iter().flatten().collect();
                hit = Some((format!("`{text}` accesses {ea:#x}, a non-canonical address"), regs, vec![]));
            }
            // `call *0x10(%rax)` / `jmp *(%rdx)`: the loaded target.
            if hit.is_none()
                && (d.mnemonic.starts_with("call") || d.mnemonic.starts_with("jmp"))
                && let Some(ea) = cx.effective_address(stop, m)
                && let Some((t, span)) =
                    stop.memory.iter().find_map(|md| md.read_u64(ea).map(|w| (w, md.span))).filter(|(t, _)| !canon(*t))
            {
                hit = Some((
                    format!("`{text}` branches to [{ea:#x}] = {t:#x}, a non-canonical address"),
                    vec![],
                    vec![(format!("[{ea:#x}] = {t:#x}"), Some(span))],
                ));
            }
        }
        if hit.is_none()
            && let Some(r) = &d.indirect_target
            && let Some((v, span)) = reg(r).filter(|(v, _)| !canon(*v))
        {
            hit = Some((
                format!("branch target {r} = {v:#x} is non-canonical: `{text}`"),
                vec![r.clone()],
                vec![(format!("{r} = {v:#x}"), Some(span))],
            ));
        }
        if hit.is_none()
            && d.stack_access
            && let Some((sp, span)) = reg(sp_name)
        {
            if !canon(sp) {
                hit = Some((
                    format!("{sp_name} = {sp:#x} is non-canonical: `{text}` uses the stack"),
                    vec![sp_name.to_string()],
                    vec![(format!("{sp_name} = {sp:#x}"), Some(span))],
                ));
            } else if d.mnemonic.starts_with("ret")
                && let Some((t, dspan)) = stop
                    .memory
                    .iter()
                    .find_map(|md| md.read_u64(sp).map(|w| (w, md.span)))
                    // A core: the process memory itself.
                    .or_else(|| cx.trace.read_u64(sp).map(|w| (w, Span::default())))
                    .filter(|(t, _)| !canon(*t))
            {
                let mut ev = vec![(format!("[{sp_name}] = {t:#x}, the return address slot at {sp:#x}"), Some(dspan))];
                if let Some((bp, bspan)) = reg("rbp").filter(|(b, _)| !canon(*b)) {
                    ev.push((
                        format!("rbp = {bp:#x} is non-canonical too: the saved frame pointer was overwritten as well"),
                        Some(bspan),
                    ));
                }
                hit = Some((
                    format!(
                        "`{text}` returns to [{sp_name}] = {t:#x}, a non-canonical address: the return address was overwritten"
                    ),
                    vec![sp_name.to_string()],
                    ev,
                ));
            }
        }
        let Some((msg, regs, ev)) = hit else { continue };
        let mut f = Finding::new(&RULE, msg).at(si, th, Some(0)).rank(60);
        for r in &regs {
            f = f.register(r);
        }
        for (t, s) in ev {
            f = f.evidence(t, s);
        }
        f = f.evidence(format!("faulting instruction: {text}"), Some(i.span));
        // (Where the code itself is readable, from a core or the binaries given with --exe,
        // the walks over it decide.)
        let code_readable = cx.trace.memory.as_ref().is_some_and(|m| m.read_u64(i.address.0).is_some());
        let earlier = match &regs[..] {
            [r] if cx.trace.arch == Arch::X86_64 && !code_readable => earlier_use(stop, i, r),
            _ => None,
        };
        if let Some((t, span, step)) = earlier {
            f = f.evidence(t, Some(span)).step(step);
        }
        if stop.reason.si_code == Some(SI_KERNEL) {
            f = f.evidence(
                format!(
                    "si_code = 128 (SI_KERNEL), si_addr = {:#x}: a general-protection fault, which does not report the address",
                    stop.reason.address.map(|a| a.0).unwrap_or(0)
                ),
                Some(stop.reason.span),
            );
        }
        let ret = d.mnemonic.starts_with("ret");
        match (ret, cx.reg0(stop, sp_name).and_then(|r| r.value)) {
            (true, Some(sp)) => {
                f = f.step("info frame").step(format!("x/8gx {:#x}", sp.wrapping_sub(32))).step(format!(
                    "rr: watch -l *(void **){sp:#x}, then reverse-continue to find the write that overwrote the return address"
                ));
            }
            _ => {
                f = f.step("x/8i $pc - 24").step("info locals");
                if let Some(r) = regs.first() {
                    f = f.step(format!("rr: watch ${r}, then reverse-continue to find the load of the bad pointer; then watch -l on the slot it came from"));
                }
            }
        }
        out.push(f);
    }
}

/// Where the transcript shows the faulting function's code from its entry but not up to the
/// pc (`x/24i $pc - 764`, then `x/2i $pc`): an access through `reg` in the straight-line code
/// from the entry ran without a fault, so `reg` held a usable address there, and no shown
/// instruction after it writes `reg`. What wrote the bad value is in the code the transcript
/// does not show (an instruction of the function, or a callee that did not preserve the
/// register): the finding says so, and what would show it. `None` otherwise (the listing
/// reaches the pc: the text walks of other rules read it).
fn earlier_use(stop: &Stop, fault: &Instruction, reg: &str) -> Option<(String, Span, String)> {
    use crate::provenance_text::{label, listing_from, straight_line};
    let pc = fault.address.0;
    let sym = fault.location.as_ref()?.symbol()?;
    let off = sym.offset.filter(|o| *o > 0)?;
    let entry = pc.checked_sub(off)?;
    let code = listing_from(stop, entry)?;
    let last = code.last()?.address;
    if last >= pc {
        return None;
    }
    let name = sym.name.to_string();
    let at = |a: u64| label(&name, Some(entry), a);
    let used = code.iter().position(|d| {
        let dd = insn::decode(d.text);
        !dd.mnemonic.starts_with("lea")
            && !dd.mnemonic.starts_with("nop")
            && dd.mem.as_ref().is_some_and(|m| m.base.as_deref() == Some(reg) || m.index.as_deref() == Some(reg))
    })?;
    let u = &code[used];
    if !straight_line(&code, entry, u.address) {
        return None;
    }
    // Every shown instruction from the use on must leave the register alone (a shown writer
    // is the text walks' business, and an unknown one ends this).
    if code[used..].iter().any(|d| d.writes(reg) != Some(false)) {
        return None;
    }
    Some((
        format!(
            "{reg} was used as an address at {} (`{}`), on the straight path from the function's entry, without a fault: it held a usable address there, and no instruction shown after it writes {reg}. The transcript shows none of {name}'s code after {} up to the pc ({}): what wrote {reg} (an instruction there, or a callee called from there that did not preserve it) needs that code: the binary (--exe) or a core, or its listing",
            at(u.address),
            u.text.trim(),
            at(last),
            at(pc)
        ),
        u.span,
        format!("disassemble /r {entry:#x},{:#x} (the code from the entry to the pc)", pc + 1),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn noncanonical_sample() {
        let f = run_rule_on_sample(&RULE, "noncanonical.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "rax = 0xdead000000000000 is non-canonical: `mov    0x8(%rax),%rax` accesses 0xdead000000000008"
        );
        assert_eq!(f[0].registers, vec!["rax"]);
    }

    #[test]
    fn kernel_gp_oops_names_the_decoded_address() {
        let t = "[ 8812.3] general protection fault, probably for non-canonical address 0x3f0b2ac19e55d104: 0000 [#1] SMP NOPTI
[ 8812.3] RIP: 0010:kmem_cache_alloc_trace+0x9b/0x2a0
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.starts_with("fault address 0x3f0b2ac19e55d104 is non-canonical"), "{}", f[0].message);
        // A user-space #GP (SI_KERNEL, si_addr 0) without the instruction stays quiet.
        let quiet = "Program received signal SIGSEGV, Segmentation fault.\n0x0000000000401136 in f () at a.c:3\n(gdb) p $_siginfo.si_code\n$1 = 128\n";
        assert!(run_rule(&RULE, quiet).is_empty());
    }

    #[test]
    fn poison_sample() {
        let f = run_rule_on_sample(&RULE, "poison.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("rax = 0xa5a5a5a5a5a5a5a5 is non-canonical"), "{}", f[0].message);
    }

    #[test]
    fn smashed_stack_ret_target() {
        let f = run_rule_on_sample(&RULE, "smashed-stack.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "`ret` returns to [rsp] = 0x4141414141414141, a non-canonical address: the return address was overwritten"
        );
    }

    #[test]
    fn quiet_on_misaligned_sse_and_page_faults() {
        for s in
            ["misaligned-sse.gdb.txt", "null-field.gdb.txt", "write-rodata.gdb.txt", "julia-trampoline-bad-r13.gdb.txt"]
        {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn indirect_call_through_noncanonical_register() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in dispatch () at t.c:4
(gdb) info registers
rdx            0x8000000000000010  1
rip            0x555555555139      0x555555555139 <dispatch+16>
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 128, _sifields = {_sigfault = {si_addr = 0x0}}}
(gdb) x/i $pc
=> 0x555555555139 <dispatch+16>:\tcall   *%rdx
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].message, "branch target rdx = 0x8000000000000010 is non-canonical: `call   *%rdx`");
        // A page fault (MAPERR) with the same instruction is not a #GP.
        let t2 = t.replace("si_code = 128", "si_code = 1");
        assert!(run_rule(&RULE, &t2).is_empty());
    }
}
