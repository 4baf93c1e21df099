//! `stack-misaligned`: the stack pointer breaks the ABI's 16-byte alignment where it matters.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::RegionKind;
use crate::insn;
use crate::model::signals::SI_KERNEL;
use crate::model::*;
use crate::runtime::{self, Convention};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "stack-misaligned",
    title: "stack pointer not 16-byte aligned at a call boundary",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** Stack misalignment that the platform ABI forbids:

- x86-64 SysV: at a call, `rsp % 16 == 0` (so `(rsp + 8) % 16 == 0` at function entry), but
  only where the callee relies on it. gcc's `-fipa-stack-alignment` (on by default) calls a
  static callee that needs no 16-byte alignment with `rsp % 16 == 8`, legally. gdb shows a
  caller frame's rsp as it was just before its `call`; an `info registers` in `frame N`
  (N >= 1) with `rsp % 16 != 0` is reported as a misaligned call from frame #N when an
  aligned vector access faulted on the stack below it (next item), or when the callee is in
  another module (reached through the PLT, so a global function). Frame #0 is checked only
  at its first instruction, and only in a shared library (a global function). Frames that
  cannot be real (no function and no code at the pc, or above such a frame) are never used.
- AArch64: `sp % 16 == 0` at all times.
- An aligned SSE/AVX access (`movaps`, `movdqa`, `vmovaps` …, which need 16 or 32 bytes) that
  faulted with `si_code = 128` (#GP) on a stack operand (`rsp`/`rbp` based or inside a
  stack) that is not aligned.

**Why it matters** Compilers assume the ABI's alignment and use aligned vector moves for stack
slots; a caller that breaks it (hand-written assembly, a wrong trampoline, a bad
`makecontext` stack) crashes some callee later with a general-protection fault whose
`si_addr` is 0. The finding names the frame that made the misaligned call.

**Example** `#1 call_misaligned` with `rsp = 0x7fffffffec18` and `#0 vec_accumulate` faulting on
`movaps %xmm0,-0x10(%rbp)` at `0x7fffffffebf8`: `rsp = 0x7fffffffec18 is 8 mod 16 at the call
from call_misaligned (frame #1)`.

**Known false positives** Frames above a `<signal handler called>` frame were interrupted, not
calling, and are skipped, as are Go and GHC frames (their own stack conventions), and frames
that corrupt-backtrace would call garbage. A caller's
rsp is only as good as the unwinder: assembly without CFI can make gdb show a wrong value."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/misaligned-sse.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// Whether frame `pos`'s sp was taken at a call (it is a caller of a real, non-signal frame).
fn at_call_boundary(th: &Thread, pos: usize) -> bool {
    // Inlined frames share the registers of the frame below; walk down to the physical one.
    let mut k = pos;
    while k > 0 && th.frames[k].inlined {
        k -= 1;
    }
    if k == 0 {
        return false;
    }
    let callee = &th.frames[k - 1];
    let caller = &th.frames[k];
    !callee.signal_handler
        && !caller.signal_handler
        && !matches!(runtime::convention(caller), Convention::GoAbiInternal | Convention::GoAbi0 | Convention::Ghc)
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let arch = cx.trace.arch;
    let Some(align) = runtime::stack_alignment(arch) else { return };
    let sp_name = arch.sp_register();
    for (si, stop) in cx.stops() {
        let crashed = stop.crashed_thread();
        for th in &stop.threads {
            let is_crashed = crashed.is_some_and(|c| std::ptr::eq(c, th));
            // (frame position, sp, register span) of misaligned frames.
            let mut bad: Vec<(usize, u64, Span, &'static str)> = Vec::new();
            let access = if is_crashed { aligned_access_fault(cx, stop) } else { None };
            // Frames at or above the first frame that cannot be real (no function, a pc in no
            // code): corrupt-backtrace's business, never evidence here.
            let real_until = th.frames.iter().position(|f| !frame_is_real(cx, f)).unwrap_or(th.frames.len());
            for (&n, regs) in &th.registers {
                let Some(pos) = th.frames.iter().position(|f| f.index == n) else { continue };
                if pos >= real_until {
                    continue;
                }
                let Some(r) = regs.reg(sp_name) else { continue };
                let Some(sp) = r.value else { continue };
                match arch {
                    Arch::Aarch64 => {
                        if sp % align != 0 {
                            bad.push((pos, sp, r.span, "always"));
                        }
                    }
                    _ => {
                        // x86-64 SysV requires the alignment only where the callee relies on it:
                        // gcc's -fipa-stack-alignment calls static callees that need no 16-byte
                        // alignment with rsp = 8 (mod 16), legally. So a misaligned call counts
                        // when an aligned vector access faulted on the stack below it, or when the
                        // callee is in another module (reached through the PLT: a global
                        // function, compiled for the ABI's alignment).
                        if at_call_boundary(th, pos)
                            && sp % align != 0
                            && (access.is_some() || callee_in_other_module(cx, th, pos))
                        {
                            bad.push((pos, sp, r.span, "call"));
                        } else if pos == 0
                            && at_function_entry(regs, arch)
                            // The process entry is not called: the kernel starts it with sp
                            // 16-byte aligned (argc on top), where a called function has a
                            // return address.
                            && !matches!(th.frames[0].function_name(), "_start" | "__start" | "_dl_start_user")
                            && return_address_on_top(cx, stop, th, sp)
                            && (sp + 8) % align != 0
                            && !matches!(
                                runtime::convention(&th.frames[0]),
                                Convention::GoAbiInternal | Convention::GoAbi0
                            )
                            && (access.is_some() || entry_in_shared_library(cx, &th.frames[0]))
                        {
                            bad.push((pos, sp, r.span, "entry"));
                        }
                    }
                }
            }
            // Report the outermost misaligned frame: it made the first misaligned call.
            let root = bad.iter().max_by_key(|b| b.0);
            let mut f = match (root, &access) {
                (Some(&(pos, sp, span, kind)), _) => {
                    let fr = &th.frames[pos];
                    let msg = match kind {
                        "call" => format!(
                            "{sp_name} = {sp:#x} is {} mod 16 at the call from {} (frame #{})",
                            sp % 16,
                            fr.function_name(),
                            fr.index
                        ),
                        "entry" => format!(
                            "{sp_name} = {sp:#x} at the entry of {} (frame #0): {sp_name} + 8 is {} mod 16, so its caller called it with a misaligned stack",
                            fr.function_name(),
                            (sp + 8) % 16
                        ),
                        _ => format!(
                            "{sp_name} = {sp:#x} is {} mod 16 in {} (frame #{})",
                            sp % 16,
                            fr.function_name(),
                            fr.index
                        ),
                    };
                    Finding::new(&RULE, msg)
                        .at(si, Some(th), Some(fr.index))
                        .evidence(format!("{sp_name} = {sp:#x} in frame #{}", fr.index), Some(span))
                }
                (None, Some(a)) => {
                    Finding::new(&RULE, format!("{}: the stack is misaligned", a.text)).at(si, Some(th), Some(0))
                }
                // dyld's own alignment trap on macOS x86-64 (`stack_not_16_byte_aligned_error`,
                // older `misaligned_stack_error_`): its lazy binder checks rsp at entry and faults
                // on purpose with `movdqa %xmm0, (%rsp)`, so a caller broke the alignment.
                (None, None)
                    if is_crashed
                        && th.frames.first().is_some_and(|f| {
                            matches!(
                                f.function_name(),
                                "stack_not_16_byte_aligned_error" | "misaligned_stack_error_" | "misaligned_stack_error"
                            )
                        }) =>
                {
                    Finding::new(
                        &RULE,
                        format!(
                            "dyld's {} trap: a call reached the dynamic linker with {sp_name} not 16-byte aligned; the caller's frame broke the ABI's alignment",
                            th.frames[0].function_name()
                        ),
                    )
                    .at(si, Some(th), Some(0))
                    .evidence(format!("frame #0: {}", th.frames[0].function_name()), Some(th.frames[0].span))
                }
                (None, None) => continue,
            };
            f = f.rank(70).register(sp_name);
            if let Some(a) = access {
                f = f.evidence(format!("frame #0: {}", a.text), Some(a.span));
                f = f.evidence(
                    format!("si_code = {SI_KERNEL} (SI_KERNEL): a general-protection fault, as an aligned vector access to a misaligned address raises"),
                    Some(stop.reason.span),
                );
                if let Some(b) = &a.base {
                    f = f.register(b);
                }
            }
            for &(pos, sp, span, _) in bad.iter().filter(|b| Some(b.0) != root.map(|r| r.0)) {
                f = f.evidence(
                    format!("{sp_name} = {sp:#x} in frame #{} is misaligned too", th.frames[pos].index),
                    Some(span),
                );
            }
            if let Some(&(pos, _, _, _)) = root {
                f = f.step(format!("frame {}", th.frames[pos].index)).step("disassemble");
                if let Some(caller) = th.frames.get(pos + 1) {
                    f = f.step(format!("frame {}", caller.index)).step(format!("info registers {sp_name}"));
                }
            } else {
                f = f.step("frame 1").step(format!("info registers {sp_name}"));
            }
            out.push(f);
        }
    }
}

/// A frame the unwinder could have produced from a real call: it has a function name or its
/// pc is in code.
fn frame_is_real(cx: &RuleContext<'_>, f: &Frame) -> bool {
    if f.signal_handler {
        return true;
    }
    let Some(pc) = f.pc else { return f.function.is_some() };
    let kind = cx.region_kind(pc.0);
    if matches!(kind, RegionKind::NonCanonical | RegionKind::ZeroPage | RegionKind::SmallInteger | RegionKind::Unmapped)
    {
        return false;
    }
    f.function.is_some() || matches!(kind, RegionKind::Code | RegionKind::Jit)
}

/// The module (mapping path) holding `pc`, when mappings or libraries tell.
fn module_of(cx: &RuleContext<'_>, pc: u64) -> Option<String> {
    let c = cx.classifier.classify(pc);
    if c.kind != RegionKind::Code {
        return None;
    }
    c.path.as_deref().map(str::to_string)
}

/// The callee of the call made by frame `pos` (frame `pos - 1`, past inlined frames) is in a
/// different module than the caller: it was reached through the PLT, so it is global.
fn callee_in_other_module(cx: &RuleContext<'_>, th: &Thread, pos: usize) -> bool {
    let mut k = pos;
    while k > 0 && th.frames[k].inlined {
        k -= 1;
    }
    let (Some(callee), Some(caller)) = (th.frames.get(k.wrapping_sub(1)), th.frames.get(pos)) else { return false };
    if callee.module.is_some() && caller.module.is_none() {
        return true;
    }
    match (callee.pc.and_then(|p| module_of(cx, p.0)), caller.pc.and_then(|p| module_of(cx, p.0))) {
        (Some(a), Some(b)) => a != b,
        _ => false,
    }
}

/// Frame #0 at a function entry in a shared library (a global, exported function).
fn entry_in_shared_library(cx: &RuleContext<'_>, f: &Frame) -> bool {
    f.module.as_deref().is_some_and(|m| m.contains(".so"))
        || f.pc.and_then(|p| module_of(cx, p.0)).is_some_and(|m| m.contains(".so"))
}

/// The frame-0 pc is a function's first instruction (`<name>` or `<name+0>` in `rip`'s
/// natural column).
fn at_function_entry(regs: &RegisterSet, arch: Arch) -> bool {
    regs.symbol(arch.pc_register()).is_some_and(SymbolRef::at_start)
}

/// At a function's first instruction the word at sp is the return address, frame #1's pc.
/// A symbol without an offset can come from debug info alone (a core's `<name>` for a
/// static libc function), which does not say the pc is at the start; the stack word does.
/// True when the memory or the caller's pc is not known (nothing contradicts the symbol).
fn return_address_on_top(cx: &RuleContext<'_>, stop: &Stop, th: &Thread, sp: u64) -> bool {
    // The caller's return address: the first outer frame with a pc of its own (inlined
    // levels print none, or frame #0's).
    let pc0 = th.frames.first().and_then(|f| f.pc);
    let caller = th.frames.iter().skip(1).filter_map(|f| f.pc).find(|&pc| Some(pc) != pc0);
    match (cx.read_u64(stop, sp), caller) {
        (Some(w), Some(pc)) => w == pc.0,
        _ => true,
    }
}

struct AccessFault {
    text: String,
    base: Option<String>,
    span: Span,
}

/// `movaps %xmm0,-0x10(%rbp) needs 16-byte alignment but -0x10(%rbp) = 0x7fffffffebf8 is 8 mod 16`.
fn aligned_access_fault(cx: &RuleContext<'_>, stop: &Stop) -> Option<AccessFault> {
    if !matches!(cx.signo(stop), Some(11) | Some(7))
        || stop.reason.si_code.is_some_and(|c| c != SI_KERNEL && !(stop.reason.signo == Some(7) && c == 1))
    {
        return None;
    }
    let i = cx.fault_insn(stop)?;
    let d = insn::decode(&i.text);
    let need = d.needs_alignment? as u64;
    let m = d.mem.as_ref()?;
    let ea = cx.effective_address(stop, m)?;
    if ea % need == 0 {
        return None;
    }
    let stack_based = m.base.as_deref().is_some_and(|b| matches!(b, "rsp" | "rbp" | "esp" | "ebp" | "sp" | "x29"))
        || cx.classifier.classify(ea).kind == RegionKind::Stack;
    if !stack_based {
        return None;
    }
    let operand = match (&m.base, m.disp) {
        (Some(b), 0) => format!("({b})"),
        (Some(b), d) if d < 0 => format!("{b} - {:#x}", d.unsigned_abs()),
        (Some(b), d) => format!("{b} + {d:#x}"),
        (None, d) => format!("{d:#x}"),
    };
    Some(AccessFault {
        text: format!(
            "`{}` needs {need}-byte alignment but {operand} = {ea:#x} is {} mod {need}",
            i.text.trim(),
            ea % need
        ),
        base: m.base.clone(),
        span: i.span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn misaligned_sse_sample_names_the_calling_frame() {
        let f = run_rule_on_sample(&RULE, "misaligned-sse.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "rsp = 0x7fffffffec18 is 8 mod 16 at the call from call_misaligned (frame #1)");
        assert_eq!(f[0].frame, Some(1));
        assert!(
            f[0].evidence.iter().any(|e| e.text == "frame #0: `movaps %xmm0,-0x10(%rbp)` needs 16-byte alignment but rbp - 0x10 = 0x7fffffffebf8 is 8 mod 16"),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn access_fault_alone() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
vec_accumulate (v=0x7fffffffec30, n=8) at src/misaligned-sse.c:14
(gdb) info registers
rbp            0x7fffffffec08      0x7fffffffec08
rsp            0x7fffffffec00      0x7fffffffec00
rip            0x55555555514c      0x55555555514c <vec_accumulate+19>
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 128, _sifields = {_sigfault = {si_addr = 0x0}}}
(gdb) x/i $pc
=> 0x55555555514c <vec_accumulate+19>:\tmovaps %xmm0,-0x10(%rbp)
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "`movaps %xmm0,-0x10(%rbp)` needs 16-byte alignment but rbp - 0x10 = 0x7fffffffebf8 is 8 mod 16: the stack is misaligned"
        );
        // An aligned target is fine; so is a page fault.
        assert!(
            run_rule(&RULE, &t.replace("0x7fffffffec08      0x7fffffffec08", "0x7fffffffec10      0x7fffffffec10"))
                .is_empty()
        );
        assert!(run_rule(&RULE, &t.replace("si_code = 128", "si_code = 1")).is_empty());
    }

    #[test]
    fn entry_check_and_signal_frames() {
        // A breakpoint at the entry of a global function in a shared library, reached with a
        // misaligned stack.
        let t = "\
Breakpoint 1, 0x00007ffff7e50139 in memcpy () from /lib/x86_64-linux-gnu/libc.so.6
(gdb) info registers
rsp            0x7fffffffe000      0x7fffffffe000
rip            0x7ffff7e50139      0x7ffff7e50139 <memcpy>
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("rsp = 0x7fffffffe000 at the entry of memcpy (frame #0): rsp + 8 is 8 mod 16"),
            "{}",
            f[0].message
        );
        assert!(run_rule(&RULE, &t.replace("<memcpy>", "<memcpy+4>")).is_empty());
        assert!(
            run_rule(&RULE, &t.replace("0x7fffffffe000      0x7fffffffe000", "0x7fffffffe008      0x7fffffffe008"))
                .is_empty()
        );
        // The same entry in the program itself may be a static function that gcc's
        // -fipa-stack-alignment calls with rsp = 8 (mod 16), legally: quiet.
        let local = t.replace(" from /lib/x86_64-linux-gnu/libc.so.6", "");
        assert!(run_rule(&RULE, &local).is_empty());
        // The interrupted frame above a signal handler frame is not at a call.
        let s = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in handler ()
(gdb) bt
#0  0x0000555555555139 in handler ()
#1  <signal handler called>
#2  0x0000555555555200 in busy ()
(gdb) frame 2
#2  0x0000555555555200 in busy ()
(gdb) info registers
rsp            0x7fffffffe008      0x7fffffffe008
";
        assert!(run_rule(&RULE, s).is_empty());
        // A misaligned call to a function of the same program, with no aligned access that
        // faulted: legal for a static callee, quiet.
        let s2 = s.replace("#1  <signal handler called>", "#1  0x0000555555555180 in middle ()");
        assert!(run_rule(&RULE, &s2).is_empty());
        // ... but a misaligned call into a shared library is reported at the caller.
        let s3 = s.replace(
            "#1  <signal handler called>",
            "#1  0x00007ffff7e50180 in qsort () from /lib/x86_64-linux-gnu/libc.so.6",
        );
        let f = run_rule(&RULE, &s3);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "rsp = 0x7fffffffe008 is 8 mod 16 at the call from busy (frame #2)");
    }

    #[test]
    fn entry_symbol_without_offset_needs_the_return_address_on_top() {
        // A core symbolized from debug info names a static libc function without an offset
        // (`<__pthread_kill_implementation>`) though the pc is inside it: the word at rsp is
        // not the caller's pc, so this is not the function's entry (issue #11: the cores of
        // the abort cases). With the return address on top it is the entry.
        let t = |top: &str| {
            format!(
                "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  0x00007ffff7e5eeec in __pthread_kill_implementation () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x00007ffff7e0ffb2 in raise () from /lib/x86_64-linux-gnu/libc.so.6
(gdb) info registers
rsp            0x7fffffffe9b0      0x7fffffffe9b0
rip            0x7ffff7e5eeec      0x7ffff7e5eeec <__pthread_kill_implementation>
(gdb) x/2gx $sp
0x7fffffffe9b0:\t{top}\t0x0000000000000000
"
            )
        };
        assert!(run_rule(&RULE, &t("0x0000000000001c9f")).is_empty());
        // With an inlined level between (no pc of its own), the caller is the next frame
        // with a pc.
        let inl = t("0x0000000000001c9f").replace(
            "#1  0x00007ffff7e0ffb2 in raise ()",
            "#1  __futex_abstimed_wait_common () at ./nptl/futex-internal.c:87\n#2  0x00007ffff7e0ffb2 in raise ()",
        );
        assert!(run_rule(&RULE, &inl).is_empty());
        let f = run_rule(&RULE, &t("0x00007ffff7e0ffb2"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("at the entry of __pthread_kill_implementation"), "{}", f[0].message);
    }

    #[test]
    fn aarch64_sp_always_aligned() {
        let t = "\
Program received signal SIGBUS, Bus error.
0x0000aaaaaaaa0714 in f ()
(gdb) info registers
x0             0x1                 1
sp             0xfffffffff3a8      0xfffffffff3a8
pc             0xaaaaaaaa0714      0xaaaaaaaa0714 <f+20>
";
        let mut parsed = crate::input::parse(t);
        parsed.trace.arch = Arch::Aarch64;
        let f = crate::rules::run(&parsed.trace, &crate::rules::Selection { only: vec![RULE.id.into()], skip: vec![] });
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "sp = 0xfffffffff3a8 is 8 mod 16 in f (frame #0)");
    }

    #[test]
    fn quiet_on_other_samples() {
        for s in [
            "null-fnptr.gdb.txt",
            "null-field.gdb.txt",
            "rust-panic.gdb.txt",
            "stack-chk.gdb.txt",
            "julia-trampoline-bad-r13.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }
}
