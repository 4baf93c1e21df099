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
stores over the saved copy (so its restore brings back another value), or saves it, writes it
and returns without restoring it (`add $48,%rsp` or `add sp, sp, #96` drops the saved copies).
The finding names the instruction that set the register, the call and the callee's instruction
that changed it; on AArch64 it adds when the callee's CFI records no save of the register
either. A call through a PLT stub is followed through its GOT entry where the process memory
holds it (a core), and the callee is read path by path (each conditional branch both ways), so
a write on its second path (`jne 1f; ret; 1: … movabs $0x4141414141414140,%r13; ret`) counts.
When the faulting register is a caller-saved copy of a callee-saved one (`mov %r12,%rax` after
the call, -O0 code reading a register variable), the callee-saved one is traced.

Through memory: when the register's last writer before the pc is a load from a frame slot
(`mov -0xa0(%rbp),%r13`, `mov 0x18(%rsp),%rbx`), the load is followed along the function's
control flow (direct branches and fall-through, not address order) to the one store that filled
the slot (`mov %r13,-0xa0(%rbp)`; the base register must not change between them), and the
stored register back to the calls before that store: a callee that writes it without saving it
is the finding when every path to the store passes that call, or when the callee writes exactly
the value the register holds. The finding says so, for the real Julia shape-clobber core: r13
in julia__read_mb_12721 was loaded at +0x2f5 (`mov -0xa0(%rbp),%r13`) from -0xa0(%rbp), which
was last written at +0x19f (`mov %r13,-0xa0(%rbp)`); r13 there was set before the call to memset
at +0xe4, and memset writes r13 without saving it, at memset+0x27
(`movabs $0x4141414141414140,%r13`), exactly the value r13 holds.

And a register that changed with no instruction writing it: on every path back from the pc the
first instruction naming the register is an access through it that could not have been made
with its value now, nothing from there to the pc writes it (no call between changes it, read
from the callees' code), and a trap or system call (`ud2`, `int3`, `syscall`) lies between: a
signal handler returned from there with the register changed through its ucontext
(`uc_mcontext.gregs`). Without such an instruction nothing is claimed.

And through the callee's call-frame information (gimli, `.eh_frame`/`.debug_frame`), with
stack memory (a core): when the callee's CFI says it saved the register at CFA+n, the saved
copy is still in the callee's dead frame at the caller's sp + n. When that copy holds the
register's current value, and an access through the register before the call (between its
last write and the call; or through the register it was copied from, `mov %rdi,%rbx`, while
that one still holds the same value) would have faulted with that value (it is in the zero page or
non-canonical), the callee's saved copy was overwritten and its restore brought it back: the
finding quotes the CFI rule, the slot and the access that proves the earlier value.

From the transcript alone (no binary, no core), the same two checks read the code the
transcript shows: frame #0's `disassemble` and the callee's (`disassemble CALLEE`, AT&T or
Intel, `/r` bytes decoded with iced-x86), the callee's save slot from its shown prologue
(`push`, `sub $n,%rsp`, `mov %reg,disp(%rsp)`), and the slot's word from an `x/` dump of the
dead frame below sp (`x/8gx $sp-64`); on AArch64 the callee's `stp`/`str` prologue
(`stp x29, x30, [sp, #-48]!`, `stp x21, x22, [sp, #32]`) gives the slot. A call after the pc
that reaches it round a loop's back edge (`call` … `jne <loop top>`) counts as the call, on
both paths. The finding says it comes from the transcript's disassembly. And for a frame that has not returned yet: when its `info frame` says where it
saved a callee-saved register, an `x/` dump shows that word, and the caller's disassembly (up
to the return address) shows an access through the register before the call that could not
have been made with the saved value, the save slot was overwritten (a stack buffer overrun,
say) and returning would hand the caller that value. Nothing is claimed without the memory
shown.

And the frame pointer: when frame #0's function set rbp up as its frame pointer (`push %rbp;
mov %rsp,%rbp` at its entry) and no instruction of it from there to the pc writes rbp or
switches rsp to another stack, yet rbp is below rsp, in no mapping, or in a file's or the
heap's mapping, and the fault is an access through rbp (or `leave`), the last call before the
pc returned with rbp changed. The finding names that call, says whether the callee saves rbp
at its entry, and, with stack memory, quotes the callee's saved-rbp slot in its dead frame
(holding the bad rbp while the return address above it is intact: an overrun of a buffer in
the callee's frame that stopped short of the return address). It reads the machine code (a
core, or `--exe`) or the transcript's listing of frame #0 from its entry (gdb `disassemble`,
lldb `disassemble --frame`).

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
signal handler, inlined frames, and Go/GHC frames (own register conventions) are skipped.

**Measured** On eighteen held-out cases built for this (`sample-traces/crashers/cs-*`,
`a64-inline-clobber`, `a64-asm-no-restore`: twelve clobbers written before the rules saw them,
six look-alikes; docs/rules/generalization.md, "Callee-saved clobbers and provenance through
memory"), over gdb transcripts, transcripts with `--exe`, cores and lldb transcripts: before the
walk through memory, copies, path-by-path callees and the no-writer check, 9 of the 29 expected
`callee-saved-changed`/`stack-buffer-overflow` findings were found and 9 findings named the
writing instruction; after, 29 of 29 and 27, with no false finding before or after (the six
look-alikes quiet on every path). The real Julia `shape-clobber` core: missed before, found
after."#,
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
    use crate::provenance::{callee_effect, cfi_slot_changed, decode_function, decode_range, gpr, writes};
    if cx.trace.memory.is_none() {
        return returned_clobber_text(cx, si, stop, out);
    }
    if cx.trace.arch != crate::model::Arch::X86_64 || !matches!(cx.signo(stop), Some(11) | Some(7)) {
        return;
    }
    let Some(th) = stop.crashed_thread() else { return };
    let Some(pc) = cx.pc(stop) else { return };
    let Some(fi) = cx.fault_insn(stop) else { return };
    let Some(mut base) = insn::decode(&fi.text).mem.and_then(|m| m.base) else { return };
    if base == "rsp" {
        return;
    }
    let Some(mut reg) = gpr(&base) else { return };
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
    // The faulting register is a caller-saved copy of a callee-saved one (-O0 code reads a
    // register variable through rax): `mov %r12,%rax` after the last call, and no write of
    // r12 from there to the pc, so r12 holds the same value and is the one to trace.
    let mut copied: Option<(String, String)> = None;
    if !runtime::callee_saved(cx.trace.arch).contains(&base.as_str()) {
        let Some(k) = code.iter().rposition(|d| d.insn.is_call_near() || writes(&mut info, &d.insn, reg)) else {
            return;
        };
        let d = &code[k];
        let i = &d.insn;
        if d.insn.is_call_near()
            || i.code() != iced_x86::Code::Mov_r64_rm64 && i.code() != iced_x86::Code::Mov_rm64_r64
            || i.op0_kind() != iced_x86::OpKind::Register
            || i.op1_kind() != iced_x86::OpKind::Register
        {
            return;
        }
        let src = i.op1_register().full_register();
        let name = format!("{src:?}").to_ascii_lowercase();
        if !runtime::callee_saved(cx.trace.arch).contains(&name.as_str())
            || name == "rsp"
            || code[k + 1..].iter().any(|d| writes(&mut info, &d.insn, src))
        {
            return;
        }
        copied = Some((
            base.clone(),
            format!(
                "the faulting access reads through {base}, a copy of {name} made at {} (`{}`); {name} is not written from there to the pc",
                crate::provenance_text::label(&fname, Some(pc - off), d.address),
                d.text
            ),
        ));
        base = name;
        reg = src;
    }
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
    // The register was reloaded from a frame slot after the last call: follow the slot back
    // to the store that filled it, and the stored value back through the calls before it.
    if call.is_none()
        && let Some(w) = writer
        && crate::provenance_mem::load_slot(w, reg).is_some()
    {
        if let Some(mut f) = through_slot(cx, si, stop, &base, reg, value, &fname, pc - off, w.address) {
            if let Some((via, c)) = &copied {
                f.message = f.message.replace(
                    &format!("the access through {base} then faulted"),
                    &format!("the access through {via} (a copy of {base}) then faulted"),
                );
                f.evidence.push(super::Evidence::new(c.clone(), None));
            }
            out.push(f);
        }
        return;
    }
    // No call on the straight path back from pc: the pc may be at the top of a loop whose
    // body calls after it (`mov (%rbx),%edi` … `call mix` … `jne <top>`), so the register's
    // value at pc came round the back edge from after that call.
    let body = if call.is_none() { decode_function(cx.trace, pc - off, 2000) } else { None };
    let mut via_loop = None;
    let call = match call {
        Some(c) => c,
        None => match body.as_deref().and_then(|b| loop_call(&mut info, &code, b, pc, writer, reg)) {
            Some((c, edge)) => {
                via_loop = Some((edge.address, edge.text.clone()));
                writer = None;
                c
            }
            None => return,
        },
    };
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
        // Through a back edge only what the callee's own code shows: the dead-frame check
        // needs sp unchanged from the call to the pc.
        None if via_loop.is_some() => return,
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
    let c = Clobber {
        base: &base,
        value,
        fname: &fname,
        start: pc - off,
        callee_name,
        target,
        writer: writer.map(|w| (w.address, w.text.clone())),
        call: (call.address, call.text.clone()),
        effect,
        source: None,
        via_loop,
        slot: None,
    };
    let mut f = c.finding(si, th, fi);
    if let Some((via, c)) = copied {
        f.message = f.message.replace(
            &format!("the access through {base} then faulted"),
            &format!("the access through {via} (a copy of {base}) then faulted"),
        );
        f.evidence.push(super::Evidence::new(c, None));
    }
    out.push(f);
}

/// [`returned_clobber`] for a register whose last writer before the pc is a load from a frame
/// slot: the load is traced (along the function's control flow) to the one store that filled
/// the slot, and the stored callee-saved register back through the calls before that store.
/// A call whose callee writes the register without saving it (or saves and loses it) is the
/// finding when every path to the store passes that call, or when the callee writes exactly
/// the value the register holds (`movabs $0x4141414141414140,%r13`).
#[allow(clippy::too_many_arguments)]
fn through_slot(
    cx: &RuleContext<'_>,
    si: usize,
    stop: &crate::model::Stop,
    base: &str,
    reg: iced_x86::Register,
    value: u64,
    fname: &str,
    start: u64,
    load_addr: u64,
) -> Option<Finding> {
    use crate::provenance::CalleeEffect;
    use crate::provenance_mem as pm;
    let th = stop.crashed_thread()?;
    let fi = cx.fault_insn(stop)?;
    let f = pm::flow(cx.trace, start, load_addr)?;
    let load = f.index(load_addr)?;
    let o = pm::slot_origin(&f, load, reg)?;
    let stored = o.stored?;
    let sname = format!("{stored:?}").to_ascii_lowercase();
    if !runtime::callee_saved(cx.trace.arch).contains(&sname.as_str()) {
        return None;
    }
    let label = |a: u64| crate::provenance_text::label(fname, Some(start), a);
    let (ld, stq) = (&f.code[load], &f.code[o.store]);
    let sentence = format!(
        "loaded at {} (`{}`) from {}, which was last written at {} (`{}`)",
        label(ld.address),
        ld.text,
        o.slot.text(),
        label(stq.address),
        stq.text
    );
    for (c, all_paths) in pm::calls_before(&f, o.store, stored) {
        let call = &f.code[c];
        let Some((target, plt)) = pm::call_target(cx.trace, call) else { continue };
        let Some(effect) = pm::callee_effect_paths(cx.trace, target, stored, 400) else { continue };
        let exact = match &effect {
            CalleeEffect::Clobbers(a, _) | CalleeEffect::NotRestored { write: (a, _), .. } => {
                pm::decode_one(cx.trace, *a).and_then(|d| pm::immediate_written(&d, stored)) == Some(value)
            }
            _ => false,
        };
        if !(exact || all_paths) || (exact && stored != reg) {
            continue;
        }
        let callee_name = cx
            .trace
            .code_symbol_ref(target)
            .filter(|s| s.offset.unwrap_or(0) == 0)
            .map(|s| s.name.to_string())
            .or_else(|| cx.symbol_at(stop, target).filter(|s| s.offset.unwrap_or(0) == 0).map(|s| s.name.to_string()))
            .unwrap_or_else(|| format!("{target:#x}"));
        let writer = pm::unique_writer(&f, c, stored).map(|w| (f.code[w].address, f.code[w].text.clone()));
        let origin = match &writer {
            Some((a, t)) => format!("last written before the call at {}: `{t}`", label(*a)),
            None => format!("reaches {} from more than one writer", label(stq.address)),
        };
        let mut extra = Vec::new();
        if plt {
            extra.push(format!(
                "the call goes through a PLT stub at {:#x}, whose GOT entry holds {target:#x} ({callee_name})",
                call.insn.near_branch_target()
            ));
        }
        if exact {
            extra.push(format!("{callee_name} writes exactly the value {base} holds ({value:#x})"));
        }
        extra.push(if all_paths {
            format!("every path to {} passes the call at {}", label(stq.address), label(call.address))
        } else {
            format!(
                "other paths to {} do not pass the call at {}; the value {value:#x} is the one {callee_name} writes",
                label(stq.address),
                label(call.address)
            )
        });
        let c = Clobber {
            base,
            value,
            fname,
            start,
            callee_name,
            target,
            writer,
            call: (call.address, call.text.clone()),
            effect,
            source: None,
            via_loop: None,
            slot: Some(SlotStory { sentence, stored: sname, origin, extra }),
        };
        return Some(c.finding(si, th, fi));
    }
    None
}

/// A callee-saved register that changed with no instruction writing it: the fault is an access
/// through it (x86-64, with the machine code), and on every path back from the pc (along the
/// function's control flow) the first instruction that names it is an access through it that
/// could not have been made with its value now (the zero page, non-canonical), with nothing
/// between that access and the pc writing it: no instruction of the function, and no call
/// whose callee (decoded, through its PLT stub) changes it. When a trap or a system call
/// (`ud2`, `int3`, `syscall`) lies between, the kernel delivered a signal there and the
/// handler that returned changed the register through its ucontext (`uc_mcontext.gregs`).
/// Without such an instruction nothing is claimed.
fn changed_behind(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    use crate::provenance::{gpr, writes};
    use crate::provenance_mem as pm;
    use iced_x86::{Code, InstructionInfoFactory, OpKind, Register};
    if cx.trace.memory.is_none()
        || cx.trace.arch != crate::model::Arch::X86_64
        || !matches!(cx.signo(stop), Some(11) | Some(7))
    {
        return;
    }
    let (Some(th), Some(pc), Some(fi)) = (stop.crashed_thread(), cx.pc(stop), cx.fault_insn(stop)) else { return };
    let Some(base) = insn::decode(&fi.text).mem.and_then(|m| m.base) else { return };
    if !runtime::callee_saved(cx.trace.arch).contains(&base.as_str()) || base == "rsp" {
        return;
    }
    let (Some(reg), Some(value)) = (gpr(&base), cx.reg0(stop, &base).and_then(|r| r.value)) else { return };
    let Some((fname, off)) = cx
        .trace
        .code_symbol_ref(pc)
        .and_then(sym_offset)
        .or_else(|| th.registers.get(&0).and_then(|r| r.symbol("rip")).and_then(sym_offset))
    else {
        return;
    };
    let Some(f) = pm::flow(cx.trace, pc - off, pc) else { return };
    let Some(at) = f.index(pc) else { return };
    let full = reg.full_register();
    let proves = |i: &iced_x86::Instruction| {
        (0..i.op_count()).any(|k| i.op_kind(k) == OpKind::Memory)
            && i.memory_base().full_register() == full
            && i.memory_index() == Register::None
            && {
                let a = value.wrapping_add(i.memory_displacement64());
                a < 0x1000 || (0x0000_8000_0000_0000..0xffff_8000_0000_0000).contains(&a)
            }
    };
    let mut info = InstructionInfoFactory::new();
    let (hits, passed, entry) = f.back(at, |d| proves(&d.insn) || writes(&mut info, &d.insn, reg));
    if entry || hits.is_empty() {
        return;
    }
    // Every path must end at a proving access that does not itself write the register.
    let mut info = InstructionInfoFactory::new();
    if hits.iter().any(|&h| !proves(&f.code[h].insn) || writes(&mut info, &f.code[h].insn, reg)) {
        return;
    }
    let mut trap = None;
    let mut calls = Vec::new();
    for &k in &passed {
        let d = &f.code[k];
        if d.insn.is_call_near() || d.insn.is_call_near_indirect() {
            // The callee must be known and leave the register alone.
            let Some((t, _)) = pm::call_target(cx.trace, d) else { return };
            if crate::provenance::decode_function(cx.trace, t, 400).is_none()
                || pm::callee_effect_paths(cx.trace, t, reg, 400).is_some()
            {
                return;
            }
            let name = cx
                .trace
                .code_symbol_ref(t)
                .filter(|s| s.offset.unwrap_or(0) == 0)
                .map(|s| s.name.to_string())
                .unwrap_or_else(|| format!("{t:#x}"));
            calls.push((d.address, name));
        }
        if trap.is_none() && matches!(d.insn.code(), Code::Ud2 | Code::Int3 | Code::Int_imm8 | Code::Syscall) {
            trap = Some((d.address, d.text.clone()));
        }
    }
    let Some((ta, tt)) = trap else { return };
    let label = |a: u64| crate::provenance_text::label(&fname, Some(f.start), a);
    let proofs: Vec<String> =
        hits.iter().map(|&h| format!("{} (`{}`)", label(f.code[h].address), f.code[h].text)).collect();
    let calls_text = if calls.is_empty() {
        String::new()
    } else {
        format!(
            " (the {} between, {}, {} not change it)",
            if calls.len() == 1 { "call" } else { "calls" },
            calls.iter().map(|(a, n)| format!("`call {n}` at {}", label(*a))).collect::<Vec<_>>().join(", "),
            if calls.len() == 1 { "does" } else { "do" }
        )
    };
    let msg = format!(
        "{base} = {value:#x} in {fname} changed with no instruction writing it: {} read through {base} without faulting, so it was not {value:#x} then, and nothing from there to the pc writes {base}{calls_text}; `{tt}` at {} lies between: the kernel delivers a signal there, and a handler that returns can change the interrupted {base} through its ucontext (uc_mcontext.gregs); the access through {base} then faulted",
        proofs.join(" and "),
        label(ta)
    );
    let mut fd = Finding::new(&RULE, msg)
        .at(si, Some(th), Some(0))
        .rank(95)
        .severity(Severity::Error)
        .register(&base)
        .evidence(format!("faulting instruction: {}", fi.text.trim()), Some(fi.span));
    for p in &proofs {
        fd = fd.evidence(format!("{p} reads through {base}: with {value:#x} it would have faulted"), None);
    }
    fd = fd.evidence(format!("trap between the read and the pc: {}: `{tt}`", label(ta)), None);
    out.push(
        fd.step(format!("break *{ta:#x} then info registers {base}; stepi; info registers {base}"))
            .step("info signals (which handler runs for the trap's signal)".to_string()),
    );
}

/// What [`frame_pointer_broken`] found, from the machine code or from the transcript's listing.
struct BrokenFp<'x> {
    fname: String,
    start: u64,
    rbp: u64,
    rsp: u64,
    /// `mov %rsp,%rbp` of the prologue.
    setup: (u64, String),
    call: (u64, String),
    callee_name: String,
    target: Option<u64>,
    /// The callee's own code saves rbp at its entry (`None`: its code is not known).
    saves: Option<bool>,
    /// The callee's dead frame: saved-rbp slot address, its word, the return address word.
    slot: Option<(u64, Option<u64>, Option<u64>)>,
    place: String,
    /// Where the code came from, when not from the machine code.
    source: Option<&'static str>,
    fi: &'x crate::model::Instruction,
}

impl BrokenFp<'_> {
    fn finding(&self, si: usize, th: &crate::model::Thread) -> Finding {
        let (rbp, callee_name) = (self.rbp, self.callee_name.as_str());
        let label = |a: u64| crate::provenance_text::label(&self.fname, Some(self.start), a);
        // A direct `call rel32` is 5 bytes: the return address it pushed.
        let ret_expected = self.call.0 + 5;
        let detail = match self.slot {
            Some((at, Some(saved), Some(ret))) if saved == rbp && ret == ret_expected => format!(
                "{callee_name} saves rbp at its entry (`push %rbp`) and restores it on return, and the saved copy in its dead frame, at {at:#x}, holds {rbp:#x} while the return address above it ({ret:#x}) is intact: the saved rbp was overwritten while {callee_name} ran (a write past a buffer in its frame that stopped short of the return address)"
            ),
            _ if self.saves == Some(true) => format!(
                "{callee_name} saves rbp at its entry (`push %rbp`) and restores it on return, so the saved copy was overwritten while it ran (a write past a buffer in its frame), or it does not restore rbp"
            ),
            _ if self.saves == Some(false) => format!("{callee_name} does not save rbp at its entry, and changed it"),
            _ => format!(
                "{callee_name}'s code is not shown; a function that saves rbp restores it from that saved copy, so the copy was overwritten while it ran (a write past a buffer in its frame), or it does not restore rbp"
            ),
        };
        let fname = &self.fname;
        let msg = format!(
            "rbp = {rbp:#x} is not {fname}'s frame pointer ({}): {fname} set rbp at its entry ({}: `{}`) and never writes it again, so `call {callee_name}` at {} returned with rbp changed: {detail}; the access through rbp then faulted",
            self.place,
            label(self.setup.0),
            self.setup.1,
            label(self.call.0)
        );
        let mut f = Finding::new(&RULE, msg)
            .at(si, Some(th), Some(0))
            .rank(95)
            .severity(Severity::Error)
            .register("rbp")
            .evidence(format!("faulting instruction: {}", self.fi.text.trim()), Some(self.fi.span))
            .evidence(format!("rbp = {rbp:#x}: {}", self.place), None)
            .evidence(
                format!(
                    "frame pointer set at {}: `{}`; no later write of rbp before the pc",
                    label(self.setup.0),
                    self.setup.1
                ),
                None,
            )
            .evidence(format!("last call before the pc: {}: `{}`", label(self.call.0), self.call.1), None);
        if let Some((at, Some(saved), _)) = self.slot {
            f = f.evidence(format!("{callee_name}'s saved rbp slot at {at:#x} holds {saved:#x}"), None);
        }
        if let Some(s) = self.source {
            f = f.evidence(s, None);
        }
        // The callee's code is what says whether it saves rbp: asked for where nothing showed it.
        if self.saves.is_none() {
            f = f.step(format!("disassemble {callee_name}"));
        }
        f.step(format!(
            "break *{:#x} then watch -l *(long *){:#x} (the saved rbp), or rr: watch -l, reverse-continue",
            self.target.unwrap_or(self.call.0),
            self.rsp.wrapping_sub(16)
        ))
    }
}

/// Where rbp must be as the frame pointer of frame #0: at or above rsp; with mappings, in a
/// mapping, and not in a file's or the heap's (an anonymous mapping above rsp may be the rest
/// of a thread's stack above a guard page that rsp went into). `None` when rbp may be right.
fn frame_pointer_place(cx: &RuleContext<'_>, rbp: u64, rsp: u64) -> Option<String> {
    use crate::classify::RegionKind;
    // rsp wild too: not one callee-saved register a call failed to restore, but the whole
    // context replaced (a longjmp or setcontext from a corrupted buffer, a stack pivot), which
    // is stack-pointer-wild's.
    let sp_kind = cx.classifier.classify(rsp).kind;
    if matches!(
        sp_kind,
        RegionKind::NonCanonical | RegionKind::ZeroPage | RegionKind::SmallInteger | RegionKind::Kernel
    ) || (!cx.trace.mappings.is_empty() && cx.trace.mapping_for(rsp).is_none())
    {
        return None;
    }
    let stack = cx.trace.mapping_for(rsp);
    let sp_in = |s: &str| match stack {
        Some(m) => format!("rsp = {rsp:#x} is in the stack mapping {:#x}-{:#x} and {s}", m.start.0, m.end.0),
        None => format!("rsp = {rsp:#x} and {s}"),
    };
    if rbp < rsp {
        return Some(sp_in("rbp is below it"));
    }
    if cx.trace.mappings.is_empty() && cx.trace.regions.is_empty() {
        return None;
    }
    match cx.trace.mapping_for(rbp) {
        None => Some(sp_in("no mapping holds rbp")),
        Some(m) if m.path.as_deref().is_some_and(|p| p == "[heap]" || p.starts_with('/')) => {
            Some(sp_in(&format!("rbp is in {}", m.path.as_deref().unwrap_or(""))))
        }
        Some(_) => None,
    }
}

/// The fault is an access through rbp: a memory operand based on it, or `leave` (reads [rbp]).
fn faults_through_rbp(fi: &crate::model::Instruction) -> bool {
    let d = insn::decode(&fi.text);
    d.mem.as_ref().and_then(|m| m.base.as_deref()) == Some("rbp") || matches!(d.mnemonic.as_str(), "leave" | "leaveq")
}

/// Frame #0 set rbp up as its frame pointer (`push %rbp; mov %rsp,%rbp` at its entry) and no
/// instruction of it from there to the pc writes rbp, yet rbp is below rsp or outside every
/// stack, and the fault is an access through rbp (or `leave`). A frame pointer lies at or
/// above sp in the same stack as long as the function runs, so rbp changed under the
/// function: the last call before the pc returned with it changed. The callee saves rbp at its
/// entry and restores it on return, so its saved copy was overwritten while it ran (a write
/// past a buffer in its frame that stopped short of the return address); with stack memory
/// (a core, or an `x/` dump below sp) the finding shows that copy in the callee's dead frame.
/// x86-64: the machine code (a core, or a transcript read with `--exe`), or else the
/// transcript's listing of frame #0 from its entry (gdb `disassemble`, lldb `disassemble
/// --frame`).
fn frame_pointer_broken(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    use crate::provenance::{decode_function, decode_range, writes};
    use iced_x86::{Code, Mnemonic, Register};
    if cx.trace.arch != crate::model::Arch::X86_64 || !matches!(cx.signo(stop), Some(11) | Some(7)) {
        return;
    }
    let Some(th) = stop.crashed_thread() else { return };
    let (Some(pc), Some(fi)) = (cx.pc(stop), cx.fault_insn(stop)) else { return };
    if !faults_through_rbp(fi) {
        return;
    }
    let (Some(rbp), Some(rsp)) =
        (cx.reg0(stop, "rbp").and_then(|r| r.value), cx.reg0(stop, "rsp").and_then(|r| r.value))
    else {
        return;
    };
    let Some(place) = frame_pointer_place(cx, rbp, rsp) else { return };
    if cx.trace.memory.is_none() {
        if let Some(b) = frame_pointer_broken_text(stop, th, fi, pc, rbp, rsp, place) {
            out.push(b.finding(si, th));
        }
        return;
    }
    let Some((fname, off)) = cx.trace.code_symbol_ref(pc).and_then(sym_offset) else { return };
    let start = pc - off;
    let Some(code) = decode_range(cx.trace, start, pc) else { return };
    // The prologue: [endbr64] push %rbp; mov %rsp,%rbp.
    let is_push_rbp =
        |c: &crate::provenance::Decoded| c.insn.code() == Code::Push_r64 && c.insn.op0_register() == Register::RBP;
    let is_mov_rbp_rsp = |c: &crate::provenance::Decoded| {
        c.insn.mnemonic() == Mnemonic::Mov
            && c.insn.op0_register() == Register::RBP
            && c.insn.op1_register() == Register::RSP
    };
    let mut i = usize::from(code.first().is_some_and(|c| c.insn.code() == Code::Endbr64));
    if !code.get(i).is_some_and(is_push_rbp) || !code.get(i + 1).is_some_and(is_mov_rbp_rsp) {
        return;
    }
    let setup = (code[i + 1].address, code[i + 1].text.clone());
    i += 2;
    let mut info = iced_x86::InstructionInfoFactory::new();
    // No write of rbp after the prologue, and no switch of rsp to another stack (only pushes,
    // pops, calls and immediate adjustments move it).
    let moves_sp_elsewhere = |info: &mut iced_x86::InstructionInfoFactory, c: &crate::provenance::Decoded| {
        let stack_op = c.insn.is_call_near() || matches!(c.insn.mnemonic(), Mnemonic::Push | Mnemonic::Pop);
        let adjust = matches!(c.insn.mnemonic(), Mnemonic::Sub | Mnemonic::Add | Mnemonic::And)
            && c.insn.op0_register() == Register::RSP
            && c.insn.op1_kind() != iced_x86::OpKind::Register;
        writes(info, &c.insn, Register::RSP) && !stack_op && !adjust
    };
    if code[i..].iter().any(|c| writes(&mut info, &c.insn, Register::RBP) || moves_sp_elsewhere(&mut info, c)) {
        return;
    }
    // The last call before the pc.
    let Some(ci) = code.iter().rposition(|c| c.insn.is_call_near()) else { return };
    if ci < i {
        return;
    }
    let call = &code[ci];
    let rsp_moved = code[ci + 1..].iter().any(|c| writes(&mut info, &c.insn, Register::RSP));
    let target = (call.insn.op0_kind() == iced_x86::OpKind::NearBranch64).then(|| call.insn.near_branch_target());
    let callee_name = target
        .map(|t| {
            cx.trace
                .code_symbol_ref(t)
                .and_then(sym_offset)
                .map(|(n, _)| n)
                .or_else(|| cx.symbol_at(stop, t).map(|s| s.to_string()))
                .unwrap_or_else(|| format!("{t:#x}"))
        })
        .unwrap_or_else(|| "the called function".to_string());
    // The callee's save of rbp (its own `push %rbp` at entry) and, with stack memory, the saved
    // copy in its dead frame: return address at sp - 8, saved rbp at sp - 16.
    let callee = target.and_then(|t| decode_function(cx.trace, t, 400));
    let saves = callee.as_deref().map(|c| {
        let j = usize::from(c.first().is_some_and(|x| x.insn.code() == Code::Endbr64));
        c.get(j).is_some_and(is_push_rbp)
    });
    let slot = (saves == Some(true) && !rsp_moved).then(|| {
        let ret = cx.read_u64(stop, rsp.wrapping_sub(8));
        let saved = cx.read_u64(stop, rsp.wrapping_sub(16));
        (rsp.wrapping_sub(16), saved, ret)
    });
    let b = BrokenFp {
        fname,
        start,
        rbp,
        rsp,
        setup,
        call: (call.address, call.text.clone()),
        callee_name,
        target,
        saves,
        slot,
        place,
        source: None,
        fi,
    };
    out.push(b.finding(si, th));
}

/// [`frame_pointer_broken`] from the transcript's listing of frame #0 from its entry, and of the
/// callee when the transcript shows it.
fn frame_pointer_broken_text<'x>(
    stop: &crate::model::Stop,
    th: &crate::model::Thread,
    fi: &'x crate::model::Instruction,
    pc: u64,
    rbp: u64,
    rsp: u64,
    place: String,
) -> Option<BrokenFp<'x>> {
    use crate::insn::X86Operand;
    use crate::provenance_text::{ShownInsn, code_before, function_at};
    let code = code_before::<ShownInsn>(stop, pc)?;
    if !code.from_entry {
        return None;
    }
    let start = code.start?;
    let fname = th.frames.first().and_then(|f| f.function.as_deref().map(str::to_string)).or(code.symbol.clone())?;
    let reg = |o: &X86Operand, r: &str| matches!(o, X86Operand::Reg { gpr, byte: false, dword: false } if *gpr == r);
    let is_push_rbp = |d: &ShownInsn| {
        d.x86.as_ref().is_some_and(|x| {
            matches!(x.mnemonic.as_str(), "push" | "pushq") && x.operands.len() == 1 && reg(&x.operands[0], "rbp")
        })
    };
    let is_mov_rbp_rsp = |d: &ShownInsn| {
        d.x86.as_ref().is_some_and(|x| {
            let (dst, src) = if x.intel { (0, 1) } else { (1, 0) };
            matches!(x.mnemonic.as_str(), "mov" | "movq")
                && x.operands.len() == 2
                && reg(&x.operands[dst], "rbp")
                && reg(&x.operands[src], "rsp")
        })
    };
    let is_endbr = |d: &ShownInsn| d.x86.as_ref().is_some_and(|x| x.mnemonic.starts_with("endbr"));
    let insns = &code.insns;
    let mut i = usize::from(insns.first().is_some_and(is_endbr));
    if !insns.get(i).is_some_and(is_push_rbp) || !insns.get(i + 1).is_some_and(is_mov_rbp_rsp) {
        return None;
    }
    let setup = (insns[i + 1].address, insns[i + 1].text.trim().to_string());
    i += 2;
    // No write of rbp after the prologue (an instruction the reader cannot judge stops it),
    // and rsp moved only by pushes, pops, calls and immediate adjustments.
    for d in &insns[i..] {
        if d.writes("rbp") != Some(false) {
            return None;
        }
        let x = d.x86.as_ref()?;
        let sp_ok = d.is_call()
            || matches!(x.mnemonic.as_str(), "push" | "pushq" | "pop" | "popq")
            || (matches!(x.mnemonic.as_str(), "sub" | "subq" | "add" | "addq" | "and" | "andq")
                && x.operands.iter().any(|o| matches!(o, X86Operand::Imm(_))));
        if d.writes("rsp") != Some(false) && !sp_ok {
            return None;
        }
    }
    let ci = insns.iter().rposition(|d| d.is_call())?;
    if ci < i {
        return None;
    }
    let call = &insns[ci];
    let rsp_moved = insns[ci + 1..].iter().any(|d| d.writes("rsp") != Some(false));
    let (target, sym) =
        call.x86.as_ref().and_then(|x| x.branch_target()).map(|(t, s)| (Some(t), s)).unwrap_or((None, None));
    let callee_name = sym
        .map(|s| s.split('+').next().unwrap_or(s).to_string())
        .or_else(|| target.map(|t| format!("{t:#x}")))
        .unwrap_or_else(|| "the called function".to_string());
    let callee = target.and_then(|t| function_at::<ShownInsn>(stop, t, 400));
    let saves = callee.as_deref().map(|c| {
        let j = usize::from(c.first().is_some_and(is_endbr));
        c.get(j).is_some_and(is_push_rbp)
    });
    // The callee's dead frame, when an `x/` dump below sp shows it and the callee's shown code
    // saves rbp.
    let slot = (saves == Some(true) && !rsp_moved)
        .then(|| (rsp.wrapping_sub(16), stop.read_u64(rsp.wrapping_sub(16)), stop.read_u64(rsp.wrapping_sub(8))));
    Some(BrokenFp {
        fname,
        start,
        rbp,
        rsp,
        setup,
        call: (call.address, call.text.trim().to_string()),
        callee_name,
        target,
        saves,
        slot,
        place,
        source: Some("from the transcript's disassembly of the frame (no binary read)"),
        fi,
    })
}

/// The call a loop's back edge brings to `pc`: a jump after `pc` whose target is at or before
/// it (and after the register's last writer on the straight path), with a direct call
/// between `pc` and the jump, where nothing from the call to the jump, nor from the target to
/// `pc`, writes `reg`. Returns the call and the jump.
fn loop_call<'c>(
    info: &mut iced_x86::InstructionInfoFactory,
    before: &[crate::provenance::Decoded],
    body: &'c [crate::provenance::Decoded],
    pc: u64,
    writer: Option<&crate::provenance::Decoded>,
    reg: iced_x86::Register,
) -> Option<(&'c crate::provenance::Decoded, &'c crate::provenance::Decoded)> {
    use crate::provenance::writes;
    let after: Vec<&crate::provenance::Decoded> = body.iter().filter(|d| d.address >= pc).collect();
    for (j, edge) in after.iter().enumerate() {
        let is_jump = matches!(
            edge.insn.flow_control(),
            iced_x86::FlowControl::ConditionalBranch | iced_x86::FlowControl::UnconditionalBranch
        ) && edge.insn.op0_kind() == iced_x86::OpKind::NearBranch64;
        if !is_jump {
            continue;
        }
        let t = edge.insn.near_branch_target();
        if t > pc || writer.is_some_and(|w| t <= w.address) {
            continue;
        }
        // From the loop's top to pc: no write of reg.
        if before.iter().filter(|d| d.address >= t).any(|d| writes(info, &d.insn, reg)) {
            continue;
        }
        // The last call before the edge, with no write of reg from it to the edge.
        let mut found = None;
        for d in after[..j].iter().rev() {
            if d.insn.is_call_near() {
                found = Some(*d);
                break;
            }
            if writes(info, &d.insn, reg) {
                break;
            }
        }
        if writes(info, &edge.insn, reg) {
            continue;
        }
        if let Some(c) = found {
            return Some((c, edge));
        }
    }
    None
}

/// A callee that changed a callee-saved register, as either path found it.
struct Clobber<'x> {
    base: &'x str,
    value: u64,
    /// Frame #0's function and its start.
    fname: &'x str,
    start: u64,
    callee_name: String,
    target: u64,
    writer: Option<(u64, String)>,
    call: (u64, String),
    effect: crate::provenance::CalleeEffect,
    /// Where the code came from, when not from the machine code.
    source: Option<String>,
    /// The loop's back edge that brings the call's result round to the pc (the call is after
    /// the pc in the code).
    via_loop: Option<(u64, String)>,
    /// The register was reloaded from a frame slot after the call: how the load goes back to
    /// the store that filled the slot, and the register that store saved there.
    slot: Option<SlotStory>,
}

/// A register reloaded from a frame slot, traced to the store that filled it.
struct SlotStory {
    /// "loaded at f+0x2f5 (`mov -0xa0(%rbp),%r13`) from -0xa0(%rbp), which was last written at
    /// f+0x19f (`mov %r13,-0xa0(%rbp)`)".
    sentence: String,
    /// The register the store put in the slot.
    stored: String,
    /// Where that register's value came from (its writer before the call, or why none is named).
    origin: String,
    /// Evidence beyond the walk: the callee writes exactly the value, or every path passes the call.
    extra: Vec<String>,
}

impl Clobber<'_> {
    fn finding(&self, si: usize, th: &crate::model::Thread, fi: &crate::model::Instruction) -> Finding {
        use crate::provenance::CalleeEffect;
        let (base, value, fname, callee_name, target) =
            (self.base, self.value, self.fname, self.callee_name.as_str(), self.target);
        // The callee's label for an address in its code: at or after its entry, and after the
        // caller's start when the caller lies below it (a callee placed before its caller).
        let in_callee = |a: u64| a >= target && a - target < 0x10000 && !(self.start > target && a >= self.start);
        let at = |a: u64| {
            if in_callee(a) {
                format!("{callee_name}+{:#x}", a - target)
            } else {
                crate::provenance_text::label(fname, Some(self.start), a)
            }
        };
        let origin = match &self.writer {
            _ if self.via_loop.is_some() => {
                let (a, t) = self.via_loop.as_ref().map(|(a, t)| (*a, t.as_str())).unwrap_or((0, ""));
                format!("not written after the call on the loop's way back to the pc (back edge at {}: `{t}`)", at(a))
            }
            Some((a, t)) => format!("last written at {}: `{t}`", at(*a)),
            None => match &self.source {
                Some(_) => format!("not written in the instructions of {fname} shown before the call"),
                None => format!("not written in {fname} since its entry: inherited from its caller"),
            },
        };
        let caller_at = |a: u64| crate::provenance_text::label(fname, Some(self.start), a);
        let how = match &self.effect {
            CalleeEffect::SlotChangedByCfi { slot, cfa_offset, save, prior, via } => format!(
                "{base} cannot have been {value:#x} before the call ({} `{}` read through {} without faulting); {callee_name}'s CFI says it saves {base} at CFA{cfa_offset} (at {}: `{}`), and that saved copy, at {slot:#x} below the caller's sp, now holds {value:#x}: it was overwritten before {callee_name} restored {base} from it",
                caller_at(prior.0),
                prior.1,
                match via {
                    Some(x) => format!("{x}, which held {base}'s value then (the copy its last write made)"),
                    None => "it".to_string(),
                },
                at(save.0),
                save.1
            ),
            CalleeEffect::SlotChangedInShownCode { slot, cfa_offset, save, prior, via } => format!(
                "{base} cannot have been {value:#x} before the call ({} `{}` read through {} without faulting); {callee_name} saves {base} at CFA{cfa_offset} (at {}: `{}`), and that saved copy, at {slot:#x} below the caller's sp, holds {value:#x} in the x/ dump: it was overwritten before {callee_name} restored {base} from it",
                caller_at(prior.0),
                prior.1,
                match via {
                    Some(x) => format!("{x}, which held {base}'s value then (the copy its last write made)"),
                    None => "it".to_string(),
                },
                at(save.0),
                save.1
            ),
            CalleeEffect::Clobbers(a, t) => {
                format!("{callee_name} writes {base} without saving it, at {}: `{t}`", at(*a))
            }
            CalleeEffect::OverwritesSaveSlot { push, store } => format!(
                "{callee_name} saves {base} at {} (`{}`) but overwrites the saved copy at {} (`{}`), so its restore returns another value",
                at(push.0),
                push.1,
                at(store.0),
                store.1
            ),
            CalleeEffect::NotRestored { save, write } => format!(
                "{callee_name} saves {base} at {} (`{}`) and writes it at {} (`{}`), then returns without restoring it from the saved copy",
                at(save.0),
                save.1,
                at(write.0),
                write.1
            ),
        };
        let msg = match &self.slot {
            Some(st) => format!(
                "{base} = {value:#x} in {fname} was {}; {} there is callee-saved and was set before `call {callee_name}` at {}, but {how}; the access through {base} then faulted",
                st.sentence,
                st.stored,
                at(self.call.0)
            ),
            None => format!(
                "{base} = {value:#x} in {fname} is callee-saved and was set before `call {callee_name}` at {}, but {how}; the access through {base} then faulted",
                at(self.call.0)
            ),
        };
        let (who, origin) = match &self.slot {
            Some(st) => (st.stored.as_str(), st.origin.clone()),
            None => (base, origin),
        };
        let mut f = Finding::new(&RULE, msg)
            .at(si, Some(th), Some(0))
            .rank(95)
            .severity(Severity::Error)
            .register(base)
            .evidence(format!("faulting instruction: {}", fi.text.trim()), Some(fi.span))
            .evidence(format!("{who} {origin}"), None)
            .evidence(format!("call at {}: `{}`", at(self.call.0), self.call.1), None)
            .evidence(how, None);
        if let Some(st) = &self.slot {
            f = f.evidence(format!("{base} {}", st.sentence), None);
            for e in &st.extra {
                f = f.evidence(e.clone(), None);
            }
        }
        if let Some(s) = &self.source {
            f = f.evidence(s.clone(), None);
        }
        f.step(format!("disassemble {callee_name}"))
            .step(format!("break *{:#x} then watch ${base} (or rr: watch ${base}, reverse-continue)", self.call.0))
    }
}

/// [`returned_clobber`] from what the transcript shows, for a transcript read without the
/// binary: frame #0's code and the callee's from the transcript's disassembly (`disassemble`,
/// `disassemble CALLEE`, `x/Ni`), the callee's save slot from its shown prologue, and the
/// slot's word from the transcript's `x/` dumps of the dead frame below sp. x86-64.
fn returned_clobber_text(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    use crate::provenance::CalleeEffect;
    use crate::provenance_text::{ShownInsn, callee_effect, code_before, function_at, save_slot, straight_line};
    if cx.trace.arch != crate::model::Arch::X86_64 || !matches!(cx.signo(stop), Some(11) | Some(7)) {
        return;
    }
    let Some(th) = stop.crashed_thread() else { return };
    let Some(pc) = cx.pc(stop) else { return };
    let Some(fi) = cx.fault_insn(stop) else { return };
    let Some(mut base) = insn::decode(&fi.text).mem.and_then(|m| m.base) else { return };
    if base == "rsp" {
        return;
    }
    let Some(value) = cx.reg0(stop, &base).and_then(|r| r.value) else { return };
    let Some(code) = code_before::<ShownInsn>(stop, pc) else { return };
    // A caller-saved copy of a callee-saved register (`mov %r12,%rax` after the last call, no
    // write of r12 after it): trace r12 (as the machine-code path does).
    let mut copied: Option<(String, String)> = None;
    if !runtime::callee_saved(cx.trace.arch).contains(&base.as_str()) {
        let Some(k) = code.insns.iter().rposition(|d| d.is_call() || d.writes(&base) != Some(false)) else { return };
        let d = &code.insns[k];
        if d.is_call() || d.writes(&base) != Some(true) {
            return;
        }
        let Some(x) = d.x86.as_ref().filter(|x| (x.mnemonic == "mov" || x.mnemonic == "movq") && x.operands.len() == 2)
        else {
            return;
        };
        let (src, dst) = if x.intel { (&x.operands[1], &x.operands[0]) } else { (&x.operands[0], &x.operands[1]) };
        let (
            crate::insn::X86Operand::Reg { gpr: src, byte: false, dword: false },
            crate::insn::X86Operand::Reg { gpr: dst, byte: false, dword: false },
        ) = (src, dst)
        else {
            return;
        };
        if *dst != base.as_str()
            || *src == "rsp"
            || !runtime::callee_saved(cx.trace.arch).contains(src)
            || code.insns[k + 1..].iter().any(|d| d.writes(src) != Some(false))
        {
            return;
        }
        let Some(start) = code.start else { return };
        let fname0 = th.frames.first().and_then(|f| f.function.as_deref()).unwrap_or("");
        copied = Some((
            base.clone(),
            format!(
                "the faulting access reads through {base}, a copy of {src} made at {} (`{}`); {src} is not written from there to the pc",
                crate::provenance_text::label(fname0, Some(start), d.address),
                d.text.trim()
            ),
        ));
        base = src.to_string();
    }
    let Some(start) = code.start else { return };
    let Some(fname) = th.frames.first().and_then(|f| f.function.as_deref().map(str::to_string)).or(code.symbol.clone())
    else {
        return;
    };
    // Walk back from pc: the last call, then the last writer of reg before it.
    let mut call = None;
    let mut writer = None;
    for d in code.insns.iter().rev() {
        if d.is_call() {
            if call.is_none() {
                call = Some(d);
            }
            continue;
        }
        match d.writes(&base) {
            Some(true) => {
                writer = Some(d);
                break;
            }
            Some(false) => {}
            None => return,
        }
        // The caller must not move sp between the call and the pc (the callee's CFA is the
        // caller's sp at the call).
        if call.is_none() && d.writes("rsp") != Some(false) {
            return;
        }
    }
    // No call on the straight path back from pc: a loop's back edge may bring a call after
    // the pc round to it (the shown listing of the whole function, entry to ret).
    let whole = if call.is_none() { function_at::<ShownInsn>(stop, start, 4000) } else { None };
    let mut via_loop = None;
    let call = match call {
        Some(c) => c,
        None => match whole.as_deref().and_then(|w| loop_call_text(w, &code.insns, pc, writer, &base)) {
            Some((c, edge)) => {
                via_loop = Some((edge.address, edge.text.to_string()));
                writer = None;
                c
            }
            None => return,
        },
    };
    if writer.is_none() && !code.from_entry {
        return;
    }
    let Some((target, sym)) = call.x86.as_ref().and_then(|x| x.branch_target()) else { return };
    let callee_name = sym.map(str::to_string).unwrap_or_else(|| format!("{target:#x}"));
    let Some(callee) = function_at::<ShownInsn>(stop, target, 400) else { return };
    let effect = match callee_effect(&callee, &base) {
        Some(e) => e,
        None if via_loop.is_some() => return,
        None => {
            // The saved copy in the dead frame below the caller's sp, when a dump shows it,
            // holds the value the register has now, and an access through the register before
            // the call shows it held something else then.
            let Some(sp) = cx.reg0(stop, "rsp").and_then(|r| r.value) else { return };
            let Some((off, save)) = save_slot(&callee, &base) else { return };
            let Some(slot) = sp.checked_add_signed(off) else { return };
            if stop.read_u64(slot) != Some(value) {
                return;
            }
            let from = writer.map(|w| w.address).unwrap_or(0);
            // The writer `mov %rdi,%rbp` leaves rdi holding the same value until rdi changes:
            // an access through it proves the value as well.
            let mut copy: Option<&'static str> = writer.and_then(|w| {
                let x = w.x86.as_ref()?;
                if x.mnemonic != "mov" && x.mnemonic != "movq" || x.operands.len() != 2 {
                    return None;
                }
                let (src, dst) =
                    if x.intel { (&x.operands[1], &x.operands[0]) } else { (&x.operands[0], &x.operands[1]) };
                match (src, dst) {
                    (
                        crate::insn::X86Operand::Reg { gpr: s, byte: false, dword: false },
                        crate::insn::X86Operand::Reg { gpr: d, byte: false, dword: false },
                    ) if *d == base.as_str() && *s != "rsp" => Some(*s),
                    _ => None,
                }
            });
            let mut via = None;
            let bad = |m: &crate::insn::MemOperand, b: &str| {
                m.base.as_deref() == Some(b) && m.index.is_none() && m.segment.is_none() && {
                    let a = value.wrapping_add(m.disp as u64);
                    a < 0x1000 || (0x0000_8000_0000_0000..0xffff_8000_0000_0000).contains(&a)
                }
            };
            let prior = code.insns.iter().filter(|d| d.address > from && d.address < call.address).find(|d| {
                let mem = d.x86.as_ref().and_then(|x| x.accessed_memory());
                if mem.is_some_and(|m| bad(m, base.as_str())) {
                    return true;
                }
                if let Some(x) = copy {
                    if mem.is_some_and(|m| bad(m, x)) {
                        via = Some(x);
                        return true;
                    }
                    if d.writes(x) != Some(false) {
                        copy = None;
                    }
                }
                false
            });
            let Some(prior) = prior.filter(|p| straight_line(&code.insns, p.address, call.address)) else { return };
            CalleeEffect::SlotChangedInShownCode {
                slot,
                cfa_offset: off,
                save: (save.address, save.text.to_string()),
                prior: (prior.address, prior.text.to_string()),
                via: via.map(str::to_string),
            }
        }
    };
    let shown = format!(
        "from the transcript's disassembly: {} instructions of {fname} before the pc{}, {} of {callee_name} from its entry to its ret",
        code.insns.len(),
        if code.from_entry { " from its entry" } else { "" },
        callee.len()
    );
    let c = Clobber {
        base: &base,
        value,
        fname: &fname,
        start,
        callee_name,
        target,
        writer: writer.map(|w| (w.address, w.text.to_string())),
        call: (call.address, call.text.to_string()),
        effect,
        source: Some(shown),
        via_loop,
        slot: None,
    };
    let mut f = c.finding(si, th, fi);
    if let Some((via, c)) = copied {
        f.message = f.message.replace(
            &format!("the access through {base} then faulted"),
            &format!("the access through {via} (a copy of {base}) then faulted"),
        );
        f.evidence.push(super::Evidence::new(c, None));
    }
    out.push(f);
}

/// [`loop_call`] over the transcript's listing: a back edge after `pc` to at or before it
/// (after the last writer on the straight path), with a direct call between `pc` and it and
/// no write of `reg` from the call to the edge, nor from the edge's target to `pc`.
fn loop_call_text<'w>(
    whole: &'w [crate::provenance_text::ShownInsn<'w>],
    before: &[crate::provenance_text::ShownInsn<'_>],
    pc: u64,
    writer: Option<&crate::provenance_text::ShownInsn<'_>>,
    reg: &str,
) -> Option<(&'w crate::provenance_text::ShownInsn<'w>, &'w crate::provenance_text::ShownInsn<'w>)> {
    let after: Vec<&crate::provenance_text::ShownInsn> = whole.iter().filter(|d| d.address >= pc).collect();
    for (j, edge) in after.iter().enumerate() {
        let Some(t) = edge.jump_target() else { continue };
        if t > pc || writer.is_some_and(|w| t <= w.address) {
            continue;
        }
        if before.iter().filter(|d| d.address >= t).any(|d| d.writes(reg) != Some(false)) {
            continue;
        }
        if edge.writes(reg) != Some(false) {
            continue;
        }
        let mut found = None;
        for d in after[..j].iter().rev() {
            if d.is_call() {
                found = Some(*d);
                break;
            }
            if d.writes(reg) != Some(false) {
                break;
            }
        }
        if let Some(c) = found {
            return Some((c, edge));
        }
    }
    None
}

/// One live frame's overwritten save slot, as either path found it.
struct LiveSlot<'x> {
    level: u32,
    callee: &'x str,
    caller: String,
    caller_index: u32,
    reg: &'x str,
    slot: u64,
    saved: u64,
    /// Where the slot is known from (`info frame …` / the CFI rule) and its span.
    slot_source: (String, Option<crate::model::Span>),
    /// (label, text, span) of the access through reg before the call, the call, the writer.
    prior: (String, String, Option<crate::model::Span>),
    call: (String, String, Option<crate::model::Span>),
    writer: Option<(String, String, Option<crate::model::Span>)>,
}

impl LiveSlot<'_> {
    fn finding(self, si: usize, th: &crate::model::Thread, stop: &crate::model::Stop) -> Finding {
        let LiveSlot { level, callee, caller, caller_index, reg, slot, saved, .. } = &self;
        let msg = format!(
            "{callee} (frame #{level}) saved {caller}'s {reg} at {slot:#x}, and that saved copy now holds {saved:#x}, which {caller} (frame #{caller_index}) cannot have had at the call: {} `{}` read through {reg} without faulting; the slot was overwritten, and returning would restore {reg} = {saved:#x} into {caller}",
            self.prior.0, self.prior.1
        );
        let dump = stop.memory.iter().find(|m| m.read_u64(*slot).is_some()).map(|m| m.span);
        let mut f = Finding::new(&RULE, msg)
            .at(si, Some(th), Some(*level))
            .rank(60)
            .register(reg)
            .evidence(self.slot_source.0.clone(), self.slot_source.1)
            .evidence(format!("[{slot:#x}] = {saved:#x}"), dump)
            .evidence(format!("{} `{}` reads through {reg} before the call", self.prior.0, self.prior.1), self.prior.2)
            .evidence(format!("call at {}: `{}`", self.call.0, self.call.1), self.call.2);
        if let Some((l, t, span)) = &self.writer {
            f = f.evidence(format!("{reg} last written at {l}: `{t}`"), *span);
        }
        f.step(format!("frame {level}"))
            .step("disassemble")
            .step(format!("watch *(long *){slot:#x} (rr: then reverse-continue)"))
    }
}

/// Whether an access at `value + disp` could never have been made (the zero page, or a
/// non-canonical address).
fn never_mapped(value: u64, disp: i64) -> bool {
    let a = value.wrapping_add(disp as u64);
    a < 0x1000 || (0x0000_8000_0000_0000..0xffff_8000_0000_0000).contains(&a)
}

/// A live frame's saved copy of a callee-saved register holds a value the caller cannot have
/// had at the call: the caller's code (up to the return address) accessed memory through the
/// register, after its last write and before the call, at an address that can never be mapped
/// with that value. The slot was overwritten; the callee's restore will hand the caller that
/// value (and the unwinder already shows it as the caller's). Where the slot is: the callee's
/// CFI with the machine code (a core, or a transcript with `--exe`), else the transcript's
/// `info frame`; the word: the core's memory or an `x/` dump. x86-64.
fn live_slot_overwritten(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    if cx.trace.arch != crate::model::Arch::X86_64 {
        return;
    }
    let Some(th) = stop.crashed_thread() else { return };
    let found = if cx.trace.memory.is_some() { live_slots_binary(cx, stop, th) } else { live_slots_text(cx, stop, th) };
    for l in found {
        out.push(l.finding(si, th, stop));
    }
}

/// The transcript's path: `info frame` of each frame, its disassembly of the caller.
fn live_slots_text<'x>(
    cx: &RuleContext<'_>,
    stop: &'x crate::model::Stop,
    th: &'x crate::model::Thread,
) -> Vec<LiveSlot<'x>> {
    use crate::provenance_text::{ShownInsn, code_before, label, straight_line};
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for fi in &stop.frame_info {
        if fi.thread.as_ref().is_some_and(|t| **t != *th.id) {
            continue;
        }
        let Some(level) = fi.level else { continue };
        // Each frame once, and only the innermost frames: bounded work on any input.
        if level >= 64 || !seen.insert(level) {
            continue;
        }
        let Some(pos) = th.frames.iter().position(|f| f.index == level && !f.inlined) else { continue };
        let callee = &th.frames[pos];
        let Some(caller) = th.frames.get(pos + 1) else { continue };
        if callee.signal_handler || caller.signal_handler || caller.inlined {
            continue;
        }
        let Some(ret) = caller.pc.map(|a| a.0) else { continue };
        let Some(code) = code_before::<ShownInsn>(stop, ret) else { continue };
        let Some(call) = code.insns.last().filter(|d| d.is_call()) else { continue };
        let caller_name = caller.function.as_deref().map(str::to_string).or(code.symbol.clone());
        let caller_name = caller_name.unwrap_or_else(|| "??".to_string());
        for (reg, slot) in &fi.saved_registers {
            let reg: &str = reg;
            if reg == "rsp" || !runtime::callee_saved(cx.trace.arch).contains(&reg) {
                continue;
            }
            let Some(saved) = cx.read_u64(stop, slot.0) else { continue };
            // The caller's last write of reg before the call, and an access through reg after it.
            let mut writer = None;
            let mut unknown = false;
            for d in code.insns[..code.insns.len() - 1].iter().rev() {
                match d.writes(reg) {
                    Some(true) => {
                        writer = Some(d);
                        break;
                    }
                    Some(false) => {}
                    None => {
                        unknown = true;
                        break;
                    }
                }
            }
            if unknown || writer.is_none() && !code.from_entry {
                continue;
            }
            let from = writer.map(|w| w.address).unwrap_or(0);
            let prior = code.insns.iter().filter(|d| d.address > from && d.address < call.address).find(|d| {
                d.x86.as_ref().and_then(|x| x.accessed_memory()).is_some_and(|m| {
                    m.base.as_deref() == Some(reg)
                        && m.index.is_none()
                        && m.segment.is_none()
                        && never_mapped(saved, m.disp)
                })
            });
            let Some(prior) = prior.filter(|p| straight_line(&code.insns, p.address, call.address)) else { continue };
            let at = |a: u64| label(&caller_name, code.start, a);
            out.push(LiveSlot {
                level,
                callee: callee.function_name(),
                caller: caller_name.clone(),
                caller_index: caller.index,
                reg,
                slot: slot.0,
                saved,
                slot_source: (format!("info frame for frame #{level}: {reg} at {:#x}", slot.0), Some(fi.span)),
                prior: (at(prior.address), prior.text.to_string(), Some(prior.span)),
                call: (at(call.address), call.text.to_string(), Some(call.span)),
                writer: writer.map(|w| (at(w.address), w.text.to_string(), Some(w.span))),
            });
        }
    }
    out
}

/// The machine code's path: the callee's CFI says where it saved each callee-saved register
/// at its pc (the slot is its CFA, from its own registers, plus the rule's offset), the caller's
/// code is decoded up to its return address.
fn live_slots_binary<'x>(
    cx: &RuleContext<'_>,
    stop: &'x crate::model::Stop,
    th: &'x crate::model::Thread,
) -> Vec<LiveSlot<'x>> {
    use crate::provenance::{X86, code_before, dwarf_number, gpr, writes};
    let mut out = Vec::new();
    let Some(mem) = cx.trace.memory.as_ref() else { return out };
    let mut info = iced_x86::InstructionInfoFactory::new();
    // The innermost frame only: its registers are the thread's (outer frames' registers are
    // the unwinder's reconstruction, whose CFA would need the CFI rule of every inner frame).
    let Some(callee) = th.frames.first().filter(|f| !f.inlined && !f.signal_handler) else { return out };
    let Some(caller) = th.frames.get(1).filter(|f| !f.inlined && !f.signal_handler) else { return out };
    let Some(regs) = th.registers.get(&callee.index) else { return out };
    let (Some(pc), Some(ret)) = (cx.pc(stop), caller.pc.map(|a| a.0)) else { return out };
    let Some((caller_name, start, code)) = code_before::<X86>(cx.trace, th, false, ret) else { return out };
    let Some(call) = code.last().filter(|d| d.insn.is_call_near() || d.insn.is_call_near_indirect()) else {
        return out;
    };
    let at = |a: u64| crate::provenance_text::label(&caller_name, Some(start), a);
    for reg in runtime::callee_saved(cx.trace.arch) {
        let Some(r) = gpr(reg).filter(|_| *reg != "rsp") else { continue };
        let Some(dw) = dwarf_number(r) else { continue };
        let Some((cfa_reg, cfa_off, off)) = mem.0.cfi_saved_slot(pc, dw) else { continue };
        let cfa_base = match cfa_reg {
            7 => regs.get("rsp"),
            6 => regs.get("rbp"),
            _ => None,
        };
        let Some(slot) = cfa_base.and_then(|b| b.checked_add_signed(cfa_off)).and_then(|c| c.checked_add_signed(off))
        else {
            continue;
        };
        let Some(saved) = cx.read_u64(stop, slot) else { continue };
        let writer = code[..code.len() - 1].iter().rev().find(|d| writes(&mut info, &d.insn, r));
        let from = writer.map(|w| w.address).unwrap_or(0);
        let full = r.full_register();
        let prior = code.iter().filter(|d| d.address > from && d.address < call.address).find(|d| {
            let i = &d.insn;
            (0..i.op_count()).any(|k| i.op_kind(k) == iced_x86::OpKind::Memory)
                && i.mnemonic() != iced_x86::Mnemonic::Lea
                && i.memory_base().full_register() == full
                && i.memory_index() == iced_x86::Register::None
                && never_mapped(saved, i.memory_displacement64() as i64)
        });
        // Control went from the access to the call in a straight line (no jump between them or
        // into them).
        let jumps_over = |p: u64| {
            code.iter().any(|d| {
                let i = &d.insn;
                let flow = !matches!(i.flow_control(), iced_x86::FlowControl::Next | iced_x86::FlowControl::Call);
                let inside = d.address >= p && d.address < call.address;
                let into = (i.is_jcc_short_or_near() || i.is_jmp_short_or_near())
                    && (p + 1..=call.address).contains(&i.near_branch_target());
                let ret = i.flow_control() == iced_x86::FlowControl::Return;
                flow && (inside || into || !(ret || i.is_jcc_short_or_near() || i.is_jmp_short_or_near()))
            })
        };
        let Some(prior) = prior.filter(|p| !jumps_over(p.address)) else { continue };
        out.push(LiveSlot {
            level: callee.index,
            callee: callee.function_name(),
            caller: caller_name.clone(),
            caller_index: caller.index,
            reg,
            slot,
            saved,
            slot_source: (
                format!(
                    "{}'s CFI saves {reg} at CFA{off} (CFA = {} {cfa_off:+})",
                    callee.function_name(),
                    if cfa_reg == 7 { "rsp" } else { "rbp" }
                ),
                None,
            ),
            prior: (at(prior.address), prior.text.clone(), None),
            call: (at(call.address), call.text.clone(), None),
            writer: writer.map(|w| (at(w.address), w.text.clone(), None)),
        });
    }
    out
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
    let caller_start = pc - off;
    let at = |a: u64| {
        if a >= target && a - target < 0x10000 && !(caller_start > target && a >= caller_start) {
            format!("{callee_name}+{:#x}", a - target)
        } else {
            format!("{fname}+{:#x}", a - caller_start)
        }
    };
    let origin = match writer {
        Some(w) => format!("last written at {}: `{}`", at(w.address), w.text),
        None => format!("not written in {fname} since its entry: inherited from its caller"),
    };
    let caller_at = |a: u64| format!("{fname}+{:#x}", a - (pc - off));
    let mut how = match &effect {
        // (The shown-code variant comes from a transcript's text: returned_clobber_text*.)
        CalleeEffect::SlotChangedByCfi { slot, cfa_offset, save, prior, .. }
        | CalleeEffect::SlotChangedInShownCode { slot, cfa_offset, save, prior, .. } => format!(
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
        CalleeEffect::NotRestored { save, write } => format!(
            "{callee_name} saves {base} at {} (`{}`) and writes it at {} (`{}`), then returns without restoring it from the saved copy",
            at(save.0),
            save.1,
            at(write.0),
            write.1
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

/// [`returned_clobber_a64`] from what an AArch64 transcript shows, for a transcript read
/// without the binary: frame #0's code and the returned callee's from the transcript's
/// disassembly (`disassemble`, `disassemble CALLEE`), the callee's save slot from its shown
/// prologue (`stp x21, x22, [sp, #32]` after `stp x29, x30, [sp, #-48]!`: CFA-16), and the
/// slot's word from the transcript's `x/` dump of the dead frame below sp.
fn returned_clobber_text_a64(cx: &RuleContext<'_>, si: usize, stop: &crate::model::Stop, out: &mut Vec<Finding>) {
    use crate::insn::A64_SP;
    use crate::provenance::CalleeEffect;
    use crate::provenance_text::{
        ShownA64, ShownIsa, a64_mem, a64_target_symbol, callee_effect_a64, code_before, function_at, save_slot_a64,
    };
    if cx.trace.arch != crate::model::Arch::Aarch64
        || cx.trace.memory.is_some()
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
    let Some(reg) = crate::insn::a64_gpr(&base) else { return };
    let Some(value) = cx.reg0(stop, &base).and_then(|r| r.value) else { return };
    let Some(code) = code_before::<ShownA64>(stop, pc) else { return };
    let Some(start) = code.start else { return };
    let Some(fname) = th.frames.first().and_then(|f| f.function.as_deref().map(str::to_string)).or(code.symbol.clone())
    else {
        return;
    };
    // Walk back from pc: the last call, then the last writer of reg before it. sp must not
    // move between the call and the pc (the callee's CFA is the caller's sp at the call).
    let mut call = None;
    let mut writer = None;
    for d in code.insns.iter().rev() {
        let Some(a) = d.a64.as_ref() else { return };
        if a.is_call() {
            if call.is_none() {
                call = Some(d);
            }
            continue;
        }
        match d.writes(&base) {
            Some(true) => {
                writer = Some(d);
                break;
            }
            Some(false) => {}
            None => return,
        }
        if call.is_none() && a.writes(A64_SP) != Some(false) {
            return;
        }
    }
    let Some(call) = call else { return };
    if writer.is_none() && !code.from_entry {
        return;
    }
    // A direct `bl` only (a `blr`'s target is not shown).
    let Some(target) = call.a64.as_ref().filter(|a| a.mnemonic == "bl").and_then(|a| a.branch_target()) else {
        return;
    };
    let Some(callee) = function_at::<ShownA64>(stop, target, 400) else { return };
    let callee_name = callee
        .first()
        .and_then(|_| stop.disassembly.iter().find(|i| i.address.0 == target))
        .and_then(|i| i.location.as_ref()?.symbol().map(|s| s.name.to_string()))
        .or_else(|| a64_target_symbol(call))
        .unwrap_or_else(|| format!("{target:#x}"));
    let effect = match callee_effect_a64(&callee, reg) {
        Some(e) => e,
        None => {
            let Some(sp) = cx.reg0(stop, "sp").and_then(|r| r.value) else { return };
            let Some((off, save)) = save_slot_a64(&callee, reg) else { return };
            let Some(slot) = sp.checked_add_signed(off) else { return };
            if stop.read_u64(slot) != Some(value) {
                return;
            }
            // An access through reg between its last write and the call, at an address that
            // can never be mapped with the value reg has now: it held something else then.
            let from = writer.map(|w| w.address).unwrap_or(0);
            let between: Vec<&ShownA64> =
                code.insns.iter().filter(|d| d.address > from && d.address < call.address).collect();
            let Some(k) = between
                .iter()
                .position(|d| a64_mem(d.text).is_some_and(|(b, o, _)| b == reg && never_mapped(value, o)))
            else {
                return;
            };
            // Straight-line code from that access to the call: no branch in between.
            if between[k..].iter().any(|d| d.a64.as_ref().is_none_or(|a| a.is_jump() || a.is_call())) {
                return;
            }
            let prior = between[k];
            CalleeEffect::SlotChangedInShownCode {
                slot,
                cfa_offset: off,
                save: (save.address, save.text.trim().to_string()),
                prior: (prior.address, prior.text.trim().to_string()),
                via: None,
            }
        }
    };
    let at = |a: u64| {
        if a >= target && a - target < 0x10000 && !(start > target && a >= start) {
            format!("{callee_name}+{:#x}", a - target)
        } else {
            format!("{fname}+{:#x}", a.wrapping_sub(start))
        }
    };
    let origin = match writer {
        Some(w) => format!("last written at {}: `{}`", at(w.address), w.text.trim()),
        None => format!("not written in {fname} since its entry: inherited from its caller"),
    };
    let how = match &effect {
        CalleeEffect::SlotChangedByCfi { slot, cfa_offset, save, prior, .. }
        | CalleeEffect::SlotChangedInShownCode { slot, cfa_offset, save, prior, .. } => format!(
            "{base} cannot have been {value:#x} before the call ({} `{}` read through it without faulting); {callee_name} saves {base} at CFA{cfa_offset} (at {}: `{}`), and that saved copy, at {slot:#x} below the caller's sp, now holds {value:#x}: it was overwritten before {callee_name} restored {base} from it",
            at(prior.0),
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
        CalleeEffect::NotRestored { save, write } => format!(
            "{callee_name} saves {base} at {} (`{}`) and writes it at {} (`{}`), then returns without restoring it from the saved copy",
            at(save.0),
            save.1,
            at(write.0),
            write.1
        ),
    };
    let shown = format!(
        "from the transcript's disassembly: {} instructions of {fname} before the pc{}, {} of {callee_name} from its entry to its ret",
        code.insns.len(),
        if code.from_entry { " from its entry" } else { "" },
        callee.len()
    );
    let msg = format!(
        "{base} = {value:#x} in {fname} is callee-saved and was set before `bl {callee_name}` at {}, but {how}; the access through {base} then faulted",
        at(call.address)
    );
    let dump = match &effect {
        CalleeEffect::SlotChangedInShownCode { slot, .. } => {
            stop.memory.iter().find(|m| m.read_u64(*slot).is_some()).map(|m| (*slot, m.span))
        }
        _ => None,
    };
    let mut f = Finding::new(&RULE, msg)
        .at(si, Some(th), Some(0))
        .rank(95)
        .severity(Severity::Error)
        .register(&base)
        .evidence(format!("faulting instruction: {}", fi.text.trim()), Some(fi.span))
        .evidence(format!("{base} {origin}"), writer.map(|w| w.span))
        .evidence(format!("call at {}: `{}`", at(call.address), call.text.trim()), Some(call.span))
        .evidence(shown, None);
    if let Some((slot, span)) = dump {
        f = f.evidence(format!("[{slot:#x}] = {value:#x}"), Some(span));
    }
    f = f
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
        let before = out.len();
        frame_pointer_broken(cx, si, stop, out);
        if out.len() == before {
            returned_clobber(cx, si, stop, out);
        }
        if out.len() == before {
            changed_behind(cx, si, stop, out);
        }
        live_slot_overwritten(cx, si, stop, out);
        returned_clobber_a64(cx, si, stop, out);
        returned_clobber_text_a64(cx, si, stop, out);
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
            if [callee, caller].iter().any(|f| {
                matches!(runtime::convention(f), Convention::GoAbiInternal | Convention::GoAbi0 | Convention::Ghc)
            }) {
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
