//! Register provenance and the callee-saved checks from the disassembly a transcript shows
//! (gdb `disassemble`, `disassemble /r`, `x/Ni`, lldb `disassemble`; x86-64 in AT&T or Intel
//! syntax, AArch64 in libopcodes' or lldb's), for a transcript read without the binary.
//!
//! The walks are those of [`crate::provenance`] (which decodes the machine code of a core or
//! of the `--exe` binaries, and is preferred when there is one): the last instruction before
//! a frame's pc that wrote a register, walking out through frames whose code before their pc
//! does not write it; what a called function does to a callee-saved register. Here the code
//! is only what the transcript shows: a frame whose listing does not start at its function's
//! entry can only say the register is "not written in the N instructions shown". An
//! instruction printed with its bytes (`disassemble /r`) is decoded from them with iced-x86
//! (yaxpeax-arm on AArch64), exactly as the binary path does; otherwise its text is read by
//! [`crate::insn::X86Text`] ([`crate::insn::A64Text`]).
//!
//! One walk serves both architectures: [`register_origin`] and [`code_before`] are generic over
//! [`ShownIsa`], the per-architecture reading of a shown instruction ([`ShownInsn`] for x86-64,
//! [`ShownA64`] for AArch64), as [`crate::provenance::register_origin`] is over
//! [`crate::provenance::Isa`] for machine code. The callee-saved checks over text are
//! [`save_slot`], [`callee_effect`], [`straight_line`] for x86-64 and [`save_slot_a64`],
//! [`callee_effect_a64`] for AArch64.

use crate::insn::{A64Text, X86Operand, X86Text};
use crate::model::*;
use crate::provenance::{CalleeEffect, Origin};

/// One architecture's reading of an instruction a transcript shows: what the text walks ask
/// of it (the counterpart of [`crate::provenance::Isa`], which decodes machine code).
pub trait ShownIsa<'a>: Sized {
    /// gdb's name of the program counter (frame #0's pc when its frame line has no address).
    const PC: &'static str;
    fn new(i: &'a Instruction) -> Self;
    fn address(&self) -> u64;
    /// As printed (without raw bytes).
    fn text(&self) -> &'a str;
    /// Whether it writes (any part of) the general register `reg` (gdb's name); `None` when
    /// that is not known.
    fn writes(&self, reg: &str) -> Option<bool>;
    /// The target of a direct jump (conditional or not; not a call).
    fn jump_target(&self) -> Option<u64>;
    fn is_ret(&self) -> bool;
}

/// One instruction of the transcript's disassembly, decoded.
pub struct ShownInsn<'a> {
    pub address: u64,
    /// As printed (without raw bytes).
    pub text: &'a str,
    pub x86: Option<X86Text>,
    /// Decoded from the printed bytes (`disassemble /r`), when they were printed.
    pub machine: Option<iced_x86::Instruction>,
    pub span: Span,
}

impl<'a> ShownIsa<'a> for ShownInsn<'a> {
    const PC: &'static str = "rip";
    fn new(i: &'a Instruction) -> Self {
        ShownInsn::new(i)
    }
    fn address(&self) -> u64 {
        self.address
    }
    fn text(&self) -> &'a str {
        self.text
    }
    fn writes(&self, reg: &str) -> Option<bool> {
        ShownInsn::writes(self, reg)
    }
    fn jump_target(&self) -> Option<u64> {
        ShownInsn::jump_target(self)
    }
    fn is_ret(&self) -> bool {
        ShownInsn::is_ret(self)
    }
}

/// One AArch64 instruction of the transcript's disassembly, decoded.
pub struct ShownA64<'a> {
    pub address: u64,
    /// As printed (without raw bytes).
    pub text: &'a str,
    pub a64: Option<A64Text>,
    /// Decoded with yaxpeax-arm from the printed encoding (`disassemble /r`: four bytes, or
    /// gdb 13's one 32-bit word, [`crate::insn::split_raw_bytes`]), when it was printed.
    pub machine: Option<crate::provenance_a64::Decoded>,
    pub span: Span,
}

impl<'a> ShownIsa<'a> for ShownA64<'a> {
    const PC: &'static str = "pc";
    fn new(i: &'a Instruction) -> Self {
        let address = i.address.0;
        let machine = i
            .bytes
            .as_deref()
            .filter(|b| b.len() == 4)
            .and_then(|b| crate::provenance_a64::decode_word([b[0], b[1], b[2], b[3]], address));
        ShownA64 { address, text: &i.text, a64: A64Text::parse(&i.text), machine, span: i.span }
    }
    fn address(&self) -> u64 {
        self.address
    }
    fn text(&self) -> &'a str {
        self.text
    }
    fn writes(&self, reg: &str) -> Option<bool> {
        let r = crate::insn::a64_gpr(reg)?;
        match &self.machine {
            Some(m) => Some(crate::provenance_a64::writes(&m.insn, r)),
            None => self.a64.as_ref()?.writes(r),
        }
    }
    fn jump_target(&self) -> Option<u64> {
        let a = self.a64.as_ref()?;
        if a.is_call() { None } else { a.branch_target() }
    }
    fn is_ret(&self) -> bool {
        match &self.machine {
            Some(m) => matches!(m.insn.opcode, yaxpeax_arm::armv8::a64::Opcode::RET),
            None => self.a64.as_ref().is_some_and(A64Text::is_ret),
        }
    }
}

impl<'a> ShownInsn<'a> {
    fn new(i: &'a Instruction) -> Self {
        let machine = i.bytes.as_deref().and_then(|b| {
            let mut dec = iced_x86::Decoder::with_ip(64, b, i.address.0, iced_x86::DecoderOptions::NONE);
            let insn = dec.decode();
            (!insn.is_invalid() && insn.len() == b.len()).then_some(insn)
        });
        ShownInsn { address: i.address.0, text: &i.text, x86: X86Text::parse(&i.text), machine, span: i.span }
    }

    /// Whether it writes the 64-bit general register `reg`; `None` when that is not known.
    pub fn writes(&self, reg: &str) -> Option<bool> {
        if let Some(m) = &self.machine {
            let r = crate::provenance::gpr(reg)?;
            return Some(crate::provenance::writes(&mut iced_x86::InstructionInfoFactory::new(), m, r));
        }
        self.x86.as_ref()?.writes(reg)
    }

    pub fn is_call(&self) -> bool {
        match &self.machine {
            Some(m) => m.is_call_near() || m.is_call_far() || m.is_call_near_indirect(),
            None => self.x86.as_ref().is_some_and(X86Text::is_call),
        }
    }

    /// The target of a direct jump (conditional or not).
    pub fn jump_target(&self) -> Option<u64> {
        match &self.machine {
            Some(m) if m.is_jcc_short_or_near() || m.is_jmp_short_or_near() => Some(m.near_branch_target()),
            Some(_) => None,
            None => {
                let x = self.x86.as_ref()?;
                x.mnemonic.starts_with('j').then(|| x.branch_target().map(|(a, _)| a)).flatten()
            }
        }
    }

    fn is_ret(&self) -> bool {
        match &self.machine {
            Some(m) => matches!(m.code(), iced_x86::Code::Retnq | iced_x86::Code::Retnq_imm16),
            None => self.x86.as_ref().is_some_and(X86Text::is_ret),
        }
    }
}

/// Whether control surely went from `from` to `to` (addresses of `code`) in a straight line:
/// no jump between them, and no jump in `code` into `(from, to]`. Without it an instruction
/// between them may have been jumped over.
pub fn straight_line(code: &[ShownInsn<'_>], from: u64, to: u64) -> bool {
    code.iter().all(|d| {
        let jump = match &d.machine {
            Some(m) => !matches!(m.flow_control(), iced_x86::FlowControl::Next | iced_x86::FlowControl::Call),
            None => d.x86.as_ref().is_none_or(|x| {
                let m = x.mnemonic.as_str();
                m.starts_with('j') || m.starts_with("loop") || m.starts_with("ret")
            }),
        };
        if !jump {
            return true;
        }
        let target = match &d.machine {
            Some(m) if m.is_jcc_short_or_near() || m.is_jmp_short_or_near() => Some(m.near_branch_target()),
            Some(_) => None,
            None => d.x86.as_ref().and_then(|x| x.branch_target()).map(|(a, _)| a),
        };
        let inside = d.address >= from && d.address < to;
        let ret = match &d.machine {
            Some(m) => m.flow_control() == iced_x86::FlowControl::Return,
            None => d.x86.as_ref().is_some_and(X86Text::is_ret),
        };
        // A return leaves; a jump whose target is not known may land anywhere.
        !inside && (ret || target.is_some_and(|t| t <= from || t > to))
    })
}

/// The code of one function the transcript shows before a pc.
pub struct ShownCode<S> {
    /// In address order, up to (not including) the pc.
    pub insns: Vec<S>,
    /// The function's start, when the listing gives the pc's offset (`<+16>`, `<f+16>`).
    pub start: Option<u64>,
    /// The symbol the listing names (`<f+16>`), when it does.
    pub symbol: Option<String>,
    /// The listing starts at the function's entry: "not written before the pc" is then
    /// "not written since its entry".
    pub from_entry: bool,
}

/// `+16` / `f+16` / `f+0x10` / `f` → the offset.
fn location_offset(l: &Location) -> Option<u64> {
    if let Some(s) = l.symbol() {
        return Some(s.offset.unwrap_or(0));
    }
    let t = l.as_str().trim();
    let n = t.strip_prefix('+')?;
    match n.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => n.parse().ok(),
    }
}

/// The stop's disassembly as runs of consecutive lines (one command's output each).
fn runs(stop: &Stop) -> Vec<&[Instruction]> {
    let d = &stop.disassembly;
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=d.len() {
        let end = i == d.len() || d[i].span.first != d[i - 1].span.last + 1 || d[i].address <= d[i - 1].address;
        if end {
            out.push(&d[start..i]);
            start = i;
        }
    }
    out
}

/// The code the transcript shows of the function holding `pc`, before `pc` (the listing
/// with the most instructions before it).
pub fn code_before<'a, S: ShownIsa<'a>>(stop: &'a Stop, pc: u64) -> Option<ShownCode<S>> {
    let (run, at) = runs(stop)
        .into_iter()
        .filter_map(|r| r.iter().position(|i| i.address.0 == pc).map(|p| (r, p)))
        .max_by_key(|(_, p)| *p)?;
    let here = &run[at];
    let off = here.location.as_ref().and_then(location_offset);
    let start = off.and_then(|o| pc.checked_sub(o));
    let symbol = run[..=at].iter().rev().find_map(|i| i.location.as_ref()?.symbol()).map(|s| s.name.to_string());
    let insns: Vec<S> = run[..at].iter().map(S::new).collect();
    let first = insns.first().map(|i| i.address()).unwrap_or(pc);
    // A jump to below the listing's start means the code named as this function is part of
    // a larger one (debug info that does not describe the code): its entry is not shown.
    let escapes = insns.iter().any(|d| d.jump_target().is_some_and(|t| t < first));
    let from_entry = start == Some(first) && !escapes;
    Some(ShownCode { insns, start, symbol, from_entry })
}

/// The listing the transcript shows from `entry` (a function's first instruction, at offset 0
/// where the listing names it) to the listing's end, whatever follows.
pub fn listing_from(stop: &Stop, entry: u64) -> Option<Vec<ShownInsn<'_>>> {
    runs(stop).into_iter().find_map(|run| {
        let p = run.iter().position(|i| i.address.0 == entry)?;
        if run[p].location.as_ref().and_then(location_offset).is_some_and(|o| o != 0) {
            return None;
        }
        Some(run[p..].iter().map(ShownInsn::new).collect())
    })
}

/// The code the transcript shows of the function starting at `entry`, up to its first `ret`
/// (at most `max` instructions): a listing that contains `entry` at offset 0.
pub fn function_at<'a, S: ShownIsa<'a>>(stop: &'a Stop, entry: u64, max: usize) -> Option<Vec<S>> {
    for run in runs(stop) {
        let Some(p) = run.iter().position(|i| i.address.0 == entry) else { continue };
        if run[p].location.as_ref().and_then(location_offset).is_some_and(|o| o != 0) {
            continue;
        }
        let mut out = Vec::new();
        for i in run[p..].iter().take(max) {
            let s = S::new(i);
            let ret = s.is_ret();
            out.push(s);
            if ret {
                return Some(out);
            }
        }
    }
    None
}

/// What one frame's shown code covered in a walk.
pub struct Cover {
    /// Position in the thread's frames.
    pub pos: usize,
    pub name: String,
    /// Instructions shown before the pc.
    pub count: usize,
    pub from_entry: bool,
}

impl Cover {
    /// `run_pass_manager (frame #2): 6 instructions from its entry to the pc`.
    pub fn describe(&self, th: &Thread) -> String {
        let idx = th.frames.get(self.pos).map(|f| f.index).unwrap_or(0);
        if self.from_entry {
            format!("{} (frame #{idx}): {} instructions from its entry to the pc", self.name, self.count)
        } else {
            format!("{} (frame #{idx}): the {} instructions shown before the pc", self.name, self.count)
        }
    }
}

/// `f+0x1c` for an address of `code`.
pub fn label(name: &str, start: Option<u64>, addr: u64) -> String {
    match start {
        Some(s) if addr >= s => format!("{name}+{:#x}", addr - s),
        _ => format!("{addr:#x}"),
    }
}

/// [`crate::provenance::register_origin`] over the transcript's disassembly: walks out from
/// frame #0 for the last instruction that wrote `reg` (`r13`) before each frame's pc. A frame
/// whose shown code starts at its entry and does not write `reg` passes it on; one whose
/// listing starts later ends the walk with [`Origin::NotInShown`]. Also returns what each
/// frame's listing covered. `None` when frame #0's code before its pc is not shown.
pub fn register_origin<'a, S: ShownIsa<'a>>(
    stop: &'a Stop,
    th: &Thread,
    reg: &str,
    max_frames: usize,
) -> Option<(Origin, Vec<Cover>)> {
    let mut through = Vec::new();
    let mut covers = Vec::new();
    for (pos, f) in th.frames.iter().enumerate().take(max_frames) {
        if f.signal_handler {
            return (!through.is_empty()).then_some((Origin::NotFound { pos, through }, covers));
        }
        if f.inlined {
            continue;
        }
        let pc = match f.pc {
            Some(pc) => pc.0,
            None if th.frames[..pos].iter().all(|f| f.inlined) => {
                th.registers.get(&th.frames[0].index).and_then(|r| r.reg(S::PC)).and_then(|r| r.value)?
            }
            None => return None,
        };
        let code = code_before::<S>(stop, pc).filter(|c| !c.insns.is_empty());
        let Some(code) = code else {
            return (!through.is_empty()).then_some((Origin::NotFound { pos, through }, covers));
        };
        let name = f.function.as_deref().map(str::to_string).or(code.symbol.clone()).unwrap_or_else(|| "??".into());
        covers.push(Cover { pos, name: name.clone(), count: code.insns.len(), from_entry: code.from_entry });
        for d in code.insns.iter().rev() {
            match d.writes(reg) {
                Some(true) => {
                    let origin = Origin::Written {
                        pos,
                        address: d.address(),
                        label: label(&name, code.start, d.address()),
                        text: d.text().to_string(),
                        through,
                    };
                    return Some((origin, covers));
                }
                Some(false) => {}
                // An instruction whose effect on registers is not known: the frames so far
                // pass the value on; nothing is said of this one.
                None => {
                    covers.pop();
                    return (!through.is_empty()).then_some((Origin::NotFound { pos, through }, covers));
                }
            }
        }
        if !code.from_entry {
            return Some((Origin::NotInShown { pos, shown: code.insns.len(), through }, covers));
        }
        through.push((pos, name));
    }
    None
}

/// Where a callee's code (from its entry) saves `reg`: the slot's offset from the callee's
/// CFA (the caller's sp at the call; `push` after entry: CFA-16) and the saving instruction.
/// The same stack accounting as [`crate::provenance::callee_effect`].
pub fn save_slot<'a>(code: &'a [ShownInsn<'a>], reg: &str) -> Option<(i64, &'a ShownInsn<'a>)> {
    let mut depth: i64 = 0;
    for d in code {
        let x = d.x86.as_ref()?;
        let m = x.mnemonic.trim_end_matches('q');
        let ops = &x.operands;
        let is = |o: Option<&X86Operand>, r: &str| matches!(o, Some(X86Operand::Reg { gpr, .. }) if *gpr == r);
        match m {
            "push" if ops.len() == 1 => {
                depth += 8;
                if is(ops.first(), reg) {
                    return Some((-(8 + depth), d));
                }
                continue;
            }
            "pop" => {
                if is(ops.first(), reg) {
                    return None;
                }
                depth -= 8;
                continue;
            }
            "sub" | "add" if ops.len() == 2 && is(x.destination(), "rsp") => {
                let imm = ops.iter().find_map(|o| if let X86Operand::Imm(v) = o { Some(*v) } else { None })?;
                depth += if m == "sub" { imm } else { -imm };
                continue;
            }
            _ => {}
        }
        // `mov %reg,disp(%rsp)`: a save into the frame.
        if m == "mov"
            && ops.len() == 2
            && let Some(X86Operand::Mem(mm)) = x.destination()
            && mm.base.as_deref() == Some("rsp")
            && mm.index.is_none()
        {
            let src = if x.intel { ops.get(1) } else { ops.first() };
            if is(src, reg) {
                return Some((-(8 + depth - mm.disp), d));
            }
            continue;
        }
        if d.writes(reg) != Some(false) || d.writes("rsp") != Some(false) || d.is_call() {
            // Written before it is saved, an unknown instruction, or sp moved in a way not
            // followed: no save slot is claimed.
            return None;
        }
    }
    None
}

/// What a called function does to a callee-saved register, from the code the transcript
/// shows of it (entry to first `ret`): [`crate::provenance::callee_effect`] over text.
pub fn callee_effect(code: &[ShownInsn<'_>], reg: &str) -> Option<CalleeEffect> {
    let mut depth: i64 = 0;
    let mut slot: Option<(i64, u64, String)> = None;
    for d in code {
        let x = d.x86.as_ref()?;
        let m = x.mnemonic.trim_end_matches('q');
        let ops = &x.operands;
        let is = |o: Option<&X86Operand>, r: &str| matches!(o, Some(X86Operand::Reg { gpr, .. }) if *gpr == r);
        match m {
            "push" if ops.len() == 1 => {
                depth += 8;
                if is(ops.first(), reg) {
                    slot = Some((depth, d.address, d.text.to_string()));
                }
                continue;
            }
            "pop" if ops.len() == 1 => {
                if is(ops.first(), reg) {
                    slot = None;
                }
                depth -= 8;
                continue;
            }
            "sub" | "add" if ops.len() == 2 && is(x.destination(), "rsp") => {
                let imm = ops.iter().find_map(|o| if let X86Operand::Imm(v) = o { Some(*v) } else { None })?;
                depth += if m == "sub" { imm } else { -imm };
                continue;
            }
            _ => {}
        }
        let rsp_mem = x.memory().filter(|mm| mm.base.as_deref() == Some("rsp") && mm.index.is_none());
        if m == "mov"
            && ops.len() == 2
            && let Some(mm) = rsp_mem
        {
            let sd = depth - mm.disp;
            let (dst, src) = if x.intel { (ops.first(), ops.get(1)) } else { (ops.get(1), ops.first()) };
            if matches!(dst, Some(X86Operand::Mem(_))) && is(src, reg) && slot.is_none() {
                slot = Some((sd, d.address, d.text.to_string()));
                continue;
            }
            if is(dst, reg) && slot.as_ref().is_some_and(|(s, _, _)| *s == sd) {
                slot = None;
                continue;
            }
        }
        if let (Some((sd, pa, pt)), Some(mm)) = (&slot, rsp_mem)
            && depth - mm.disp == *sd
            && x.stores_to_memory()
        {
            return Some(CalleeEffect::OverwritesSaveSlot {
                push: (*pa, pt.clone()),
                store: (d.address, d.text.to_string()),
            });
        }
        if slot.is_none() && d.writes(reg)? {
            return Some(CalleeEffect::Clobbers(d.address, d.text.to_string()));
        }
    }
    None
}

/// `[base, #imm]` (or `[base]`) of an AArch64 memory operand as printed: the base register and
/// the immediate offset before the access, and whether the base is written back (`!`, or a
/// post-index `[x1], #8`). `None` for a register index (`[x2, x3, lsl #3]`) or no memory operand.
pub fn a64_mem(text: &str) -> Option<(u16, i64, bool)> {
    let t = text.split("//").next().unwrap_or(text);
    let t = t.split(';').next().unwrap_or(t);
    let open = t.find('[')?;
    let close = open + t[open..].find(']')?;
    let inner = &t[open + 1..close];
    let mut parts = inner.split(',').map(str::trim);
    let base = crate::insn::a64_gpr(parts.next()?)?;
    let off = match parts.next() {
        None => 0,
        Some(p) => {
            let n = p.strip_prefix('#')?;
            let (neg, n) = match n.strip_prefix('-') {
                Some(r) => (true, r),
                None => (false, n),
            };
            let v = match n.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16).ok()?,
                None => n.parse::<i64>().ok()?,
            };
            if neg { -v } else { v }
        }
    };
    if parts.next().is_some() {
        return None;
    }
    let after = t[close + 1..].trim_start();
    let pre = after.starts_with('!');
    let post = after.starts_with(',');
    let post_off = if post {
        let n = after[1..].trim().strip_prefix('#')?;
        let (neg, n) = match n.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, n),
        };
        let v = match n.strip_prefix("0x") {
            Some(h) => i64::from_str_radix(h, 16).ok()?,
            None => n.parse::<i64>().ok()?,
        };
        Some(if neg { -v } else { v })
    } else {
        None
    };
    // Post-index: the access is at the base itself; the offset is the writeback.
    match post_off {
        Some(_) => Some((base, 0, true)),
        None => Some((base, off, pre)),
    }
}

/// The symbol a shown direct branch names for its target (`bl 0x400770 <window_sum>` →
/// `window_sum`; not `<f+16>`, an address inside a function).
pub fn a64_target_symbol(d: &ShownA64<'_>) -> Option<String> {
    let t = d.text.split("//").next().unwrap_or(d.text);
    let inner = t.rsplit_once('<')?.1.split_once('>')?.0.trim();
    (!inner.is_empty() && !inner.contains('+') && !inner.contains(char::is_whitespace)).then(|| inner.to_string())
}

/// The writeback amount of a pre- or post-index operand (`[sp, #-48]!` → -48, `[sp], #48` → 48).
fn a64_writeback(text: &str) -> Option<i64> {
    let t = text.split("//").next().unwrap_or(text);
    let close = t.find(']')?;
    let after = t[close + 1..].trim_start();
    if after.starts_with('!') {
        return a64_mem(t).map(|(_, off, _)| off);
    }
    let n = after.strip_prefix(',')?.trim().strip_prefix('#')?;
    let (neg, n) = match n.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, n),
    };
    let v = match n.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => n.parse::<i64>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// The registers an AArch64 store (`str`, `stur`, `stp`) writes to memory, in order, and the
/// size of each (8 for x, 4 for w); `None` when the text is not such a store.
fn a64_store_sources(a: &A64Text, text: &str) -> Option<Vec<(Option<u16>, i64)>> {
    let pair = matches!(a.mnemonic.as_str(), "stp" | "stnp");
    if !(pair || matches!(a.mnemonic.as_str(), "str" | "stur")) {
        return None;
    }
    let ops = text.split('[').next()?;
    let words: Vec<&str> = ops
        .split_once(char::is_whitespace)
        .map(|(_, r)| r)
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    let n = if pair { 2 } else { 1 };
    if words.len() != n {
        return None;
    }
    words
        .iter()
        .map(|w| {
            let size = match w.chars().next()? {
                'x' => 8,
                'w' => 4,
                _ => return None,
            };
            let r = if matches!(*w, "xzr" | "wzr") { None } else { Some(crate::insn::a64_gpr(w)?) };
            Some((r, size))
        })
        .collect()
}

/// Where an AArch64 callee's shown code (from its entry) saves x`reg`: the slot's offset from
/// its CFA (the caller's sp at the `bl`, which is the callee's sp at entry) and the saving
/// instruction. Follows sp through `stp x29, x30, [sp, #-48]!`, `sub sp, sp, #n` and
/// post-index restores; `None` when sp moves in a way not followed or the register is written
/// before it is saved.
pub fn save_slot_a64<'a>(code: &'a [ShownA64<'a>], reg: u16) -> Option<(i64, &'a ShownA64<'a>)> {
    use crate::insn::A64_SP;
    let mut sp: i64 = 0;
    for d in code {
        let a = d.a64.as_ref()?;
        let mem = a64_mem(d.text);
        if let Some(srcs) = a64_store_sources(a, d.text)
            && let Some((base, off, _)) = mem
            && base == A64_SP
        {
            let mut at = sp + off;
            for (r, size) in srcs {
                if r == Some(reg) && size == 8 {
                    return Some((at, d));
                }
                at += size;
            }
            if let Some(wb) = a64_writeback(d.text) {
                sp += wb;
            }
            continue;
        }
        // sp moved by an immediate.
        if matches!(a.mnemonic.as_str(), "sub" | "add")
            && a.operands.len() == 3
            && matches!(a.operands[0], crate::insn::A64Operand::Reg(A64_SP))
            && matches!(a.operands[1], crate::insn::A64Operand::Reg(A64_SP))
            && let crate::insn::A64Operand::Imm(n) = a.operands[2]
        {
            sp += if a.mnemonic == "sub" { -n } else { n };
            continue;
        }
        let w = a.written()?;
        if w.contains(&reg) || w.contains(&A64_SP) || a.is_call() || a.is_jump() {
            return None;
        }
    }
    None
}

/// What an AArch64 callee's shown code (entry to first `ret`) does to callee-saved x`reg`:
/// writes it before any store of it ([`CalleeEffect::Clobbers`]), or stores it (a save,
/// wherever it goes), writes it with something other than a load (`ldp`/`ldr`, the restore)
/// and reaches its `ret` without loading it back ([`CalleeEffect::NotRestored`]). An
/// instruction whose text is not understood ends it with `None`.
pub fn callee_effect_a64(code: &[ShownA64<'_>], reg: u16) -> Option<CalleeEffect> {
    let mut saved: Option<(u64, String)> = None;
    let mut written: Option<(u64, String)> = None;
    for d in code {
        let a = d.a64.as_ref()?;
        if let Some(srcs) = a64_store_sources(a, d.text)
            && srcs.iter().any(|(r, _)| *r == Some(reg))
        {
            if saved.is_none() {
                saved = Some((d.address, d.text.trim().to_string()));
            }
            continue;
        }
        if a.writes(reg)? {
            if saved.is_none() {
                return Some(CalleeEffect::Clobbers(d.address, d.text.trim().to_string()));
            }
            if a.mnemonic.starts_with("ld") {
                // The restore.
                saved = None;
                written = None;
            } else if written.is_none() {
                written = Some((d.address, d.text.trim().to_string()));
            }
        }
    }
    if let (Some(save), Some(write)) = (saved, written)
        && code.last().and_then(|d| d.a64.as_ref()).is_some_and(|a| a.is_ret())
    {
        return Some(CalleeEffect::NotRestored { save, write });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use iced_x86::{Decoder, DecoderOptions, Formatter, GasFormatter, InstructionInfoFactory, IntelFormatter};

    /// The text decoder agrees with iced-x86 on which general registers each instruction
    /// writes, over real machine code (this test binary's own .text), printed in AT&T and in
    /// gdb's Intel syntax. Instructions whose text the decoder does not know (`None`) are
    /// allowed, but few.
    #[test]
    fn text_writes_agree_with_iced_on_real_code() {
        use object::{Object, ObjectSection};
        let exe = std::fs::read(std::env::current_exe().expect("test binary")).expect("read test binary");
        let file = object::File::parse(&*exe).expect("ELF");
        if file.architecture() != object::Architecture::X86_64 {
            eprintln!("SKIPPED text_writes_agree_with_iced_on_real_code: not an x86-64 build");
            return;
        }
        let text = file.section_by_name(".text").expect(".text");
        let data = text.data().expect(".text data");
        let mut dec = Decoder::with_ip(64, data, text.address(), DecoderOptions::NONE);
        let mut gas = GasFormatter::new();
        gas.options_mut().set_first_operand_char_index(7);
        let mut intel = IntelFormatter::new();
        intel.options_mut().set_hex_prefix("0x");
        intel.options_mut().set_hex_suffix("");
        intel.options_mut().set_uppercase_keywords(true);
        intel.options_mut().set_space_after_operand_separator(false);
        intel.options_mut().set_first_operand_char_index(7);
        let mut info = InstructionInfoFactory::new();
        let regs = crate::runtime::callee_saved(Arch::X86_64)
            .iter()
            .chain(["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "rsp"].iter())
            .copied()
            .collect::<Vec<_>>();
        let (mut checked, mut unknown) = (0usize, 0usize);
        let mut bad = Vec::new();
        while dec.can_decode() && checked < 60_000 {
            let insn = dec.decode();
            if insn.is_invalid() {
                continue;
            }
            for fmt in [&mut gas as &mut dyn Formatter, &mut intel] {
                let mut s = String::new();
                fmt.format(&insn, &mut s);
                let Some(x) = X86Text::parse(&s) else {
                    unknown += 1;
                    continue;
                };
                for r in &regs {
                    let want = crate::provenance::writes(&mut info, &insn, crate::provenance::gpr(r).unwrap());
                    match x.writes(r) {
                        None => {
                            unknown += 1;
                            break;
                        }
                        Some(got) if got != want && bad.len() < 400 => {
                            let key = s.split_whitespace().next().unwrap_or("").to_string();
                            if !bad.iter().any(|b: &String| b.starts_with(&format!("{key} "))) {
                                bad.push(format!("{key} | {s}: {r} {got} (iced {want})"));
                            }
                        }
                        _ => {}
                    }
                }
            }
            checked += 1;
        }
        assert!(checked > 10_000, "only {checked} instructions decoded");
        assert!(bad.is_empty(), "{} disagreements:\n{}", bad.len(), bad.join("\n"));
        assert!(unknown * 200 < checked, "{unknown} of {checked} instruction texts not understood");
    }

    fn stop(t: &str) -> Trace {
        crate::input::parse(t).trace
    }

    const INTEL_WALK: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555549 in callee ()
(gdb) bt
#0  0x0000555555555549 in callee ()
#1  0x0000555555555535 in middle ()
#2  0x000055555555551b in outer ()
(gdb) disassemble
Dump of assembler code for function callee:
   0x000055555555553a <+0>:\tpush   rbp
   0x000055555555553b <+1>:\tmov    rbp,rsp
   0x0000555555555545 <+11>:\tmov    rax,QWORD PTR [r13+0x10]
=> 0x0000555555555549 <+15>:\tmov    rax,QWORD PTR [rax+0x10]
End of assembler dump.
(gdb) frame 1
#1  0x0000555555555535 in middle ()
(gdb) disassemble
Dump of assembler code for function middle:
   0x0000555555555528 <+0>:\tpush   rbp
   0x0000555555555529 <+1>:\tmov    rbp,rsp
   0x0000555555555533 <+11>:\tcall   rax
=> 0x0000555555555535 <+13>:\tmovzx  eax,al
End of assembler dump.
(gdb) frame 2
#2  0x000055555555551b in outer ()
(gdb) disassemble
Dump of assembler code for function outer:
   0x000055555555550b <+0>:\tpush   rbp
   0x000055555555550c <+1>:\tmov    rbp,rsp
   0x000055555555550f <+4>:\tpush   r13
   0x0000555555555513 <+8>:\tmov    r13,rsi
   0x0000555555555516 <+11>:\tmov    r12,rdi
   0x0000555555555519 <+14>:\tcall   rdx
=> 0x000055555555551b <+16>:\tmovsxd rax,eax
End of assembler dump.
";

    #[test]
    fn walks_out_through_intel_listings() {
        let t = stop(INTEL_WALK);
        let s = t.main_stop().unwrap();
        let th = s.crashed_thread().unwrap();
        let (o, covers) = register_origin::<ShownInsn>(s, th, "r13", 32).expect("origin");
        match o {
            Origin::Written { pos, label, text, through, .. } => {
                assert_eq!((pos, label.as_str(), text.as_str()), (2, "outer+0x8", "mov    r13,rsi"));
                assert_eq!(through.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>(), ["callee", "middle"]);
            }
            _ => panic!("not written"),
        }
        assert_eq!(covers.len(), 3);
        assert!(covers.iter().all(|c| c.from_entry));
        // rbp is written in frame #0 itself.
        let (o, _) = register_origin::<ShownInsn>(s, th, "rbp", 32).unwrap();
        assert!(matches!(o, Origin::Written { pos: 0, ref label, .. } if label == "callee+0x1"));
    }

    #[test]
    fn a_listing_cut_short_says_only_what_it_shows() {
        // Frame #2's listing starts after its entry: r13 is "not written in the 2 instructions shown".
        let cut = INTEL_WALK
            .replace("   0x000055555555550b <+0>:\tpush   rbp\n   0x000055555555550c <+1>:\tmov    rbp,rsp\n   0x000055555555550f <+4>:\tpush   r13\n   0x0000555555555513 <+8>:\tmov    r13,rsi\n", "");
        let t = stop(&cut);
        let s = t.main_stop().unwrap();
        let th = s.crashed_thread().unwrap();
        let (o, covers) = register_origin::<ShownInsn>(s, th, "r13", 32).expect("origin");
        assert!(matches!(o, Origin::NotInShown { pos: 2, shown: 2, ref through } if through.len() == 2));
        assert!(!covers[2].from_entry);
        // Without frame #2's listing: inherited from frame #2.
        let none = &INTEL_WALK[..INTEL_WALK.find("(gdb) frame 2").unwrap()];
        let t = stop(none);
        let s = t.main_stop().unwrap();
        let (o, _) = register_origin::<ShownInsn>(s, s.crashed_thread().unwrap(), "r13", 32).expect("origin");
        assert!(matches!(o, Origin::NotFound { pos: 2, .. }));
        // Only `x/i $pc` (nothing before the pc): no claim.
        let only_pc = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555549 in callee ()
(gdb) x/2i $pc
=> 0x555555555549 <callee+15>:\tmov    0x10(%rax),%rax
   0x55555555554d <callee+19>:\tmov    (%rax),%rax
";
        let t = stop(only_pc);
        let s = t.main_stop().unwrap();
        assert!(register_origin::<ShownInsn>(s, s.crashed_thread().unwrap(), "r13", 32).is_none());
    }

    #[test]
    fn save_slots_and_effects_from_text() {
        let t = stop(
            "\
(gdb) disassemble /r mix_rows
Dump of assembler code for function mix_rows:
   0x00005555555551d0 <+0>:\t53                 \tpush   %rbx
   0x00005555555551d1 <+1>:\t41 54              \tpush   %r12
   0x00005555555551d3 <+3>:\t48 83 ec 10        \tsub    $0x10,%rsp
   0x00005555555551d7 <+7>:\t49 89 fc           \tmov    %rdi,%r12
   0x00005555555551da <+10>:\t48 89 f3           \tmov    %rsi,%rbx
   0x0000555555555209 <+57>:\t48 83 c4 10        \tadd    $0x10,%rsp
   0x000055555555520d <+61>:\t41 5c              \tpop    %r12
   0x000055555555520f <+63>:\t5b                 \tpop    %rbx
   0x0000555555555210 <+64>:\tc3                 \tret
End of assembler dump.
(gdb) disassemble sum_pairs
Dump of assembler code for function sum_pairs:
   0x0000555555555300 <+0>:\tsub    rsp,0x28
   0x0000555555555304 <+4>:\tmov    QWORD PTR [rsp+0x10],rbx
   0x0000555555555309 <+9>:\tmov    rbx,rdi
   0x000055555555530c <+12>:\tmov    rbx,QWORD PTR [rsp+0x10]
   0x0000555555555311 <+17>:\tadd    rsp,0x28
   0x0000555555555315 <+21>:\tret
End of assembler dump.
",
        );
        let s = &t.stops[0];
        let f = function_at::<ShownInsn>(s, 0x5555555551d0, 400).expect("mix_rows");
        assert_eq!(f.len(), 9);
        assert!(f[0].machine.is_some(), "bytes are decoded");
        assert_eq!(f[1].text, "push   %r12");
        assert_eq!(save_slot(&f, "r12").map(|(o, d)| (o, d.address)), Some((-24, 0x5555555551d1)));
        assert_eq!(save_slot(&f, "rbx").map(|(o, _)| o), Some(-16));
        assert!(callee_effect(&f, "r12").is_none(), "saved and restored");
        let g = function_at::<ShownInsn>(s, 0x555555555300, 400).expect("sum_pairs");
        assert_eq!(save_slot(&g, "rbx").map(|(o, _)| o), Some(-32));
        assert!(callee_effect(&g, "rbx").is_none());
        assert!(function_at::<ShownInsn>(s, 0x5555555551d1, 400).is_none(), "not an entry");
    }
}
