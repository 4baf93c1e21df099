//! RISC-V 64 (LP64 psABI; gdb prints the ABI names).

use super::RegKind::*;
use super::{Reg, RegKind, RegisterTable, ra};
use crate::model::Arch;

static REGS: &[Reg] = &[
    ra("ra", &["x1"], 64, Lr, Some(1)),
    ra("sp", &["x2"], 64, Sp, Some(2)),
    ra("gp", &["x3"], 64, General, Some(3)),
    ra("tp", &["x4"], 64, ThreadBase, Some(4)),
    ra("t0", &["x5"], 64, General, Some(5)),
    ra("t1", &["x6"], 64, General, Some(6)),
    ra("t2", &["x7"], 64, General, Some(7)),
    ra("fp", &["s0", "x8"], 64, Fp, Some(8)),
    ra("s1", &["x9"], 64, General, Some(9)),
    ra("a0", &["x10"], 64, General, Some(10)),
    ra("a1", &["x11"], 64, General, Some(11)),
    ra("a2", &["x12"], 64, General, Some(12)),
    ra("a3", &["x13"], 64, General, Some(13)),
    ra("a4", &["x14"], 64, General, Some(14)),
    ra("a5", &["x15"], 64, General, Some(15)),
    ra("a6", &["x16"], 64, General, Some(16)),
    ra("a7", &["x17"], 64, General, Some(17)),
    ra("s2", &["x18"], 64, General, Some(18)),
    ra("s3", &["x19"], 64, General, Some(19)),
    ra("s4", &["x20"], 64, General, Some(20)),
    ra("s5", &["x21"], 64, General, Some(21)),
    ra("s6", &["x22"], 64, General, Some(22)),
    ra("s7", &["x23"], 64, General, Some(23)),
    ra("s8", &["x24"], 64, General, Some(24)),
    ra("s9", &["x25"], 64, General, Some(25)),
    ra("s10", &["x26"], 64, General, Some(26)),
    ra("s11", &["x27"], 64, General, Some(27)),
    ra("t3", &["x28"], 64, General, Some(28)),
    ra("t4", &["x29"], 64, General, Some(29)),
    ra("t5", &["x30"], 64, General, Some(30)),
    ra("t6", &["x31"], 64, General, Some(31)),
    ra("pc", &[], 64, Pc, None),
];

fn by_shape(n: &str) -> Option<RegKind> {
    let f = n.strip_prefix('f').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_alphanumeric()));
    if matches!(n, "fflags" | "frm" | "fcsr") {
        return Some(System);
    }
    f.then_some(Vector)
}

pub static TABLE: RegisterTable = RegisterTable {
    arch: Arch::Riscv64,
    regs: REGS,
    pc: "pc",
    sp: "sp",
    fp: "fp",
    lr: Some("ra"),
    callee_saved: &["fp", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"],
    arguments: &["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"],
    pinned: &[],
    by_shape,
};
