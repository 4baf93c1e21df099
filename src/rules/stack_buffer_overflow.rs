//! `stack-buffer-overflow`: a buffer on the stack was overrun.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "stack-buffer-overflow",
    title: "a buffer on the stack was overrun",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** Two kinds of evidence:

- an AddressSanitizer report of class `stack-buffer-overflow` (`-underflow`,
  `dynamic-stack-buffer-overflow`);
- a control-protection fault (SIGSEGV with `si_code` SEGV_CPERR; lldb's `control protection
  fault`): a shadow stack (x86 CET, AArch64 GCS) refused a return whose address no longer
  matched the one the call saved;
- with the machine code (a core, or a transcript read with `--exe`; x86-64): the faulting
  access reads through a register whose last writer (along the function's control flow) is a
  load from a frame slot (`mov -0x10(%rbp),%rax`), the slot's one store is before a call that
  was given a frame address below the slot (`lea -0x20(%rbp),%rdi`) with a length (`mov
  $0x18,%edx`) that reaches it, and the callee is of the memset/memcpy family (memset, memcpy,
  memmove, mempcpy, strncpy, stpncpy, named by the symbol at the call's target, through its PLT
  stub in a core, or by the transcript's listing `<memset@plt>`): that call overwrote the slot
  between the store and the reload. The finding names the load, the store and the call, and with stack
  memory (a core, or an `x/` dump) quotes the slot's word now;
- at a SIGSEGV, SIGBUS or SIGILL, a cyclic or repeated-byte pattern (`0x4141414141414141`,
  `0x6161616a61616169`, a De Bruijn sequence) in the pc, the frame pointer, the link register
  or the return address of a frame: saved registers were overwritten by data, which is what a
  stack buffer overflow does (heuristic).

**Why it matters** A smashed return address sends the program into data; the crash site is then meaningless and
the backtrace is garbage. The overflowed buffer is in the frame that returned (the culprit),
and the pattern bytes (`iaaa`, `AAAA`) tell which input reached it.

**Example** `gdb/pattern.txt` in the wild corpus: `rbp 0x6161616a61616169` and frames `#1 0x6161616c6161616b
in ?? ()` after a 96-byte cyclic pattern was copied into a 24-byte buffer.

**Known false positives** A register can legitimately hold eight ASCII letters (a string being copied sits in rax/rdx);
only the pc, frame pointer, link register and return addresses are looked at (per
architecture: `r11` is ARM's frame pointer, an ordinary scratch register on x86-64), and only
when the stop is a crash."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/gdb/pattern.txt"),
        super::Sample::File("tests/wild/gdb/repeat.txt"),
        super::Sample::File("tests/wild/san/asan-stack.txt"),
    ],
    quiet_on: &[
        super::Sample::File("tests/wild/gdb/null-bt.txt"),
        super::Sample::File("tests/wild/gdb/null-btfull-disas.txt"),
        super::Sample::File("tests/wild/gdb/fnptr.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["info frame", "x/16gx $sp"], out);
    for (si, stop) in cx.stops() {
        if stop.checker.is_some()
            || stop.reason.kind != StopKind::Signal
            || !matches!(stop.reason.signal.as_deref(), Some("SIGSEGV" | "SIGBUS" | "SIGILL"))
        {
            continue;
        }
        let Some(th) = stop.crashed_thread() else { continue };
        if let Some(f) = reloaded_slot_overwritten(cx, si, stop, th) {
            out.push(f);
        }
        // A shadow-stack check (x86 CET, AArch64 GCS) refused a return: the return address on
        // the stack (or in the link register) no longer matched the one the call pushed.
        if stop.reason.signal.as_deref() == Some("SIGSEGV")
            && stop.reason.si_code == Some(crate::model::signals::SEGV_CPERR)
        {
            let fr = th.frames.first();
            let mut msg = "a control-protection fault: the return address did not match the shadow stack's copy, so it was overwritten after the call (a stack buffer overflow or a stray write into the frame)".to_string();
            if let Some(f) = fr {
                msg.push_str(&format!(" in {}", f.location()));
            }
            let mut f = Finding::new(&RULE, msg);
            f.stop = Some(si);
            f.thread = Some(th.id.to_string());
            f.frame = fr.map(|f| f.index);
            f.evidence.push(Evidence::new("si_code SEGV_CPERR (control protection fault)", Some(stop.reason.span)));
            f.next_steps = vec![
                "info frame".into(),
                "x/32gx $sp".into(),
                "rr: watch -l on the return address slot, then reverse-continue".into(),
            ];
            f.rank = 85;
            out.push(f);
            continue;
        }
        // (what, value, line)
        let mut hits: Vec<(String, u64, Option<Span>)> = Vec::new();
        let control = control_registers(cx.trace.arch);
        if let Some(regs) = th.registers.get(&0) {
            for &name in control {
                if let Some(r) = regs.regs.iter().find(|r| &*r.name == name)
                    && let Some(v) = r.value
                    && is_pattern(v)
                    && !hits.iter().any(|h| h.0 == name)
                {
                    hits.push((name.to_string(), v, Some(r.span)));
                }
            }
        }
        for f in &th.frames {
            // A pc the debugger placed at a source line of a named function is that
            // function's code, whatever its bytes spell (i386 PIE code under gdb is at
            // 0x5655_6xxx: "VhUV").
            let placed = f.function.is_some() && f.file.is_some() && f.line.is_some();
            if let Some(pc) = f.pc
                && !placed
                && is_pattern(pc.0)
            {
                let what = if f.index == 0 {
                    "pc of frame #0".to_string()
                } else {
                    format!("return address of frame #{}", f.index)
                };
                hits.push((what, pc.0, Some(f.span)));
            }
        }
        // An rr tail / kernel line has no frames: the stop's own pc counts.
        if hits.is_empty() {
            continue;
        }
        let (what, v, _) = &hits[0];
        let culprit = th.frames.iter().find(|f| f.function.is_some() && f.pc.is_none_or(|p| !is_pattern(p.0)));
        let mut msg = format!("{what} = {v:#x} is a {} byte pattern ({})", kind_of(*v), ascii(*v));
        if hits.len() > 1 {
            msg.push_str(&format!(" and {} more value(s) are too", hits.len() - 1));
        }
        msg.push_str(": a stack buffer overflow overwrote saved registers");
        if let Some(f) = culprit {
            msg.push_str(&format!(" in or below {}", f.location()));
        }
        let mut f = Finding::new(&RULE, msg);
        f.stop = Some(si);
        f.thread = Some(th.id.to_string());
        f.frame = culprit.map(|c| c.index);
        f.heuristic = true;
        for (what, v, span) in &hits {
            f.evidence.push(Evidence::new(format!("{what} = {v:#x} ({})", ascii(*v)), *span));
            if control.contains(&what.as_str()) {
                f.registers.push(what.clone());
            }
        }
        f.next_steps = vec!["info frame".into(), "x/32gx $sp".into()];
        f.rank = 85;
        out.push(f);
    }
}

/// The registers that hold the pc, the frame pointer or the return address on `arch`: what a
/// smashed frame restores. Only these: `r11` is ARM's frame pointer but an ordinary scratch
/// register on x86-64 (where a memset or string copy leaves `0x4141…` in it legally).
fn control_registers(arch: Arch) -> &'static [&'static str] {
    match arch {
        Arch::X86_64 => &["rip", "rbp"],
        Arch::X86 => &["eip", "ebp"],
        Arch::Aarch64 => &["pc", "x29", "fp", "x30", "lr"],
        Arch::Arm => &["pc", "r11", "fp", "lr"],
        Arch::Riscv64 => &["pc", "ra", "s0", "fp"],
        _ => &["rip", "eip", "pc", "rbp", "ebp", "x29", "fp", "x30", "lr", "ra", "s0"],
    }
}

/// The significant bytes of `v`, most significant first (leading zero bytes dropped).
fn bytes(v: u64) -> Vec<u8> {
    let b = v.to_be_bytes();
    let skip = b.iter().take_while(|&&x| x == 0).count();
    b[skip..].to_vec()
}

/// Four or more bytes, all ASCII letters or digits, with a byte repeated: what exploit tools'
/// cyclic patterns (`aaaabaaacaaa…`) and `AAAA…` fills leave in a register.
pub(crate) fn is_pattern(v: u64) -> bool {
    // x86-64 PIE code and heap under gdb (0x5555_5555_xxxx) is made of `U`s.
    if (0x5500_0000_0000..0x5700_0000_0000).contains(&v) {
        return false;
    }
    // ... and i386 PIE code and heap under gdb (0x5655_5000 up) of `U`s and `V`s.
    if (0x5655_5000..0x5660_0000).contains(&v) {
        return false;
    }
    let b = bytes(v);
    if b.len() < 4 || !b.iter().all(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    let mut sorted = b.clone();
    sorted.sort_unstable();
    let distinct = {
        let mut d = sorted.clone();
        d.dedup();
        d.len()
    };
    // A repeated byte, and not a plausible code or stack address of digits only.
    distinct < b.len() && !b.iter().all(|c| c.is_ascii_digit())
}

fn kind_of(v: u64) -> &'static str {
    let b = bytes(v);
    if b.iter().all(|&c| c == b[0]) { "repeated" } else { "cyclic" }
}

/// The bytes as they were in memory (little-endian), as text.
fn ascii(v: u64) -> String {
    let b = bytes(v);
    let s: String = b.iter().rev().map(|&c| c as char).collect();
    format!("\"{s}\"")
}

/// The faulting access reads through a register reloaded from a frame slot that a call
/// between the slot's store and the reload overwrote: the call was given a frame address
/// below the slot (its first argument) and a length that reaches the slot. x86-64, from the
/// machine code (a core, or `--exe`).
fn reloaded_slot_overwritten(cx: &RuleContext<'_>, si: usize, stop: &Stop, th: &Thread) -> Option<Finding> {
    use crate::provenance_mem as pm;
    if cx.trace.arch != Arch::X86_64 || cx.trace.memory.is_none() {
        return None;
    }
    let pc = cx.pc(stop)?;
    let fi = cx.fault_insn(stop)?;
    let base = crate::insn::decode(&fi.text).mem.and_then(|m| m.base)?;
    if matches!(base.as_str(), "rsp" | "rbp" | "rip") {
        return None;
    }
    let reg = crate::provenance::gpr(&base)?;
    let value = cx.reg0(stop, &base).and_then(|r| r.value)?;
    let (fname, off) =
        cx.trace.code_symbol_ref(pc).and_then(|s| Some((s.name.to_string(), s.offset?))).or_else(|| {
            th.registers.get(&0).and_then(|r| r.symbol("rip")).and_then(|s| Some((s.name.to_string(), s.offset?)))
        })?;
    let start = pc.checked_sub(off)?;
    let f = pm::flow(cx.trace, start, pc)?;
    let at_pc = f.index(pc)?;
    let load = pm::unique_writer(&f, at_pc, reg)?;
    let o = pm::slot_origin(&f, load, reg)?;
    let label = |a: u64| crate::provenance_text::label(&fname, Some(f.start), a);
    for fc in pm::frame_arg_calls(&f, &o.calls_between, o.slot) {
        let Some(len) = fc.rdx else { continue };
        let end = fc.dest.disp.checked_add(i64::try_from(len).ok()?)?;
        if end <= o.slot.disp {
            continue;
        }
        let call = &f.code[fc.call];
        let callee = pm::call_target(cx.trace, call)
            // Only a symbol that starts at the target names it (a PLT stub has none of its
            // own: the nearest symbol before it is another function).
            .and_then(|(t, _)| {
                cx.trace.code_symbol_ref(t).filter(|s| s.offset.unwrap_or(0) == 0).map(|s| s.name.to_string())
            })
            .or_else(|| {
                // The transcript's own listing names the call's target (`<memset@plt>`).
                stop.disassembly
                    .iter()
                    .find(|i| i.address.0 == call.address)
                    .and_then(|i| crate::insn::X86Text::parse(&i.text))
                    .and_then(|x| {
                        x.branch_target().and_then(|(_, s)| s.map(|s| s.trim_end_matches("@plt").to_string()))
                    })
            });
        // Only the functions whose first argument is the destination and third the length
        // (the memset/memcpy family, including glibc's ifunc variants such as
        // __memset_avx512_unaligned_erms): any other callee's arguments mean something else.
        const DEST_LEN: [&str; 6] = ["memset", "memcpy", "memmove", "mempcpy", "strncpy", "stpncpy"];
        let Some(who) = callee.clone().filter(|c| DEST_LEN.iter().any(|n| c.contains(n))) else { continue };
        let (ld, st) = (&f.code[o.load], &f.code[o.store]);
        let slot = o.slot.text();
        let dest = fc.dest.text();
        let mut msg = format!(
            "{base} = {value:#x} in {fname} was loaded at {} (`{}`) from {slot}, which was last written at {} (`{}`); between them `call {who}` at {} was given the frame address {dest} with length {len:#x}, which reaches {slot}: it overwrote the slot (a buffer in the frame overrun), and the access through {base} then faulted",
            label(ld.address),
            ld.text,
            label(st.address),
            st.text,
            label(call.address),
        );
        let mut f2 = Finding::new(&RULE, String::new());
        f2.stop = Some(si);
        f2.thread = Some(th.id.to_string());
        f2.frame = th.frames.first().map(|f| f.index);
        f2.rank = 90;
        f2.registers.push(base.clone());
        f2.evidence.push(Evidence::new(format!("faulting instruction: {}", fi.text.trim()), Some(fi.span)));
        f2.evidence.push(Evidence::new(
            format!(
                "{base} loaded at {} (`{}`) from {slot}, which was last written at {} (`{}`)",
                label(ld.address),
                ld.text,
                label(st.address),
                st.text
            ),
            None,
        ));
        f2.evidence.push(Evidence::new(
            format!(
                "first argument of the call at {} (`{}`): {dest}, set at {} (`{}`); length {len:#x}: {dest} + {len:#x} reaches {slot}",
                label(call.address),
                call.text,
                label(f.code[fc.dest_insn].address),
                f.code[fc.dest_insn].text
            ),
            None,
        ));
        if let Some(fill) = fc.rsi.filter(|_| callee.as_deref().is_some_and(|c| c.contains("memset"))) {
            let b = fill & 0xff;
            let pattern = u64::from_le_bytes([b as u8; 8]);
            if pattern == value {
                f2.evidence.push(Evidence::new(format!("{value:#x} is memset's fill byte {b:#x} repeated"), None));
            }
        }
        // The slot's word now, where the stack is readable (a core, or an x/ dump).
        let base_reg = if o.slot.base == iced_x86::Register::RBP { "rbp" } else { "rsp" };
        if let Some(b) = cx.reg0(stop, base_reg).and_then(|r| r.value)
            && let Some(a) = b.checked_add_signed(o.slot.disp)
            && let Some(w) = cx.read_u64(stop, a)
        {
            f2.evidence.push(Evidence::new(format!("the slot {slot} ({a:#x}) holds {w:#x} now"), None));
            if w != value {
                msg.push_str(&format!(" (the slot has changed again since: it holds {w:#x})"));
            }
        }
        f2.message = msg;
        f2.next_steps = vec![
            format!("break *{:#x} then x/gx ${base_reg}{}", call.address, o.slot.disp_text()),
            format!("watch -l *(long *)(${base_reg}{}) (or rr: watch -l, reverse-continue)", o.slot.disp_text()),
        ];
        return Some(f2);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::is_pattern;

    #[test]
    fn patterns() {
        assert!(is_pattern(0x4141414141414141));
        assert!(is_pattern(0x6161616a61616169));
        assert!(is_pattern(0x6161616c));
        // code, stack and heap addresses, small numbers
        assert!(!is_pattern(0x555555555219));
        assert!(!is_pattern(0x555555555555));
        assert!(!is_pattern(0x7fffffffeb90));
        assert!(!is_pattern(0x4006e4));
        assert!(!is_pattern(0x56556856)); // i386 PIE code under gdb ("VhUV")
        assert!(!is_pattern(0x30303030)); // digits only
        assert!(!is_pattern(0x61626364)); // letters, none repeated
    }
}
