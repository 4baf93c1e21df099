//! Register tables, one per architecture: names and aliases as debuggers print them, width,
//! DWARF number, what kind of register each is (general, stack/frame pointer, link register,
//! flags, segment, system/control, vector), the callee-saved and argument registers of the
//! platform C ABI, and the registers runtimes pin (Julia's pgcstack, Go's g).
//!
//! Parsers, the core reader, rules and renderers ask these tables instead of keeping their own
//! lists of names. The layer sits just above the model: it imports [`crate::model::Arch`] only.

use crate::model::Arch;

pub mod aarch64;
pub mod i386;
pub mod riscv64;
pub mod x86_64;

/// What a register is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegKind {
    /// A general-purpose integer register (may hold an address or an integer).
    General,
    /// The program counter.
    Pc,
    /// The stack pointer.
    Sp,
    /// The frame pointer (also a general register on every architecture here).
    Fp,
    /// The link register (return address; also a general register on AArch64).
    Lr,
    /// Condition flags / processor state (`eflags`, `cpsr`, `fpsr`).
    Flags,
    /// x86 segment selectors (`cs`, `ss`, …).
    Segment,
    /// A segment or thread base (`fs_base`, `gs_base`, `TPIDR_EL0`): an address.
    ThreadBase,
    /// System and control registers (`SCTLR`, `ID_AA64PFR0_EL1`, `mxcsr`, `orig_rax`, SVE
    /// `vg`): configuration values, never addresses.
    System,
    /// Vector, floating-point and mask registers (`xmm0`, `v0`, `st0`, `k1`).
    Vector,
}

impl RegKind {
    /// Values of this kind may be addresses (and are classified as such).
    pub fn may_be_address(self) -> bool {
        matches!(self, RegKind::General | RegKind::Pc | RegKind::Sp | RegKind::Fp | RegKind::Lr | RegKind::ThreadBase)
    }
    /// A general-purpose register, including pc, sp, fp and lr.
    pub fn is_general(self) -> bool {
        matches!(self, RegKind::General | RegKind::Pc | RegKind::Sp | RegKind::Fp | RegKind::Lr)
    }
}

/// One register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    /// The name gdb prints.
    pub name: &'static str,
    /// Other names for it (lldb's `fp`, `lr`, `pstate`; gdb's `$pc`, `$sp`, `$fp`).
    pub aliases: &'static [&'static str],
    /// Width in bits.
    pub bits: u16,
    pub kind: RegKind,
    /// DWARF register number, for the unwinder.
    pub dwarf: Option<u16>,
}

/// A register a runtime keeps a fixed value in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinnedRole {
    /// Julia's `pgcstack` (the task's GC stack), passed as swiftself since Julia 1.10.
    JuliaPgcstack,
    /// Go's current goroutine `g` (ABIInternal).
    GoG,
}

/// Everything about one architecture's registers.
#[derive(Debug)]
pub struct RegisterTable {
    pub arch: Arch,
    /// In the order gdb's `info registers` prints them.
    pub regs: &'static [Reg],
    pub pc: &'static str,
    pub sp: &'static str,
    pub fp: &'static str,
    pub lr: Option<&'static str>,
    /// Callee-saved general registers of the platform C ABI.
    pub callee_saved: &'static [&'static str],
    /// Integer argument registers of the platform C ABI, in order.
    pub arguments: &'static [&'static str],
    /// Registers runtimes pin.
    pub pinned: &'static [(PinnedRole, &'static str)],
    /// Classifies a name the table does not list (system registers by shape, vector
    /// registers by prefix).
    pub by_shape: fn(&str) -> Option<RegKind>,
}

impl RegisterTable {
    /// The register named `name` (or by one of its aliases).
    pub fn reg(&self, name: &str) -> Option<&'static Reg> {
        self.regs.iter().find(|r| r.name == name || r.aliases.contains(&name))
    }
    /// What kind of register `name` is, when known.
    pub fn kind(&self, name: &str) -> Option<RegKind> {
        self.reg(name).map(|r| r.kind).or_else(|| (self.by_shape)(name))
    }
    /// The value of `name` is never an address (flags, segments, system, control and vector
    /// registers): renderers and rules do not classify it.
    pub fn never_address(&self, name: &str) -> bool {
        self.kind(name).is_some_and(|k| !k.may_be_address())
    }
    /// A general-purpose register (pc, sp, fp and lr included).
    pub fn is_general(&self, name: &str) -> bool {
        self.kind(name).is_some_and(RegKind::is_general)
    }
    /// The register a runtime pins for `role`.
    pub fn pinned(&self, role: PinnedRole) -> Option<&'static str> {
        self.pinned.iter().find(|(r, _)| *r == role).map(|(_, n)| *n)
    }
    /// DWARF number ↔ gdb name of the registers that have one, in DWARF order.
    pub fn dwarf_numbers(&self) -> Vec<(&'static str, u16)> {
        let mut v: Vec<(&'static str, u16)> = self.regs.iter().filter_map(|r| Some((r.name, r.dwarf?))).collect();
        v.sort_by_key(|(_, n)| *n);
        v
    }
}

/// The table of `arch` (`None` for architectures without one).
pub fn table(arch: Arch) -> Option<&'static RegisterTable> {
    match arch {
        Arch::X86_64 => Some(&x86_64::TABLE),
        Arch::Aarch64 => Some(&aarch64::TABLE),
        Arch::X86 => Some(&i386::TABLE),
        Arch::Riscv64 => Some(&riscv64::TABLE),
        Arch::Arm | Arch::Ppc64 | Arch::S390x | Arch::Unknown => None,
    }
}

/// [`RegisterTable::never_address`] for `arch`; an unknown architecture is read as x86-64
/// (as the renderers always did).
pub fn never_address(name: &str, arch: Arch) -> bool {
    table(arch).unwrap_or(&x86_64::TABLE).never_address(name)
}

/// Names that mark a register block even without an echoed command: the general registers
/// and flags of x86-64, i386 and AArch64, by their full names (not the generic `pc`, `sp`,
/// `fp`, `lr`, which other output uses too).
pub fn is_register_block_name(n: &str) -> bool {
    if matches!(n, "pc" | "sp" | "fp" | "lr") {
        return false;
    }
    [&x86_64::TABLE, &i386::TABLE, &aarch64::TABLE].iter().any(|t| {
        t.regs
            .iter()
            .any(|r| (r.name == n || r.aliases.contains(&n)) && (r.kind.is_general() || r.kind == RegKind::Flags))
    })
}

const fn r(name: &'static str, bits: u16, kind: RegKind, dwarf: Option<u16>) -> Reg {
    Reg { name, aliases: &[], bits, kind, dwarf }
}

const fn ra(name: &'static str, aliases: &'static [&'static str], bits: u16, kind: RegKind, dwarf: Option<u16>) -> Reg {
    Reg { name, aliases, bits, kind, dwarf }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_the_model_and_the_abi() {
        for arch in [Arch::X86_64, Arch::Aarch64, Arch::X86, Arch::Riscv64] {
            let t = table(arch).unwrap();
            assert_eq!(t.arch, arch);
            assert_eq!(t.reg(arch.pc_register()).map(|r| r.kind), Some(RegKind::Pc), "{arch:?}");
            assert_eq!(t.reg(arch.sp_register()).map(|r| r.kind), Some(RegKind::Sp), "{arch:?}");
            assert_eq!(t.reg(t.fp).map(|r| r.kind), Some(RegKind::Fp), "{arch:?}");
            for n in t.callee_saved.iter().chain(t.arguments).chain(t.pinned.iter().map(|(_, n)| n)) {
                assert!(t.is_general(n), "{arch:?} {n}");
            }
            let mut names: Vec<&str> = t.regs.iter().map(|r| r.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), t.regs.len(), "{arch:?}: a register listed twice");
        }
        assert_eq!(x86_64::TABLE.pinned(PinnedRole::JuliaPgcstack), Some("r13"));
        assert_eq!(aarch64::TABLE.pinned(PinnedRole::JuliaPgcstack), Some("x20"));
        assert_eq!(x86_64::TABLE.pinned(PinnedRole::GoG), Some("r14"));
        assert_eq!(aarch64::TABLE.pinned(PinnedRole::GoG), Some("x28"));
        assert_eq!(aarch64::TABLE.lr, Some("x30"));
        assert_eq!(aarch64::TABLE.reg("lr").map(|r| r.name), Some("x30"));
        assert_eq!(x86_64::TABLE.dwarf_numbers()[16], ("rip", 16));
        assert_eq!(aarch64::TABLE.dwarf_numbers()[31], ("sp", 31));
    }

    #[test]
    fn system_registers_are_never_addresses() {
        // As qemu's gdbstub prints them for AArch64.
        for n in ["ID_AA64PFR0_EL1", "SCTLR", "MAIR_EL1", "TCR_EL1", "MIDR_EL1", "CTR_EL0", "ESR_EL1", "vg", "fpcr"] {
            assert!(never_address(n, Arch::Aarch64), "{n}");
        }
        for n in ["x0", "x29", "sp", "pc", "lr", "TPIDR_EL0"] {
            assert!(!never_address(n, Arch::Aarch64), "{n}");
        }
        for n in ["eflags", "cs", "orig_rax", "mxcsr", "k3", "fop"] {
            assert!(never_address(n, Arch::X86_64), "{n}");
        }
        for n in ["rax", "r13", "rip", "fs_base", "not_a_register"] {
            assert!(!never_address(n, Arch::X86_64), "{n}");
        }
        assert!(is_register_block_name("r13") && is_register_block_name("x30") && is_register_block_name("pstate"));
        assert!(is_register_block_name("eflags") && is_register_block_name("esp") && is_register_block_name("fpsr"));
        assert!(!is_register_block_name("pc") && !is_register_block_name("x31") && !is_register_block_name("mxcsr"));
    }
}
