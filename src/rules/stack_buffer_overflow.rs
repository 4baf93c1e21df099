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
