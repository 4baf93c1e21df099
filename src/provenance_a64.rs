//! Register provenance from the machine code for AArch64: the A64 counterpart of
//! [`crate::provenance`] (x86-64, iced-x86), with the same answers ([`Origin`],
//! [`CalleeEffect`]) so the rules word them the same way.
//!
//! The walk out through the frames is [`crate::provenance::register_origin`] with the [`A64`]
//! decoder.
//!
//! A64 instructions are decoded with `yaxpeax-arm` (pure Rust, no C library, fuzzed against
//! the ARM architecture reference; 0BSD). Each instruction is one 4-byte little-endian word,
//! so a function's code from its symbol's start to the pc decodes without any guessing of
//! instruction boundaries. What counts as a write of `xN`:
//! - any instruction whose destination is `xN` or `wN` (a 32-bit write zero-extends into the
//!   whole x register), including the aliases (`mov` = `orr`/`add`, `cmp` writes nothing:
//!   its destination is the zero register);
//! - both destinations of `ldp`/`ldpsw`/`ldnp`/`ldxp`/`ldaxp`;
//! - the status register of `stxr`/`stlxr`/`stxp`; `Rt` of the atomics (`ldadd`, `swp`, …);
//!   `Rs` of `cas`, both of `casp`;
//! - the base register of a pre-/post-indexed access with writeback (`[x1, #8]!`, `[x1], #8`);
//! - `bl`/`blr` write x30 (the link register), and so do the pointer-authentication hints
//!   that sign or strip it (`paciasp`, `autiasp`, `xpaclri`, …; the `…1716` forms write x17);
//!   `svc` writes x0.
//!
//! A callee's prologue and epilogue are followed for the register's save slot: `stp`/`str`
//! (and `stur`) of the register through sp (or through x29 once `mov x29, sp` set it), the
//! stack pointer's moves (`stp …, [sp, #-n]!`, `sub sp, sp, #n`, `ldp …, [sp], #n`), and the
//! matching `ldp`/`ldr` that restores it.

use crate::model::*;
use crate::provenance::{CalleeEffect, Isa};
use yaxpeax_arch::{Decoder, U8Reader};
use yaxpeax_arm::armv8::a64::{InstDecoder, Instruction, Opcode, Operand, SizeCode};

/// Register number of the stack pointer in the sets below (x0–x30 are 0–30).
pub const SP: u16 = 31;

/// One decoded instruction: address, text (yaxpeax's syntax, branch targets as absolute
/// addresses), the decoded form.
pub type Decoded = crate::provenance::Decoded<Instruction>;

/// The AArch64 decoder (yaxpeax-arm) for the walks of [`crate::provenance`].
pub struct A64;

impl Isa for A64 {
    type Insn = Instruction;
    /// x0–x30, sp as [`SP`].
    type Reg = u16;
    const PC: &'static str = "pc";
    fn gpr(name: &str) -> Option<u16> {
        gpr(name)
    }
    fn decode_range(trace: &Trace, start: u64, end: u64) -> Option<Vec<Decoded>> {
        decode_range(trace, start, end)
    }
    fn writes(&mut self, insn: &Instruction, reg: u16) -> bool {
        writes(insn, reg)
    }
}

/// Absolute address of a pc-relative operand (`adrp` is relative to the pc's 4 KiB page).
fn pc_target(insn: &Instruction, address: u64) -> Option<u64> {
    insn.operands.iter().find_map(|o| match o {
        Operand::PCOffset(off) => {
            let base = if insn.opcode == Opcode::ADRP { address & !0xfff } else { address };
            Some(base.wrapping_add(*off as u64))
        }
        _ => None,
    })
}

fn format(insn: &Instruction, address: u64) -> String {
    let mut s = insn.to_string();
    // yaxpeax prints pc-relative operands as `$+0x1c`; gdb and objdump print the address.
    if let (Some(t), Some(i)) = (pc_target(insn, address), s.find('$')) {
        let end = s[i + 1..].find([',', ' ']).map(|e| i + 1 + e).unwrap_or(s.len());
        s.replace_range(i..end, &format!("{t:#x}"));
    }
    s
}

/// Decodes one 4-byte word at `address`; `None` for an unallocated encoding.
pub fn decode_word(word: [u8; 4], address: u64) -> Option<Decoded> {
    let mut r = U8Reader::new(&word);
    let insn = InstDecoder::default().decode(&mut r).ok()?;
    if insn.opcode == Opcode::Invalid {
        return None;
    }
    Some(Decoded { address, text: format(&insn, address), insn })
}

/// Decodes `[start, end)` from the trace's process memory: every word must decode.
pub fn decode_range(trace: &Trace, start: u64, end: u64) -> Option<Vec<Decoded>> {
    let mem = trace.memory.as_ref()?;
    let len = end.checked_sub(start).filter(|l| *l > 0 && *l <= 64 << 10 && l.is_multiple_of(4))? as usize;
    if !start.is_multiple_of(4) {
        return None;
    }
    let mut buf = vec![0u8; len];
    if mem.0.read(start, &mut buf) != len {
        return None;
    }
    decode_bytes(&buf, start)
}

/// Decodes A64 code at `start` (all of `bytes`, a multiple of 4).
pub fn decode_bytes(bytes: &[u8], start: u64) -> Option<Vec<Decoded>> {
    bytes
        .chunks_exact(4)
        .enumerate()
        .map(|(k, w)| decode_word([w[0], w[1], w[2], w[3]], start.wrapping_add(4 * k as u64)))
        .collect()
}

/// Decodes a function from `start` to its first `ret` (at most `max` instructions).
pub fn decode_function(trace: &Trace, start: u64, max: usize) -> Option<Vec<Decoded>> {
    let mem = trace.memory.as_ref()?;
    if !start.is_multiple_of(4) {
        return None;
    }
    let mut buf = vec![0u8; max * 4];
    let n = mem.0.read(start, &mut buf) / 4 * 4;
    // Where the function ends, when its CFI says (see the x86-64 `decode_function`).
    let end = mem.0.function_range(start).filter(|&(s, _)| s == start).map(|(_, e)| e);
    let mut out = Vec::new();
    for (k, w) in buf[..n].chunks_exact(4).enumerate() {
        let at = start + 4 * k as u64;
        if end.is_some_and(|e| at >= e) {
            return (!out.is_empty()).then_some(out);
        }
        let d = decode_word([w[0], w[1], w[2], w[3]], at)?;
        let ret = d.insn.opcode == Opcode::RET;
        out.push(d);
        if ret {
            return Some(out);
        }
    }
    None
}

/// [`crate::provenance::straight_unwritten`] for AArch64: from the entry to pc no branch but
/// calls (`bl`, `blr`: the callee returns to the next instruction) and no write of `reg`.
pub fn straight_unwritten(code: &[Decoded], reg: &str) -> bool {
    let Some(r) = gpr(reg) else { return false };
    code.iter().all(|d| {
        let jump = crate::insn::A64Text::parse(&d.text).is_none_or(|a| a.is_jump());
        !jump && !writes(&d.insn, r)
    })
}

/// The register number for a gdb register name: `x0`–`x30`, `w0`–`w30` (the same register),
/// `fp` (x29), `lr` (x30), `sp`.
pub fn gpr(name: &str) -> Option<u16> {
    match name {
        "fp" => return Some(29),
        "lr" => return Some(30),
        "sp" => return Some(SP),
        _ => {}
    }
    let n: u16 = name.strip_prefix('x').or_else(|| name.strip_prefix('w'))?.parse().ok()?;
    (n <= 30 && !name[1..].starts_with('0') || name[1..] == *"0").then_some(n)
}

/// The gdb name of register `n`.
pub fn name(n: u16) -> String {
    if n == SP { "sp".to_string() } else { format!("x{n}") }
}

/// A general-purpose register operand: its number (sp as [`SP`]), `None` for the zero
/// register and everything else.
fn gpr_of(o: &Operand) -> Option<u16> {
    match *o {
        Operand::Register(_, r) | Operand::RegShift(_, _, _, r) => (r != 31).then_some(r),
        Operand::RegisterOrSP(_, r) => Some(r),
        Operand::RegisterPair(_, r) => Some(r),
        _ => None,
    }
}

fn is_store(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        STR | STRB
            | STRH
            | STRW
            | STUR
            | STURB
            | STURH
            | STP
            | STNP
            | STLR
            | STLLR
            | STLRB
            | STLLRB
            | STLRH
            | STLLRH
            | STTR
            | STTRB
            | STTRH
            | STLUR
            | STLURB
            | STLURH
            | STG
            | STZG
            | ST2G
            | STZ2G
            | STGM
            | STZGM
    )
}

/// Opcodes whose operand 0 is read, not written (or that write no general register).
fn no_destination(op: Opcode) -> bool {
    use Opcode::*;
    is_store(op)
        || matches!(
            op,
            B | BR
                | RET
                | Bcc(_)
                | CBZ
                | CBNZ
                | TBZ
                | TBNZ
                | HVC
                | SMC
                | BRK
                | HLT
                | ERET
                | DRPS
                | MSR
                | SYS(_)
                | HINT
                | ISB
                | DSB(_)
                | DMB(_)
                | SB
                | CLREX
                | CCMN
                | CCMP
                | FCMP
                | FCMPE
                | FCCMP
                | FCCMPE
                | PRFM
                | PRFUM
                | UDF
                | DCPS1
                | DCPS2
                | DCPS3
                | SETF8
                | SETF16
                | RMIF
        )
}

/// Every general-purpose register `insn` writes (sp as [`SP`]).
pub fn written(insn: &Instruction) -> Vec<u16> {
    use Opcode::*;
    let ops = &insn.operands;
    let mut out = Vec::new();
    match insn.opcode {
        BL | BLR => out.push(30),
        SVC => out.push(0),
        // Pointer authentication of the link register (hints without operands).
        PACIASP | PACIAZ | PACIBSP | PACIBZ | AUTIASP | AUTIAZ | AUTIBSP | AUTIBZ | XPACLRI | PACIASPPC | PACIBSPPC
        | PACNBIASPPC | PACNBIBSPPC | AUTIASPPC | AUTIBSPPC | AUTIASPPCR | AUTIBSPPCR => out.push(30),
        PACIA1716 | PACIB1716 | AUTIA1716 | AUTIB1716 => out.push(17),
        LDP | LDPSW | LDNP | LDXP | LDAXP => out.extend(gpr_of(&ops[0]).into_iter().chain(gpr_of(&ops[1]))),
        // Status register of the exclusive stores.
        STXR | STLXR | STXRB | STXRH | STLXRB | STLXRH | STXP | STLXP => out.extend(gpr_of(&ops[0])),
        // (Rs, Rt, [Rn]): Rt receives the old value.
        SWP(_) | SWPB(_) | SWPH(_) | LDADD(_) | LDADDB(_) | LDADDH(_) | LDCLR(_) | LDCLRB(_) | LDCLRH(_) | LDEOR(_)
        | LDEORB(_) | LDEORH(_) | LDSET(_) | LDSETB(_) | LDSETH(_) | LDSMAX(_) | LDSMAXB(_) | LDSMAXH(_)
        | LDSMIN(_) | LDSMINB(_) | LDSMINH(_) | LDUMAX(_) | LDUMAXB(_) | LDUMAXH(_) | LDUMIN(_) | LDUMINB(_)
        | LDUMINH(_) => out.extend(gpr_of(&ops[1])),
        CAS(_) | CASB(_) | CASH(_) => out.extend(gpr_of(&ops[0])),
        CASP(_) => {
            if let Some(r) = gpr_of(&ops[0]) {
                out.extend([r, r + 1]);
            }
        }
        op if no_destination(op) => {}
        _ => out.extend(gpr_of(&ops[0])),
    }
    // Writeback of a base register.
    for o in ops {
        match *o {
            Operand::RegPreIndex(b, _, true) | Operand::RegPostIndex(b, _) | Operand::RegPostIndexReg(b, _) => {
                out.push(b)
            }
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether `insn` writes (any part of) x`reg`.
pub fn writes(insn: &Instruction, reg: u16) -> bool {
    written(insn).contains(&reg)
}

/// A call: `bl` (with its target) or `blr` (target unknown).
pub fn call_target(d: &Decoded) -> Option<Option<u64>> {
    match d.insn.opcode {
        Opcode::BL => Some(pc_target(&d.insn, d.address)),
        Opcode::BLR => Some(None),
        _ => None,
    }
}

/// [`crate::provenance::disassemble_at_pc`] for AArch64: six A64 words from pc, decoded with yaxpeax-arm
/// ([`crate::provenance_a64`]); an undecodable word ends the listing.
pub fn disassemble_at_pc_a64(mem: &dyn MemorySource, stop: &Stop) -> Vec<crate::model::Instruction> {
    let Some(th) = stop.crashed_thread() else { return Vec::new() };
    let Some(pc) = th.registers.get(&0).and_then(|r| r.get("pc")) else { return Vec::new() };
    let mut buf = [0u8; 24];
    let n = mem.read(pc, &mut buf) / 4 * 4;
    let mut out = Vec::new();
    for (k, w) in buf[..n].chunks_exact(4).enumerate() {
        let a = pc.wrapping_add(4 * k as u64);
        let Some(d) = decode_word([w[0], w[1], w[2], w[3]], a) else { break };
        out.push(crate::model::Instruction {
            address: Address(a),
            thread: Some(th.id.as_ref().into()),
            frame: 0,
            location: None,
            text: d.text.into(),
            bytes: None,
            current: out.is_empty(),
            span: Span::default(),
        });
    }
    out
}

/// The targets of the `bl` instructions in `[start, end)` of the process code (at most
/// 16 KiB of code is read).
pub fn call_targets(mem: &TraceMemory, start: u64, end: u64) -> Vec<u64> {
    let Some(len) = end.checked_sub(start).filter(|l| *l > 0 && *l <= 16 << 10 && start.is_multiple_of(4)) else {
        return Vec::new();
    };
    let mut buf = vec![0u8; len as usize];
    let n = mem.0.read(start, &mut buf) / 4 * 4;
    let mut out: Vec<u64> = buf[..n]
        .chunks_exact(4)
        .enumerate()
        .filter_map(|(k, w)| {
            let d = decode_word([w[0], w[1], w[2], w[3]], start + 4 * k as u64)?;
            call_target(&d).flatten()
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The memory operand of a load/store: base register, offset before the access, and the
/// base's change after it (writeback).
fn mem_operand(insn: &Instruction) -> Option<(u16, i64, i64)> {
    insn.operands.iter().find_map(|o| match *o {
        Operand::RegPreIndex(b, off, wb) => Some((b, off as i64, if wb { off as i64 } else { 0 })),
        Operand::RegPostIndex(b, off) => Some((b, 0, off as i64)),
        _ => None,
    })
}

/// Size in bytes of a register operand as stored.
fn reg_size(o: &Operand) -> i64 {
    match o {
        Operand::Register(SizeCode::W, _) | Operand::RegisterOrSP(SizeCode::W, _) => 4,
        Operand::SIMDRegister(s, _) => match s {
            yaxpeax_arm::armv8::a64::SIMDSizeCode::B => 1,
            yaxpeax_arm::armv8::a64::SIMDSizeCode::H => 2,
            yaxpeax_arm::armv8::a64::SIMDSizeCode::S => 4,
            yaxpeax_arm::armv8::a64::SIMDSizeCode::D => 8,
            yaxpeax_arm::armv8::a64::SIMDSizeCode::Q => 16,
        },
        _ => 8,
    }
}

/// The bytes a store writes relative to its base (after any pre-index) as (offset, len), and
/// the registers stored with the offset of each.
fn store_extent(insn: &Instruction, off: i64) -> (i64, i64, Vec<(u16, i64)>) {
    use Opcode::*;
    let ops = &insn.operands;
    let width = |o: &Operand| match insn.opcode {
        STRB | STURB | STLRB | STLLRB | STTRB | STLURB => 1,
        STRH | STURH | STLRH | STLLRH | STTRH | STLURH => 2,
        _ => reg_size(o),
    };
    match insn.opcode {
        STP | STNP => {
            let w = width(&ops[0]);
            let regs = [(gpr_of(&ops[0]), off), (gpr_of(&ops[1]), off + w)];
            (off, 2 * w, regs.into_iter().filter_map(|(r, o)| r.map(|r| (r, o))).collect())
        }
        _ => {
            let w = width(&ops[0]);
            (off, w, gpr_of(&ops[0]).map(|r| vec![(r, off)]).unwrap_or_default())
        }
    }
}

/// The registers a load from the stack fills, each with its offset from the base.
fn load_slots(insn: &Instruction, off: i64) -> Vec<(u16, i64)> {
    use Opcode::*;
    let ops = &insn.operands;
    match insn.opcode {
        LDP | LDNP => {
            let w = reg_size(&ops[0]);
            [(gpr_of(&ops[0]), off), (gpr_of(&ops[1]), off + w)]
                .into_iter()
                .filter_map(|(r, o)| r.map(|r| (r, o)))
                .collect()
        }
        LDR | LDUR => gpr_of(&ops[0]).map(|r| vec![(r, off)]).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// An immediate operand's value (`#n`, `#n, lsl #12`).
fn imm(o: &Operand) -> Option<i64> {
    match *o {
        Operand::Immediate(n) => Some(n as i64),
        Operand::ImmShift(n, s) => Some((n as i64) << s),
        _ => None,
    }
}

/// Walks a function's straight-line code (entry to first `ret`) for what it does to x`reg`:
/// the stack pointer's offset from the entry sp is followed through the prologue, so a save
/// (`stp`/`str` of the register to sp or x29) and its restore (`ldp`/`ldr` from the same
/// slot) pair up; a write while the register is not saved is a clobber, a store onto the
/// save slot (other than the save) an overwritten save.
pub fn callee_effect(code: &[Decoded], reg: u16) -> Option<CalleeEffect> {
    // sp - entry sp, and x29 - entry sp once `mov x29, sp` / `add x29, sp, #n` set it.
    let mut sp: i64 = 0;
    let mut fp: Option<i64> = None;
    // The save slot (offset from the entry sp), with the saving instruction.
    let mut slot: Option<(i64, u64, String)> = None;
    // The first write of the register while its save is live.
    let mut written: Option<(u64, String)> = None;
    for d in code {
        let i = &d.insn;
        let base_off = |b: u16| match b {
            SP => Some(sp),
            29 => fp,
            _ => None,
        };
        // sp moves by immediates.
        if matches!(i.opcode, Opcode::ADD | Opcode::SUB)
            && let (Some(dst), Some(src), Some(n)) =
                (gpr_of(&i.operands[0]), gpr_of(&i.operands[1]), imm(&i.operands[2]))
        {
            let n = if i.opcode == Opcode::SUB { -n } else { n };
            if src == SP && dst == SP {
                sp += n;
                continue;
            }
            if src == SP && dst == 29 {
                fp = Some(sp + n);
                if reg == 29 && slot.is_none() {
                    return Some(CalleeEffect::Clobbers(d.address, d.text.clone()));
                }
                continue;
            }
        }
        if let Some((b, off, wb)) = mem_operand(i)
            && let Some(bo) = base_off(b)
        {
            let at = bo + off;
            if is_store(i.opcode) {
                let (lo, len, regs) = store_extent(i, at);
                if slot.is_none()
                    && let Some((_, o)) = regs.iter().find(|(r, _)| *r == reg)
                {
                    slot = Some((*o, d.address, d.text.clone()));
                } else if let Some((s, sa, st)) = &slot
                    && *s < lo + len
                    && lo < *s + 8
                    && !regs.iter().any(|(r, o)| *r == reg && o == s)
                {
                    return Some(CalleeEffect::OverwritesSaveSlot {
                        push: (*sa, st.clone()),
                        store: (d.address, d.text.clone()),
                    });
                }
            } else {
                let loads = load_slots(i, at);
                if let Some((_, o)) = loads.iter().find(|(r, _)| *r == reg)
                    && slot.as_ref().is_some_and(|(s, _, _)| s == o)
                {
                    // The restore: from here the register is the caller's again.
                    slot = None;
                    written = None;
                    if b == SP {
                        sp += wb;
                    }
                    continue;
                }
            }
            if b == SP {
                sp += wb;
            }
        }
        if slot.is_none() && reg != SP && writes(i, reg) && !matches!(i.opcode, Opcode::BL | Opcode::BLR) {
            return Some(CalleeEffect::Clobbers(d.address, d.text.clone()));
        }
        if slot.is_some()
            && written.is_none()
            && reg != SP
            && writes(i, reg)
            && !matches!(i.opcode, Opcode::BL | Opcode::BLR)
        {
            written = Some((d.address, d.text.clone()));
        }
    }
    // Saved, written, and returned without the restore (the saved copy dropped with sp).
    if let (Some((_, sa, st)), Some(w)) = (&slot, written)
        && code.last().is_some_and(|d| d.insn.opcode == Opcode::RET)
    {
        return Some(CalleeEffect::NotRestored { save: (*sa, st.clone()), write: w });
    }
    None
}

/// DWARF register number of x`reg` (AArch64: x0–x30 are 0–30, sp 31).
pub fn dwarf_number(reg: u16) -> Option<u16> {
    (reg <= 31).then_some(reg)
}

/// Whether the callee's CFI records a save of x`reg` anywhere between its entry and
/// `upto` (inclusive). `None` when the trace has no CFI for the callee's code.
pub fn cfi_saves(trace: &Trace, callee: &[Decoded], reg: u16, upto: u64) -> Option<bool> {
    let mem = trace.memory.as_ref()?;
    let dw = dwarf_number(reg)?;
    // A row that names x30 (every AArch64 frame that calls saves the link register) shows
    // that CFI exists here at all.
    let mut any = false;
    for d in callee.iter().take_while(|d| d.address <= upto + 4) {
        if mem.0.cfi_saved_slot(d.address, dw).is_some() {
            return Some(true);
        }
        any |= mem.0.cfi_saved_slot(d.address, 30).is_some() || mem.0.cfi_saved_slot(d.address, 29).is_some();
    }
    any.then_some(false)
}

/// Callee-saved integrity through CFI, as [`crate::provenance::cfi_slot_changed`] for
/// x86-64: `caller` is frame #0's code from its start to the pc, `call` its last call
/// (already returned), `writer` the last instruction before the call that wrote `reg`,
/// `value` the register now and `sp` frame #0's stack pointer now. `read` reads a stack
/// word (core memory or `x/` dumps). AArch64 addresses above 2^48 (without a tag) and the
/// zero page are never mapped.
#[allow(clippy::too_many_arguments)]
pub fn cfi_slot_changed(
    trace: &Trace,
    caller: &[Decoded],
    call: &Decoded,
    writer: Option<&Decoded>,
    callee: &[Decoded],
    reg: u16,
    value: u64,
    sp: u64,
    read: &dyn Fn(u64) -> Option<u64>,
) -> Option<CalleeEffect> {
    let mem = trace.memory.as_ref()?;
    let dw = dwarf_number(reg)?;
    // The callee's CFA is the caller's sp at the call: sp must not move between the call
    // and the pc.
    if caller.iter().filter(|d| d.address > call.address).any(|d| writes(&d.insn, SP)) {
        return None;
    }
    // An access through reg between its last write and the call at an address that can
    // never be mapped with the value reg has now: reg held something else then.
    let from = writer.map(|w| w.address).unwrap_or(0);
    let prior = caller.iter().filter(|d| d.address > from && d.address < call.address).find(|d| {
        mem_operand(&d.insn).is_some_and(|(b, off, _)| {
            let a = value.wrapping_add(off as u64);
            b == reg && !(0x1000..1 << 48).contains(&a)
        })
    })?;
    let (k, (_, _, off)) =
        callee.iter().enumerate().find_map(|(k, d)| mem.0.cfi_saved_slot(d.address, dw).map(|r| (k, r)))?;
    let s = &callee[k.saturating_sub(1)];
    let slot = sp.checked_add_signed(off)?;
    (read(slot)? == value).then(|| CalleeEffect::SlotChangedByCfi {
        slot,
        cfa_offset: off,
        save: (s.address, s.text.clone()),
        prior: (prior.address, prior.text.clone()),
        via: None,
    })
}

/// The last instruction of `code` (straight-line, in address order) that writes x`reg`.
pub fn last_writer(code: &[Decoded], reg: u16) -> Option<&Decoded> {
    code.iter().rev().find(|d| writes(&d.insn, reg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(word: u32) -> Decoded {
        decode_word(word.to_le_bytes(), 0x400000).expect("decodes")
    }

    #[test]
    fn register_names() {
        assert_eq!(gpr("x20"), Some(20));
        assert_eq!(gpr("w20"), Some(20));
        assert_eq!(gpr("x0"), Some(0));
        assert_eq!(gpr("lr"), Some(30));
        assert_eq!(gpr("fp"), Some(29));
        assert_eq!(gpr("x31"), None);
        assert_eq!(gpr("x07"), None);
        assert_eq!(gpr("rax"), None);
        assert_eq!(gpr("x"), None);
    }

    #[test]
    fn writes_of_each_kind() {
        // mov x20, x1 (orr x20, xzr, x1)
        let d = one(0xaa0103f4);
        assert_eq!(d.text, "mov x20, x1");
        assert_eq!(written(&d.insn), vec![20]);
        // mov w20, w1: a w write zero-extends into x20
        assert_eq!(written(&one(0x2a0103f4).insn), vec![20]);
        // ldp x19, x20, [sp, #16]
        let d = one(0xa94153f3);
        assert_eq!(written(&d.insn), vec![19, 20]);
        // stp x19, x20, [sp, #16]: a store writes no register
        assert_eq!(written(&one(0xa90153f3).insn), Vec::<u16>::new());
        // stp x29, x30, [sp, #-32]!: writeback to sp
        assert_eq!(written(&one(0xa9be7bfd).insn), vec![SP]);
        // ldp x29, x30, [sp], #32
        assert_eq!(written(&one(0xa8c27bfd).insn), vec![29, 30, SP]);
        // bl: x30
        let d = one(0x94000010);
        assert_eq!(written(&d.insn), vec![30]);
        assert_eq!(d.text, "bl 0x400040");
        assert_eq!(call_target(&d), Some(Some(0x400040)));
        // blr x2
        assert_eq!(written(&one(0xd63f0040).insn), vec![30]);
        // cmp x0, #0 (subs xzr, x0, #0) writes no general register
        assert_eq!(written(&one(0xf100001f).insn), Vec::<u16>::new());
        // ldr x8, [x20, #16]
        let d = one(0xf9400a88);
        assert_eq!(written(&d.insn), vec![8]);
        // cbz x0, …; ret
        assert!(written(&one(0xb4000040).insn).is_empty());
        assert!(written(&one(0xd65f03c0).insn).is_empty());
        // mov x29, sp (add x29, sp, #0)
        assert_eq!(written(&one(0x910003fd).insn), vec![29]);
    }

    /// Machine code of the crash corpus's AArch64 binaries (`sample-traces/crashers/src/a64-*`,
    /// built by regenerate.sh with Debian's aarch64-linux-gnu-gcc 12), as objdump shows it.
    fn code(start: u64, words: &[u32]) -> Vec<Decoded> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode_bytes(&bytes, start).expect("every word decodes")
    }

    /// a64-x20-stale: `run_pass_manager` up to the return address of its `blr x21`.
    const RUN_PASS_MANAGER: [u32; 12] = [
        0xa9bd7bfd, 0x910003fd, 0xa90153f3, 0xf90013f5, 0xaa0003f3, 0xaa0103f4, 0xaa0203f5, 0xaa1403e0, 0x97ffff99,
        0xaa1303e0, 0xaa1403e1, 0xd63f02a0,
    ];
    /// a64-clobber-x19: `mix_bits`, which uses x19 without saving it.
    const MIX_BITS: [u32; 10] = [
        0xa9bf7bfd, 0x910003fd, 0xd28002f3, 0xca003400, 0xca401c00, 0xd1000673, 0xf100427f, 0x54ffff88, 0xa8c17bfd,
        0xd65f03c0,
    ];
    /// a64-cfi-slot: `scale_row`, which saves and restores x19/x20 with stp/ldp.
    const SCALE_ROW: [u32; 21] = [
        0xa9bc7bfd, 0x910003fd, 0xa90353f3, 0xaa0003f3, 0xaa0103f4, 0x910043e2, 0xd2800003, 0xf823785f, 0x91000463,
        0xf100107f, 0x54ffffad, 0xd2800000, 0xd2800003, 0xf8637a64, 0x8b040400, 0x91000463, 0xeb14007f, 0x54ffff8b,
        0xa94353f3, 0xa8c47bfd, 0xd65f03c0,
    ];
    /// a64-clobber-x19: `tally` up to the faulting pc (after `bl mix_bits`).
    const TALLY: [u32; 9] =
        [0xa9be7bfd, 0x910003fd, 0xf9000bf3, 0xaa0003f3, 0xaa0103e0, 0xf9400262, 0x91000442, 0xf9000262, 0x94000007];
    /// a64-x20-ok: the good trampoline, which loads pgcstack into x20 and restores the caller's.
    const JLCAPI_GOOD: [u32; 11] = [
        0xa9be7bfd, 0x910003fd, 0xa90153f3, 0xaa0003f3, 0x97ffff83, 0xaa0003f4, 0xaa1303e0, 0x94000004, 0xa94153f3,
        0xa8c27bfd, 0xd65f03c0,
    ];

    #[test]
    fn last_writer_of_x20_in_the_founding_caller() {
        let c = code(0x400878, &RUN_PASS_MANAGER);
        let w = last_writer(&c, 20).expect("x20 is written");
        assert_eq!((w.address, w.text.as_str()), (0x40088c, "mov x20, x1"));
        // x30: the last call (blr x21) writes the link register.
        let w = last_writer(&c, 30).expect("x30 is written");
        assert_eq!((w.address, w.text.as_str()), (0x4008a4, "blr x21"));
        // x21 was set from x2 before the call: mov x21, x2.
        assert_eq!(last_writer(&c, 21).map(|d| d.address), Some(0x400890));
        // x22 is never written.
        assert!(last_writer(&c, 22).is_none());
        // bl release_arena: its target.
        assert_eq!(call_target(&c[8]), Some(Some(0x4006fc)));
        assert_eq!(c[8].text, "bl 0x4006fc");
        assert_eq!(call_target(&c[11]), Some(None));
    }

    #[test]
    fn callee_effects_from_real_prologues() {
        // mix_bits writes x19 without a save: the first write is the clobber.
        match callee_effect(&code(0x40075c, &MIX_BITS), 19) {
            Some(CalleeEffect::Clobbers(a, t)) => assert_eq!((a, t.as_str()), (0x400764, "mov x19, #0x17")),
            _ => panic!("mix_bits clobbers x19"),
        }
        // It saves x29 (stp x29, x30, [sp, #-16]!) before `mov x29, sp` and restores it.
        assert!(callee_effect(&code(0x40075c, &MIX_BITS), 29).is_none());
        // scale_row saves x19/x20 with stp at sp+48 and restores them with ldp from there.
        let sr = code(0x400760, &SCALE_ROW);
        assert!(callee_effect(&sr, 19).is_none());
        assert!(callee_effect(&sr, 20).is_none());
        // The good trampoline saves x20 before loading pgcstack into it.
        assert!(callee_effect(&code(0x4008b8, &JLCAPI_GOOD), 20).is_none());
        // The same trampoline without its stp: x20 is then clobbered by `mov x20, x0`.
        let mut no_save = JLCAPI_GOOD;
        no_save[2] = 0xd503201f; // nop
        match callee_effect(&code(0x4008b8, &no_save), 20) {
            Some(CalleeEffect::Clobbers(a, t)) => assert_eq!((a, t.as_str()), (0x4008cc, "mov x20, x0")),
            _ => panic!("unsaved x20 is clobbered"),
        }
        // scale_row with its clear loop's store replaced by `str xzr, [sp, #48]`: that store
        // lands on the saved x19 (entry sp - 64 + 48).
        let mut over = SCALE_ROW;
        over[7] = 0xf9001bff;
        match callee_effect(&code(0x400760, &over), 19) {
            Some(CalleeEffect::OverwritesSaveSlot { push, store }) => {
                assert_eq!(push.0, 0x400768);
                assert_eq!((store.0, store.1.as_str()), (0x40077c, "str xzr, [sp, #0x30]"));
            }
            _ => panic!("the saved x19 is overwritten"),
        }
        // ... and x20's slot (sp+56) is untouched.
        assert!(callee_effect(&code(0x400760, &over), 20).is_none());
    }

    #[test]
    fn the_caller_side_of_a_returned_clobber() {
        let c = code(0x400720, &TALLY);
        let call = c.iter().rev().find(|d| call_target(d).is_some()).expect("a call");
        assert_eq!((call.address, call_target(call)), (0x400740, Some(Some(0x40075c))));
        let before: Vec<&Decoded> = c.iter().filter(|d| d.address < call.address).collect();
        let w = before.iter().rev().find(|d| writes(&d.insn, 19)).expect("x19 set before the call");
        assert_eq!((w.address, w.text.as_str()), (0x40072c, "mov x19, x0"));
        // The access through x19 between its write and the call.
        assert_eq!(mem_operand(&c[5].insn), Some((19, 0, 0)));
    }

    /// Decoding and formatting never panic, whatever the word (a damaged core or a wrong
    /// `--exe` gives arbitrary bytes): a million words spread over the whole encoding space,
    /// plus every word that differs from a real one in one bit.
    #[test]
    fn any_word_decodes_or_is_refused_without_panicking() {
        let mut decoded = 0usize;
        let mut check = |w: u32| {
            if let Some(d) = decode_word(w.to_le_bytes(), 0x400000) {
                decoded += 1;
                let _ = written(&d.insn);
                let _ = call_target(&d);
                assert!(!d.text.is_empty());
            }
        };
        for k in 0..1u32 << 20 {
            check(k.wrapping_mul(4093).wrapping_add(k >> 7));
        }
        for w in SCALE_ROW.iter().chain(&RUN_PASS_MANAGER).chain(&MIX_BITS) {
            for b in 0..32 {
                check(w ^ (1 << b));
            }
        }
        assert!(decoded > 1 << 18, "{decoded} of 2^20 words decoded");
    }
}
