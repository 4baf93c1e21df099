//! i386 (System V i386 psABI; gdb's names).

use super::RegKind::*;
use super::{Reg, RegKind, RegisterTable, r};
use crate::model::Arch;

static REGS: &[Reg] = &[
    r("eax", 32, General, Some(0)),
    r("ecx", 32, General, Some(1)),
    r("edx", 32, General, Some(2)),
    r("ebx", 32, General, Some(3)),
    r("esp", 32, Sp, Some(4)),
    r("ebp", 32, Fp, Some(5)),
    r("esi", 32, General, Some(6)),
    r("edi", 32, General, Some(7)),
    r("eip", 32, Pc, Some(8)),
    r("eflags", 32, Flags, None),
    r("cs", 16, Segment, None),
    r("ss", 16, Segment, None),
    r("ds", 16, Segment, None),
    r("es", 16, Segment, None),
    r("fs", 16, Segment, None),
    r("gs", 16, Segment, None),
];

fn by_shape(n: &str) -> Option<RegKind> {
    super::x86_64::TABLE.kind(n).filter(|k| *k == Vector || *k == System)
}

pub static TABLE: RegisterTable = RegisterTable {
    arch: Arch::X86,
    regs: REGS,
    pc: "eip",
    sp: "esp",
    fp: "ebp",
    lr: None,
    callee_saved: &["ebx", "esi", "edi", "ebp"],
    // Arguments go on the stack.
    arguments: &[],
    pinned: &[],
    by_shape,
};
