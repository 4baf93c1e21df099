//! x86-64 (System V psABI; gdb's names and `info registers` order).

use super::RegKind::*;
use super::{PinnedRole, Reg, RegKind, RegisterTable, r};
use crate::model::Arch;

/// Julia's pgcstack (swiftself).
pub const JULIA_PGCSTACK: &str = "r13";
/// Go's g (ABIInternal).
pub const GO_G: &str = "r14";

static REGS: &[Reg] = &[
    r("rax", 64, General, Some(0)),
    r("rbx", 64, General, Some(3)),
    r("rcx", 64, General, Some(2)),
    r("rdx", 64, General, Some(1)),
    r("rsi", 64, General, Some(4)),
    r("rdi", 64, General, Some(5)),
    r("rbp", 64, Fp, Some(6)),
    r("rsp", 64, Sp, Some(7)),
    r("r8", 64, General, Some(8)),
    r("r9", 64, General, Some(9)),
    r("r10", 64, General, Some(10)),
    r("r11", 64, General, Some(11)),
    r("r12", 64, General, Some(12)),
    r("r13", 64, General, Some(13)),
    r("r14", 64, General, Some(14)),
    r("r15", 64, General, Some(15)),
    r("rip", 64, Pc, Some(16)),
    r("eflags", 32, Flags, None),
    r("cs", 16, Segment, None),
    r("ss", 16, Segment, None),
    r("ds", 16, Segment, None),
    r("es", 16, Segment, None),
    r("fs", 16, Segment, None),
    r("gs", 16, Segment, None),
    r("fs_base", 64, ThreadBase, None),
    r("gs_base", 64, ThreadBase, None),
    // The syscall number the kernel saved; not an address.
    r("orig_rax", 64, System, None),
    r("mxcsr", 32, System, None),
    r("fctrl", 16, System, None),
    r("fstat", 16, System, None),
    r("ftag", 16, System, None),
    r("fiseg", 16, System, None),
    r("fioff", 32, System, None),
    r("foseg", 16, System, None),
    r("fooff", 32, System, None),
    r("fop", 16, System, None),
    r("k0", 64, Vector, None),
    r("k1", 64, Vector, None),
    r("k2", 64, Vector, None),
    r("k3", 64, Vector, None),
    r("k4", 64, Vector, None),
    r("k5", 64, Vector, None),
    r("k6", 64, Vector, None),
    r("k7", 64, Vector, None),
];

/// `xmm0`, `ymm15`, `zmm31`, `st7`: vector and x87 registers.
fn by_shape(n: &str) -> Option<RegKind> {
    let num = |p: &str| n.strip_prefix(p).is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    (num("xmm") || num("ymm") || num("zmm") || num("st")).then_some(Vector)
}

pub static TABLE: RegisterTable = RegisterTable {
    arch: Arch::X86_64,
    regs: REGS,
    pc: "rip",
    sp: "rsp",
    fp: "rbp",
    lr: None,
    callee_saved: &["rbx", "rbp", "r12", "r13", "r14", "r15"],
    arguments: &["rdi", "rsi", "rdx", "rcx", "r8", "r9"],
    pinned: &[(PinnedRole::JuliaPgcstack, JULIA_PGCSTACK), (PinnedRole::GoG, GO_G)],
    by_shape,
};
