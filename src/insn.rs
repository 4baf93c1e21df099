//! Just enough instruction decoding, from disassembly text, to say which register a faulting
//! instruction dereferenced, at what offset, and whether it read or wrote.
//!
//! Handles gdb's AT&T syntax (`mov 0x18(%rax),%rdx`), Intel syntax
//! (`mov rdx, qword ptr [rax + 0x18]`, as CASR prints) and AArch64 (`ldr x0, [x1, #24]`).

/// A memory operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemOperand {
    pub base: Option<String>,
    pub index: Option<String>,
    pub scale: u8,
    pub disp: i64,
    /// rip-relative / pc-relative.
    pub pc_relative: bool,
    /// Segment override (`%fs:`), which makes the address TLS-relative.
    pub segment: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// Both (e.g. `add %eax,(%rdx)`), or unknown direction.
    ReadWrite,
}

/// What an instruction does with memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub mnemonic: String,
    pub mem: Option<MemOperand>,
    pub access: Option<Access>,
    /// Call/jump through a register or memory (`call *%rax`, `blr x8`).
    pub indirect_target: Option<String>,
    /// An aligned vector access that faults on misalignment (`movaps`, `movdqa`, …).
    pub needs_alignment: Option<u32>,
    /// `push`/`call`/`ret`: implicit stack access.
    pub stack_access: bool,
}

fn strip_reg(r: &str) -> String {
    r.trim().trim_start_matches('%').to_ascii_lowercase()
}

fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim().trim_start_matches('#').trim_start_matches('$');
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, s.trim_start_matches('+').trim()),
    };
    let v = if let Some(h) = s.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok().or_else(|| u64::from_str_radix(h, 16).ok().map(|x| x as i64))?
    } else {
        s.parse::<i64>().ok()?
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// Splits operands at top-level commas (not inside parens or brackets).
fn split_operands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// AT&T: `-0x18(%rbp,%rax,8)`, `%fs:0x28`, `0x2ee5(%rip)`.
fn att_mem(op: &str) -> Option<MemOperand> {
    let op = op.trim().trim_start_matches('*');
    let (segment, op) = match op.split_once(':') {
        Some((seg, rest)) if seg.starts_with('%') => (Some(strip_reg(seg)), rest),
        _ => (None, op),
    };
    if let Some(open) = op.find('(') {
        let disp = if open == 0 { 0 } else { parse_int(&op[..open])? };
        let inner = op[open + 1..].trim_end_matches(')');
        let parts: Vec<&str> = inner.split(',').collect();
        let base = parts.first().map(|s| strip_reg(s)).filter(|s| !s.is_empty());
        let index = parts.get(1).map(|s| strip_reg(s)).filter(|s| !s.is_empty());
        let scale = parts.get(2).and_then(|s| s.trim().parse().ok()).unwrap_or(1);
        let pc_relative = matches!(base.as_deref(), Some("rip") | Some("eip"));
        return Some(MemOperand { base, index, scale, disp, pc_relative, segment });
    }
    if segment.is_some() {
        return Some(MemOperand {
            base: None,
            index: None,
            scale: 1,
            disp: parse_int(op).unwrap_or(0),
            pc_relative: false,
            segment,
        });
    }
    // Absolute memory operand `0x601040` (no `$`), only for moves.
    None
}

/// Intel: `qword ptr [rax + rbx*8 - 0x18]`, `fs:[0x28]`.
fn intel_mem(op: &str) -> Option<MemOperand> {
    let open = op.find('[')?;
    let close = op.rfind(']').filter(|&c| c > open)?;
    let prefix = &op[..open];
    let segment = prefix.trim().strip_suffix(':').map(|s| s.rsplit(' ').next().unwrap_or(s).to_ascii_lowercase());
    let inner = &op[open + 1..close];
    let mut m = MemOperand { base: None, index: None, scale: 1, disp: 0, pc_relative: false, segment };
    let mut sign = 1i64;
    for tok in inner.split_inclusive(['+', '-']) {
        let (body, next_sign) = match tok.chars().last() {
            Some('+') => (&tok[..tok.len() - 1], 1),
            Some('-') => (&tok[..tok.len() - 1], -1),
            _ => (tok, 1),
        };
        let body = body.trim();
        if !body.is_empty() {
            if let Some((r, s)) = body.split_once('*') {
                m.index = Some(strip_reg(r));
                m.scale = s.trim().parse().unwrap_or(1);
            } else if let Some(v) = parse_int(body) {
                m.disp += sign * v;
            } else if m.base.is_none() {
                m.base = Some(strip_reg(body));
            } else {
                m.index = Some(strip_reg(body));
            }
        }
        sign = next_sign;
    }
    m.pc_relative = matches!(m.base.as_deref(), Some("rip"));
    Some(m)
}

/// AArch64: `[x1, #24]`, `[x1]`, `[sp, #-16]!`, `[x0], #8`, `[x1, x2, lsl #3]`.
fn a64_mem(op: &str) -> Option<MemOperand> {
    let open = op.find('[')?;
    // The `]` that closes it: one before the `[` (damaged text) is not.
    let close = open + 1 + op[open + 1..].find(']')?;
    let inner = &op[open + 1..close];
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let base = parts.first().map(|s| s.to_ascii_lowercase());
    let mut m = MemOperand { base, index: None, scale: 1, disp: 0, pc_relative: false, segment: None };
    if let Some(p) = parts.get(1) {
        if p.starts_with('#') {
            m.disp = parse_int(p).unwrap_or(0);
        } else {
            m.index = Some(p.to_ascii_lowercase());
        }
    }
    Some(m)
}

fn is_a64(mn: &str, ops: &str) -> bool {
    ops.contains('[')
        && (ops.contains('#') || ops.contains("x") || ops.contains("w"))
        && !ops.contains("ptr")
        && (mn.starts_with("ld")
            || mn.starts_with("st")
            || mn.starts_with("prfm")
            || mn.starts_with("cas")
            || mn.starts_with("swp"))
}

/// Decodes one disassembly text (`mov    0x18(%rax),%rax`).
pub fn decode(text: &str) -> Decoded {
    // Drop raw bytes (`48 8b 40 18\tmov …` from `x/i` with /r), comments, and prefixes.
    let mut t = text.trim();
    if let Some(p) = t.find('#').filter(|_| t.contains(" # ")) {
        t = t[..p].trim();
    }
    if let Some(p) = t.find("//") {
        t = t[..p].trim();
    }
    if let Some(p) = t.find(" <") {
        // branch targets `call 0x1040 <puts@plt>`
        if !t[p..].contains('[') {
            t = t[..p].trim();
        }
    }
    let mut words = t.splitn(2, char::is_whitespace);
    let mut mnemonic = words.next().unwrap_or("").to_ascii_lowercase();
    let mut ops = words.next().unwrap_or("").trim();
    while matches!(
        mnemonic.as_str(),
        "lock" | "rep" | "repz" | "repnz" | "repe" | "repne" | "notrack" | "bnd" | "data16" | "cs" | "ds"
    ) {
        let mut w = ops.splitn(2, char::is_whitespace);
        mnemonic = w.next().unwrap_or("").to_ascii_lowercase();
        ops = w.next().unwrap_or("").trim();
    }
    let mut d = Decoded {
        mnemonic: mnemonic.clone(),
        mem: None,
        access: None,
        indirect_target: None,
        needs_alignment: None,
        stack_access: false,
    };
    let operands = split_operands(ops);
    let intel = ops.contains('[') && !is_a64(&mnemonic, ops);
    let a64 = is_a64(&mnemonic, ops);
    // AT&T size suffixes (`movl`, `addq`) dropped, for matching families.
    let base_mn: &str = match mnemonic.as_str() {
        m if m.len() > 3
            && (m.starts_with("mov")
                || m.starts_with("add")
                || m.starts_with("sub")
                || m.starts_with("cmp")
                || m.starts_with("push")
                || m.starts_with("pop")
                || m.starts_with("test")
                || m.starts_with("inc")
                || m.starts_with("dec")
                || m.starts_with("and")
                || m.starts_with("or")
                || m.starts_with("xor"))
            && m.ends_with(['q', 'l', 'w', 'b'])
            && !m.starts_with("movs") =>
        {
            &m[..m.len() - 1]
        }
        "callq" => "call",
        "jmpq" => "jmp",
        m => m,
    };

    if matches!(mnemonic.as_str(), "push" | "pushq" | "pop" | "popq" | "ret" | "retq" | "leave" | "leaveq") {
        d.stack_access = true;
    }
    if matches!(base_mn, "call" | "jmp") || mnemonic == "callq" || mnemonic == "jmpq" {
        d.stack_access = base_mn == "call" || mnemonic == "callq";
        if let Some(op) = operands.first() {
            if op.starts_with('*') {
                let o = op.trim_start_matches('*');
                if o.starts_with('%') {
                    d.indirect_target = Some(strip_reg(o));
                } else if let Some(m) = att_mem(o) {
                    d.mem = Some(m);
                    d.access = Some(Access::Read);
                }
            } else if intel && op.contains('[') {
                d.mem = intel_mem(op);
                d.access = Some(Access::Read);
            } else if !op.starts_with("0x") && !op.is_empty() && !op.contains('<') {
                d.indirect_target = Some(strip_reg(op));
            }
        }
        return d;
    }
    if matches!(mnemonic.as_str(), "blr" | "br" | "braa" | "blraa") {
        d.indirect_target = operands.first().map(|s| s.to_ascii_lowercase());
        return d;
    }
    if mnemonic == "lea"
        || mnemonic.starts_with("lea")
        || mnemonic == "nop"
        || mnemonic.starts_with("nop")
        || mnemonic.starts_with("prefetch")
        || mnemonic == "adr"
        || mnemonic == "adrp"
    {
        return d;
    }
    if matches!(
        mnemonic.as_str(),
        "movaps"
            | "movapd"
            | "movdqa"
            | "vmovaps"
            | "vmovapd"
            | "vmovdqa"
            | "vmovdqa64"
            | "vmovdqa32"
            | "movntdq"
            | "movntps"
            | "vmovntdq"
            | "fxsave"
            | "fxrstor"
            | "fxsave64"
            | "fxrstor64"
    ) {
        d.needs_alignment = Some(if mnemonic.starts_with('v') && ops.contains("ymm") {
            32
        } else if ops.contains("zmm") {
            64
        } else {
            16
        });
    }
    // SSE arithmetic with a memory operand also requires 16-byte alignment (non-VEX).
    if d.needs_alignment.is_none()
        && !mnemonic.starts_with('v')
        && (mnemonic.ends_with("ps") || mnemonic.ends_with("pd") || mnemonic.starts_with('p'))
        && ops.contains("xmm")
        && !mnemonic.starts_with("movu")
        && !mnemonic.contains("movu")
        && !mnemonic.starts_with("push")
        && !mnemonic.starts_with("pop")
    {
        d.needs_alignment = Some(16);
    }
    if a64 {
        let mem_at = operands.iter().position(|o| o.contains('['));
        if let Some(i) = mem_at {
            // Rejoin `[x1, #24]` that split_operands kept whole.
            d.mem = a64_mem(&operands[i..].join(", "));
            d.access = Some(if mnemonic.starts_with("st") {
                Access::Write
            } else if mnemonic.starts_with("ld") || mnemonic.starts_with("prfm") {
                Access::Read
            } else {
                Access::ReadWrite
            });
        }
        return d;
    }
    // x86: find the memory operand and its position.
    let mut mem_pos = None;
    for (i, op) in operands.iter().enumerate() {
        let m = if intel {
            if op.contains('[') { intel_mem(op) } else { None }
        } else if op.starts_with('$') || op.starts_with('%') && !op.contains(':') {
            None
        } else {
            att_mem(op)
        };
        if let Some(m) = m {
            d.mem = Some(m);
            mem_pos = Some(i);
            break;
        }
    }
    if let Some(pos) = mem_pos {
        let n = operands.len();
        // AT&T: destination is last; Intel: destination is first.
        let is_dest = if intel { pos == 0 } else { pos == n - 1 };
        let pure_move = base_mn.starts_with("mov")
            || mnemonic.starts_with("vmov")
            || mnemonic.starts_with("set")
            || mnemonic.starts_with("stos");
        d.access = Some(if n == 1 {
            // `incl (%rax)`, `notl`, `pushq (%rax)`, `fstp`: unary read-modify-write or read.
            if base_mn.starts_with("push") || base_mn.starts_with("fld") {
                Access::Read
            } else if base_mn.starts_with("fst") || base_mn.starts_with("set") {
                Access::Write
            } else {
                Access::ReadWrite
            }
        } else if is_dest {
            if pure_move {
                Access::Write
            } else if base_mn.starts_with("cmp") || base_mn.starts_with("test") {
                Access::Read
            } else {
                Access::ReadWrite
            }
        } else {
            Access::Read
        });
    }
    d
}

/// What an instruction does with one general register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegUse {
    /// Reads its value (as an operand, a memory base or index, or read-modify-write).
    Read,
    /// Overwrites it without reading (`mov …,%r13`, `pop %r13`, `xor %r13d,%r13d`).
    Write,
    /// Spills it to the stack (`push %r13`, `stp x19, x20, [sp, …]`): neither a use nor a
    /// definition of the incoming value.
    Save,
}

/// Whether an operand names `reg` (any width: `%r13`, `%r13d`, `r13w`; `x20` / `w20`).
fn names_reg(op: &str, reg: &str) -> bool {
    let w_form = reg.strip_prefix('x').map(|n| format!("w{n}"));
    op.split(|c: char| !c.is_ascii_alphanumeric()).any(|tok| {
        let t = tok.to_ascii_lowercase();
        t == reg
            || (reg.starts_with('r')
                && reg[1..].chars().all(|c| c.is_ascii_digit())
                && t.len() == reg.len() + 1
                && t.starts_with(reg)
                && t.ends_with(['d', 'w', 'b']))
            || w_form.as_deref() == Some(t.as_str())
    })
}

/// How the instruction `text` (AT&T, Intel or AArch64) uses the general register `reg`
/// (named as gdb names it in `info registers`: `r13`, `x20`). `None` when it does not.
pub fn reg_use(text: &str, reg: &str) -> Option<RegUse> {
    let t = text.trim();
    let mut words = t.splitn(2, char::is_whitespace);
    let mn = words.next().unwrap_or("").to_ascii_lowercase();
    let ops_text = words.next().unwrap_or("").trim();
    let ops_text = ops_text.split(" #").next().unwrap_or(ops_text).split("//").next().unwrap_or(ops_text).trim();
    let ops = split_operands(ops_text);
    if !ops.iter().any(|o| names_reg(o, reg)) {
        return None;
    }
    let d = decode(t);
    if let Some(m) = &d.mem
        && (m.base.as_deref().is_some_and(|b| names_reg(b, reg))
            || m.index.as_deref().is_some_and(|i| names_reg(i, reg)))
    {
        return Some(RegUse::Read);
    }
    if mn.starts_with("push") {
        return Some(RegUse::Save);
    }
    if mn.starts_with("pop") {
        return Some(RegUse::Write);
    }
    let att = ops_text.contains('%');
    let a64 = !att && (mn.starts_with("ld") || mn.starts_with("st") || reg.starts_with('x'));
    if a64 && mn.starts_with("st") {
        return Some(RegUse::Save);
    }
    if a64 && mn.starts_with("ld") {
        // `ldp x19, x20, [sp]`, `ldr x20, [x0]`: the registers before the address are loaded.
        let addr_at = ops.iter().position(|o| o.contains('[')).unwrap_or(ops.len());
        return Some(if ops[..addr_at].iter().any(|o| names_reg(o, reg)) { RegUse::Write } else { RegUse::Read });
    }
    let (dest, srcs): (&str, Vec<&str>) = if att {
        match ops.split_last() {
            Some((d, s)) => (d, s.to_vec()),
            None => return Some(RegUse::Read),
        }
    } else {
        match ops.split_first() {
            Some((d, s)) => (d, s.to_vec()),
            None => return Some(RegUse::Read),
        }
    };
    if srcs.iter().any(|s| names_reg(s, reg)) {
        // `xor %r13d,%r13d` / `sub r13, r13` zero it.
        if names_reg(dest, reg) && srcs.len() == 1 && matches!(mn.trim_end_matches(['q', 'l']), "xor" | "sub" | "eor") {
            return Some(RegUse::Write);
        }
        return Some(RegUse::Read);
    }
    if names_reg(dest, reg) {
        let pure =
            mn.starts_with("mov") || mn.starts_with("lea") || mn.starts_with("set") || mn == "adr" || mn == "adrp";
        let compare = mn.starts_with("cmp") || mn.starts_with("test") || mn == "cmn" || mn == "tst";
        return Some(if compare || !pure { RegUse::Read } else { RegUse::Write });
    }
    Some(RegUse::Read)
}

/// The 64-bit general register an x86-64 register name belongs to (`r13d` → `r13`, `al` →
/// `rax`, `%esi` → `rsi`); `None` for any other register (`rip`, `xmm0`, segment registers).
pub fn x86_gpr64(name: &str) -> Option<&'static str> {
    const LEGACY: [(&str, [&str; 5]); 8] = [
        ("rax", ["rax", "eax", "ax", "al", "ah"]),
        ("rbx", ["rbx", "ebx", "bx", "bl", "bh"]),
        ("rcx", ["rcx", "ecx", "cx", "cl", "ch"]),
        ("rdx", ["rdx", "edx", "dx", "dl", "dh"]),
        ("rsi", ["rsi", "esi", "si", "sil", "sil"]),
        ("rdi", ["rdi", "edi", "di", "dil", "dil"]),
        ("rbp", ["rbp", "ebp", "bp", "bpl", "bpl"]),
        ("rsp", ["rsp", "esp", "sp", "spl", "spl"]),
    ];
    const NUMBERED: [&str; 8] = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];
    let n = name.trim().trim_start_matches('%').to_ascii_lowercase();
    if let Some((r, _)) = LEGACY.iter().find(|(_, names)| names.contains(&n.as_str())) {
        return Some(r);
    }
    let base = n.trim_end_matches(['d', 'w', 'b', 'l']);
    let suffix = n.len() - base.len();
    (suffix <= 1).then(|| NUMBERED.iter().copied().find(|r| *r == base)).flatten()
}

/// One x86-64 operand as printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum X86Operand {
    /// A general register, by its 64-bit name, and whether it is the 8-bit form or the
    /// 32-bit form (`%eax`, `r13d`: a write zero-extends into the whole register).
    Reg {
        gpr: &'static str,
        byte: bool,
        dword: bool,
    },
    Mem(MemOperand),
    Imm(i64),
    /// A branch target (`0x401136 <mix_rows>`), with the symbol gdb printed.
    Target {
        address: u64,
        symbol: Option<String>,
    },
    /// Anything else (vector, x87, segment and control registers, unknown forms).
    Other,
}

/// An x86-64 instruction decoded from its text (AT&T or Intel, as gdb, lldb or objdump print
/// it), for register provenance without the machine code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct X86Text {
    /// Lower case, prefixes (`lock`, `rep`, `notrack`, …) dropped.
    pub mnemonic: String,
    /// Whether a `rep`-family prefix was dropped (string instructions then count down rcx).
    pub rep: bool,
    /// In printed order.
    pub operands: Vec<X86Operand>,
    /// Intel syntax (destination first); AT&T otherwise (destination last).
    pub intel: bool,
}

fn x86_operand(op: &str, intel: bool) -> X86Operand {
    let o = op.trim();
    if o.is_empty() {
        return X86Operand::Other;
    }
    if intel {
        if o.contains('[') {
            return intel_mem(o).map(X86Operand::Mem).unwrap_or(X86Operand::Other);
        }
    } else {
        if let Some(imm) = o.strip_prefix('$') {
            return parse_int(imm).map(X86Operand::Imm).unwrap_or(X86Operand::Other);
        }
        let bare = o.trim_start_matches('*');
        if bare.starts_with('%') && !bare.contains(['(', ':']) {
            return match x86_gpr64(bare) {
                Some(gpr) => X86Operand::Reg { gpr, byte: is_byte_reg(bare), dword: is_dword_reg(bare) },
                None => X86Operand::Other,
            };
        }
        if bare.contains('(') || bare.contains(':') {
            return att_mem(bare).map(X86Operand::Mem).unwrap_or(X86Operand::Other);
        }
    }
    // `0x401136 <mix_rows>`, or a bare number (Intel immediate, AT&T branch target).
    let (num, sym) = match o.split_once(" <") {
        Some((n, s)) => (n.trim(), Some(s.trim_end_matches('>').to_string())),
        None => (o, None),
    };
    if let Some(v) = parse_int(num) {
        return if sym.is_some() || !intel && num.starts_with("0x") {
            X86Operand::Target { address: v as u64, symbol: sym }
        } else {
            X86Operand::Imm(v)
        };
    }
    match x86_gpr64(o) {
        Some(gpr) => X86Operand::Reg { gpr, byte: is_byte_reg(o), dword: is_dword_reg(o) },
        None => X86Operand::Other,
    }
}

fn is_dword_reg(r: &str) -> bool {
    let r = r.trim_start_matches(['%', '*']).to_ascii_lowercase();
    matches!(r.as_str(), "eax" | "ebx" | "ecx" | "edx" | "esi" | "edi" | "ebp" | "esp")
        || r.starts_with('r') && r.ends_with('d') && r[1..r.len() - 1].chars().all(|c| c.is_ascii_digit())
}

fn is_byte_reg(r: &str) -> bool {
    let r = r.trim_start_matches(['%', '*']).to_ascii_lowercase();
    matches!(r.as_str(), "al" | "ah" | "bl" | "bh" | "cl" | "ch" | "dl" | "dh" | "sil" | "dil" | "bpl" | "spl")
        || r.starts_with('r') && r.ends_with(['b', 'l']) && r[1..r.len() - 1].chars().all(|c| c.is_ascii_digit())
}

/// Splits gdb's `disassemble /r` raw bytes off an instruction text
/// (`48 83 ec 10\tsub    $0x10,%rsp` → the bytes and `sub    $0x10,%rsp`). gdb 13 and later
/// print a fixed-width AArch64 instruction as one 32-bit word in instruction order
/// (`a9be7bfd\tstp\tx29, x30, [sp, #-32]!`): its bytes are returned in memory order
/// (little-endian).
pub fn split_raw_bytes(text: &str) -> (Option<Vec<u8>>, &str) {
    let Some((head, rest)) = text.split_once('\t') else { return (None, text) };
    let word = head.trim();
    if word.len() == 8
        && word.bytes().all(|c| c.is_ascii_hexdigit())
        && !rest.trim().is_empty()
        && let Ok(w) = u32::from_str_radix(word, 16)
    {
        return (Some(w.to_le_bytes().to_vec()), rest.trim_start());
    }
    let toks: Vec<&str> = head.split_whitespace().collect();
    if toks.is_empty() || !toks.iter().all(|t| t.len() == 2 && t.chars().all(|c| c.is_ascii_hexdigit())) {
        return (None, text);
    }
    let bytes = toks.iter().filter_map(|t| u8::from_str_radix(t, 16).ok()).collect();
    (Some(bytes), rest.trim_start())
}

impl X86Text {
    /// Reads one instruction text; `None` for text that is not an x86 instruction.
    pub fn parse(text: &str) -> Option<X86Text> {
        let mut t = text.trim();
        // Comments: gdb's `# 0x4010 <sym>`, lldb's `; sym at file.c:3`, objdump's `// …`.
        let mut lldb_comment = None;
        if let Some(p) = t.find(" #").or_else(|| t.find("\t#")).or_else(|| t.find(" ;")).or_else(|| t.find("\t;")) {
            lldb_comment = t[p..].trim_start().strip_prefix(';').map(str::trim);
            t = t[..p].trim();
        }
        if let Some(p) = t.find("//") {
            t = t[..p].trim();
        }
        if t.is_empty() || t.contains("Cannot access memory") {
            return None;
        }
        let mut rep = false;
        let mut rest = t;
        let mut mnemonic;
        loop {
            let mut w = rest.splitn(2, char::is_whitespace);
            mnemonic = w.next().unwrap_or("").to_ascii_lowercase();
            rest = w.next().unwrap_or("").trim();
            match mnemonic.as_str() {
                "rep" | "repz" | "repnz" | "repe" | "repne" => rep = true,
                "lock" | "notrack" | "bnd" | "data16" | "addr32" | "cs" | "ds" | "es" | "ss" | "fs" | "gs" | "rex"
                | "rex.w" | "xacquire" | "xrelease" => {}
                _ => break,
            }
            if rest.is_empty() {
                break;
            }
        }
        if mnemonic.is_empty() || !mnemonic.chars().all(|c| c.is_ascii_alphanumeric() || c == '.') {
            return None;
        }
        // AT&T names every register with `%`; an operand list without one reads the same in
        // both syntaxes except for the order, which then does not matter.
        let intel = !rest.contains('%');
        let mut operands: Vec<X86Operand> = split_operands(rest).into_iter().map(|o| x86_operand(o, intel)).collect();
        // lldb names a branch target in its comment (`callq 0x555555555149 ; parse_header at
        // f.c:13:75`), not after the address.
        let branch = mnemonic.starts_with("call") || mnemonic.starts_with('j');
        if let (true, [op], Some(c)) = (branch, operands.as_mut_slice(), lldb_comment)
            && let Some(name) = c.split_whitespace().next()
            && !name.starts_with("0x")
            && name.chars().next().is_some_and(|ch| ch.is_alphabetic() || ch == '_')
        {
            match op {
                X86Operand::Target { symbol: sym @ None, .. } => *sym = Some(name.to_string()),
                X86Operand::Imm(v) => *op = X86Operand::Target { address: *v as u64, symbol: Some(name.to_string()) },
                _ => {}
            }
        }
        Some(X86Text { mnemonic, rep, operands, intel })
    }

    /// The destination operand: last in AT&T, first in Intel.
    pub fn destination(&self) -> Option<&X86Operand> {
        if self.intel { self.operands.first() } else { self.operands.last() }
    }

    /// The mnemonic without an AT&T size suffix (`movq` → `mov`, `callq` → `call`) when the
    /// rest is a known base mnemonic.
    fn base(&self) -> &str {
        let m = self.mnemonic.as_str();
        const BASES: &[&str] = &[
            "mov", "add", "sub", "and", "or", "xor", "adc", "sbb", "cmp", "test", "inc", "dec", "neg", "not", "push",
            "pop", "call", "ret", "jmp", "lea", "shl", "shr", "sar", "sal", "rol", "ror", "rcl", "rcr", "imul", "mul",
            "div", "idiv", "xchg", "xadd", "cmpxchg", "bt", "bts", "btr", "btc", "bsf", "bsr", "nop", "leave",
            "movabs", "stos", "lods", "movs", "scas", "cmps", "shld", "shrd", "pushf", "popf", "enter", "iret", "lgdt",
            "sidt",
        ];
        if !BASES.contains(&m) && m.len() > 1 && m.ends_with(['q', 'l', 'w', 'b']) {
            let b = &m[..m.len() - 1];
            if BASES.contains(&b) {
                return b;
            }
        }
        m
    }

    pub fn is_call(&self) -> bool {
        self.base() == "call"
    }

    pub fn is_ret(&self) -> bool {
        matches!(self.base(), "ret" | "retf" | "iret" | "iretq")
    }

    /// The target of a direct call or jump.
    pub fn branch_target(&self) -> Option<(u64, Option<&str>)> {
        match self.operands.first()? {
            X86Operand::Target { address, symbol } => Some((*address, symbol.as_deref())),
            X86Operand::Imm(v) if self.intel => Some((*v as u64, None)),
            _ => None,
        }
    }

    /// The memory operand, if any.
    pub fn memory(&self) -> Option<&MemOperand> {
        self.operands.iter().find_map(|o| match o {
            X86Operand::Mem(m) => Some(m),
            _ => None,
        })
    }

    /// The memory operand the instruction really accesses (not `lea`'s, `nop`'s or a
    /// prefetch's address).
    pub fn accessed_memory(&self) -> Option<&MemOperand> {
        let m = self.mnemonic.as_str();
        if m.starts_with("lea") || m.starts_with("nop") || m.starts_with("prefetch") {
            return None;
        }
        self.memory()
    }

    /// Whether the destination is a memory operand the instruction writes (a store).
    pub fn stores_to_memory(&self) -> bool {
        if self.operands.len() < 2 || matches!(self.base(), "cmp" | "test" | "bt") {
            return false;
        }
        matches!(self.destination(), Some(X86Operand::Mem(_)))
    }

    /// Whether the instruction writes (any part of) the 64-bit general register `reg`
    /// (`rax`, `r13`; conditional writes such as `cmov` count), as iced-x86 reports it for
    /// the same machine code. `None` when the text's semantics are not known.
    pub fn writes(&self, reg: &str) -> Option<bool> {
        let m = self.base();
        let reg_op = |o: &X86Operand| matches!(o, X86Operand::Reg { gpr, .. } if *gpr == reg);
        let any_reg = self.operands.iter().any(reg_op);
        let dest = self.destination().is_some_and(reg_op);
        let rsp = reg == "rsp";
        // The string instructions themselves (`movsb`, `stosq`, `rep movsl`, Intel `movsd`),
        // not the sign-extending moves that share their prefix (`movslq %eax,%rdx`, `movsbl`,
        // `movsx`, `movsxd`), which write their destination register.
        let string_mnemonic = ["movs", "stos", "lods", "scas", "cmps", "ins", "outs"]
            .iter()
            .any(|s| m == *s || m.strip_prefix(s).is_some_and(|r| matches!(r, "b" | "w" | "d" | "l" | "q")));
        let string_op = string_mnemonic
            && self.operands.iter().all(|o| match o {
                X86Operand::Mem(mm) => matches!(mm.base.as_deref(), Some("rsi" | "rdi" | "esi" | "edi")),
                X86Operand::Reg { gpr, .. } => *gpr == "rax" || *gpr == "rdx",
                _ => false,
            });
        if string_op {
            let w = |r: &str| r == reg;
            let mut out = self.rep && w("rcx");
            out |= (m.starts_with("movs") || m.starts_with("lods") || m.starts_with("cmps") || m.starts_with("outs"))
                && w("rsi");
            out |= (m.starts_with("movs")
                || m.starts_with("stos")
                || m.starts_with("scas")
                || m.starts_with("cmps")
                || m.starts_with("ins"))
                && w("rdi");
            out |= m.starts_with("lods") && w("rax");
            return Some(out);
        }
        Some(match m {
            "nop" | "nopw" | "nopl" | "endbr64" | "endbr32" | "pause" | "lfence" | "mfence" | "sfence" | "ud2"
            | "int3" | "hlt" | "cld" | "std" | "clc" | "stc" | "cmc" | "sahf" | "vzeroupper" | "vzeroall" | "emms"
            | "fninit" | "fwait" | "wait" | "prefetcht0" | "prefetcht1" | "prefetcht2" | "prefetchnta"
            | "prefetchw" | "clflush" | "clflushopt" | "clwb" | "ldmxcsr" | "vldmxcsr" | "stmxcsr" | "vstmxcsr"
            | "fxsave" | "fxrstor" | "fxsave64" | "fxrstor64" | "xsave" | "xsavec" | "xsave64" | "xsavec64"
            | "fldcw" | "fnstcw" | "fstcw" | "fnstsw" | "fstsw"
                if !matches!(m, "fnstsw" | "fstsw") || !any_reg =>
            {
                false
            }
            "cmp" | "test" | "bt" | "ucomiss" | "ucomisd" | "comiss" | "comisd" | "vucomiss" | "vucomisd"
            | "vcomiss" | "vcomisd" | "ptest" | "vptest" | "jmp" | "ljmp" => false,
            _ if m.starts_with('j') => false,
            "push" | "pushf" | "pushfq" => rsp,
            "pop" | "popf" | "popfq" => rsp || dest,
            "call" | "ret" | "retf" => rsp,
            "leave" | "leaveq" | "enter" | "enterq" => rsp || reg == "rbp",
            "mul" | "div" | "idiv" if self.operands.len() == 1 => {
                let byte = matches!(self.operands[0], X86Operand::Reg { byte: true, .. })
                    || self.mnemonic.ends_with('b') && !self.intel;
                reg == "rax" || reg == "rdx" && !byte
            }
            "imul" if self.operands.len() == 1 => {
                let byte = matches!(self.operands[0], X86Operand::Reg { byte: true, .. })
                    || self.mnemonic.ends_with('b') && !self.intel;
                reg == "rax" || reg == "rdx" && !byte
            }
            "cqto" | "cqo" | "cltd" | "cdq" | "cwtd" | "cwd" => reg == "rdx",
            "cltq" | "cdqe" | "cwtl" | "cwde" | "cbtw" | "cbw" | "lahf" | "xlat" | "xlatb" => reg == "rax",
            "cpuid" => matches!(reg, "rax" | "rbx" | "rcx" | "rdx"),
            "rdtsc" | "xgetbv" | "rdpmc" => matches!(reg, "rax" | "rdx"),
            "rdtscp" => matches!(reg, "rax" | "rdx" | "rcx"),
            "syscall" => matches!(reg, "rcx" | "r11"),
            "loop" | "loope" | "loopne" => reg == "rcx",
            // A register exchanged with itself keeps its value (`xchg %ax,%ax` is `66 90`, a
            // two-byte nop), unless the 32-bit form zero-extends it (`xchg %eax,%eax`, `87 c0`).
            "xchg" if matches!(self.operands.as_slice(), [a @ X86Operand::Reg { dword: false, .. }, b] if a == b) => {
                false
            }
            "xchg" | "xadd" => any_reg,
            "cmpxchg" => dest || reg == "rax",
            "cmpxchg8b" | "cmpxchg16b" => matches!(reg, "rax" | "rdx"),
            "mulx" => {
                let n = self.operands.len();
                let (a, b) = if self.intel { (0, 1) } else { (n.saturating_sub(1), n.saturating_sub(2)) };
                self.operands.get(a).is_some_and(reg_op) || self.operands.get(b).is_some_and(reg_op)
            }
            _ if self.operands.is_empty() => return None,
            _ => dest,
        })
    }
}

/// One AArch64 operand as printed (gdb, objdump and lldb syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum A64Operand {
    /// A general register by number: x0–x30 / w0–w30 (a w write zero-extends into the x
    /// register, so both are the same register here), `fp` (x29), `lr` (x30), `sp`/`wsp`
    /// ([`A64_SP`]).
    Reg(u16),
    /// `xzr` / `wzr`: reads as zero, writes are discarded.
    Zero,
    /// `[base, …]`, with `!` when the base is written back (pre-index).
    Mem { base: Option<u16>, writeback: bool },
    /// `#n`.
    Imm(i64),
    /// A branch target (`0x4006e0 <jl_module_info_count>`, or a bare address).
    Target(u64),
    /// Anything else: vector and FP registers, register lists, shifts and extends,
    /// conditions, system register names, prefetch operations.
    Other,
}

/// The number of the stack pointer in [`A64Operand::Reg`] (x0–x30 are 0–30).
pub const A64_SP: u16 = 31;

/// `x20`, `w20`, `fp`, `lr`, `sp`, `wsp` → the register number; `xzr`/`wzr` → `Some(None)`.
fn a64_reg(s: &str) -> Option<Option<u16>> {
    let s = s.trim().to_ascii_lowercase();
    match s.as_str() {
        "fp" => return Some(Some(29)),
        "lr" => return Some(Some(30)),
        "sp" | "wsp" => return Some(Some(A64_SP)),
        "xzr" | "wzr" => return Some(None),
        _ => {}
    }
    let n = s.strip_prefix('x').or_else(|| s.strip_prefix('w'))?;
    if n.is_empty() || n.len() > 2 || !n.chars().all(|c| c.is_ascii_digit()) || n.len() == 2 && n.starts_with('0') {
        return None;
    }
    let n: u16 = n.parse().ok()?;
    (n <= 30).then_some(Some(n))
}

fn a64_operand(op: &str) -> A64Operand {
    let o = op.trim();
    if let Some(inner) = o.strip_prefix('[') {
        let writeback = o.ends_with('!');
        let inner = inner.trim_end_matches('!').trim_end_matches(']');
        let base = inner.split(',').next().and_then(a64_reg).flatten();
        return A64Operand::Mem { base, writeback };
    }
    if let Some(r) = a64_reg(o) {
        return r.map(A64Operand::Reg).unwrap_or(A64Operand::Zero);
    }
    if o.starts_with('#') {
        return parse_int(o).map(A64Operand::Imm).unwrap_or(A64Operand::Other);
    }
    let num = o.split_once(" <").map(|(n, _)| n.trim()).unwrap_or(o);
    if num.starts_with("0x") || num.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return parse_int(num).map(|v| A64Operand::Target(v as u64)).unwrap_or(A64Operand::Other);
    }
    A64Operand::Other
}

/// An AArch64 instruction decoded from its text (gdb's and objdump's libopcodes syntax,
/// lldb's), for register provenance without the machine code: which general registers it
/// writes, calls, returns and branch targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct A64Text {
    /// Lower case (`ldp`, `b.ne`, `mov`).
    pub mnemonic: String,
    /// In printed order.
    pub operands: Vec<A64Operand>,
}

impl A64Text {
    /// Reads one instruction text; `None` for text that is not an AArch64 instruction (or an
    /// encoding the disassembler did not know: `.inst 0x… ; undefined`, `udf`).
    pub fn parse(text: &str) -> Option<A64Text> {
        let mut t = text.trim();
        // Comments: gdb's and objdump's `// #4`, `// ne = any`; lldb's `; <+24> at f.c:3`.
        for c in ["//", ";"] {
            if let Some(p) = t.find(c) {
                t = t[..p].trim();
            }
        }
        if t.is_empty() || t.contains("Cannot access memory") || t.contains('%') {
            return None;
        }
        let mut w = t.splitn(2, char::is_whitespace);
        let mnemonic = w.next().unwrap_or("").to_ascii_lowercase();
        let rest = w.next().unwrap_or("").trim();
        if mnemonic.is_empty()
            || mnemonic.starts_with('.')
            || !mnemonic.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
            || rest.contains("ptr")
        {
            return None;
        }
        let operands = split_operands(rest).into_iter().map(a64_operand).collect();
        Some(A64Text { mnemonic, operands })
    }

    fn reg(&self, k: usize) -> Option<u16> {
        match self.operands.get(k)? {
            A64Operand::Reg(r) => Some(*r),
            _ => None,
        }
    }

    /// `bl`, `blr` and the pointer-authenticating `blraa`/`blrab`/`blraaz`/`blrabz`.
    pub fn is_call(&self) -> bool {
        matches!(self.mnemonic.as_str(), "bl" | "blr" | "blraa" | "blrab" | "blraaz" | "blrabz")
    }

    pub fn is_ret(&self) -> bool {
        matches!(self.mnemonic.as_str(), "ret" | "retaa" | "retab" | "eret" | "eretaa" | "eretab")
    }

    /// Any control transfer that is not a call (so the next instruction may not follow).
    pub fn is_jump(&self) -> bool {
        let m = self.mnemonic.as_str();
        self.is_ret()
            || matches!(m, "b" | "br" | "braa" | "brab" | "braaz" | "brabz" | "cbz" | "cbnz" | "tbz" | "tbnz")
            || m.starts_with("b.")
            || m.starts_with("bc.")
    }

    /// The target of a direct branch or call (its last operand, an address).
    pub fn branch_target(&self) -> Option<u64> {
        if !(self.is_jump() || self.is_call()) {
            return None;
        }
        match self.operands.last()? {
            A64Operand::Target(a) => Some(*a),
            _ => None,
        }
    }

    /// The base register of the memory operand, if any.
    pub fn memory_base(&self) -> Option<u16> {
        self.operands.iter().find_map(|o| match o {
            A64Operand::Mem { base, .. } => *base,
            _ => None,
        })
    }

    /// Every general register the instruction writes ([`A64_SP`] for sp), as
    /// `provenance_a64::written` reports it for the same machine code; `None` when the text's
    /// semantics are not known.
    pub fn written(&self) -> Option<Vec<u16>> {
        let m = self.mnemonic.as_str();
        let mut out = Vec::new();
        let atomic_ld = ["ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin", "ldumax", "ldumin", "swp"];
        let exclusive_store =
            matches!(m, "stxr" | "stlxr" | "stxrb" | "stlxrb" | "stxrh" | "stlxrh" | "stxp" | "stlxp");
        match m {
            _ if self.is_call() => out.push(30),
            "svc" => out.push(0),
            // Writes of the link register by pointer authentication.
            "paciasp" | "pacibsp" | "autiasp" | "autibsp" | "paciaz" | "pacibz" | "autiaz" | "autibz" | "xpaclri" => {
                out.push(30)
            }
            "pacia1716" | "pacib1716" | "autia1716" | "autib1716" => out.push(17),
            _ if exclusive_store => out.extend(self.reg(0)),
            "ldp" | "ldpsw" | "ldnp" | "ldxp" | "ldaxp" => out.extend(self.reg(0).into_iter().chain(self.reg(1))),
            _ if m.starts_with("casp") => {
                if let Some(r) = self.reg(0) {
                    out.extend([r, r + 1]);
                }
            }
            _ if m.starts_with("cas") => out.extend(self.reg(0)),
            _ if atomic_ld.iter().any(|a| m.starts_with(a)) => out.extend(self.reg(1)),
            // Stores (and the atomic `st<op>` aliases), branches, compares, barriers, hints:
            // no destination register.
            _ if m.starts_with("st") || self.is_jump() => {}
            "cmp" | "cmn" | "tst" | "ccmp" | "ccmn" | "fcmp" | "fcmpe" | "fccmp" | "fccmpe" | "prfm" | "prfum"
            | "nop" | "yield" | "wfe" | "wfi" | "sev" | "sevl" | "isb" | "dsb" | "dmb" | "sb" | "ssbb" | "pssbb"
            | "csdb" | "esb" | "psb" | "tsb" | "bti" | "clrex" | "msr" | "sys" | "dc" | "ic" | "at" | "tlbi"
            | "hint" | "brk" | "hlt" | "hvc" | "smc" | "drps" | "setf8" | "setf16" | "rmif" | "cfinv" | "xaflag"
            | "axflag" | "dcps1" | "dcps2" | "dcps3" => {}
            "udf" => return None,
            _ if self.operands.is_empty() => return None,
            _ => out.extend(self.reg(0)),
        }
        // Writeback of a base register: pre-index `[x1, #8]!`, post-index `[x1], #8` (the
        // memory operand is then not the last one).
        let n = self.operands.len();
        for (k, o) in self.operands.iter().enumerate() {
            if let A64Operand::Mem { base: Some(b), writeback } = o
                && (*writeback || k + 1 < n)
            {
                out.push(*b);
            }
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Whether the instruction writes x`reg` (or w`reg`); `None` when not known.
    pub fn writes(&self, reg: u16) -> Option<bool> {
        Some(self.written()?.contains(&reg))
    }
}

/// The register number of an AArch64 general register name (`x20`, `w20`, `fp`, `lr`, `sp`).
pub fn a64_gpr(name: &str) -> Option<u16> {
    a64_reg(name).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A register exchanged with itself is not written (`66 90`, the two-byte nop GNU tools
    /// print as `xchg %ax,%ax`, pads release builds' code), except the 32-bit form, which
    /// zero-extends (what iced-x86 reports for the same bytes; found by
    /// `provenance_text::tests::text_writes_agree_with_iced_on_real_code` on a release build).
    #[test]
    fn xchg_of_a_register_with_itself_writes_only_the_32_bit_form() {
        let w = |t: &str, r: &str| X86Text::parse(t).and_then(|x| x.writes(r));
        assert_eq!(w("xchg   %ax,%ax", "rax"), Some(false));
        assert_eq!(w("xchg   %rax,%rax", "rax"), Some(false));
        assert_eq!(w("xchg   %r13w,%r13w", "r13"), Some(false));
        assert_eq!(w("xchg   ax,ax", "rax"), Some(false));
        assert_eq!(w("xchg   %eax,%eax", "rax"), Some(true));
        assert_eq!(w("xchg   %r13d,%r13d", "r13"), Some(true));
        assert_eq!(w("xchg   %ax,%dx", "rax"), Some(true));
        assert_eq!(w("xchg   %ax,%dx", "rdx"), Some(true));
        assert_eq!(w("xchg   %ax,%dx", "rcx"), Some(false));
        assert_eq!(w("xchg   %rax,(%rdi)", "rax"), Some(true));
    }

    #[test]
    fn a64_text_reads_gdb_and_lldb_lines() {
        let w = |t: &str| A64Text::parse(t).and_then(|a| a.written());
        assert_eq!(w("mov\tx20, x1"), Some(vec![20]));
        // A w write zero-extends into the x register.
        assert_eq!(w("mov\tw20, #0x1                   \t// #1"), Some(vec![20]));
        // Reads of x20 are not writes.
        assert_eq!(w("mov\tx0, x20"), Some(vec![0]));
        assert_eq!(w("str\tx8, [x20]"), Some(vec![]));
        assert_eq!(w("ldr\tx8, [x20, #16]"), Some(vec![8]));
        assert_eq!(w("stp\tx19, x20, [sp, #16]"), Some(vec![]));
        assert_eq!(w("cmp\tx20, #0x0"), Some(vec![]));
        assert_eq!(w("cbz\tx20, 0x400800 <f+16>"), Some(vec![]));
        // Loads, pairs, writeback (pre- and post-index).
        assert_eq!(w("ldp\tx19, x20, [sp, #16]"), Some(vec![19, 20]));
        assert_eq!(w("stp\tx29, x30, [sp, #-48]!"), Some(vec![A64_SP]));
        assert_eq!(w("ldp\tx29, x30, [sp], #48"), Some(vec![29, 30, A64_SP]));
        assert_eq!(w("ldr\tx0, [x20], #8"), Some(vec![0, 20]));
        assert_eq!(w("ldr\tx0, [x1, x2, lsl #3]"), Some(vec![0]));
        assert_eq!(w("str\tx0, [x20, #8]!"), Some(vec![20]));
        // Calls write the link register; lldb names it lr (and x29 fp).
        assert_eq!(w("bl\t0x4006e0 <jl_module_info_count>"), Some(vec![30]));
        assert_eq!(w("blr\tx21"), Some(vec![30]));
        assert_eq!(w("ldp    fp, lr, [sp], #0x30"), Some(vec![29, 30, A64_SP]));
        assert_eq!(w("mov    x29, sp"), Some(vec![29]));
        assert_eq!(w("add    sp, sp, #0x10"), Some(vec![A64_SP]));
        assert_eq!(w("adrp\tx2, 0x48f000 <tunable_list+1312>"), Some(vec![2]));
        assert_eq!(w("cset\tw0, ne  // ne = any"), Some(vec![0]));
        // SIMD and FP destinations are not general registers.
        assert_eq!(w("ldp\td8, d9, [sp, #16]"), Some(vec![]));
        assert_eq!(w("fmov\tx1, d0"), Some(vec![1]));
        assert_eq!(w("ld1\t{v0.16b}, [x0], #16"), Some(vec![0]));
        // Exclusive store status, atomics.
        assert_eq!(w("stlxr\tw1, x2, [x0]"), Some(vec![1]));
        assert_eq!(w("ldaddal\tw1, w2, [x0]"), Some(vec![2]));
        assert_eq!(w("casp\tx4, x5, x6, x7, [x0]"), Some(vec![4, 5]));
        assert_eq!(w("svc\t#0x0"), Some(vec![0]));
        // Not an AArch64 instruction, or an unknown encoding: not known.
        assert_eq!(w(".inst\t0x00000000 ; undefined"), None);
        assert_eq!(w("mov    %rsi,%r13"), None);
        assert_eq!(w("udf\t#0"), None);
        let b = A64Text::parse("b.ne\t0x400760 <LLVMRunPasses+64>  // b.any").unwrap();
        assert_eq!((b.is_jump(), b.branch_target()), (true, Some(0x400760)));
        let c = A64Text::parse("bl     0x100003f5c               ; helper at t.c:3").unwrap();
        assert_eq!((c.is_call(), c.is_jump(), c.branch_target()), (true, false, Some(0x100003f5c)));
        assert!(A64Text::parse("ret").unwrap().is_ret());
        assert_eq!(a64_gpr("w20"), Some(20));
        assert_eq!(a64_gpr("x31"), None);
        assert_eq!(a64_gpr("xzr"), None);
    }

    #[test]
    fn x86_text_reads_gdb_lines() {
        let x = X86Text::parse("mov    %rsi,%r13").unwrap();
        assert_eq!(x.writes("r13"), Some(true));
        assert_eq!(x.writes("rsi"), Some(false));
        let x = X86Text::parse("mov    r13,rsi").unwrap();
        assert!(x.intel);
        assert_eq!(x.writes("r13"), Some(true));
        assert_eq!(X86Text::parse("xor    %r13d,%r13d").unwrap().writes("r13"), Some(true));
        assert_eq!(X86Text::parse("mov    0x10(%r13),%rax").unwrap().writes("r13"), Some(false));
        assert_eq!(X86Text::parse("mov    QWORD PTR [r13+0x0],rax").unwrap().writes("r13"), Some(false));
        assert_eq!(X86Text::parse("push   %r13").unwrap().writes("r13"), Some(false));
        assert_eq!(X86Text::parse("pop    r13").unwrap().writes("r13"), Some(true));
        assert_eq!(X86Text::parse("callq  *%rax").unwrap().writes("rsp"), Some(true));
        assert_eq!(X86Text::parse("imul   %rbx").unwrap().writes("rdx"), Some(true));
        assert_eq!(X86Text::parse("imul   $0x18,%rax,%rdx").unwrap().writes("rax"), Some(false));
        assert_eq!(X86Text::parse("rep stos %rax,%es:(%rdi)").unwrap().writes("rcx"), Some(true));
        assert_eq!(X86Text::parse("cmp    %r13,%rax").unwrap().writes("r13"), Some(false));
        assert_eq!(X86Text::parse("movzbl %al,%eax").unwrap().writes("rax"), Some(true));
        let c = X86Text::parse("call   0x5555555551d0 <mix_rows>").unwrap();
        assert!(c.is_call());
        assert_eq!(c.branch_target(), Some((0x5555555551d0, Some("mix_rows"))));
        let c =
            X86Text::parse("callq  0x55555555523a            ; jl_module_has_functions at julia-trampoline.c:118:1");
        assert_eq!(c.and_then(|c| c.branch_target().map(|t| t.0)), Some(0x55555555523a));
        let (b, t) = split_raw_bytes("41 54              \tpush   %r12");
        assert_eq!((b, t), (Some(vec![0x41, 0x54]), "push   %r12"));
        assert_eq!(split_raw_bytes("fadd\t%st(1),%st").0, None);
        // gdb 13's AArch64 form: one instruction word (a64-x20-ok.gdb.txt).
        let (b, t) = split_raw_bytes("a9be7bfd\tstp\tx29, x30, [sp, #-32]!");
        assert_eq!((b.as_deref(), t), (Some(&[0xfd, 0x7b, 0xbe, 0xa9][..]), "stp\tx29, x30, [sp, #-32]!"));
        assert_eq!(split_raw_bytes("deadbeef\t").0, None);
        assert_eq!(x86_gpr64("r13d"), Some("r13"));
        assert_eq!(x86_gpr64("%sil"), Some("rsi"));
        assert_eq!(x86_gpr64("xmm0"), None);
        // Hostile text never panics.
        for t in [
            "",
            "%",
            "$",
            "j",
            "movq $",
            "call 0x",
            "<",
            "mov [",
            "mov ]",
            "rep",
            "lock lock",
            "rl",
            "rb r8bl",
            "mov    0x(%r13),%rax",
            "mov\t[,]",
            "\t\t",
            "00 zz\tmov",
            "ff\t",
            "imul",
            "mul %",
            "xchg ,",
            "call <>",
        ] {
            if let Some(x) = X86Text::parse(t) {
                let _ = (x.writes("rax"), x.branch_target(), x.stores_to_memory(), x.accessed_memory());
            }
            let _ = split_raw_bytes(t);
        }
    }

    #[test]
    fn register_use() {
        assert_eq!(reg_use("mov    0x10(%r13),%rax", "r13"), Some(RegUse::Read));
        assert_eq!(reg_use("mov    %rax,0x0(%r13)", "r13"), Some(RegUse::Read));
        assert_eq!(reg_use("mov    %rsi,%r13", "r13"), Some(RegUse::Write));
        assert_eq!(reg_use("mov    %fs:(%rax),%r13", "r13"), Some(RegUse::Write));
        assert_eq!(reg_use("push   %r13", "r13"), Some(RegUse::Save));
        assert_eq!(reg_use("pop    %r13", "r13"), Some(RegUse::Write));
        assert_eq!(reg_use("xor    %r13d,%r13d", "r13"), Some(RegUse::Write));
        assert_eq!(reg_use("add    $0x8,%r13", "r13"), Some(RegUse::Read));
        assert_eq!(reg_use("mov    %r13,%rdi", "r13"), Some(RegUse::Read));
        assert_eq!(reg_use("mov    %r12,%rdi", "r13"), None);
        assert_eq!(reg_use("mov    0x2b35(%rip),%rax        # 0x555555558068 <jl_cfunc_cache_4213+8>", "r13"), None);
        assert_eq!(reg_use("mov rax, qword ptr [r13 + 0x10]", "r13"), Some(RegUse::Read));
        assert_eq!(reg_use("mov r13, rsi", "r13"), Some(RegUse::Write));
        assert_eq!(reg_use("ldr\tx0, [x20, #16]", "x20"), Some(RegUse::Read));
        assert_eq!(reg_use("mov\tx20, x0", "x20"), Some(RegUse::Write));
        assert_eq!(reg_use("stp\tx20, x19, [sp, #-32]!", "x20"), Some(RegUse::Save));
        assert_eq!(reg_use("ldp\tx20, x19, [sp], #32", "x20"), Some(RegUse::Write));
    }

    #[test]
    fn att() {
        let d = decode("mov    0x18(%rax),%rax");
        assert_eq!(d.mem.as_ref().unwrap().base.as_deref(), Some("rax"));
        assert_eq!(d.mem.as_ref().unwrap().disp, 0x18);
        assert_eq!(d.access, Some(Access::Read));
        let d = decode("movl   $0x2a,0x8(%rdx)");
        assert_eq!(d.access, Some(Access::Write));
        assert_eq!(d.mem.unwrap().base.as_deref(), Some("rdx"));
        let d = decode("movaps %xmm0,-0x20(%rbp)");
        assert_eq!(d.needs_alignment, Some(16));
        let d = decode("call   *%rax");
        assert_eq!(d.indirect_target.as_deref(), Some("rax"));
        let d = decode("mov    %fs:0x28,%rax");
        assert_eq!(d.mem.unwrap().segment.as_deref(), Some("fs"));
        let d = decode("mov    -0x8(%rbp,%rax,8),%rdx");
        let m = d.mem.unwrap();
        assert_eq!((m.base.as_deref(), m.index.as_deref(), m.scale, m.disp), (Some("rbp"), Some("rax"), 8, -8));
        let d = decode("addl   $0x1,(%rax)");
        assert_eq!(d.access, Some(Access::ReadWrite));
        let d = decode("lea    0x10(%rax),%rdx");
        assert_eq!(d.mem, None);
        let d = decode("call   0x555555555030 <puts@plt>");
        assert_eq!(d.indirect_target, None);
    }

    #[test]
    fn intel() {
        let d = decode("movups xmm0, xmmword ptr [rax + 0x70]");
        let m = d.mem.unwrap();
        assert_eq!((m.base.as_deref(), m.disp), (Some("rax"), 0x70));
        assert_eq!(d.access, Some(Access::Read));
        let d = decode("movaps xmmword ptr [rbp - 0x180], xmm0");
        assert_eq!(d.access, Some(Access::Write));
        assert_eq!(d.mem.unwrap().disp, -0x180);
        assert_eq!(decode("mov qword ptr [rax + rbx*8 + 0x10], rcx").mem.unwrap().index.as_deref(), Some("rbx"));
    }

    #[test]
    fn aarch64() {
        let d = decode("ldr\tx0, [x1, #24]");
        let m = d.mem.unwrap();
        assert_eq!((m.base.as_deref(), m.disp), (Some("x1"), 24));
        assert_eq!(d.access, Some(Access::Read));
        let d = decode("str\tw2, [x0]");
        assert_eq!(d.access, Some(Access::Write));
        assert_eq!(decode("blr\tx8").indirect_target.as_deref(), Some("x8"));
        let d = decode("stp\tx29, x30, [sp, #-32]!");
        assert_eq!(d.mem.unwrap().base.as_deref(), Some("sp"));
    }
}
