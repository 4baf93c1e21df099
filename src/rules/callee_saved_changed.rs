//! `callee-saved-changed`: a callee-saved register differs between a frame and its caller
//! although the callee's `info frame` says it did not save (and so will not restore) it.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::insn::{self, RegUse};
use crate::runtime::{self, Convention};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "callee-saved-changed",
    title: "callee-saved register changed across a call without being saved",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** Two adjacent frames N (callee) and N+1 (caller) whose registers
were both printed (`frame N` + `info registers`), where a callee-saved register (x86-64: rbx,
rbp, r12-r15; AArch64: x19-x29) has different values, and frame N's `info frame` is in the
transcript and does not list that register under "Saved registers". When the callee's
disassembly shows it writing the register without a save (`push`/`stp`) before its pc, the
finding is firm; otherwise it is heuristic.

Also, with the machine code (a core and its executable, or a transcript read with `--exe`):
a fault through a callee-saved register in frame #0 whose last write comes before a `call`
(`bl` on AArch64), where the called function, decoded from the binary (iced-x86 for x86-64,
yaxpeax-arm for AArch64), writes that register without saving it, or saves it (`push`, or
`mov` to an rsp-based slot; `stp`/`str` to its sp- or x29-based frame on AArch64) and then
stores over the saved copy (so its restore brings back another value). The finding names the
instruction that set the register, the call and the callee's instruction that changed it; on
AArch64 it adds when the callee's CFI records no save of the register either.

And through the callee's call-frame information (gimli, `.eh_frame`/`.debug_frame`), with
stack memory (a core): when the callee's CFI says it saved the register at CFA+n, the saved
copy is still in the callee's dead frame at the caller's sp + n. When that copy holds the
register's current value, and an access through the register before the call (between its
last write and the call) would have faulted with that value (it is in the zero page or
non-canonical), the callee's saved copy was overwritten and its restore brought it back: the
finding quotes the CFI rule, the slot and the access that proves the earlier value.

**Why it matters** A function may only change a callee-saved register if it saves the
caller's value and restores it before returning; the unwinder's "Saved registers" list is
where that save is recorded. A register that changed without a save means either the callee
breaks the ABI (hand-written assembly clobbering rbx or r13, a trampoline, a miscompiled
prologue) and the caller will continue with a corrupted value, or the unwinder's CFI for the
callee is wrong, so every caller-frame value gdb shows above it is suspect.

**Example** `frame 1` shows `rbx = 0x7fffffffed68`, `frame 2` shows `rbx = 0x0`, and `info frame`
in frame 1 lists only `rbp at …, rip at …`: `rbx differs between frame #1 (0x7fffffffed68) and
frame #2 (0x0) but frame #1 does not save it`.

**Known false positives** gdb itself shows a caller's callee-saved register as unchanged unless
the callee's CFI says it was saved, so in a consistent gdb session this can only fire when the
values come from different sources (registers printed at different times in an rr replay, an
edited or merged transcript) or when unwinder and `info frame` disagree. Frames entered from a
signal handler, inlined frames, and Go/GHC frames (own register conventions) are skipped."#,
};

/// Synthetic: no sample trace has both frames' registers and the callee's `info frame`
/// with a differing callee-saved register (real gdb keeps them consistent).
pub(crate) const SYNTHETIC_CLOBBER: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in leaf () at t.c:4
(gdb) bt
#0  0x0000555555555139 in leaf () at t.c:4
#1  0x0000555555555180 in shim ()
#2  0x00005555555551c0 in main () at t.c:20
(gdb) frame 1
#1  0x0000555555555180 in shim ()
(gdb) info registers
rbx            0x7fffffffed68      140737488350568
rbp            0x7fffffffec00      0x7fffffffec00
rsp            0x7fffffffebf0      0x7fffffffebf0
r12            0x1                 1
rip            0x555555555180      0x555555555180 <shim+16>
(gdb) disassemble
Dump of assembler code for function shim:
   0x0000555555555170 <+0>:\tpush   %rbp
   0x0000555555555171 <+1>:\tmov    %rsp,%rbp
   0x0000555555555174 <+4>:\tmov    %rdi,%rbx
   0x0000555555555177 <+7>:\tcall   0x555555555130 <leaf>
=> 0x0000555555555180 <+16>:\tpop    %rbp
End of assembler dump.
(gdb) info frame
Stack level 1, frame at 0x7fffffffec10:
 rip = 0x555555555180 in shim; saved rip = 0x5555555551c0
 called by frame at 0x7fffffffec40, caller of frame at 0x7fffffffebe0
 Arglist at 0x7fffffffec00, args: 
 Locals at 0x7fffffffec00, Previous frame's sp is 0x7fffffffec10
 Saved registers:
  rbp at 0x7fffffffec00, rip at 0x7fffffffec08
(gdb) frame 2
#2  0x00005555555551c0 in main () at t.c:20
(gdb) info registers
rbx            0x0                 0
rbp            0x7fffffffec30      0x7fffffffec30
rsp            0x7fffffffec10      0x7fffffffec10
r12            0x1                 1
rip            0x5555555551c0      0x5555555551c0 <main+30>
";

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::Synthetic { name: "clobbered rbx without a save", text: SYNTHETIC_CLOBBER }],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// `update+17` → (`update`, 17); a symbol printed without an offset gives none.
fn sym_offset(s: &crate::model::SymbolRef) -> Option<(String, u64)> {
    Some((s.name.to_string(), s.offset?))
}

/// The crash is an access through a callee-saved register whose value comes from before a
/// call, and the called function (decoded from the process image) changes that register: it
/// writes it without saving it, or overwrites the slot it saved it in (seen in its code, or
/// through its CFI save slot and the dead frame). Needs the machine code (a core with its
/// executable, or a transcript read with `--exe`); the CFI path needs stack memory (a core).
/// x86-64.
fn returned_clobber(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    use crate::provenance::{
        CalleeEffect, callee_effect, cfi_slot_changed, decode_function, decode_range, gpr, writes,
    };
    if cx.trace.arch != crate::model::Arch::X86_64
        || cx.trace.memory.is_none()
        || !matches!(cx.signo(stop), Some(11) | Some(7))
    {
        return;
    }
    let Some(th) = stop.crashed_thread() else { return };
    let Some(pc) = cx.pc(stop) else { return };
    let Some(fi) = cx.fault_insn(stop) else { return };
    let Some(base) = insn::decode(&fi.text).mem.and_then(|m| m.base) else { return };
    if !runtime::callee_saved(cx.trace.arch).contains(&base.as_str()) || base == "rsp" {
        return;
    }
    let Some(reg) = gpr(&base) else { return };
    let Some(value) = cx.reg0(stop, &base).and_then(|r| r.value) else { return };
    // Frame 0's function start.
    let sym = cx
        .trace
        .code_symbol_ref(pc)
        .and_then(sym_offset)
        .or_else(|| th.registers.get(&0).and_then(|r| r.symbol("rip")).and_then(sym_offset));
    let Some((fname, off)) = sym else { return };
    let Some(code) = decode_range(cx.trace, pc - off, pc) else { return };
    let mut info = iced_x86::InstructionInfoFactory::new();
    // Walk back from pc: the last call, then the last writer of reg before it.
    let mut call = None;
    let mut writer = None;
    for d in code.iter().rev() {
        if d.insn.is_call_near() {
            if call.is_none() {
                call = Some(d);
            }
            continue;
        }
        if writes(&mut info, &d.insn, reg) {
            writer = Some(d);
            break;
        }
    }
    let Some(call) = call else { return };
    if writer.is_some_and(|w| w.address > call.address) {
        return;
    }
    if call.insn.op0_kind() != iced_x86::OpKind::NearBranch64 {
        return;
    }
    let target = call.insn.near_branch_target();
    let Some(callee) = decode_function(cx.trace, target, 400) else { return };
    let sp = cx.reg0(stop, "rsp").and_then(|r| r.value);
    let effect = match callee_effect(&callee, reg) {
        Some(e) => e,
        None => {
            let Some(sp) = sp else { return };
            let read = |a: u64| cx.read_u64(stop, a);
            match cfi_slot_changed(cx.trace, &code, call, writer, &callee, reg, value, sp, &read) {
                Some(e) => e,
                None => return,
            }
        }
    };
    let callee_name = cx
        .trace
        .code_symbol_ref(target)
        .and_then(sym_offset)
        .map(|(n, _)| n)
        .or_else(|| cx.symbol_at(stop, target).map(|s| s.to_string()))
        .unwrap_or_else(|| format!("{target:#x}"));
    let at = |a: u64| {
        if a >= target && a - target < 0x10000 {
            format!("{callee_name}+{:#x}", a - target)
        } else {
            format!("{fname}+{:#x}", a - (pc - off))
        }
    };
    let origin = match writer {
        Some(w) => format!("last written at {}: `{}`", at(w.address), w.text),
        None => format!("not written in {fname} since its entry: inherited from its caller"),
    };
    let caller_at = |a: u64| format!("{fname}+{:#x}", a - (pc - off));
    let how = match &effect {
        CalleeEffect::SlotChangedByCfi { slot, cfa_offset, save, prior } => format!(
            "{base} cannot have been {value:#x} before the call ({} `{}` read through it without faulting); {callee_name}'s CFI says it saves {base} at CFA{cfa_offset} (at {}: `{}`), and that saved copy, at {slot:#x} below the caller's sp, now holds {value:#x}: it was overwritten before {callee_name} restored {base} from it",
            caller_at(prior.0),
            prior.1,
            at(save.0),
            save.1
        ),
        CalleeEffect::Clobbers(a, t) => format!("{callee_name} writes {base} without saving it, at {}: `{t}`", at(*a)),
        CalleeEffect::OverwritesSaveSlot { push, store } => format!(
            "{callee_name} saves {base} at {} (`{}`) but overwrites the saved copy at {} (`{}`), so its restore returns another value",
            at(push.0),
            push.1,
            at(store.0),
            store.1
        ),
    };
    let msg = format!(
        "{base} = {value:#x} in {fname} is callee-saved and was set before `call {callee_name}` at {}, but {how}; the access through {base} then faulted",
        at(call.address)
    );
    let f = Finding::new(&RULE, msg)
        .at(si, Some(th), Some(0))
        .rank(95)
        .severity(Severity::Error)
        .register(&base)
        .evidence(format!("faulting instruction: {}", fi.text.trim()), Some(fi.span))
        .evidence(format!("{base} {origin}"), None)
        .evidence(format!("call at {}: `{}`", at(call.address), call.text), None)
        .evidence(how, None)
        .step(format!("disassemble {callee_name}"))
        .step(format!("break *{:#x} then watch ${base} (or rr: watch ${base}, reverse-continue)", call.address));
    out.push(f);
}

/// [`returned_clobber`] for AArch64 (A64 decoded with yaxpeax-arm, [`crate::provenance_a64`]):
/// the fault is an access through a callee-saved register (x19–x28) whose last write comes
/// before a `bl`, and the called function writes the register without saving it (its CFI
/// records no save of it either), or saves it (`stp`/`str` to its frame) and stores over the
/// saved copy, or (with stack memory, a core) its CFI save slot in the dead frame holds the
/// register's faulting value.
fn returned_clobber_a64(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    use crate::provenance::CalleeEffect;
    use crate::provenance_a64::{
        call_target, callee_effect, cfi_saves, cfi_slot_changed, decode_function, decode_range, gpr, writes,
    };
    if cx.trace.arch != crate::model::Arch::Aarch64
        || cx.trace.memory.is_none()
        || !matches!(cx.signo(stop), Some(11) | Some(7))
    {
        return;
    }
    let Some(th) = stop.crashed_thread() else { return };
    let Some(pc) = cx.pc(stop) else { return };
    let Some(fi) = cx.fault_insn(stop) else { return };
    let Some(base) = insn::decode(&fi.text).mem.and_then(|m| m.base) else { return };
    if !runtime::callee_saved(cx.trace.arch).contains(&base.as_str()) || base == "x29" || base == "sp" {
        return;
    }
    let Some(reg) = gpr(&base) else { return };
    let Some(value) = cx.reg0(stop, &base).and_then(|r| r.value) else { return };
    let sym = cx
        .trace
        .code_symbol_ref(pc)
        .and_then(sym_offset)
        .or_else(|| th.registers.get(&0).and_then(|r| r.symbol("pc")).and_then(sym_offset));
    let Some((fname, off)) = sym else { return };
    let Some(code) = decode_range(cx.trace, pc - off, pc) else { return };
    // Walk back from pc: the last call, then the last writer of reg before it.
    let mut call = None;
    let mut writer = None;
    for d in code.iter().rev() {
        if call_target(d).is_some() {
            if call.is_none() {
                call = Some(d);
            }
            continue;
        }
        if writes(&d.insn, reg) {
            writer = Some(d);
            break;
        }
    }
    let Some(call) = call else { return };
    let Some(Some(target)) = call_target(call) else { return };
    let Some(callee) = decode_function(cx.trace, target, 400) else { return };
    let sp = cx.reg0(stop, "sp").and_then(|r| r.value);
    let effect = match callee_effect(&callee, reg) {
        Some(e) => e,
        None => {
            let Some(sp) = sp else { return };
            let read = |a: u64| cx.read_u64(stop, a);
            match cfi_slot_changed(cx.trace, &code, call, writer, &callee, reg, value, sp, &read) {
                Some(e) => e,
                None => return,
            }
        }
    };
    let callee_name = cx
        .trace
        .code_symbol_ref(target)
        .filter(|s| s.offset.unwrap_or(0) == 0)
        .map(|s| s.name.to_string())
        .or_else(|| cx.symbol_at(stop, target).map(|s| s.to_string()))
        .unwrap_or_else(|| format!("{target:#x}"));
    let at = |a: u64| {
        if a >= target && a - target < 0x10000 {
            format!("{callee_name}+{:#x}", a - target)
        } else {
            format!("{fname}+{:#x}", a - (pc - off))
        }
    };
    let origin = match writer {
        Some(w) => format!("last written at {}: `{}`", at(w.address), w.text),
        None => format!("not written in {fname} since its entry: inherited from its caller"),
    };
    let caller_at = |a: u64| format!("{fname}+{:#x}", a - (pc - off));
    let mut how = match &effect {
        CalleeEffect::SlotChangedByCfi { slot, cfa_offset, save, prior } => format!(
            "{base} cannot have been {value:#x} before the call ({} `{}` read through it without faulting); {callee_name}'s CFI says it saves {base} at CFA{cfa_offset} (at {}: `{}`), and that saved copy, at {slot:#x} below the caller's sp, now holds {value:#x}: it was overwritten before {callee_name} restored {base} from it",
            caller_at(prior.0),
            prior.1,
            at(save.0),
            save.1
        ),
        CalleeEffect::Clobbers(a, t) => format!("{callee_name} writes {base} without saving it, at {}: `{t}`", at(*a)),
        CalleeEffect::OverwritesSaveSlot { push, store } => format!(
            "{callee_name} saves {base} at {} (`{}`) but overwrites the saved copy at {} (`{}`), so its restore returns another value",
            at(push.0),
            push.1,
            at(store.0),
            store.1
        ),
    };
    if let CalleeEffect::Clobbers(a, _) = &effect
        && cfi_saves(cx.trace, &callee, reg, *a) == Some(false)
    {
        how.push_str(&format!(" (its CFI records no save of {base} either)"));
    }
    let msg = format!(
        "{base} = {value:#x} in {fname} is callee-saved and was set before `bl {callee_name}` at {}, but {how}; the access through {base} then faulted",
        at(call.address)
    );
    let f = Finding::new(&RULE, msg)
        .at(si, Some(th), Some(0))
        .rank(95)
        .severity(Severity::Error)
        .register(&base)
        .evidence(format!("faulting instruction: {}", fi.text.trim()), Some(fi.span))
        .evidence(format!("{base} {origin}"), None)
        .evidence(format!("call at {}: `{}`", at(call.address), call.text), None)
        .evidence(how, None)
        .step(format!("disassemble {callee_name}"))
        .step(format!("break *{:#x} then watch ${base} (or rr: watch ${base}, reverse-continue)", call.address));
    out.push(f);
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let arch = cx.trace.arch;
    let saved_set = runtime::callee_saved(arch);
    if saved_set.is_empty() {
        return;
    }
    for (si, stop) in cx.stops() {
        returned_clobber(cx, si, stop, out);
        returned_clobber_a64(cx, si, stop, out);
    }
    for (si, stop) in cx.stops() {
        // `info frame` output is not tied to a thread; use it only for the thread it most likely
        // belongs to (the crashed/current one).
        let Some(th) = stop.crashed_thread() else { continue };
        for (pos, callee) in th.frames.iter().enumerate() {
            let Some(caller) = th.frames.get(pos + 1) else { break };
            if callee.signal_handler || caller.signal_handler || caller.inlined {
                continue;
            }
            if [callee, caller]
                .iter()
                .any(|f| matches!(runtime::convention(f), Convention::GoAbiInternal | Convention::Ghc))
            {
                continue;
            }
            let (Some(rc), Some(rr)) = (th.registers.get(&callee.index), th.registers.get(&caller.index)) else {
                continue;
            };
            let Some(fi) = stop.frame_info.iter().find(|fi| fi.level == Some(callee.index)) else { continue };
            for reg in saved_set {
                let (Some(a), Some(b)) = (rc.reg(reg), rr.reg(reg)) else { continue };
                let (Some(va), Some(vb)) = (a.value, b.value) else { continue };
                if va == vb || fi.saved_registers.iter().any(|(n, _)| &**n == *reg) {
                    continue;
                }
                // Firm when the callee's own code overwrites it without saving it first.
                let clobber = callee.pc.and_then(|pc| cx.listing_around(stop, pc.0)).and_then(|l| {
                    let mut saved = false;
                    for i in l.iter().take_while(|i| Some(i.address) < callee.pc) {
                        match insn::reg_use(&i.text, reg) {
                            Some(RegUse::Save) => saved = true,
                            Some(RegUse::Write) if !saved => return Some(i),
                            _ => {}
                        }
                    }
                    None
                });
                let mut f = Finding::new(
                    &RULE,
                    format!(
                        "{reg} differs between frame #{} ({va:#x}) and frame #{} ({vb:#x}) but frame #{} does not save it",
                        callee.index, caller.index, callee.index
                    ),
                )
                .at(si, Some(th), Some(callee.index))
                .rank(40)
                .register(reg)
                .evidence(format!("{reg} = {va:#x} in frame #{} {}", callee.index, callee.function_name()), Some(a.span))
                .evidence(format!("{reg} = {vb:#x} in frame #{} {}", caller.index, caller.function_name()), Some(b.span))
                .evidence(
                    format!(
                        "info frame for frame #{} saves only: {}",
                        callee.index,
                        fi.saved_registers.iter().map(|(n, _)| &**n).collect::<Vec<_>>().join(", ")
                    ),
                    Some(fi.span),
                );
                match clobber {
                    Some(i) => {
                        f = f.evidence(
                            format!("{} writes {reg} without saving it: {}", callee.function_name(), i.text.trim()),
                            Some(i.span),
                        )
                    }
                    None => f = f.heuristic(),
                }
                f = f.step(format!("frame {}", callee.index)).step("disassemble").step("info frame").step(format!(
                    "maint print frame-id / rr: watch ${reg} and reverse-continue in frame #{}",
                    callee.index
                ));
                out.push(f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    const T: &str = SYNTHETIC_CLOBBER;

    #[test]
    fn synthetic_clobber_without_save_fires() {
        let f = run_rule(&RULE, T);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "rbx differs between frame #1 (0x7fffffffed68) and frame #2 (0x0) but frame #1 does not save it"
        );
        assert!(!f[0].heuristic, "the disassembly shows `mov %rdi,%rbx` without a push");
        assert_eq!(f[0].severity, Severity::Warning);
        // rbp differs too, but it is listed as saved.
        assert!(f.iter().all(|f| f.registers == vec!["rbx"]));
    }

    #[test]
    fn without_disassembly_it_is_heuristic_and_a_save_silences_it() {
        let no_dis = {
            let a = T.find("(gdb) disassemble").unwrap_or(0);
            let b = T.find("(gdb) info frame").unwrap_or(0);
            format!("{}{}", &T[..a], &T[b..])
        };
        let f = run_rule(&RULE, &no_dis);
        assert_eq!(f.len(), 1);
        assert!(f[0].heuristic);
        assert_eq!(f[0].severity, Severity::Info);
        let saved = T.replace(
            "  rbp at 0x7fffffffec00, rip at 0x7fffffffec08",
            "  rbx at 0x7fffffffebf8, rbp at 0x7fffffffec00, rip at 0x7fffffffec08",
        );
        assert!(run_rule(&RULE, &saved).is_empty());
        // Without the callee's `info frame` nothing is claimed.
        let no_info = &T[..T.find("(gdb) info frame").unwrap_or(T.len())];
        let no_info = format!("{no_info}{}", &T[T.find("(gdb) frame 2").unwrap_or(0)..]);
        assert!(run_rule(&RULE, &no_info).is_empty());
    }

    #[test]
    fn quiet_on_samples() {
        for s in [
            "julia-trampoline-bad-r13.gdb.txt",
            "julia-trampoline-good-r13.gdb.txt",
            "null-field.gdb.txt",
            "c-r13-plain.gdb.txt",
            "misaligned-sse.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }
}
