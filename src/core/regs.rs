//! Register layouts of NT_PRSTATUS (`user_regs_struct` / `user_pt_regs`), gdb's names
//! and order for them, their DWARF numbers for the unwinder, and gdb's "natural" column.

use super::CoreArch;
use crate::arch::{RegKind, RegisterTable};

/// x86-64 `user_regs_struct` field order.
const X86_64_USER: [&str; 27] = [
    "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi", "orig_rax",
    "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs",
];

/// AArch64 `user_pt_regs` field order (gdb's names).
const AARCH64_NAMES: [&str; 34] = [
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",
    "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp", "pc", "cpsr",
];

/// i386 `user_regs_struct` field order (gdb's names: `xds` is `ds`, …).
const I386_USER: [&str; 17] = [
    "ebx", "ecx", "edx", "esi", "edi", "ebp", "eax", "ds", "es", "fs", "gs", "orig_eax", "eip", "cs", "eflags", "esp",
    "ss",
];

/// The registers of a `pr_reg` block, in gdb's order and names.
pub fn from_prstatus(arch: CoreArch, b: &[u8]) -> Option<Vec<(&'static str, u64)>> {
    let word = |i: usize| -> Option<u64> { Some(u64::from_le_bytes(b.get(i * 8..i * 8 + 8)?.try_into().ok()?)) };
    match arch {
        CoreArch::X86_64 => {
            if b.len() < 27 * 8 {
                return None;
            }
            let get = |n: &str| X86_64_USER.iter().position(|u| *u == n).and_then(word);
            // gdb's `info registers` order, from the register table.
            x86_64_gdb_order().map(|n| get(n).map(|v| (n, v))).collect()
        }
        CoreArch::Aarch64 => {
            if b.len() < 34 * 8 {
                return None;
            }
            AARCH64_NAMES.iter().enumerate().map(|(i, &n)| word(i).map(|v| (n, v))).collect()
        }
        CoreArch::I386 => {
            if b.len() < 17 * 4 {
                return None;
            }
            let word32 = |i: usize| -> Option<u64> {
                Some(u32::from_le_bytes(b.get(i * 4..i * 4 + 4)?.try_into().ok()?).into())
            };
            let get = |n: &str| I386_USER.iter().position(|u| *u == n).and_then(word32);
            // gdb's `info registers` order: the table's general, pc, flags and segment
            // registers (orig_eax is not shown).
            crate::arch::i386::TABLE
                .regs
                .iter()
                .filter(|r| r.kind.is_general() || matches!(r.kind, RegKind::Flags | RegKind::Segment))
                .map(|r| get(r.name).map(|v| (r.name, v)))
                .collect()
        }
    }
}

/// DWARF number ↔ gdb name for the registers the unwinder tracks.
pub fn dwarf_numbers(arch: CoreArch) -> Vec<(&'static str, u16)> {
    // AArch64: x0..x30 are 0..30, sp is 31; the pc has no DWARF number: 32 is used internally.
    table(arch).dwarf_numbers()
}

fn table(arch: CoreArch) -> &'static RegisterTable {
    match arch {
        CoreArch::X86_64 => &crate::arch::x86_64::TABLE,
        CoreArch::Aarch64 => &crate::arch::aarch64::TABLE,
        CoreArch::I386 => &crate::arch::i386::TABLE,
    }
}

/// The x86-64 registers of `user_regs_struct` that gdb's `info registers` shows, in its order.
fn x86_64_gdb_order() -> impl Iterator<Item = &'static str> {
    crate::arch::x86_64::TABLE
        .regs
        .iter()
        .filter(|r| r.kind.is_general() || matches!(r.kind, RegKind::Flags | RegKind::Segment | RegKind::ThreadBase))
        .map(|r| r.name)
}

/// What gdb prints in the natural column: flags for eflags, hex for pointers, signed
/// decimal for the rest. Code addresses are described later by the symbolizer.
pub fn natural(arch: CoreArch, name: &str, v: u64) -> String {
    match (arch, table(arch).kind(name)) {
        (CoreArch::X86_64 | CoreArch::I386, Some(RegKind::Flags)) => eflags(v),
        (_, Some(RegKind::Pc | RegKind::Sp | RegKind::Fp | RegKind::ThreadBase)) => format!("0x{v:x}"),
        // 32-bit registers are printed as signed 32-bit numbers.
        (CoreArch::I386, _) => (v as u32 as i32).to_string(),
        _ => (v as i64).to_string(),
    }
}

/// `[ PF ZF IF ]` as gdb prints eflags.
pub fn eflags(v: u64) -> String {
    const BITS: [(u32, &str); 15] = [
        (0, "CF"),
        (2, "PF"),
        (4, "AF"),
        (6, "ZF"),
        (7, "SF"),
        (8, "TF"),
        (9, "IF"),
        (10, "DF"),
        (11, "OF"),
        (14, "NT"),
        (16, "RF"),
        (17, "VM"),
        (18, "AC"),
        (19, "VIF"),
        (20, "VIP"),
    ];
    let mut s = String::from("[ ");
    for (b, n) in BITS {
        if v & (1 << b) != 0 {
            s.push_str(n);
            s.push(' ');
        }
    }
    if v & (1 << 21) != 0 {
        s.push_str("ID ");
    }
    s.push(']');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eflags_like_gdb() {
        assert_eq!(eflags(0x10206), "[ PF IF RF ]");
        assert_eq!(eflags(0x246), "[ PF ZF IF ]");
    }

    #[test]
    fn x86_64_order_and_short_blocks() {
        let mut b = vec![0u8; 27 * 8];
        b[16 * 8] = 0x42; // rip
        b[10 * 8] = 7; // rax
        let r = from_prstatus(CoreArch::X86_64, &b).unwrap();
        assert_eq!(r[0], ("rax", 7));
        assert_eq!(r[16], ("rip", 0x42));
        assert!(from_prstatus(CoreArch::X86_64, &b[..100]).is_none());
    }

    #[test]
    fn i386_order_names_and_natural_column() {
        // user_regs_struct: ebx, ecx, edx, esi, edi, ebp, eax, xds, xes, xfs, xgs, orig_eax,
        // eip, xcs, eflags, esp, xss.
        let words: [u32; 17] = [
            3, 0xffffdd20, 9, 6, 1, 0xffffdd08, 0, 0x2b, 0x2b, 0, 0x63, 0xffffffff, 0x80496e4, 0x23, 0x10297,
            0xffffdcf4, 0x2b,
        ];
        let b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let r = from_prstatus(CoreArch::I386, &b).unwrap();
        let names: Vec<&str> = r.iter().map(|x| x.0).collect();
        assert_eq!(
            names,
            [
                "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip", "eflags", "cs", "ss", "ds", "es", "fs",
                "gs"
            ]
        );
        assert_eq!(r[0], ("eax", 0));
        assert_eq!(r[3], ("ebx", 3));
        assert_eq!(r[8], ("eip", 0x80496e4));
        assert_eq!(r[15], ("gs", 0x63));
        assert_eq!(natural(CoreArch::I386, "ecx", 0xffffdd20), "-8928");
        assert_eq!(natural(CoreArch::I386, "esp", 0xffffdcf4), "0xffffdcf4");
        assert_eq!(natural(CoreArch::I386, "eflags", 0x10297), "[ CF PF AF SF IF RF ]");
        assert!(from_prstatus(CoreArch::I386, &b[..64]).is_none());
    }
}
