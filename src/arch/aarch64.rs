//! AArch64 (AAPCS64; gdb's names, lldb's aliases, and the system registers qemu's gdbstub
//! prints).

use super::RegKind::*;
use super::{PinnedRole, Reg, RegKind, RegisterTable, r, ra};
use crate::model::Arch;

/// Julia's pgcstack (swiftself).
pub const JULIA_PGCSTACK: &str = "x20";
/// Go's g (ABIInternal).
pub const GO_G: &str = "x28";

static REGS: &[Reg] = &[
    r("x0", 64, General, Some(0)),
    r("x1", 64, General, Some(1)),
    r("x2", 64, General, Some(2)),
    r("x3", 64, General, Some(3)),
    r("x4", 64, General, Some(4)),
    r("x5", 64, General, Some(5)),
    r("x6", 64, General, Some(6)),
    r("x7", 64, General, Some(7)),
    r("x8", 64, General, Some(8)),
    r("x9", 64, General, Some(9)),
    r("x10", 64, General, Some(10)),
    r("x11", 64, General, Some(11)),
    r("x12", 64, General, Some(12)),
    r("x13", 64, General, Some(13)),
    r("x14", 64, General, Some(14)),
    r("x15", 64, General, Some(15)),
    r("x16", 64, General, Some(16)),
    r("x17", 64, General, Some(17)),
    r("x18", 64, General, Some(18)),
    r("x19", 64, General, Some(19)),
    r("x20", 64, General, Some(20)),
    r("x21", 64, General, Some(21)),
    r("x22", 64, General, Some(22)),
    r("x23", 64, General, Some(23)),
    r("x24", 64, General, Some(24)),
    r("x25", 64, General, Some(25)),
    r("x26", 64, General, Some(26)),
    r("x27", 64, General, Some(27)),
    r("x28", 64, General, Some(28)),
    ra("x29", &["fp"], 64, Fp, Some(29)),
    ra("x30", &["lr"], 64, Lr, Some(30)),
    r("sp", 64, Sp, Some(31)),
    // The pc has no DWARF number; the unwinder uses 32 internally.
    r("pc", 64, Pc, Some(32)),
    ra("cpsr", &["pstate"], 32, Flags, None),
    r("fpsr", 32, Flags, None),
    r("fpcr", 32, Flags, None),
    // SVE vector granule, SME state, SME thread pointer 2.
    r("vg", 64, System, None),
    r("svcr", 64, System, None),
    r("tpidr2", 64, System, None),
    // Thread pointers qemu prints: addresses in user space.
    r("TPIDR_EL0", 64, ThreadBase, None),
    r("TPIDRRO_EL0", 64, ThreadBase, None),
];

/// System and control registers as qemu's gdbstub names them (`ID_AA64PFR0_EL1`, `SCTLR`,
/// `MAIR_EL1`, `RES_0_C0_C3_3`: upper case), and vector registers (`v0`, `q0`, `d0`, `s0`,
/// `z0`, `p0`).
fn by_shape(n: &str) -> Option<RegKind> {
    let first = n.bytes().next()?;
    if first.is_ascii_uppercase() && n.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') {
        return Some(System);
    }
    let vector = ["v", "q", "d", "s", "h", "b", "z", "p"].iter().any(|p| {
        n.strip_prefix(p).is_some_and(|d| !d.is_empty() && d.len() <= 2 && d.bytes().all(|b| b.is_ascii_digit()))
    });
    (vector || n == "ffr").then_some(Vector)
}

pub static TABLE: RegisterTable = RegisterTable {
    arch: Arch::Aarch64,
    regs: REGS,
    pc: "pc",
    sp: "sp",
    fp: "x29",
    lr: Some("x30"),
    callee_saved: &["x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29"],
    arguments: &["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"],
    pinned: &[(PinnedRole::JuliaPgcstack, JULIA_PGCSTACK), (PinnedRole::GoG, GO_G)],
    by_shape,
};
