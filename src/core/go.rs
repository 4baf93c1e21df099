//! Go cores: a thread that died in the runtime on the system stack (`fatal error: …` →
//! `runtime.fatalthrow` → `runtime.systemstack` → `runtime.crash` → SIGABRT) shows only the
//! runtime's own frames; the code that failed is on the goroutine's stack, and the message
//! went to stderr, which a core does not hold. Both are still in memory:
//!
//! - the thread's g is at `-8(%fs)` (Go's TLS slot on linux/amd64); on the system stack it is
//!   its M's g0, and the M's `curg` is the goroutine it was running, whose `sched` holds the
//!   stack pointer and frame pointer `runtime.systemstack` saved when it switched stacks (with
//!   `runtime.systemstack_switch` as its pc): the goroutine's frames unwind from there, as Go's
//!   own traceback continues;
//! - `runtime.throw(s string)` and `runtime.fatal(s string)` keep their message in their frame
//!   (the closure that prints it captures it; the register arguments' spill slots hold it
//!   too): a (pointer, length) pair whose pointer is in the binary's read-only data and whose
//!   bytes are printable text. The runtime prints it as `fatal error: <s>`.
//!
//! Offsets come from the binary's DWARF (`crate::symbolize::go_layout`); nothing is assumed of
//! a Go version. Every step is checked (the g's M points back to it as its g0, the goroutine is
//! another g, its saved stack pointer's first word returns after a call), so a C program, or a
//! Go thread not on the system stack, is left as it was.

use super::memory::CoreMemory;
use crate::model::MemorySource;
use crate::symbolize::go_layout::{GoLayout, layout_from_dwarf};
use crate::symbolize::modules::MappedModule;
use crate::unwind::{UnwindArch, Unwound, unwind};

/// The goroutine a Go thread on the system stack was running: its frames, and the runtime's
/// fatal message when a `runtime.throw`/`runtime.fatal` frame holds one.
pub struct Goroutine {
    /// How many of the thread's own frames are real: up to `runtime.systemstack`; the words
    /// above it on the system stack are not frames of this crash.
    pub keep: usize,
    pub unwound: Unwound,
    pub message: Option<String>,
}

fn read_u64(mem: &CoreMemory, a: u64) -> Option<u64> {
    let mut b = [0u8; 8];
    (mem.read(a, &mut b) == 8).then(|| u64::from_le_bytes(b))
}

fn module_for(modules: &[MappedModule], a: u64) -> Option<&MappedModule> {
    modules.iter().find(|m| a >= m.start && a < m.end)
}

/// The ELF symbol (Go's name, with its ABI suffix such as `.abi0`) of a code address.
fn symbol(modules: &[MappedModule], pc: u64) -> Option<String> {
    let m = module_for(modules, pc)?;
    Some(m.module.nearest_symbol(pc.wrapping_sub(m.bias))?.name)
}

/// Whether a Go symbol is `name` or one of its ABI wrappers (`runtime.systemstack.abi0`).
fn is(sym: &str, name: &str) -> bool {
    sym.strip_prefix(name).is_some_and(|r| r.is_empty() || r.starts_with(".abi"))
}

/// Follows a thread that died in the Go runtime on the system stack onto the goroutine it was
/// running. `frames` is the thread's own unwinding, `fs_base` its TLS base. `None` unless
/// every step checks out.
pub fn follow_goroutine(
    frames: &Unwound,
    fs_base: Option<u64>,
    modules: &[MappedModule],
    mem: &CoreMemory,
    max_frames: usize,
) -> Option<Goroutine> {
    // Only the runtime's frames, on the way to a fatal error. Above `runtime.systemstack` the
    // system stack holds whatever its top had (the M's start frames, or on m0 the process's
    // own stack: words that name no function, or `runtime.g0` in .bss, as gdb shows them too):
    // those frames are not read.
    let mut names: Vec<String> = Vec::new();
    for (k, f) in frames.frames.iter().enumerate() {
        let n = symbol(modules, if k == 0 { f.pc } else { f.pc.wrapping_sub(1) })?;
        let switch = is(&n, "runtime.systemstack");
        names.push(n);
        if switch {
            break;
        }
    }
    if names.is_empty() || !names.iter().all(|n| n.starts_with("runtime.")) {
        return None;
    }
    let fatal = |n: &String| {
        n.starts_with("runtime.fatalthrow") || n.starts_with("runtime.fatalpanic") || is(n, "runtime.systemstack")
    };
    if !names.iter().any(fatal) {
        return None;
    }
    let m = module_for(modules, frames.frames[0].pc)?;
    let layout = go_layout(m)?;
    let g = read_u64(mem, fs_base?.checked_sub(8)?)?;
    let mp = read_u64(mem, g.checked_add(layout.g_m)?).filter(|&p| p != 0)?;
    // On the system stack: the thread's g is its M's g0.
    if read_u64(mem, mp.checked_add(layout.m_g0)?)? != g {
        return None;
    }
    let curg = read_u64(mem, mp.checked_add(layout.m_curg)?).filter(|&c| c != 0 && c != g)?;
    let sched = curg.checked_add(layout.g_sched)?;
    let sp = read_u64(mem, sched.checked_add(layout.gobuf_sp)?)?;
    let pc = read_u64(mem, sched.checked_add(layout.gobuf_pc)?)?;
    let bp = read_u64(mem, sched.checked_add(layout.gobuf_bp)?)?;
    // `runtime.systemstack` left `systemstack_switch` as the goroutine's pc and its own
    // caller's stack pointer as sp: the word there is the return address into the function
    // that called systemstack.
    let (pc, sp) = if symbol(modules, pc).is_some_and(|n| is(&n, "runtime.systemstack_switch")) {
        (read_u64(mem, sp)?, sp.checked_add(8)?)
    } else {
        (pc, sp)
    };
    module_for(modules, pc)?;
    let arch = UnwindArch::X86_64;
    let mut regs = vec![None; arch.slots()];
    regs[arch.pc() as usize] = Some(pc);
    regs[arch.sp() as usize] = Some(sp);
    regs[arch.fp() as usize] = Some(bp);
    let mut unwound = unwind(arch, regs, modules, mem, max_frames);
    if let Some(f) = unwound.frames.first_mut() {
        // A return address, not a faulting pc.
        f.exact_pc = false;
    }
    let message = unwound.frames.iter().enumerate().find_map(|(k, f)| {
        let n = symbol(modules, f.pc.wrapping_sub(1))?;
        if !(is(&n, "runtime.throw") || is(&n, "runtime.fatal")) {
            return None;
        }
        let lo = f.regs[arch.sp() as usize]?;
        let hi = unwound.frames.get(k + 1).and_then(|c| c.regs[arch.sp() as usize]).unwrap_or(lo + 0x100);
        fatal_text(modules, mem, lo, hi.saturating_add(0x20).min(lo.saturating_add(0x400)))
    });
    Some(Goroutine { keep: names.len(), unwound, message })
}

fn go_layout(m: &MappedModule) -> Option<GoLayout> {
    layout_from_dwarf(&m.module.dwarf()?)
}

/// The first Go string header (pointer, length) in the words of `[lo, hi)` whose pointer is in
/// a module's read-only data (not code, not writable) and whose bytes are printable ASCII: the
/// message a `runtime.throw`/`runtime.fatal` frame holds.
fn fatal_text(modules: &[MappedModule], mem: &CoreMemory, lo: u64, hi: u64) -> Option<String> {
    let mut a = lo;
    while a.checked_add(16)? <= hi {
        let (Some(p), Some(n)) = (read_u64(mem, a), read_u64(mem, a + 8)) else {
            a += 8;
            continue;
        };
        if (1..=512).contains(&n) && read_only_data(modules, p) {
            let mut b = vec![0u8; n as usize];
            if mem.read(p, &mut b) == b.len() && b.iter().all(|c| (0x20..0x7f).contains(c)) {
                return String::from_utf8(b).ok();
            }
        }
        a += 8;
    }
    None
}

/// `a` is in a module's loaded, non-executable, non-writable segment (read-only data).
fn read_only_data(modules: &[MappedModule], a: u64) -> bool {
    module_for(modules, a).is_some_and(|m| {
        let v = a.wrapping_sub(m.bias);
        m.module.loads.iter().any(|l| v >= l.vaddr && v - l.vaddr < l.filesz && l.flags & 3 == 0 && l.flags & 4 != 0)
    })
}
