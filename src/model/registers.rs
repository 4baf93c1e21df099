//! Register values as printed or read from a core.

use super::symbols::Natural;
use super::trace::{Span, Sym};
use serde::Serialize;
use std::sync::Arc;

/// One register value as printed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Register {
    pub name: Sym,
    /// The raw value. Registers wider than 64 bits (vector registers) keep only their text.
    pub value: Option<u64>,
    /// What gdb printed in the "natural" column (`[ ZF PF ]`, `<main+16>`, decimal), with
    /// the symbol in it typed when it was stored ([`Natural::symbol`]).
    pub natural: Option<Natural>,
    pub span: Span,
}

/// Distinct register names kept per frame. `info all-registers` prints about 200 on x86-64
/// with AVX-512 and a few hundred on AArch64 with SVE and SME; more than this is not a
/// register dump.
pub const MAX_REGISTERS: usize = 1024;

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RegisterSet {
    pub regs: Vec<Register>,
    pub span: Span,
    /// How a core unwinder found this frame (`None` for registers a debugger printed).
    pub unwind: Option<UnwindMethod>,
    /// For unwound frames above #0: the registers whose value the unwinder restored for this
    /// frame (pc, sp and the callee-saved registers the CFI saved). Every other register in
    /// `regs` was carried over unchanged from the frame below and may be stale.
    pub recovered: Vec<Sym>,
}

/// How the registers of one unwound frame were obtained.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnwindMethod {
    /// The thread's own registers (frame #0 of a core).
    Context,
    /// Call frame information (`.eh_frame` / `.debug_frame`).
    Cfi,
    /// No CFI covered the callee: the frame-pointer chain (rbp / x29) was followed.
    FramePointer,
    /// No CFI and the callee's pc pointed outside any code: treated as "just called"
    /// (return address at the stack pointer / in the link register).
    ScanCall,
    /// No CFI covered the callee: its frame read from its prologue's code (register pushes,
    /// `sub $n,%rsp`, `mov %rsp,%rbp` from the function's symbol to the pc).
    Prologue,
}

impl UnwindMethod {
    pub fn name(self) -> &'static str {
        match self {
            UnwindMethod::Context => "context",
            UnwindMethod::Cfi => "cfi",
            UnwindMethod::FramePointer => "frame-pointer",
            UnwindMethod::ScanCall => "call-heuristic",
            UnwindMethod::Prologue => "prologue",
        }
    }
}

impl RegisterSet {
    pub fn get(&self, name: &str) -> Option<u64> {
        self.regs.iter().find(|r| &*r.name == name).and_then(|r| r.value)
    }
    /// The symbol printed next to a register's value (`<main+16>`), typed.
    pub fn symbol(&self, name: &str) -> Option<&super::symbols::SymbolRef> {
        self.reg(name)?.natural.as_ref()?.symbol()
    }
    pub fn reg(&self, name: &str) -> Option<&Register> {
        self.regs.iter().find(|r| &*r.name == name)
    }
    /// Sets or replaces a register. A set holds at most [`MAX_REGISTERS`] names (the finding
    /// of a name is a scan, so this keeps a dump of a million distinct register lines linear);
    /// `false` when `r` is a new name past that and was not kept.
    pub fn set(&mut self, r: Register) -> bool {
        if let Some(old) = self.regs.iter_mut().find(|o| Arc::ptr_eq(&o.name, &r.name) || o.name == r.name) {
            *old = r;
        } else if self.regs.len() < MAX_REGISTERS {
            self.regs.push(r);
        } else {
            return false;
        }
        true
    }
}
