//! Register provenance through memory (x86-64): when the last writer of a register is a load
//! from a frame slot (`mov -0xa0(%rbp),%r13`, `mov 0x18(%rsp),%rbx`), the store that filled the
//! slot, the calls between that store and the load, and the calls the stored register's value
//! came through.
//!
//! The walks follow the function's control flow (direct branches, fall-through), not its
//! address order: a value that reaches an instruction round a `jmp` over another writer is
//! traced along the jump. The function's code comes from the process image (a core, or the
//! `--exe` binaries placed by the mappings), its extent from its CFI.

use crate::model::*;
use crate::provenance::{CalleeEffect, Decoded, decode_function, writes};
use iced_x86::{Code, Decoder, DecoderOptions, FlowControl, InstructionInfoFactory, OpAccess, OpKind, Register};
use std::collections::HashMap;

/// A function's code with its control flow: each instruction's predecessors.
pub struct Flow {
    pub start: u64,
    pub code: Vec<Decoded>,
    preds: Vec<Vec<usize>>,
    at: HashMap<u64, usize>,
}

/// Decodes the function holding `pc` (its CFI extent; without CFI, from `start` to 4 KiB past
/// `pc`, stopping at the first byte that does not decode). `None` without process code, or
/// when `pc` is not an instruction start of the decoded code.
pub fn flow(trace: &Trace, start: u64, pc: u64) -> Option<Flow> {
    let mem = trace.memory.as_ref()?;
    let (s, end) = match mem.0.function_range(pc) {
        Some((s, e)) if s <= pc && pc < e => (s, e),
        _ => (start, pc.checked_add(4096)?),
    };
    let len = end.checked_sub(s).filter(|l| *l > 0 && *l <= 256 << 10)? as usize;
    let mut buf = vec![0u8; len];
    let n = mem.0.read(s, &mut buf);
    if (n as u64) < pc - s {
        return None;
    }
    let mut dec = Decoder::with_ip(64, &buf[..n], s, DecoderOptions::NONE);
    let mut code = Vec::new();
    while dec.can_decode() {
        let insn = dec.decode();
        if insn.is_invalid() {
            break;
        }
        code.push(Decoded { address: insn.ip(), text: crate::provenance::format_insn(&insn), insn });
    }
    let at: HashMap<u64, usize> = code.iter().enumerate().map(|(k, d)| (d.address, k)).collect();
    at.get(&pc)?;
    let mut preds = vec![Vec::new(); code.len()];
    for (k, d) in code.iter().enumerate() {
        let fc = d.insn.flow_control();
        let falls = matches!(
            fc,
            FlowControl::Next
                | FlowControl::Call
                | FlowControl::IndirectCall
                | FlowControl::ConditionalBranch
                | FlowControl::Interrupt
                // `ud2` and the like: a signal handler may step over them and return
                | FlowControl::Exception
        );
        if falls && k + 1 < code.len() {
            preds[k + 1].push(k);
        }
        if matches!(fc, FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch)
            && d.insn.op0_kind() == OpKind::NearBranch64
            && let Some(&t) = at.get(&d.insn.near_branch_target())
        {
            preds[t].push(k);
        }
    }
    Some(Flow { start: s, code, preds, at })
}

impl Flow {
    /// The index of the instruction at `addr`.
    pub fn index(&self, addr: u64) -> Option<usize> {
        self.at.get(&addr).copied()
    }

    /// Walks backward from `idx` (exclusive) along every path; each path ends at its first
    /// instruction `hit` accepts. Returns the hits and the instructions passed (not hits), in
    /// index order, and whether a path reached the function's entry without a hit.
    pub fn back(&self, idx: usize, mut hit: impl FnMut(&Decoded) -> bool) -> (Vec<usize>, Vec<usize>, bool) {
        let mut seen = vec![false; self.code.len()];
        let mut work: Vec<usize> = self.preds[idx].clone();
        let (mut hits, mut passed, mut entry) = (Vec::new(), Vec::new(), idx == 0);
        while let Some(j) = work.pop() {
            if std::mem::replace(&mut seen[j], true) {
                continue;
            }
            if hit(&self.code[j]) {
                hits.push(j);
                continue;
            }
            passed.push(j);
            if j == 0 {
                entry = true;
            }
            work.extend(self.preds[j].iter().copied());
        }
        hits.sort_unstable();
        passed.sort_unstable();
        (hits, passed, entry)
    }
}

/// A frame slot: `disp(base)` with base rbp or rsp and no index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot {
    pub base: Register,
    pub disp: i64,
}

impl Slot {
    /// The displacement as an offset: `-0xa0`, `+0x18`.
    pub fn disp_text(&self) -> String {
        if self.disp < 0 { format!("-{:#x}", self.disp.unsigned_abs()) } else { format!("+{:#x}", self.disp) }
    }

    /// gdb's AT&T form: `-0xa0(%rbp)`.
    pub fn text(&self) -> String {
        let b = if self.base == Register::RBP { "rbp" } else { "rsp" };
        match self.disp {
            0 => format!("(%{b})"),
            d if d < 0 => format!("-{:#x}(%{b})", d.unsigned_abs()),
            d => format!("{d:#x}(%{b})"),
        }
    }
}

/// The frame slot a `mov disp(%rbp|%rsp),%reg64` loads `reg` from.
pub fn load_slot(d: &Decoded, reg: Register) -> Option<Slot> {
    let i = &d.insn;
    (i.code() == Code::Mov_r64_rm64
        && i.op0_register().full_register() == reg.full_register()
        && i.op1_kind() == OpKind::Memory
        && matches!(i.memory_base(), Register::RBP | Register::RSP)
        && i.memory_index() == Register::None)
        .then(|| Slot { base: i.memory_base(), disp: i.memory_displacement64() as i64 })
}

/// Whether `d` writes memory overlapping the 8 bytes of `slot`.
fn stores_to(info: &mut InstructionInfoFactory, d: &Decoded, slot: Slot) -> bool {
    if d.insn.is_call_near() || d.insn.is_call_near_indirect() {
        return false;
    }
    info.info(&d.insn).used_memory().iter().any(|m| {
        matches!(m.access(), OpAccess::Write | OpAccess::ReadWrite | OpAccess::CondWrite | OpAccess::ReadCondWrite)
            && m.base() == slot.base
            && m.index() == Register::None
            && {
                let at = m.displacement() as i64;
                let size = m.memory_size().size().max(1) as i64;
                at < slot.disp + 8 && slot.disp < at + size
            }
    })
}

/// What a load of a register from a frame slot goes back to.
pub struct SlotOrigin {
    /// The load (index into the flow's code) and its slot.
    pub load: usize,
    pub slot: Slot,
    /// The last store to the slot before the load, when every path back from the load meets
    /// the same one.
    pub store: usize,
    /// The register that store wrote into the slot (`mov %reg,slot`); `None` for another kind
    /// of store (an immediate, a vector).
    pub stored: Option<Register>,
    /// The calls on the paths from the store to the load.
    pub calls_between: Vec<usize>,
}

/// Traces the load at `load` (which must be a frame-slot load of `reg`) to the one store that
/// filled its slot. `None` when no single store reaches it on every path, or when the base
/// register (rbp, or rsp outside calls) changes on the way: then the slot is not the same word.
pub fn slot_origin(f: &Flow, load: usize, reg: Register) -> Option<SlotOrigin> {
    let slot = load_slot(&f.code[load], reg)?;
    let mut info = InstructionInfoFactory::new();
    let (hits, passed, entry) = f.back(load, |d| stores_to(&mut info, d, slot));
    if entry || hits.len() != 1 {
        return None;
    }
    let store = hits[0];
    let mut info = InstructionInfoFactory::new();
    let base_moved = passed.iter().any(|&k| {
        let d = &f.code[k];
        !(d.insn.is_call_near() || d.insn.is_call_near_indirect()) && writes(&mut info, &d.insn, slot.base)
    });
    if base_moved {
        return None;
    }
    let i = &f.code[store].insn;
    let stored =
        (i.code() == Code::Mov_rm64_r64 && i.op0_kind() == OpKind::Memory).then(|| i.op1_register().full_register());
    let calls_between = passed
        .iter()
        .copied()
        .filter(|&k| f.code[k].insn.is_call_near() || f.code[k].insn.is_call_near_indirect())
        .collect();
    Some(SlotOrigin { load, slot, store, stored, calls_between })
}

/// The calls a register's value at `idx` came through: walking back from `idx`, the calls
/// passed before the register's last writer on each path. `all_paths`: every path back from
/// `idx` passes the call (no writer of the register is reached without passing it).
pub fn calls_before(f: &Flow, idx: usize, reg: Register) -> Vec<(usize, bool)> {
    let mut info = InstructionInfoFactory::new();
    let is_call = |d: &Decoded| d.insn.is_call_near() || d.insn.is_call_near_indirect();
    let (_, passed, _) = f.back(idx, |d| !is_call(d) && writes(&mut info, &d.insn, reg));
    passed
        .into_iter()
        .filter(|&k| is_call(&f.code[k]))
        .map(|k| {
            // Every path back from idx passes k: a walk that stops at k and at writers of reg
            // meets only k and never the entry.
            let mut info = InstructionInfoFactory::new();
            let (hits, _, entry) = f.back(idx, |d| d.address == f.code[k].address || writes(&mut info, &d.insn, reg));
            (k, !entry && hits.iter().all(|&h| h == k))
        })
        .collect()
}

/// The last writer of `reg` before `idx` when every path back meets the same one (and no
/// call lies between): its index.
pub fn unique_writer(f: &Flow, idx: usize, reg: Register) -> Option<usize> {
    let mut info = InstructionInfoFactory::new();
    let (hits, _, entry) = f.back(idx, |d| writes(&mut info, &d.insn, reg));
    (!entry && hits.len() == 1).then(|| hits[0])
}

/// A PLT stub's destination (`endbr64; bnd jmp *GOT(%rip)`, `jmp *GOT(%rip)`), from its GOT
/// slot when the process memory holds it (a core; an `--exe` binary's code has no GOT).
pub fn plt_resolve(mem: &TraceMemory, t: u64) -> Option<u64> {
    let mut buf = [0u8; 32];
    let n = mem.0.read(t, &mut buf);
    let mut dec = Decoder::with_ip(64, &buf[..n], t, DecoderOptions::NONE);
    for _ in 0..2 {
        if !dec.can_decode() {
            return None;
        }
        let i = dec.decode();
        if i.code() == Code::Endbr64 {
            continue;
        }
        if i.code() == Code::Jmp_rm64 && i.op0_kind() == OpKind::Memory && i.is_ip_rel_memory_operand() {
            let mut w = [0u8; 8];
            if mem.0.read(i.ip_rel_memory_address(), &mut w) == 8 {
                let r = u64::from_le_bytes(w);
                if r != 0 && mem.0.read(r, &mut [0u8; 1]) == 1 {
                    return Some(r);
                }
            }
        }
        return None;
    }
    None
}

/// A direct call's target, followed through a PLT stub ([`plt_resolve`]) when it is one.
/// Returns the final target and whether it went through a PLT stub.
pub fn call_target(trace: &Trace, call: &Decoded) -> Option<(u64, bool)> {
    if call.insn.op0_kind() != OpKind::NearBranch64 {
        return None;
    }
    let t = call.insn.near_branch_target();
    Some(match plt_resolve(trace.memory.as_ref()?, t) {
        Some(r) => (r, true),
        None => (t, false),
    })
}

/// The function a call reaches, decoded from its entry to its first `ret` (through a PLT stub
/// when the GOT is readable).
pub fn callee_code(trace: &Trace, call: &Decoded) -> Option<(u64, bool, Vec<Decoded>)> {
    let (t, plt) = call_target(trace, call)?;
    Some((t, plt, decode_function(trace, t, 400)?))
}

/// What a called function does to a callee-saved register along each of its paths (entry to
/// a `ret`, following its conditional branches both ways, each loop once): the first path on
/// which it writes the register without saving it, or saves it and loses the saved copy.
/// The function's code is read by a linear sweep from `target` that goes on past a `ret` while
/// an earlier branch jumps beyond it (at most `max` instructions). A callee with an indirect
/// jump, or more than 256 paths, gives `None`.
pub fn callee_effect_paths(trace: &Trace, target: u64, reg: Register, max: usize) -> Option<CalleeEffect> {
    let mem = trace.memory.as_ref()?;
    let mut buf = vec![0u8; max * 15];
    let n = mem.0.read(target, &mut buf);
    let mut dec = Decoder::with_ip(64, &buf[..n], target, DecoderOptions::NONE);
    let mut code: Vec<Decoded> = Vec::new();
    let mut reach = target;
    while dec.can_decode() && code.len() < max {
        let insn = dec.decode();
        if insn.is_invalid() {
            return None;
        }
        let fc = insn.flow_control();
        if fc == FlowControl::IndirectBranch {
            return None;
        }
        if matches!(fc, FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch)
            && insn.op0_kind() == OpKind::NearBranch64
        {
            let t = insn.near_branch_target();
            if t > insn.ip() && t < target + 0x4000 {
                reach = reach.max(t);
            }
        }
        let end = matches!(fc, FlowControl::Return | FlowControl::UnconditionalBranch) && insn.next_ip() > reach;
        code.push(Decoded { address: insn.ip(), text: crate::provenance::format_insn(&insn), insn });
        if end {
            break;
        }
    }
    let at: HashMap<u64, usize> = code.iter().enumerate().map(|(k, d)| (d.address, k)).collect();
    // Depth-first over simple paths.
    let mut paths = 0usize;
    let mut stack: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new())];
    while let Some((k, mut path)) = stack.pop() {
        if k >= code.len() || path.contains(&k) {
            continue;
        }
        path.push(k);
        let d = &code[k];
        let fc = d.insn.flow_control();
        if fc == FlowControl::Return {
            paths += 1;
            if paths > 256 {
                return None;
            }
            let seq: Vec<&Decoded> = path.iter().map(|&j| &code[j]).collect();
            if let Some(e) = crate::provenance::callee_effect_path(&seq, reg) {
                return Some(e);
            }
            continue;
        }
        let branch = (matches!(fc, FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch)
            && d.insn.op0_kind() == OpKind::NearBranch64)
            .then(|| d.insn.near_branch_target());
        match (fc, branch) {
            (FlowControl::UnconditionalBranch, Some(t)) => {
                // A jump out of the function (a tail call) ends the path without a return.
                if let Some(&j) = at.get(&t) {
                    stack.push((j, path));
                }
            }
            (FlowControl::ConditionalBranch, Some(t)) => {
                if let Some(&j) = at.get(&t) {
                    stack.push((j, path.clone()));
                }
                stack.push((k + 1, path));
            }
            (FlowControl::Exception | FlowControl::Interrupt, _) if d.insn.code() == Code::Ud2 => {}
            _ => stack.push((k + 1, path)),
        }
    }
    None
}

/// The one instruction at `addr` of the process code.
pub fn decode_one(trace: &Trace, addr: u64) -> Option<Decoded> {
    let mut buf = [0u8; 15];
    let n = trace.memory.as_ref()?.0.read(addr, &mut buf);
    let mut dec = Decoder::with_ip(64, &buf[..n], addr, DecoderOptions::NONE);
    let insn = dec.decode();
    (!insn.is_invalid()).then(|| Decoded { address: addr, text: crate::provenance::format_insn(&insn), insn })
}

/// The immediate a `mov $imm,%reg` writes (64-bit, or 32-bit zero-extended).
pub fn immediate_written(d: &Decoded, reg: Register) -> Option<u64> {
    let i = &d.insn;
    if i.op_count() != 2 || i.op0_kind() != OpKind::Register || i.op0_register().full_register() != reg {
        return None;
    }
    match i.code() {
        Code::Mov_r64_imm64 => Some(i.immediate64()),
        Code::Mov_rm64_imm32 => Some(i.immediate32to64() as u64),
        Code::Mov_r32_imm32 | Code::Mov_rm32_imm32 => Some(i.immediate32() as u64),
        _ => None,
    }
}

/// What a call between a slot's store and its reload was given: a pointer into the frame as
/// its first argument (`lea disp(%rbp|%rsp),%rdi`, the last write of rdi before the call on a
/// straight path), and the other argument registers' immediates (`mov $n,%edx`).
pub struct FrameArgCall {
    pub call: usize,
    /// rdi's frame slot (relative to the same base register as the reloaded slot).
    pub dest: Slot,
    pub dest_insn: usize,
    /// esi and rdx when an immediate set them (memset's fill byte and length, memcpy's length).
    pub rsi: Option<u64>,
    pub rdx: Option<u64>,
}

/// The calls in `calls` whose first argument is a frame address below `slot` on the same
/// base register, with what set their arguments.
pub fn frame_arg_calls(f: &Flow, calls: &[usize], slot: Slot) -> Vec<FrameArgCall> {
    let mut out = Vec::new();
    for &c in calls {
        let arg = |reg: Register| -> Option<usize> { unique_writer(f, c, reg).filter(|&w| w + 8 >= c) };
        let Some(mut w) = arg(Register::RDI) else { continue };
        // `lea -0x20(%rbp),%rax; mov %rax,%rdi` (-O0): follow the copy.
        let i = &f.code[w].insn;
        if matches!(i.code(), Code::Mov_r64_rm64 | Code::Mov_rm64_r64)
            && i.op0_kind() == OpKind::Register
            && i.op1_kind() == OpKind::Register
        {
            let Some(w2) = unique_writer(f, w, i.op1_register().full_register()).filter(|&k| k + 8 >= w) else {
                continue;
            };
            w = w2;
        }
        let i = &f.code[w].insn;
        if i.code() != Code::Lea_r64_m || i.memory_base() != slot.base || i.memory_index() != Register::None {
            continue;
        }
        let dest = Slot { base: slot.base, disp: i.memory_displacement64() as i64 };
        if dest.disp > slot.disp {
            continue;
        }
        let rsi = arg(Register::RSI).and_then(|k| immediate_written(&f.code[k], Register::RSI));
        let rdx = arg(Register::RDX).and_then(|k| immediate_written(&f.code[k], Register::RDX));
        out.push(FrameArgCall { call: c, dest, dest_insn: w, rsi, rdx });
    }
    out
}

/// `name+0x1c` for an address of the flow's function.
pub fn label(name: &str, f: &Flow, a: u64) -> String {
    crate::provenance_text::label(name, Some(f.start), a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow_of(bytes: &[u8], base: u64) -> Flow {
        let mut dec = Decoder::with_ip(64, bytes, base, DecoderOptions::NONE);
        let mut code = Vec::new();
        while dec.can_decode() {
            let insn = dec.decode();
            code.push(Decoded { address: insn.ip(), text: crate::provenance::format_insn(&insn), insn });
        }
        let at: HashMap<u64, usize> = code.iter().enumerate().map(|(k, d)| (d.address, k)).collect();
        let mut preds = vec![Vec::new(); code.len()];
        for (k, d) in code.iter().enumerate() {
            let fc = d.insn.flow_control();
            if matches!(fc, FlowControl::Next | FlowControl::Call | FlowControl::ConditionalBranch)
                && k + 1 < code.len()
            {
                preds[k + 1].push(k);
            }
            if matches!(fc, FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch)
                && let Some(&t) = at.get(&d.insn.near_branch_target())
            {
                preds[t].push(k);
            }
        }
        Flow { start: base, code, preds, at }
    }

    /// The shape of julia__read_mb_12721: r13 set, `call memset`, `jmp` over another writer
    /// of r13, spilled to [rbp-0xa0], reloaded. The walk follows the jump: the store's value
    /// came through the call, not from the writer the jump skips.
    #[test]
    fn slot_origin_follows_the_jump_to_the_call() {
        // 0: mov %rax,%r13           49 89 c5
        // 3: call +0 (to 8)          e8 00 00 00 00
        // 8: jmp 0x10                eb 06
        // a: mov (%r12),%r13 ; nop.. 4d 8b 2c 24 ; 90 90
        // 10: mov %r13,-0xa0(%rbp)   4c 89 ad 60 ff ff ff
        // 17: mov -0xa0(%rbp),%r13   4c 8b ad 60 ff ff ff
        // 1e: mov -0x8(%r13),%rcx    49 8b 4d f8
        let bytes = [
            0x49, 0x89, 0xc5, 0xe8, 0x00, 0x00, 0x00, 0x00, 0xeb, 0x06, 0x4d, 0x8b, 0x2c, 0x24, 0x90, 0x90, 0x4c, 0x89,
            0xad, 0x60, 0xff, 0xff, 0xff, 0x4c, 0x8b, 0xad, 0x60, 0xff, 0xff, 0xff, 0x49, 0x8b, 0x4d, 0xf8,
        ];
        let f = flow_of(&bytes, 0x1000);
        let load = f.index(0x1017).unwrap();
        let o = slot_origin(&f, load, Register::R13).unwrap();
        assert_eq!(f.code[o.store].address, 0x1010);
        assert_eq!(o.slot, Slot { base: Register::RBP, disp: -0xa0 });
        assert_eq!(o.slot.text(), "-0xa0(%rbp)");
        assert_eq!(o.stored, Some(Register::R13));
        assert!(o.calls_between.is_empty());
        let calls = calls_before(&f, o.store, Register::R13);
        assert_eq!(calls.len(), 1);
        assert_eq!(f.code[calls[0].0].address, 0x1003);
        // Only the path through the jump passes the call: the writer at 0xa falls through.
        assert!(!calls[0].1);
        // Without that other writer (a nop there instead), every path passes the call.
        let mut b2 = bytes;
        b2[10..14].copy_from_slice(&[0x90, 0x90, 0x90, 0x90]);
        let f2 = flow_of(&b2, 0x1000);
        let o2 = slot_origin(&f2, f2.index(0x1017).unwrap(), Register::R13).unwrap();
        let c2 = calls_before(&f2, o2.store, Register::R13);
        assert_eq!(c2.len(), 1);
        assert!(c2[0].1);
    }

    #[test]
    fn a_store_between_breaks_nothing_and_a_moved_base_gives_up() {
        // 0: mov %rbx,0x8(%rsp) ; 5: sub $0x10,%rsp ; 9: mov 0x8(%rsp),%rbx
        let bytes = [0x48, 0x89, 0x5c, 0x24, 0x08, 0x48, 0x83, 0xec, 0x10, 0x48, 0x8b, 0x5c, 0x24, 0x08];
        let f = flow_of(&bytes, 0x2000);
        assert!(slot_origin(&f, f.index(0x2009).unwrap(), Register::RBX).is_none());
        // Without the sub: the store is found.
        let bytes = [0x48, 0x89, 0x5c, 0x24, 0x08, 0x48, 0x8b, 0x5c, 0x24, 0x08];
        let f = flow_of(&bytes, 0x2000);
        let o = slot_origin(&f, f.index(0x2005).unwrap(), Register::RBX).unwrap();
        assert_eq!(o.store, 0);
        assert_eq!(o.slot.text(), "0x8(%rsp)");
    }
}
