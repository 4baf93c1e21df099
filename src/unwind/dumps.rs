//! A transcript's backtrace rebuilt from what it dumped: where gdb's unwinder gave up on code
//! without CFI (static musl) and printed garbage frames (`#2 0x0000000000000001 in ?? ()`),
//! the stack words the user printed (`x/32gx $sp`) and the binary's code (`--exe`) are enough
//! for the core's unwinder — CFI, and the prologue read from the function's code — to walk
//! on. The transcript is then read as the core is, and both name the same culprit.
//!
//! Taken only where it is safe: x86-64; gdb's frames and the walk agree up to the first frame
//! gdb could not name; every frame the walk adds returns just after a call instruction in a
//! module's code and was reached through the dumped words (nothing is guessed where the dump
//! ends); and gdb's frames from there on are nameless (`?? ()`), so a backtrace gdb read
//! correctly is never replaced.

use super::{UnwindArch, after_call, unwind};
use crate::model::{Address, Frame, MemoryDump, MemorySource, Stop, TraceMemory};
use crate::symbolize::modules::MappedModule;

/// The stack words of a stop's `x/` dumps over the code of the modules given with `--exe`.
struct DumpsOverCode<'a> {
    dumps: Vec<&'a MemoryDump>,
    code: &'a TraceMemory,
}

impl MemorySource for DumpsOverCode<'_> {
    fn read(&self, addr: u64, buf: &mut [u8]) -> usize {
        if buf.len() == 8
            && let Some(w) = self.dumps.iter().find_map(|d| d.read_u64(addr))
        {
            buf.copy_from_slice(&w.to_le_bytes());
            return 8;
        }
        self.code.0.read(addr, buf)
    }
    fn describe(&self) -> String {
        format!("{} stack dump(s) over {}", self.dumps.len(), self.code.0.describe())
    }
    fn cfi_saved_slot(&self, pc: u64, dwarf_reg: u16) -> Option<(u16, i64, i64)> {
        self.code.0.cfi_saved_slot(pc, dwarf_reg)
    }
    fn function_range(&self, pc: u64) -> Option<(u64, u64)> {
        self.code.0.function_range(pc)
    }
}

/// x86-64 general registers by DWARF number, as gdb names them.
const X86_DWARF: [(&str, u16); 17] = [
    ("rax", 0),
    ("rdx", 1),
    ("rcx", 2),
    ("rbx", 3),
    ("rsi", 4),
    ("rdi", 5),
    ("rbp", 6),
    ("rsp", 7),
    ("r8", 8),
    ("r9", 9),
    ("r10", 10),
    ("r11", 11),
    ("r12", 12),
    ("r13", 13),
    ("r14", 14),
    ("r15", 15),
    ("rip", 16),
];

/// Rebuilds the crashed thread's backtrace of an x86-64 stop past gdb's nameless frames, from
/// the stop's stack dumps and the modules' code. Returns the number of the first frame it
/// replaced, `None` when it left the backtrace as it was.
pub fn rebuild_from_dumps(stop: &mut Stop, modules: &[MappedModule], code: &TraceMemory) -> Option<u32> {
    let th = stop.crashed_thread()?;
    let crashed_id = th.id.clone();
    let regs = th.registers.get(&0)?;
    let mut regs0 = vec![None; UnwindArch::X86_64.slots()];
    for (name, dw) in X86_DWARF {
        regs0[dw as usize] = regs.reg(name).and_then(|r| r.value);
    }
    let sp = regs0[7]?;
    regs0[16]?;
    let dumps: Vec<&MemoryDump> = stop
        .memory
        .iter()
        .filter(|m| m.string.is_none() && m.thread.as_deref().is_none_or(|t| *t == *crashed_id))
        .collect();
    // Nothing to walk on without the words at and above the stack pointer.
    if !dumps.iter().any(|d| d.read_u64(sp).is_some()) {
        return None;
    }
    // gdb's frames must be physical ones (no inlined levels, no signal frame) up to the point
    // where they become nameless.
    let first_bad = th.frames.iter().position(|f| f.function.is_none() && f.file.is_none())?;
    if first_bad == 0
        || th.frames[..first_bad].iter().any(|f| f.inlined || f.signal_handler)
        || th.frames[first_bad..].iter().any(|f| f.function.is_some() || f.file.is_some())
    {
        return None;
    }
    let mem = DumpsOverCode { dumps, code };
    let walked = unwind(UnwindArch::X86_64, regs0, modules, &mem, 256);
    // The walk agrees with gdb on the frames gdb could name.
    for (k, f) in th.frames[..first_bad].iter().enumerate() {
        let w = walked.frames.get(k)?;
        if k > 0 && f.pc.map(|p| p.0) != Some(w.pc) {
            return None;
        }
    }
    let added: Vec<u64> =
        walked.frames[first_bad..].iter().map(|w| w.pc).take_while(|&pc| after_call(modules, pc)).collect();
    if added.is_empty() {
        return None;
    }
    let th = stop.threads.iter_mut().find(|t| t.id == crashed_id)?;
    let base = th.frames[first_bad].index;
    th.frames.truncate(first_bad);
    for (j, pc) in added.into_iter().enumerate() {
        th.frames.push(Frame { index: base + j as u32, pc: Some(Address(pc)), ..Default::default() });
    }
    th.backtrace_stopped = None;
    th.backtrace_stop = None;
    Some(base)
}
