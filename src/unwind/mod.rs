//! Stack unwinding from a core: walks each thread's stack with the CFI of the mapped
//! modules (`.eh_frame`, via `.eh_frame_hdr` when present, else `.debug_frame`); where no CFI
//! covers an x86-64 pc, reading the function's prologue from its code, then falling
//! back to the frame-pointer chain (and, for an x86-64 frame #0 whose
//! frame pointer leads nowhere, to a return address at `[sp]` that follows a call
//! instruction), and says why it stopped.
//!
//! Input: the thread's registers at frame #0 (by DWARF number), the modules mapped in
//! the process with their load bias, and process memory. Output: one [`UnwoundFrame`] per
//! physical frame with every register value known for it and which of them the unwinder
//! restored (the rest are carried over from the frame below), for the rules that compare
//! callee-saved registers between frames.

pub mod dumps;

use crate::model::{MemorySource, UnwindMethod};
use crate::symbolize::modules::MappedModule;
use gimli::{
    BaseAddresses, CfaRule, DebugFrame, EhFrame, EhFrameHdr, Encoding, EvaluationResult, Location, Piece, Register,
    RegisterRule, RunTimeEndian, UnwindContext, UnwindSection, Value,
};

/// The architectures the unwinder knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnwindArch {
    X86_64,
    Aarch64,
    /// 32-bit x86: DWARF eax 0, ecx 1, edx 2, ebx 3, esp 4, ebp 5, esi 6, edi 7, eip 8 (the
    /// return-address column); 4-byte words.
    I386,
}

impl UnwindArch {
    /// The return-address column.
    pub fn ra(self) -> u16 {
        match self {
            UnwindArch::X86_64 => 16,
            UnwindArch::Aarch64 => 30,
            UnwindArch::I386 => 8,
        }
    }
    pub fn sp(self) -> u16 {
        match self {
            UnwindArch::X86_64 => 7,
            UnwindArch::Aarch64 => 31,
            UnwindArch::I386 => 4,
        }
    }
    pub fn fp(self) -> u16 {
        match self {
            UnwindArch::X86_64 => 6,
            UnwindArch::Aarch64 => 29,
            UnwindArch::I386 => 5,
        }
    }
    /// The slot that holds the pc: rip's column on x86-64; an internal 32 on AArch64.
    pub fn pc(self) -> u16 {
        match self {
            UnwindArch::X86_64 => 16,
            UnwindArch::Aarch64 => 32,
            UnwindArch::I386 => 8,
        }
    }
    /// Number of register slots tracked.
    pub fn slots(self) -> usize {
        match self {
            UnwindArch::X86_64 => 17,
            UnwindArch::Aarch64 => 33,
            UnwindArch::I386 => 9,
        }
    }
    /// The size of an address and of a stack slot.
    pub fn word(self) -> u64 {
        if self == UnwindArch::I386 { 4 } else { 8 }
    }
    /// An address computed in this architecture's width (32-bit sums wrap at 4 GiB).
    fn wrap(self, a: u64) -> u64 {
        if self == UnwindArch::I386 { a & 0xffff_ffff } else { a }
    }
}

/// One physical frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnwoundFrame {
    pub pc: u64,
    /// Register values by DWARF number (`None`: unknown / not saved).
    pub regs: Vec<Option<u64>>,
    pub method: UnwindMethod,
    /// DWARF numbers of the registers restored for this frame (empty for frame #0).
    pub recovered: Vec<u16>,
    /// The pc is exact (frame #0, or a frame interrupted by a signal), not a return
    /// address: look it up as is rather than at pc - 1.
    pub exact_pc: bool,
    /// This frame is a signal trampoline (`__restore_rt`): gdb's `<signal handler called>`.
    pub signal_trampoline: bool,
}

/// The result for one thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unwound {
    pub frames: Vec<UnwoundFrame>,
    /// Why the walk ended early, in gdb's words where gdb has them.
    pub stopped: Option<String>,
}

struct Step {
    regs: Vec<Option<u64>>,
    recovered: Vec<u16>,
    cfa: u64,
    method: UnwindMethod,
    /// The callee was a signal trampoline: the caller's pc is exact.
    caller_exact: bool,
}

enum StepResult {
    Next(Step),
    /// The CFI says the return address is undefined: the outermost frame.
    End,
    Fail(String),
}

/// Walks a thread's stack.
pub fn unwind(
    arch: UnwindArch,
    regs0: Vec<Option<u64>>,
    modules: &[MappedModule],
    mem: &dyn MemorySource,
    max_frames: usize,
) -> Unwound {
    let mut out = Unwound::default();
    let Some(pc0) = regs0.get(arch.pc() as usize).copied().flatten() else {
        out.stopped = Some("no pc for this thread".into());
        return out;
    };
    let mut cur = UnwoundFrame {
        pc: pc0,
        regs: regs0,
        method: UnwindMethod::Context,
        recovered: Vec::new(),
        exact_pc: true,
        signal_trampoline: false,
    };
    let mut prev_cfa: Option<u64> = None;
    let mut ctx = Box::new(UnwindContext::new());
    loop {
        if out.frames.len() + 1 >= max_frames {
            out.frames.push(cur);
            out.stopped = Some(format!("stopped after {max_frames} frames"));
            return out;
        }
        let step = step(arch, &cur, modules, mem, &mut ctx, out.frames.is_empty());
        let (step, sig) = match step {
            (StepResult::Next(s), sig) => (s, sig),
            (StepResult::End, sig) => {
                cur.signal_trampoline = sig;
                out.frames.push(cur);
                return out;
            }
            (StepResult::Fail(why), sig) => {
                cur.signal_trampoline = sig;
                out.frames.push(cur);
                out.stopped = Some(why);
                return out;
            }
        };
        cur.signal_trampoline = sig;
        let next_pc = step.regs.get(arch.pc() as usize).copied().flatten();
        let crossed_signal = cur.signal_trampoline || step.caller_exact;
        out.frames.push(cur);
        let Some(next_pc) = next_pc else {
            return out;
        };
        if next_pc == 0 {
            // The outermost frame of a thread whose entry saved no return address.
            return out;
        }
        if let Some(p) = prev_cfa
            && !crossed_signal
        {
            if step.cfa == p {
                out.stopped = Some("previous frame identical to this frame (corrupt stack?)".into());
                return out;
            }
            if step.cfa < p {
                out.stopped = Some("previous frame inner to this frame (corrupt stack?)".into());
                return out;
            }
        }
        prev_cfa = Some(step.cfa);
        cur = UnwoundFrame {
            pc: next_pc,
            regs: step.regs,
            method: step.method,
            recovered: step.recovered,
            exact_pc: step.caller_exact,
            signal_trampoline: false,
        };
    }
}

fn module_for(modules: &[MappedModule], a: u64) -> Option<&MappedModule> {
    modules.iter().find(|m| a >= m.start && a < m.end)
}

/// `a` is in an executable load segment of a mapped module (not its data).
fn in_code(modules: &[MappedModule], a: u64) -> bool {
    module_for(modules, a).is_some_and(|m| {
        let v = a.wrapping_sub(m.bias);
        m.module.loads.iter().any(|l| v >= l.vaddr && v - l.vaddr < l.memsz && l.flags & 1 != 0)
    })
}

fn read_u64(mem: &dyn MemorySource, a: u64) -> Option<u64> {
    let mut b = [0u8; 8];
    (mem.read(a, &mut b) == 8).then(|| u64::from_le_bytes(b))
}

/// A stack word of `arch` (4 bytes on i386, 8 elsewhere).
fn read_word(arch: UnwindArch, mem: &dyn MemorySource, a: u64) -> Option<u64> {
    if arch == UnwindArch::I386 {
        let mut b = [0u8; 4];
        (mem.read(a, &mut b) == 4).then(|| u32::from_le_bytes(b).into())
    } else {
        read_u64(mem, a)
    }
}

/// Unwinds one frame: the caller's registers.
fn step(
    arch: UnwindArch,
    cur: &UnwoundFrame,
    modules: &[MappedModule],
    mem: &dyn MemorySource,
    ctx: &mut UnwindContext<usize>,
    first: bool,
) -> (StepResult, bool) {
    let probe = if cur.exact_pc { cur.pc } else { cur.pc.wrapping_sub(1) };
    if let Some(m) = module_for(modules, probe) {
        match cfi_step(arch, cur, m, probe, mem, ctx) {
            Some(r) => return r,
            None => {
                // No CFI covers the pc: fall through to the frame pointer.
            }
        }
    }
    let sp = cur.regs[arch.sp() as usize];
    let fp = cur.regs[arch.fp() as usize];
    // A pc outside all code at frame #0 (a call through a bad pointer, or a `ret` into a
    // module's data): the return address is where the call left it.
    if first && !in_code(modules, cur.pc) {
        let Some(sp) = sp else { return (StepResult::Fail("no stack pointer".into()), false) };
        let mut regs = cur.regs.clone();
        let (ra, cfa) = match arch {
            UnwindArch::X86_64 | UnwindArch::I386 => match (read_word(arch, mem, sp), sp.checked_add(arch.word())) {
                (Some(ra), Some(cfa)) => (ra, cfa),
                (Some(_), None) => {
                    return (StepResult::Fail("the stack pointer is at the end of the address space".into()), false);
                }
                (None, _) => return (StepResult::Fail(format!("Cannot access memory at address 0x{sp:x}")), false),
            },
            UnwindArch::Aarch64 => match cur.regs[30] {
                Some(lr) => (lr, sp),
                None => return (StepResult::Fail("no link register".into()), false),
            },
        };
        regs[arch.pc() as usize] = Some(ra);
        regs[arch.sp() as usize] = Some(cfa);
        return (
            StepResult::Next(Step {
                regs,
                recovered: vec![arch.pc(), arch.sp()],
                cfa,
                method: UnwindMethod::ScanCall,
                caller_exact: false,
            }),
            false,
        );
    }
    if let Some(s) = prologue_step(arch, cur, modules, mem, probe) {
        return (StepResult::Next(s), false);
    }
    let Some(fp) = fp.filter(|&f| f != 0) else {
        if let Some(s) = leaf_step(arch, cur, modules, mem, first) {
            return (StepResult::Next(s), false);
        }
        return (StepResult::Fail(format!("no CFI for pc 0x{:x} and no frame pointer", cur.pc)), false);
    };
    let (Some(saved_fp), Some(ra)) =
        (read_word(arch, mem, fp), read_word(arch, mem, arch.wrap(fp.wrapping_add(arch.word()))))
    else {
        if let Some(s) = leaf_step(arch, cur, modules, mem, first) {
            return (StepResult::Next(s), false);
        }
        return (StepResult::Fail(format!("Cannot access memory at address 0x{fp:x}")), false);
    };
    // Frame #0 without CFI whose frame pointer's return slot holds no return address (a leaf
    // that never set up rbp, over a caller whose saved rbp and return address were overwritten:
    // musl's `__stack_chk_fail` after a smashed canary): the word at `[sp]`, when it follows a
    // call, is the return address.
    if first
        && !after_call(modules, ra)
        && let Some(s) = leaf_step(arch, cur, modules, mem, first)
    {
        return (StepResult::Next(s), false);
    }
    let mut regs = cur.regs.clone();
    regs[arch.fp() as usize] = Some(saved_fp);
    regs[arch.pc() as usize] = Some(ra);
    if arch == UnwindArch::Aarch64 {
        regs[30] = Some(ra);
    }
    let cfa = arch.wrap(fp.wrapping_add(2 * arch.word()));
    regs[arch.sp() as usize] = Some(cfa);
    (
        StepResult::Next(Step {
            regs,
            recovered: vec![arch.pc(), arch.sp(), arch.fp()],
            cfa,
            method: UnwindMethod::FramePointer,
            caller_exact: false,
        }),
        false,
    )
}

/// Frame #0 in code that no CFI covers, where the frame pointer leads nowhere (a leaf
/// without unwind tables that uses rbp as a general register, such as musl's `strlen`): the
/// return address is at `[sp]` when that word points just after a call instruction in a
/// module's code. x86-64 only (an AArch64 leaf keeps it in the link register, which the
/// frame-pointer step does not read either); tried only where the frame-pointer step failed.
fn leaf_step(
    arch: UnwindArch,
    cur: &UnwoundFrame,
    modules: &[MappedModule],
    mem: &dyn MemorySource,
    first: bool,
) -> Option<Step> {
    if !first || arch == UnwindArch::Aarch64 {
        return None;
    }
    let sp = cur.regs[arch.sp() as usize]?;
    let ra = read_word(arch, mem, sp)?;
    if !after_call(modules, ra) {
        return None;
    }
    let cfa = sp.checked_add(arch.word())?;
    let mut regs = cur.regs.clone();
    regs[arch.pc() as usize] = Some(ra);
    regs[arch.sp() as usize] = Some(cfa);
    Some(Step { regs, recovered: vec![arch.pc(), arch.sp()], cfa, method: UnwindMethod::ScanCall, caller_exact: false })
}

/// x86-64 code that no CFI covers (static musl, hand-written assembly): the frame the
/// function's prologue built, read from its code between its symbol and the pc, as lldb's
/// instruction-emulation unwinder does (gdb's prologue analyzer knows only `push %rbp; mov
/// %rsp,%rbp`): register pushes, `sub $n,%rsp` (`add` of a negative, `lea -n(%rsp),%rsp`) and
/// `mov %rsp,%rbp`, up to the first call, jump, return or other stack-pointer write once the
/// frame is being built (a conditional branch before it is a shrink-wrapped early check).
/// Taken only when the return address it finds follows a call instruction in a module's code.
fn prologue_step(
    arch: UnwindArch,
    cur: &UnwoundFrame,
    modules: &[MappedModule],
    mem: &dyn MemorySource,
    probe: u64,
) -> Option<Step> {
    use iced_x86::{Code, Decoder, DecoderOptions, Mnemonic, OpKind, Register as R};
    if arch != UnwindArch::X86_64 {
        return None;
    }
    let m = module_for(modules, probe)?;
    let start = m.module.nearest_symbol(probe.wrapping_sub(m.bias))?.address.wrapping_add(m.bias);
    // Frame #0 has run up to its pc; an outer frame up to its call (just before the pc).
    let len = usize::try_from(cur.pc.checked_sub(start)?).ok().filter(|&l| l <= 4096)?;
    let mut code = vec![0u8; len];
    if m.module.read_vaddr(start.wrapping_sub(m.bias), &mut code) != len {
        return None;
    }
    let dwarf = |r: R| -> Option<u16> {
        Some(match r {
            R::RAX => 0,
            R::RDX => 1,
            R::RCX => 2,
            R::RBX => 3,
            R::RSI => 4,
            R::RDI => 5,
            R::RBP => 6,
            R::R8 => 8,
            R::R9 => 9,
            R::R10 => 10,
            R::R11 => 11,
            R::R12 => 12,
            R::R13 => 13,
            R::R14 => 14,
            R::R15 => 15,
            _ => return None,
        })
    };
    // Bytes below the entry sp (where the return address is), per instruction.
    let mut depth: u64 = 0;
    let mut saves: Vec<(u16, u64)> = Vec::new();
    let mut fp_depth: Option<u64> = None;
    let mut building = false;
    let mut dec = Decoder::with_ip(64, &code, start, DecoderOptions::NONE);
    for _ in 0..256 {
        if !dec.can_decode() {
            break;
        }
        let i = dec.decode();
        if i.is_invalid() {
            return None;
        }
        let rsp_imm = |k: u32| {
            i.op0_register() == R::RSP && matches!(i.op_kind(k), OpKind::Immediate8to64 | OpKind::Immediate32to64)
        };
        match i.mnemonic() {
            Mnemonic::Push if i.op0_kind() == OpKind::Register => {
                depth = depth.checked_add(8)?;
                if let Some(d) = dwarf(i.op0_register()) {
                    saves.push((d, depth));
                }
                building = true;
            }
            Mnemonic::Sub if rsp_imm(1) => {
                depth = depth.checked_add(i.immediate(1))?;
                building = true;
            }
            Mnemonic::Add if rsp_imm(1) && (i.immediate(1) as i64) < 0 => {
                depth = depth.checked_add((i.immediate(1) as i64).unsigned_abs())?;
                building = true;
            }
            Mnemonic::Lea
                if i.op0_register() == R::RSP
                    && i.memory_base() == R::RSP
                    && i.memory_index() == R::None
                    && (i.memory_displacement64() as i64) < 0 =>
            {
                depth = depth.checked_add((i.memory_displacement64() as i64).unsigned_abs())?;
                building = true;
            }
            Mnemonic::Mov if i.code() == Code::Mov_rm64_r64 || i.code() == Code::Mov_r64_rm64 => {
                if i.op0_register() == R::RBP && i.op1_register() == R::RSP {
                    fp_depth = Some(depth);
                } else if i.op0_register() == R::RSP {
                    break;
                }
            }
            Mnemonic::Jmp | Mnemonic::Ret | Mnemonic::Call => break,
            _ if i.is_jcc_short_or_near() => {
                if building {
                    break;
                }
            }
            _ => {
                // Any other write of rsp (pop, leave, and $-16, …) ends what can be read.
                let writes_rsp = i.op_count() > 0 && i.op0_kind() == OpKind::Register && i.op0_register() == R::RSP;
                if writes_rsp || matches!(i.mnemonic(), Mnemonic::Pop | Mnemonic::Leave | Mnemonic::Enter) {
                    if !building {
                        return None;
                    }
                    break;
                }
            }
        }
    }
    let entry_sp = match fp_depth {
        // `mov %rsp,%rbp`: rbp holds sp at that depth, whatever the body did to rsp since.
        Some(d) => cur.regs[arch.fp() as usize]?.checked_add(d)?,
        None => cur.regs[arch.sp() as usize]?.checked_add(depth)?,
    };
    let ra = read_u64(mem, entry_sp)?;
    if !after_call(modules, ra) {
        return None;
    }
    let cfa = entry_sp.checked_add(8)?;
    let mut regs = cur.regs.clone();
    let mut recovered = vec![arch.pc(), arch.sp()];
    for (r, d) in saves {
        if let Some(v) = entry_sp.checked_sub(d).and_then(|a| read_u64(mem, a)) {
            regs[r as usize] = Some(v);
            recovered.push(r);
        }
    }
    regs[arch.pc() as usize] = Some(ra);
    regs[arch.sp() as usize] = Some(cfa);
    Some(Step { regs, recovered, cfa, method: UnwindMethod::Prologue, caller_exact: false })
}

/// `ra` is in a module's code just after an x86-64 call: `call rel32` (e8), `call *%reg`
/// (ff d0+r, with or without REX), `call *(%reg)` (ff 10+r), `call *disp8(%reg)` (ff 50+r),
/// `call *disp32(%reg)` (ff 90+r) or `call *disp32(%rip)` (ff 15).
fn after_call(modules: &[MappedModule], ra: u64) -> bool {
    if !in_code(modules, ra) {
        return false;
    }
    let Some(m) = module_for(modules, ra) else { return false };
    let Some(start) = ra.checked_sub(7) else { return false };
    let mut b = [0u8; 7];
    if m.module.read_vaddr(start.wrapping_sub(m.bias), &mut b) != b.len() {
        return false;
    }
    // b[6] is the byte at ra - 1, b[2] the byte at ra - 5.
    b[2] == 0xe8
        || b[5] == 0xff && (b[6] & 0xf8 == 0xd0 || b[6] & 0xf8 == 0x10 && b[6] & 7 != 4 && b[6] & 7 != 5)
        || b[4] == 0xff && b[5] & 0xf8 == 0x50 && b[5] & 7 != 4
        || b[1] == 0xff && (b[2] == 0x15 || b[2] & 0xf8 == 0x90 && b[2] & 7 != 4)
}

/// The CFI step; `None` when the module has no CFI for the address.
fn cfi_step(
    arch: UnwindArch,
    cur: &UnwoundFrame,
    m: &MappedModule,
    probe: u64,
    mem: &dyn MemorySource,
    ctx: &mut UnwindContext<usize>,
) -> Option<(StepResult, bool)> {
    let cfi = *m.module.cfi();
    let endian = if m.module.little_endian { RunTimeEndian::Little } else { RunTimeEndian::Big };
    let rel = probe.wrapping_sub(m.bias);
    let mut bases = BaseAddresses::default();
    if let Some(t) = cfi.text {
        bases = bases.set_text(t.address);
    }
    if let Some(g) = cfi.got {
        bases = bases.set_got(g.address);
    }
    // .eh_frame (through .eh_frame_hdr's table when there is one).
    if let Some(eh) = cfi.eh_frame {
        let b = bases.clone().set_eh_frame(eh.address);
        let mut section = EhFrame::new(eh.data, endian);
        section.set_address_size(arch.word() as u8);
        let hdr_b = match cfi.eh_frame_hdr {
            Some(h) => b.clone().set_eh_frame_hdr(h.address),
            None => b.clone(),
        };
        let fde = match cfi
            .eh_frame_hdr
            .and_then(|h| EhFrameHdr::new(h.data, endian).parse(&hdr_b, arch.word() as u8).ok())
        {
            Some(parsed) => match parsed.table() {
                Some(t) => t.fde_for_address(&section, &hdr_b, rel, EhFrame::cie_from_offset).ok(),
                None => section.fde_for_address(&b, rel, EhFrame::cie_from_offset).ok(),
            },
            None => section.fde_for_address(&b, rel, EhFrame::cie_from_offset).ok(),
        };
        if let Some(fde) = fde {
            let sig = fde.is_signal_trampoline();
            if let Ok(row) = fde.unwind_info_for_address(&section, &hdr_b, ctx, rel) {
                let row = row.clone();
                return Some((apply_row(arch, cur, &row, &section, mem, sig), sig));
            }
        }
    }
    if let Some(df) = cfi.debug_frame {
        let mut section = DebugFrame::new(df.data, endian);
        section.set_address_size(arch.word() as u8);
        if let Ok(fde) = section.fde_for_address(&bases, rel, DebugFrame::cie_from_offset) {
            let sig = fde.is_signal_trampoline();
            if let Ok(row) = fde.unwind_info_for_address(&section, &bases, ctx, rel) {
                let row = row.clone();
                return Some((apply_row(arch, cur, &row, &section, mem, sig), sig));
            }
        }
    }
    None
}

type Slice<'a> = gimli::EndianSlice<'a, RunTimeEndian>;

fn encoding(arch: UnwindArch) -> Encoding {
    Encoding { format: gimli::Format::Dwarf32, version: 4, address_size: arch.word() as u8 }
}

/// Evaluates a CFI expression to an address or value.
fn eval<'a, S: UnwindSection<Slice<'a>>>(
    arch: UnwindArch,
    section: &S,
    e: &gimli::UnwindExpression<usize>,
    regs: &[Option<u64>],
    initial: Option<u64>,
    mem: &dyn MemorySource,
) -> Result<u64, String> {
    let expr = e.get(section).map_err(|e| format!("bad CFI expression: {e}"))?;
    let mut ev = expr.evaluation(encoding(arch));
    if let Some(v) = initial {
        ev.set_initial_value(v);
    }
    let mut r = ev.evaluate().map_err(|e| format!("CFI expression failed: {e}"))?;
    for _ in 0..1000 {
        match r {
            EvaluationResult::Complete => {
                let pieces: Vec<Piece<Slice<'a>>> = ev.result();
                return match pieces.first().map(|p| &p.location) {
                    Some(Location::Address { address }) => Ok(*address),
                    Some(Location::Value { value }) => value.to_u64(!0).map_err(|e| e.to_string()),
                    _ => Err("CFI expression gave no address".into()),
                };
            }
            EvaluationResult::RequiresMemory { address, size, .. } => {
                let mut b = [0u8; 8];
                let n = (size as usize).min(8);
                if mem.read(address, &mut b[..n]) != n {
                    return Err(format!("Cannot access memory at address 0x{address:x}"));
                }
                r = ev.resume_with_memory(Value::Generic(u64::from_le_bytes(b))).map_err(|e| e.to_string())?;
            }
            EvaluationResult::RequiresRegister { register, .. } => {
                let v = regs
                    .get(register.0 as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| format!("register {} unknown", register.0))?;
                r = ev.resume_with_register(Value::Generic(v)).map_err(|e| e.to_string())?;
            }
            _ => return Err("unsupported CFI expression".into()),
        }
    }
    Err("CFI expression did not finish".into())
}

fn apply_row<'a, S: UnwindSection<Slice<'a>>>(
    arch: UnwindArch,
    cur: &UnwoundFrame,
    row: &gimli::UnwindTableRow<usize>,
    section: &S,
    mem: &dyn MemorySource,
    signal: bool,
) -> StepResult {
    let cfa = match row.cfa() {
        CfaRule::RegisterAndOffset { register, offset } => match cur.regs.get(register.0 as usize).copied().flatten() {
            Some(v) => arch.wrap(v.wrapping_add(*offset as u64)),
            None => return StepResult::Fail(format!("CFA register {} is not known in this frame", register.0)),
        },
        CfaRule::Expression(e) => match eval(arch, section, e, &cur.regs, None, mem) {
            Ok(v) => v,
            Err(why) => return StepResult::Fail(why),
        },
    };
    let mut regs = cur.regs.clone();
    let mut recovered = Vec::new();
    let ra = arch.ra();
    let mut ra_value: Option<u64> = None;
    let mut ra_seen = false;
    for n in 0..arch.slots().min(33) as u16 {
        if arch == UnwindArch::Aarch64 && n == 32 {
            continue;
        }
        let rule = row.register(Register(n));
        let Some(rule) = rule else {
            // No rule: carried over unchanged, as gdb does.
            continue;
        };
        let v: Option<Option<u64>> = match &rule {
            RegisterRule::Undefined => {
                if n == ra {
                    return StepResult::End;
                }
                Some(None)
            }
            RegisterRule::SameValue => None,
            RegisterRule::Offset(o) => {
                let a = arch.wrap(cfa.wrapping_add(*o as u64));
                match read_word(arch, mem, a) {
                    Some(v) => Some(Some(v)),
                    None if n == ra => return StepResult::Fail(format!("Cannot access memory at address 0x{a:x}")),
                    None => Some(None),
                }
            }
            RegisterRule::ValOffset(o) => Some(Some(arch.wrap(cfa.wrapping_add(*o as u64)))),
            RegisterRule::Register(r) => Some(cur.regs.get(r.0 as usize).copied().flatten()),
            RegisterRule::Expression(e) => match eval(arch, section, e, &cur.regs, Some(cfa), mem) {
                Ok(a) => Some(read_word(arch, mem, a)),
                Err(why) if n == ra => return StepResult::Fail(why),
                Err(_) => Some(None),
            },
            RegisterRule::ValExpression(e) => match eval(arch, section, e, &cur.regs, Some(cfa), mem) {
                Ok(v) => Some(Some(v)),
                Err(_) => Some(None),
            },
            RegisterRule::Constant(c) => Some(Some(*c)),
            _ => None,
        };
        if n == ra {
            ra_seen = v.is_some();
            ra_value = v.flatten();
        }
        if let Some(v) = v {
            regs[n as usize] = v;
            if v.is_some() {
                recovered.push(n);
            }
        }
    }
    // The rule table marks an absent RA rule Undefined; gdb treats an explicitly
    // undefined RA as the outermost frame, and so do we (handled above). An RA with no
    // rule at all on AArch64 means "still in x30".
    let ra_value = if ra_seen { ra_value } else { cur.regs.get(ra as usize).copied().flatten() };
    let Some(ra_value) = ra_value else {
        return StepResult::Fail("the return address is not readable".into());
    };
    regs[arch.pc() as usize] = Some(ra_value);
    regs[arch.sp() as usize] = Some(cfa);
    if !recovered.contains(&arch.pc()) {
        recovered.push(arch.pc());
    }
    if !recovered.contains(&arch.sp()) {
        recovered.push(arch.sp());
    }
    recovered.sort_unstable();
    StepResult::Next(Step { regs, recovered, cfa, method: UnwindMethod::Cfi, caller_exact: signal })
}
