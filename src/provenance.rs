//! Register provenance from the machine code (x86-64): which instruction last wrote a register
//! before the pc, and what a called function does to a callee-saved register.
//!
//! The code is decoded with iced-x86 from the process image a trace carries (a core with its
//! `--exe` and libraries); a transcript without process memory gives nothing here.
//!
//! The walk out through the frames ([`register_origin`], [`code_before`]) is one for every
//! architecture: it is generic over [`Isa`], a per-architecture decoder — [`X86`] here
//! (iced-x86), [`crate::provenance_a64::A64`] (yaxpeax-arm). The transcript-text walks of
//! [`crate::provenance_text`] have the same shape over `ShownIsa`.

use crate::model::*;
use iced_x86::{
    Code, Decoder, DecoderOptions, Formatter, GasFormatter, Instruction, InstructionInfoFactory, OpAccess, OpKind,
    Register,
};

/// One decoded instruction: address, text (as gdb prints it: AT&T on x86-64), the decoded
/// form (an iced-x86 instruction, or yaxpeax-arm's for [`crate::provenance_a64::Decoded`]).
pub struct Decoded<I = Instruction> {
    pub address: u64,
    pub text: String,
    pub insn: I,
}

/// One architecture's machine-code decoder, as the walks need it.
pub trait Isa {
    /// The decoded form of one instruction.
    type Insn;
    /// A general register.
    type Reg: Copy;
    /// gdb's name of the program counter (frame #0's pc when its frame line has no address,
    /// and the register whose `<sym+off>` gives the function's start).
    const PC: &'static str;
    /// The register for a gdb register name (general-purpose registers only).
    fn gpr(name: &str) -> Option<Self::Reg>;
    /// Decodes `[start, end)` from the trace's process memory; `None` unless every
    /// instruction decodes and the last one ends at `end`.
    fn decode_range(trace: &Trace, start: u64, end: u64) -> Option<Vec<Decoded<Self::Insn>>>;
    /// Whether `insn` writes (any part of) `reg`.
    fn writes(&mut self, insn: &Self::Insn, reg: Self::Reg) -> bool;
}

/// The x86-64 decoder (iced-x86).
pub struct X86 {
    info: InstructionInfoFactory,
}

impl Default for X86 {
    fn default() -> Self {
        X86 { info: InstructionInfoFactory::new() }
    }
}

impl Isa for X86 {
    type Insn = Instruction;
    type Reg = Register;
    const PC: &'static str = "rip";
    fn gpr(name: &str) -> Option<Register> {
        gpr(name)
    }
    fn decode_range(trace: &Trace, start: u64, end: u64) -> Option<Vec<Decoded>> {
        decode_range(trace, start, end)
    }
    fn writes(&mut self, insn: &Instruction, reg: Register) -> bool {
        writes(&mut self.info, insn, reg)
    }
}

/// One instruction as gdb prints it (AT&T).
pub fn format_insn(insn: &Instruction) -> String {
    format(insn)
}

fn format(insn: &Instruction) -> String {
    let mut fmt = GasFormatter::new();
    fmt.options_mut().set_first_operand_char_index(7);
    fmt.options_mut().set_small_hex_numbers_in_decimal(false);
    fmt.options_mut().set_uppercase_hex(false);
    fmt.options_mut().set_branch_leading_zeros(false);
    let mut s = String::new();
    fmt.format(insn, &mut s);
    s.trim_end().to_string()
}

/// The crashed thread's instructions from pc on, decoded from the process image (the binary
/// and libraries the core maps), in gdb's AT&T syntax: what `x/6i $pc` shows in a transcript.
/// The rules read the faulting instruction from it, so a core needs no transcript for that.
pub fn disassemble_at_pc(mem: &dyn MemorySource, stop: &Stop) -> Vec<crate::model::Instruction> {
    match crashed_pc(stop) {
        Some((pc, thread)) => disassemble_from(mem, pc, thread),
        None => Vec::new(),
    }
}

/// The crashed thread's pc in frame #0 and the thread's id: what [`disassemble_at_pc`]
/// decodes from.
pub fn crashed_pc(stop: &Stop) -> Option<(u64, &str)> {
    let th = stop.crashed_thread()?;
    let pc = th.registers.get(&0).and_then(|r| r.get("rip"))?;
    Some((pc, &th.id))
}

/// [`disassemble_at_pc`] from a known pc and thread id (a core decodes it on a helper thread
/// while its DWARF is inflated: the decoder's and formatter's tables cost about 6.5 M
/// instructions, built once per process; docs/performance.md, "3f").
pub fn disassemble_from(mem: &dyn MemorySource, pc: u64, thread: &str) -> Vec<crate::model::Instruction> {
    disassemble_from_bits(mem, pc, thread, 64)
}

/// [`disassemble_from`] in the given mode: 64 for x86-64, 32 for i386 code.
pub fn disassemble_from_bits(
    mem: &dyn MemorySource,
    pc: u64,
    thread: &str,
    bitness: u32,
) -> Vec<crate::model::Instruction> {
    use iced_x86::{Decoder, DecoderOptions, Formatter, GasFormatter};
    let mut buf = [0u8; 96];
    let n = mem.read(pc, &mut buf);
    if n == 0 {
        return Vec::new();
    }
    let mut dec = Decoder::with_ip(bitness, &buf[..n], pc, DecoderOptions::NONE);
    let mut fmt = GasFormatter::new();
    fmt.options_mut().set_first_operand_char_index(7);
    fmt.options_mut().set_small_hex_numbers_in_decimal(false);
    let mut out = Vec::new();
    let mut text = String::new();
    while dec.can_decode() && out.len() < 6 {
        let insn = dec.decode();
        if insn.is_invalid() {
            break;
        }
        text.clear();
        fmt.format(&insn, &mut text);
        out.push(crate::model::Instruction {
            address: Address(insn.ip()),
            thread: Some(thread.into()),
            frame: 0,
            location: None,
            text: text.trim_end().into(),
            bytes: None,
            current: out.is_empty(),
            span: Span::default(),
        });
    }
    out
}

/// The targets of the direct near calls in `[start, end)` of the process code (at most 16 KiB
/// of code is read; nothing when it does not decode cleanly up to `end`).
pub fn call_targets(mem: &crate::model::TraceMemory, start: u64, end: u64) -> Vec<u64> {
    let Some(len) = end.checked_sub(start).filter(|l| *l > 0 && *l <= 16 << 10) else { return Vec::new() };
    let mut buf = vec![0u8; len as usize];
    if mem.0.read(start, &mut buf) != buf.len() {
        return Vec::new();
    }
    let mut dec = Decoder::with_ip(64, &buf, start, DecoderOptions::NONE);
    let mut out = Vec::new();
    while dec.can_decode() {
        let insn = dec.decode();
        if insn.is_invalid() {
            return Vec::new();
        }
        if insn.is_call_near() && insn.op0_kind() == iced_x86::OpKind::NearBranch64 {
            out.push(insn.near_branch_target());
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Decodes `[start, end)` from the trace's process memory.
pub fn decode_range(trace: &Trace, start: u64, end: u64) -> Option<Vec<Decoded>> {
    let mem = trace.memory.as_ref()?;
    let len = end.checked_sub(start).filter(|l| *l > 0 && *l <= 64 << 10)? as usize;
    let mut buf = vec![0u8; len];
    if mem.0.read(start, &mut buf) != len {
        return None;
    }
    let mut dec = Decoder::with_ip(64, &buf, start, DecoderOptions::NONE);
    let mut out = Vec::new();
    while dec.can_decode() {
        let insn = dec.decode();
        if insn.is_invalid() {
            return None;
        }
        out.push(Decoded { address: insn.ip(), text: format(&insn), insn });
    }
    // The range must end on an instruction boundary (pc is an instruction start).
    (out.last().map(|d| d.insn.next_ip()) == Some(end)).then_some(out)
}

/// Decodes a function from `start` to its first `ret` (at most `max` instructions).
pub fn decode_function(trace: &Trace, start: u64, max: usize) -> Option<Vec<Decoded>> {
    let mem = trace.memory.as_ref()?;
    let mut buf = vec![0u8; max * 15];
    let n = mem.0.read(start, &mut buf);
    if n == 0 {
        return None;
    }
    // Where the function ends, when its CFI says: the straight-line walk must not run on into
    // the next function after a tail call (`jmp other_function`) or a call that does not return.
    let end = mem.0.function_range(start).filter(|&(s, _)| s == start).map(|(_, e)| e);
    let mut dec = Decoder::with_ip(64, &buf[..n], start, DecoderOptions::NONE);
    let mut out = Vec::new();
    while dec.can_decode() && out.len() < max {
        if end.is_some_and(|e| dec.ip() >= e) {
            return (!out.is_empty()).then_some(out);
        }
        let insn = dec.decode();
        if insn.is_invalid() {
            break;
        }
        let ret = matches!(insn.code(), Code::Retnq | Code::Retnq_imm16);
        // A direct unconditional jump out of the function: a tail call, after which this
        // function's own code ends.
        let tail = matches!(insn.code(), Code::Jmp_rel8_64 | Code::Jmp_rel32_64) && {
            let t = insn.near_branch_target();
            t < start || end.is_some_and(|e| t >= e)
        };
        out.push(Decoded { address: insn.ip(), text: format(&insn), insn });
        if ret || tail {
            return Some(out);
        }
    }
    None
}

/// The iced register for a gdb register name (64-bit general-purpose registers only).
pub fn gpr(name: &str) -> Option<Register> {
    Some(match name {
        "rax" => Register::RAX,
        "rbx" => Register::RBX,
        "rcx" => Register::RCX,
        "rdx" => Register::RDX,
        "rsi" => Register::RSI,
        "rdi" => Register::RDI,
        "rbp" => Register::RBP,
        "rsp" => Register::RSP,
        "r8" => Register::R8,
        "r9" => Register::R9,
        "r10" => Register::R10,
        "r11" => Register::R11,
        "r12" => Register::R12,
        "r13" => Register::R13,
        "r14" => Register::R14,
        "r15" => Register::R15,
        _ => return None,
    })
}

/// Whether `insn` writes (any part of) `reg`.
pub fn writes(info: &mut InstructionInfoFactory, insn: &Instruction, reg: Register) -> bool {
    let full = reg.full_register();
    info.info(insn).used_registers().iter().any(|u| {
        u.register().full_register() == full
            && matches!(
                u.access(),
                OpAccess::Write | OpAccess::CondWrite | OpAccess::ReadWrite | OpAccess::ReadCondWrite
            )
    })
}

/// Whether the function holding `pc`, from its CFI extent (FDE) in the process code, is a
/// leaf that never names `reg`: no call, no indirect jump, every direct branch inside it, and
/// no instruction that reads or writes any part of `reg`. Then the function neither takes the
/// register nor passes it on. `None` without process code, CFI or a clean decode.
pub fn leaf_without(trace: &Trace, pc: u64, reg: &str) -> Option<bool> {
    use iced_x86::FlowControl;
    let full = gpr(reg)?.full_register();
    let (start, end) = trace.memory.as_ref()?.0.function_range(pc)?;
    let code = decode_range(trace, start, end)?;
    let mut info = InstructionInfoFactory::new();
    for d in &code {
        let i = &d.insn;
        match i.flow_control() {
            FlowControl::Call | FlowControl::IndirectCall | FlowControl::IndirectBranch => return Some(false),
            FlowControl::UnconditionalBranch | FlowControl::ConditionalBranch => {
                let t = i.near_branch_target();
                if t < start || t >= end {
                    return Some(false);
                }
            }
            _ => {}
        }
        if info.info(i).used_registers().iter().any(|u| u.register().full_register() == full) {
            return Some(false);
        }
    }
    Some(true)
}

/// Whether the code of a function from its entry up to its pc (`code`, in address order) reads
/// `reg` and then writes it with something other than a `pop`: the function took the value
/// it was passed and reused the register, so at pc it holds the function's own value. Only
/// straight-line code counts (no branch before pc, so every instruction in `code` ran); a
/// `push` saves the register and is no read.
pub fn read_then_reassigned(code: &[Decoded], reg: &str) -> bool {
    use iced_x86::FlowControl;
    if code.iter().any(|d| {
        matches!(
            d.insn.flow_control(),
            FlowControl::UnconditionalBranch
                | FlowControl::ConditionalBranch
                | FlowControl::IndirectBranch
                | FlowControl::Return
        )
    }) {
        return false;
    }
    let Some(r) = gpr(reg) else { return false };
    let full = r.full_register();
    let mut info = InstructionInfoFactory::new();
    let mut read = false;
    for d in code {
        let i = &d.insn;
        let uses: Vec<OpAccess> = info
            .info(i)
            .used_registers()
            .iter()
            .filter(|u| u.register().full_register() == full)
            .map(|u| u.access())
            .collect();
        let reads = i.mnemonic() != iced_x86::Mnemonic::Push
            && uses.iter().any(|a| {
                matches!(a, OpAccess::Read | OpAccess::CondRead | OpAccess::ReadWrite | OpAccess::ReadCondWrite)
            });
        // `xor %r13d,%r13d` reads it only formally.
        let zeroing = matches!(i.mnemonic(), iced_x86::Mnemonic::Xor | iced_x86::Mnemonic::Sub)
            && i.op_count() == 2
            && i.op0_kind() == OpKind::Register
            && i.op1_kind() == OpKind::Register
            && i.op0_register() == i.op1_register();
        let writes_it = !uses.is_empty() && writes(&mut info, i, r);
        if reads && !zeroing && !read {
            read = true;
            continue;
        }
        if read && writes_it && i.mnemonic() != iced_x86::Mnemonic::Pop {
            return true;
        }
        if !read && writes_it {
            return false;
        }
    }
    false
}

/// Whether the code of a function from its entry up to its pc (`code`, in address order) is
/// straight-line (no branch or return before pc, so every instruction ran and no other path
/// leads to pc from the entry) and never writes `reg` (a `push` saves it and is no write): at
/// pc the register still holds the value the function was called with. An empty `code` (pc
/// at the entry) holds it trivially.
pub fn straight_unwritten(code: &[Decoded], reg: &str) -> bool {
    use iced_x86::FlowControl;
    let Some(r) = gpr(reg) else { return false };
    let mut info = InstructionInfoFactory::new();
    code.iter().all(|d| {
        let i = &d.insn;
        matches!(i.flow_control(), FlowControl::Next | FlowControl::Call | FlowControl::IndirectCall)
            && (i.mnemonic() == iced_x86::Mnemonic::Push || !writes(&mut info, i, r))
    })
}

/// What a called function does to a callee-saved register.
pub enum CalleeEffect {
    /// Writes it without saving it first.
    Clobbers(u64, String),
    /// Saves it (push, or mov to an rsp-based slot) but then stores over the save slot, so
    /// the restore brings back another value.
    OverwritesSaveSlot { push: (u64, String), store: (u64, String) },
    /// Found through the callee's CFI: it saves the register at `cfa_offset` from its CFA
    /// (the slot at `slot` in the dead frame below the caller's sp), and that slot now holds
    /// the register's current value, which an access through the register before the call
    /// (`prior`) shows it cannot have had then. `save`: the callee's instruction after which
    /// the CFI records the save.
    /// `via`: the register `prior` read through when it is not the register itself but a
    /// copy of it (the writer `mov %rdi,%rbx` leaves rdi equal to rbx until rdi changes).
    SlotChangedByCfi { slot: u64, cfa_offset: i64, save: (u64, String), prior: (u64, String), via: Option<String> },
    /// The same, with the save slot found in the callee's code as a transcript shows it
    /// (its `push`/`mov` to the frame) and the slot's word in the transcript's `x/` dumps.
    SlotChangedInShownCode {
        slot: u64,
        cfa_offset: i64,
        save: (u64, String),
        prior: (u64, String),
        via: Option<String>,
    },
    /// Saves it (`push`), writes it (`write`), and returns without restoring it: the saved
    /// copy is dropped (`add $8,%rsp`, a `pop` into another register) instead of popped back.
    NotRestored { save: (u64, String), write: (u64, String) },
}

/// DWARF register number of an x86-64 general-purpose register.
pub fn dwarf_number(reg: Register) -> Option<u16> {
    Some(match reg.full_register() {
        Register::RAX => 0,
        Register::RDX => 1,
        Register::RCX => 2,
        Register::RBX => 3,
        Register::RSI => 4,
        Register::RDI => 5,
        Register::RBP => 6,
        Register::RSP => 7,
        Register::R8 => 8,
        Register::R9 => 9,
        Register::R10 => 10,
        Register::R11 => 11,
        Register::R12 => 12,
        Register::R13 => 13,
        Register::R14 => 14,
        Register::R15 => 15,
        _ => return None,
    })
}

/// Callee-saved integrity through CFI (for a callee whose code shows no push/pop story):
/// `caller` is frame #0's code from its start to the pc, `call` its last call (already
/// returned), `writer` the last instruction before the call that wrote `reg`, `value` the
/// register now and `sp` frame #0's stack pointer now. `read` reads a stack word (core memory
/// or `x/` dumps).
#[allow(clippy::too_many_arguments)]
pub fn cfi_slot_changed(
    trace: &Trace,
    caller: &[Decoded],
    call: &Decoded,
    writer: Option<&Decoded>,
    callee: &[Decoded],
    reg: Register,
    value: u64,
    sp: u64,
    read: &dyn Fn(u64) -> Option<u64>,
) -> Option<CalleeEffect> {
    let mem = trace.memory.as_ref()?;
    let dw = dwarf_number(reg)?;
    // The callee's CFA is the caller's sp at the call; the caller must not have moved sp
    // between the call and the pc.
    let mut info = InstructionInfoFactory::new();
    if caller.iter().filter(|d| d.address > call.address).any(|d| writes(&mut info, &d.insn, Register::RSP)) {
        return None;
    }
    // An access through reg between its last write and the call, at an address that can
    // never be mapped with the value reg has now: reg held something else then.
    let from = writer.map(|w| w.address).unwrap_or(0);
    let full = reg.full_register();
    // The writer `mov %X,%reg` leaves X holding the same value until X is written again: an
    // access through X in that stretch proves the value just as well.
    let mut copy = writer
        .filter(|w| {
            matches!(w.insn.code(), Code::Mov_r64_rm64 | Code::Mov_rm64_r64)
                && w.insn.op0_kind() == OpKind::Register
                && w.insn.op1_kind() == OpKind::Register
                && w.insn.op0_register().full_register() == full
        })
        .map(|w| w.insn.op1_register().full_register())
        .filter(|x| *x != Register::RSP && *x != full);
    let mut via = None;
    let through = |i: &Instruction, b: Register| {
        (0..i.op_count()).any(|k| i.op_kind(k) == OpKind::Memory)
            && i.memory_base().full_register() == b
            && i.memory_index() == Register::None
            && {
                let a = value.wrapping_add(i.memory_displacement64());
                a < 0x1000 || (0x0000_8000_0000_0000..0xffff_8000_0000_0000).contains(&a)
            }
    };
    let prior = caller.iter().filter(|d| d.address > from && d.address < call.address).find(|d| {
        let i = &d.insn;
        if through(i, full) {
            return true;
        }
        if let Some(x) = copy {
            if through(i, x) {
                via = Some(format!("{x:?}").to_ascii_lowercase());
                return true;
            }
            if writes(&mut info, i, x) {
                copy = None;
            }
        }
        false
    })?;
    // The CFI row where the callee has saved reg (its first instruction with such a rule).
    // A row starts after the instruction it describes: the save is the one before it.
    let (k, (_, _, off)) =
        callee.iter().enumerate().find_map(|(k, d)| mem.0.cfi_saved_slot(d.address, dw).map(|r| (k, r)))?;
    // The push that made the save, when the CFI row comes later (clang records all of a
    // prologue's saves after its last stack adjustment).
    let s = callee[..k.max(1)]
        .iter()
        .rev()
        .find(|d| d.insn.code() == Code::Push_r64 && d.insn.op0_register().full_register() == full)
        .unwrap_or(&callee[k.saturating_sub(1)]);
    let save = (s.address, s.text.clone());
    let slot = sp.checked_add_signed(off)?;
    (read(slot)? == value).then(|| CalleeEffect::SlotChangedByCfi {
        slot,
        cfa_offset: off,
        save,
        prior: (prior.address, prior.text.clone()),
        via,
    })
}

/// Walks a function's straight-line code (entry to first `ret`) for what it does to `reg`.
pub fn callee_effect(code: &[Decoded], reg: Register) -> Option<CalleeEffect> {
    callee_effect_path(&code.iter().collect::<Vec<_>>(), reg)
}

/// [`callee_effect`] over one path through a function (its instructions in execution order).
pub fn callee_effect_path(code: &[&Decoded], reg: Register) -> Option<CalleeEffect> {
    let mut info = InstructionInfoFactory::new();
    let full = reg.full_register();
    // Stack depth below the entry sp, in bytes; the save slot's depth once pushed.
    let mut depth: i64 = 0;
    let mut slot: Option<(i64, u64, String)> = None;
    // The first write of the register after its save, while the save is live.
    let mut written: Option<(u64, String)> = None;
    for &d in code {
        if matches!(d.insn.code(), Code::Retnq | Code::Retnq_imm16) {
            // Returning with the register written after its save and never restored.
            if let (Some((_, pa, pt)), Some(w)) = (&slot, &written) {
                return Some(CalleeEffect::NotRestored { save: (*pa, pt.clone()), write: w.clone() });
            }
            return None;
        }
        let i = &d.insn;
        match i.code() {
            Code::Push_r64 if i.op0_register().full_register() == full => {
                depth += 8;
                slot = Some((depth, d.address, d.text.clone()));
                continue;
            }
            Code::Push_r64 | Code::Pushq_imm8 | Code::Pushq_imm32 => {
                depth += 8;
                continue;
            }
            Code::Pop_r64 if i.op0_register().full_register() == full => {
                // The restore: from here the register is the caller's again.
                slot = None;
                written = None;
                depth -= 8;
                continue;
            }
            Code::Pop_r64 => {
                depth -= 8;
                continue;
            }
            Code::Sub_rm64_imm8 | Code::Sub_rm64_imm32
                if i.op0_kind() == OpKind::Register && i.op0_register() == Register::RSP =>
            {
                depth += i.immediate(1) as i64;
                continue;
            }
            Code::Add_rm64_imm8 | Code::Add_rm64_imm32
                if i.op0_kind() == OpKind::Register && i.op0_register() == Register::RSP =>
            {
                depth -= i.immediate(1) as i64;
                continue;
            }
            _ => {}
        }
        // A save with `mov %reg,disp(%rsp)` (compilers' -O2 frames) and its restore.
        let rsp_slot = (i.memory_base() == Register::RSP && i.memory_index() == Register::None)
            .then(|| depth - i.memory_displacement64() as i64);
        if i.mnemonic() == iced_x86::Mnemonic::Mov
            && i.op_count() == 2
            && let Some(sd) = rsp_slot
        {
            if i.op0_kind() == OpKind::Memory
                && i.op1_kind() == OpKind::Register
                && i.op1_register() == full
                && slot.is_none()
            {
                slot = Some((sd, d.address, d.text.clone()));
                continue;
            }
            if i.op0_kind() == OpKind::Register
                && i.op0_register() == full
                && slot.as_ref().is_some_and(|(s, _, _)| *s == sd)
            {
                slot = None;
                written = None;
                continue;
            }
        }
        // A store through rsp onto the save slot.
        if let Some((sd, pa, pt)) = &slot
            && i.op0_kind() == OpKind::Memory
            && i.memory_base() == Register::RSP
            && i.memory_index() == Register::None
            && depth - i.memory_displacement64() as i64 == *sd
            && info.info(i).used_memory().iter().any(|m| matches!(m.access(), OpAccess::Write | OpAccess::ReadWrite))
        {
            return Some(CalleeEffect::OverwritesSaveSlot {
                push: (*pa, pt.clone()),
                store: (d.address, d.text.clone()),
            });
        }
        if slot.is_none() && writes(&mut info, i, reg) {
            return Some(CalleeEffect::Clobbers(d.address, d.text.clone()));
        }
        if slot.is_some() && written.is_none() && writes(&mut info, i, reg) {
            written = Some((d.address, d.text.clone()));
        }
    }
    None
}

/// Where a register's value at frame #0 came from, walking out through the callers.
pub enum Origin {
    /// Written by `text` at `address` (`label`: `sym+0x1c`) in the frame at `pos` of the
    /// thread's frames; `through` lists the inner frames it passed through unchanged (position
    /// and the function's name by the symbol that gave its start).
    Written { pos: usize, address: u64, label: String, text: String, through: Vec<(usize, String)> },
    /// No frame whose code could be decoded writes it (the walk stopped at the frame at `pos`).
    NotFound { pos: usize, through: Vec<(usize, String)> },
    /// Only from a transcript's disassembly: the frame at `pos` does not write it in the
    /// `shown` instructions the transcript shows before its pc, and its listing does not start
    /// at the function's entry, so the writer may be earlier in it.
    NotInShown { pos: usize, shown: usize, through: Vec<(usize, String)> },
}

/// `sym+0x1c` / `sym+28` / `<sym+28>` (gdb, objdump and the symbolizer's forms) → (sym, off).
/// Whether the x86-64 code just before `ra` ends in a call (`call rel32`, `call *%reg`,
/// `call *(%reg)`, `call *disp8(%reg)`, `call *disp32(%reg)`, `call *disp32(%rip)`; the
/// unwinder's test, `unwind::after_call`), read from the process memory or the `--exe` code of
/// the trace. `None` when those bytes are not known.
pub fn follows_call_x86(trace: &Trace, ra: u64) -> Option<bool> {
    let word = trace.read_u64(ra.checked_sub(8)?)?;
    let w = word.to_le_bytes();
    // b[6] is the byte at ra - 1, b[2] the byte at ra - 5.
    let b = [w[1], w[2], w[3], w[4], w[5], w[6], w[7]];
    Some(
        b[2] == 0xe8
            || b[5] == 0xff && (b[6] & 0xf8 == 0xd0 || b[6] & 0xf8 == 0x10 && b[6] & 7 != 4 && b[6] & 7 != 5)
            || b[4] == 0xff && b[5] & 0xf8 == 0x50 && b[5] & 7 != 4
            || b[1] == 0xff && (b[2] == 0x15 || b[2] & 0xf8 == 0x90 && b[2] & 7 != 4),
    )
}

pub fn symbol_offset(s: &str) -> Option<(String, u64)> {
    let s = s.trim();
    let s = s.split_once('<').map(|(_, r)| r).unwrap_or(s);
    let s = s.split('>').next()?;
    let (name, off) = match s.rsplit_once('+') {
        Some(p) => p,
        None => (s, "0"),
    };
    let off = match off.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok()?,
        None => off.parse().ok()?,
    };
    (!name.is_empty() && !name.contains(char::is_whitespace)).then(|| (name.to_string(), off))
}

/// A function's name, its start and its decoded code (up to some pc).
pub type FunctionCode<I> = (String, u64, Vec<Decoded<I>>);

/// The code of the function holding `pc` from its start up to `pc` (exclusive), with the
/// function's name: the start comes from the symbol of `pc` (the symbolizer's `<sym+off>`,
/// else frame #0's printed pc, `rip` / `pc`).
pub fn code_before<D: Isa>(trace: &Trace, th: &Thread, innermost: bool, pc: u64) -> Option<FunctionCode<D::Insn>> {
    let label = trace.code_symbol(pc).map(str::to_string).or_else(|| {
        innermost
            .then(|| th.registers.get(&th.frames[0].index).and_then(|r| r.reg(D::PC)).and_then(|r| r.natural.clone()))
            .flatten()
            .map(|n| n.to_string())
    })?;
    let (name, off) = symbol_offset(&label)?;
    let start = pc.checked_sub(off)?;
    if off == 0 {
        // A return address at a symbol's start: the call was the last instruction of
        // another function (a noreturn call); its code is not this symbol's.
        return innermost.then(|| (name, start, Vec::new()));
    }
    Some((name, start, D::decode_range(trace, start, pc)?))
}

/// Walks out from frame #0 for the last instruction that wrote `reg` before each frame's pc
/// (frame #0: the faulting pc; outer frames: the return address, so the code up to and
/// including the call). A frame whose code before its pc does not write `reg` passed on its
/// caller's value. Straight-line: the last writer in address order before the pc. With
/// process code (a core, or a transcript read with `--exe`), decoded by `isa`.
pub fn register_origin<D: Isa>(
    isa: &mut D,
    trace: &Trace,
    th: &Thread,
    reg: D::Reg,
    max_frames: usize,
) -> Option<Origin> {
    let mut through = Vec::new();
    for (pos, f) in th.frames.iter().enumerate().take(max_frames) {
        // A signal frame or an inlined level has no code of its own here.
        if f.signal_handler {
            return Some(Origin::NotFound { pos, through });
        }
        if f.inlined {
            continue;
        }
        // The innermost physical frame printed without its address (`#0  f (…) at …`, or
        // the caller of inlined frames): its pc is frame #0's `rip`.
        let pc = match f.pc {
            Some(pc) => pc.0,
            None if th.frames[..pos].iter().all(|f| f.inlined) => {
                th.registers.get(&th.frames[0].index).and_then(|r| r.reg(D::PC)).and_then(|r| r.value)?
            }
            None => return None,
        };
        let innermost = th.frames[..pos].iter().all(|f| f.inlined);
        let Some((name, start, code)) = code_before::<D>(trace, th, innermost, pc) else {
            return (!through.is_empty()).then_some(Origin::NotFound { pos, through });
        };
        if let Some(d) = code.iter().rev().find(|d| isa.writes(&d.insn, reg)) {
            return Some(Origin::Written {
                pos,
                address: d.address,
                label: format!("{name}+{:#x}", d.address - start),
                text: d.text.clone(),
                through,
            });
        }
        through.push((pos, name));
    }
    None
}
