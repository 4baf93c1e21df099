//! The symbolize stage: turns code addresses into function, inlined-call chain, file and
//! line, and hands the trace on to `analyze` with names filled in.
//!
//! ```text
//!  Trace (pcs, registers, x/ words) ──► ModuleMap (address → module + ELF vaddr)
//!                                   ──► SymbolSupplier::lookup (DwarfSymbols | SymbolTable)
//!                                   ──► frames, register naturals, Trace::code_symbols
//! ```
//!
//! Lookups go through the [`SymbolSupplier`] trait, like rust-minidump's symbol suppliers:
//! [`table::SymbolTable`] is an in-memory table for tests, [`dwarf::DwarfSymbols`] reads
//! ELF files with `object`, `gimli` and `addr2line`, finds separate debug files, and loads
//! each module's DWARF only when one of its addresses is first asked for.

pub mod addr2line_mode;
pub mod batch;
pub mod cache;
pub mod demangle;
pub mod dwarf;
pub mod go_layout;
pub mod julia_layout;
pub mod lazy;
pub mod members;
pub mod modules;
pub mod table;

use crate::model::Note;
use crate::model::*;
use std::sync::Arc;

pub use modules::{ModuleMap, ModuleRef};

/// Errors of the symbolize stage.
#[derive(Debug, thiserror::Error)]
pub enum SymbolizeError {
    #[error("cannot open {path}: {source}")]
    Open { path: String, source: std::io::Error },
    #[error("{path} is not an object file this tool reads: {message}")]
    NotObject { path: String, message: String },
    #[error("DWARF of {path} is damaged: {message}")]
    Dwarf { path: String, message: String },
    #[error("build-id mismatch for {path}: the core has {expected}, the file has {found}")]
    BuildIdMismatch { path: String, expected: String, found: String },
}

impl SymbolizeError {
    /// A stable name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            SymbolizeError::Open { .. } => "open",
            SymbolizeError::NotObject { .. } => "not-object",
            SymbolizeError::Dwarf { .. } => "dwarf",
            SymbolizeError::BuildIdMismatch { .. } => "build-id-mismatch",
        }
    }
}

/// One level of the inlined-call chain at an address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceFrame {
    /// The name as DWARF records it (linkage name when there is one), not demangled.
    pub raw_function: Option<String>,
    /// Demangled, with parameters (binutils `-C` form). `None` when unknown.
    pub function: Option<String>,
    /// The name gdb prints in a backtrace (C++ without parameter list).
    pub display_function: Option<String>,
    /// The full path as addr2line prints it (compilation directory joined).
    pub file: Option<String>,
    /// The path as gdb prints it (relative to the compilation directory when under it).
    pub display_file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// The nearest ELF symbol at or below an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NearSymbol {
    /// Demangled name (a section's name for [`NearKind::Section`]).
    pub name: String,
    /// Its start (module virtual address).
    pub address: u64,
    /// What the name is.
    pub kind: NearKind,
}

/// What a [`NearSymbol`] names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum NearKind {
    /// A function (or a code symbol without size, nearest below a pc).
    #[default]
    Code,
    /// A data object that holds the address inside its size (`STT_OBJECT`).
    Data,
    /// No symbol holds the address: the section it lies in, in this module (file name).
    Section { module: String },
}

/// What a module knows about one of its addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolInfo {
    /// Innermost (the inlined callee at the address) first; the last one is the function
    /// that holds the address in the object code. Empty when there is no debug info.
    pub frames: Vec<SourceFrame>,
    /// From the ELF symbol table (what gdb prints as `<sym+off>`).
    pub symbol: Option<NearSymbol>,
}

impl SymbolInfo {
    /// `name+off` for an address, from the ELF symbol, else the DWARF function.
    pub fn label(&self, vaddr: u64) -> Option<String> {
        if let Some(s) = &self.symbol {
            let off = vaddr.wrapping_sub(s.address);
            return Some(match &s.kind {
                NearKind::Section { module } => format!("{}+{off:#x} in {module}", s.name),
                _ if off == 0 => s.name.clone(),
                _ => format!("{}+{}", s.name, off),
            });
        }
        self.frames.last().and_then(|f| f.display_function.clone())
    }
    /// `file:line` of the innermost level.
    pub fn source(&self) -> Option<String> {
        let f = self.frames.first()?;
        Some(format!("{}:{}", f.display_file.as_deref()?, f.line?))
    }
}

/// A source of symbols for modules, addressed by the module's path as the process mapped
/// it and an address in the module's own ELF virtual address space.
pub trait SymbolSupplier {
    /// Looks up `vaddr` in `module`. `Ok(None)`: the module is unknown or holds nothing
    /// there; `Err`: the module's files are damaged or do not match.
    fn lookup(&self, module: &str, vaddr: u64) -> Result<Option<SymbolInfo>, SymbolizeError>;
    /// Converts a file offset of `module` (what mappings record) to its ELF virtual
    /// address. The default (identity) suits tables keyed by file offset.
    fn offset_to_vaddr(&self, _module: &str, offset: u64) -> Option<u64> {
        Some(offset)
    }
    /// The address of `.text` in the module, to place modules known only from
    /// `info sharedlibrary` (which prints where `.text` was loaded).
    fn text_vaddr(&self, _module: &str) -> Option<u64> {
        None
    }
    /// Says which addresses of `module` will be looked up (module virtual addresses), so
    /// that a supplier reading compressed DWARF inflates it once, as far as all of them need,
    /// instead of lookup by lookup. Only a hint: lookups answer the same without it.
    fn plan(&self, _module: &str, _vaddrs: &[u64]) {}
    /// Messages about modules (missing debug info, mismatches), drained by the stage.
    fn take_notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The module's file when the user named it (`--exe`, `--sysroot`), so its machine
    /// code stands for the process's: a transcript then gets code to decode
    /// ([`attach_module_code`]). A file found only at its recorded path may be another
    /// build (a transcript from another machine) and is not offered.
    fn user_module(&self, _module: &str) -> Option<Arc<dwarf::ElfModule>> {
        None
    }
    /// The `--exe` files that can only be loaded at their own addresses (`ET_EXEC`: not PIE),
    /// with their load segments' (start, end). A transcript that has no mappings (qemu-user's
    /// gdbstub has no `/proc`, so `info proc mappings` fails) places them there.
    fn fixed_user_modules(&self) -> Vec<(String, Vec<(u64, u64)>)> {
        Vec::new()
    }
}

/// Counts of what the stage did, for diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub frames: usize,
    pub registers: usize,
    pub code_words: usize,
}

/// Runs the stage over a trace built from text (or a core): frames without a function
/// get one, registers and memory words that point into code get `<sym+off> at file:line`,
/// and disassembly rows get their location. Damaged symbol files become notes.
pub fn symbolize_trace(trace: &mut Trace, sup: &dyn SymbolSupplier, notes: &mut Vec<Note>) -> Stats {
    symbolize_trace_until(trace, sup, notes, None)
}

/// [`symbolize_trace`] with a time budget: once `deadline` has passed, the remaining
/// addresses are left as they are and a `limit reached:` note says how many. (One lookup
/// already running — the first one in a module parses its DWARF units — is not cut short.)
pub fn symbolize_trace_until(
    trace: &mut Trace,
    sup: &dyn SymbolSupplier,
    notes: &mut Vec<Note>,
    deadline: Option<std::time::Instant>,
) -> Stats {
    let map = ModuleMap::from_trace(trace, sup);
    attach_module_code(trace, &map, sup);
    plan_lookups(trace, &map, sup);
    let mut stats = Stats::default();
    let mut errors: Vec<String> = Vec::new();
    let started = std::time::Instant::now();
    let mut skipped: u64 = 0;
    let mut lookup = |addr: u64| -> Option<(SymbolInfo, u64)> {
        let m = map.find(addr)?;
        if skipped > 0 || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            skipped += 1;
            return None;
        }
        match sup.lookup(&m.path, m.vaddr) {
            Ok(Some(i)) => Some((i, m.vaddr)),
            Ok(None) => None,
            Err(e) => {
                let s = e.to_string();
                if !errors.contains(&s) {
                    errors.push(s);
                }
                None
            }
        }
    };
    let mut code: Vec<(Address, Sym)> = Vec::new();
    let (arch, memory) = (trace.arch, trace.memory.clone());
    for stop in &mut trace.stops {
        for th in &mut stop.threads {
            for (pos, f) in th.frames.iter_mut().enumerate() {
                if f.function.is_some() || f.signal_handler {
                    continue;
                }
                let Some(pc) = f.pc else { continue };
                // Callers' pcs are return addresses: look up the call instruction.
                let probe = if pos > 0 && pc.0 > 0 { pc.0 - 1 } else { pc.0 };
                if let Some((info, _)) = lookup(probe) {
                    if let Some(sf) = info.frames.first() {
                        f.function = sf.display_function.as_deref().map(Arc::from);
                        if f.file.is_none() {
                            f.file = sf.display_file.as_deref().map(Arc::from);
                            f.line = sf.line;
                        }
                    }
                    if f.function.is_none() {
                        f.function = info.symbol.as_ref().map(|s| Arc::from(s.name.as_str()));
                    }
                    if f.function.is_some() {
                        stats.frames += 1;
                    }
                }
            }
            // Frame pcs get their `<sym+off>` too (register provenance finds a function's
            // start from it); the innermost frames only.
            for f in th.frames.iter().filter(|f| !f.signal_handler).take(64) {
                if let Some(pc) = f.pc
                    && let Some(text) = describe(&mut lookup, pc.0)
                {
                    code.push((pc, text.into()));
                }
            }
            // x86-64 with process code: the target of a direct `call rel32` (e8) just before
            // each return address (callers' pcs, and the word at frame #0's sp), so a rule can
            // name the function a caller called directly (bad-pc: a tail call that went astray).
            if arch == crate::model::Arch::X86_64
                && let Some(mem) = &memory
            {
                let sp0 = th.registers.get(&0).and_then(|r| r.get("rsp"));
                let at_sp = sp0.and_then(|sp| {
                    let dumped = stop.memory.iter().find_map(|m| m.read_u64(sp));
                    dumped.or_else(|| mem.read_u64(sp))
                });
                let returns = th.frames.iter().skip(1).take(64).filter_map(|f| f.pc.map(|p| p.0)).chain(at_sp);
                for ret in returns {
                    if let Some(t) = direct_call_target(mem, ret)
                        && let Some(text) = describe(&mut lookup, t)
                    {
                        code.push((Address(t), text.into()));
                    }
                }
                // And the direct calls of frame #0's function from its start to the pc, so
                // that a rule can name a function that already returned.
                let pc0 = th.registers.get(&0).and_then(|r| r.reg("rip")).and_then(|r| r.value);
                if let Some(pc) = pc0
                    && let Some(start) = describe(&mut lookup, pc)
                        .and_then(|t| crate::provenance::symbol_offset(&t))
                        .and_then(|(_, off)| pc.checked_sub(off))
                {
                    for t in crate::provenance::call_targets(mem, start, pc) {
                        if let Some(text) = describe(&mut lookup, t) {
                            code.push((Address(t), text.into()));
                        }
                        // A PLT stub: also the function its GOT entry leads to.
                        if let Some(r) = crate::provenance_mem::plt_resolve(mem, t)
                            && let Some(text) = describe(&mut lookup, r)
                        {
                            code.push((Address(r), text.into()));
                        }
                    }
                }
            }
            // AArch64 with process code: the targets of the `bl`s before each pc (frame #0:
            // from its function's start; outer frames: the call before the return address),
            // so provenance names the functions a frame called.
            if arch == crate::model::Arch::Aarch64
                && let Some(mem) = &memory
            {
                for (pos, f) in th.frames.iter().filter(|f| !f.signal_handler).take(64).enumerate() {
                    let Some(pc) = f.pc.map(|p| p.0).or_else(|| {
                        (pos == 0)
                            .then(|| th.registers.get(&f.index).and_then(|r| r.reg("pc")).and_then(|r| r.value))?
                    }) else {
                        continue;
                    };
                    let start = if pos == 0 {
                        describe(&mut lookup, pc)
                            .and_then(|t| crate::provenance::symbol_offset(&t))
                            .and_then(|(_, off)| pc.checked_sub(off))
                            .unwrap_or(pc.saturating_sub(4))
                    } else {
                        pc.saturating_sub(4)
                    };
                    for t in crate::provenance_a64::call_targets(mem, start, pc) {
                        if let Some(text) = describe(&mut lookup, t) {
                            code.push((Address(t), text.into()));
                        }
                    }
                }
            }
            // Frame #0 printed without its address (`#0  f (…) at …`): its pc is in `rip`.
            if let Some(f0) = th.frames.first().filter(|f| f.pc.is_none())
                && let Some(pc) = th.registers.get(&f0.index).and_then(|r| r.reg("rip").or_else(|| r.reg("pc")))
                && let Some(v) = pc.value
                && let Some(text) = describe(&mut lookup, v)
            {
                code.push((Address(v), text.into()));
            }
            for set in th.registers.values_mut() {
                for r in &mut set.regs {
                    let Some(v) = r.value else { continue };
                    if r.natural.as_deref().is_some_and(|n| n.contains('<')) {
                        continue;
                    }
                    if let Some(text) = describe(&mut lookup, v) {
                        r.natural = Some(text.clone().into());
                        code.push((Address(v), text.into()));
                        stats.registers += 1;
                    }
                }
            }
        }
        for m in &stop.memory {
            if m.unit != 8 {
                continue;
            }
            for &w in &m.words {
                if let Some(text) = describe(&mut lookup, w) {
                    code.push((Address(w), text.into()));
                    stats.code_words += 1;
                }
            }
        }
        for insn in &mut stop.disassembly {
            if insn.location.is_none()
                && let Some((info, vaddr)) = lookup(insn.address.0)
            {
                insn.location = info.label(vaddr).map(Into::into);
            }
            if let Some(target) = branch_target(&insn.text)
                && let Some(text) = describe(&mut lookup, target)
            {
                code.push((Address(target), text.into()));
            }
        }
    }
    code.sort_by_key(|c| c.0);
    code.dedup_by_key(|c| c.0);
    trace.code_symbols.extend(code);
    if skipped > 0 {
        notes.push(Note {
            line: None,
            message: format!(
                "{}symbolization stopped after {:.1} s (--symbolize-timeout); {skipped} addresses were left as they were",
                crate::model::LIMIT_NOTE,
                started.elapsed().as_secs_f64()
            ),
        });
    }
    for e in errors {
        notes.push(Note { line: None, message: e });
    }
    for n in sup.take_notes() {
        notes.push(Note { line: None, message: n });
    }
    stats
}

/// Tells the supplier, module by module, the addresses the loop of [`symbolize_trace_until`]
/// will look up whatever the answers (frame pcs, register values, dumped words, disassembly
/// and its branch targets), as the core reader does before its lookups: a module's
/// compressed DWARF is then inflated once, as far as the furthest unit they need. (The
/// call targets found from the process code are looked up too, unplanned.)
fn plan_lookups(trace: &Trace, map: &ModuleMap<'_>, sup: &dyn SymbolSupplier) {
    let mut wanted: Vec<(String, u64)> = Vec::new();
    let mut add = |a: u64| {
        if let Some(m) = map.find_biased(a) {
            wanted.push((m.path, m.vaddr));
        }
    };
    for stop in &trace.stops {
        for th in &stop.threads {
            for (pos, f) in th.frames.iter().enumerate() {
                if f.function.is_some() || f.signal_handler {
                    continue;
                }
                if let Some(pc) = f.pc {
                    add(if pos > 0 && pc.0 > 0 { pc.0 - 1 } else { pc.0 });
                }
            }
            let described = th.frames.iter().filter(|f| !f.signal_handler).take(64).filter_map(|f| f.pc.map(|p| p.0));
            let registers = th.registers.values().flat_map(|set| {
                set.regs
                    .iter()
                    .filter(|r| !r.natural.as_deref().is_some_and(|n| n.contains('<')))
                    .filter_map(|r| r.value)
            });
            for v in described.chain(registers) {
                if v >= 0x1000 {
                    add(v);
                }
            }
        }
        for m in stop.memory.iter().filter(|m| m.unit == 8) {
            for &w in m.words.iter().filter(|&&w| w >= 0x1000) {
                add(w);
            }
        }
        for insn in &stop.disassembly {
            add(insn.address.0);
            if let Some(t) = branch_target(&insn.text).filter(|&t| t >= 0x1000) {
                add(t);
            }
        }
    }
    if wanted.is_empty() {
        return;
    }
    wanted.sort_unstable();
    wanted.dedup();
    for group in wanted.chunk_by(|a, b| a.0 == b.0) {
        let vaddrs: Vec<u64> = group.iter().map(|w| w.1).collect();
        sup.plan(&group[0].0, &vaddrs);
    }
}

/// A trace without process memory (a transcript) gets the machine code of the modules the
/// user gave (`--exe`), placed where the trace's mappings put them: their executable
/// segments only, which hold the same bytes in the file and in the process (data would be
/// the file's initial values, not the process's). `crate::provenance` decodes it.
fn attach_module_code(trace: &mut Trace, map: &ModuleMap<'_>, sup: &dyn SymbolSupplier) -> Vec<modules::MappedModule> {
    if trace.memory.is_some() {
        return Vec::new();
    }
    let mut placed = Vec::new();
    for (start, end, path) in map.placed() {
        let Some(m) = sup.user_module(&path) else { continue };
        let Some(first) = map.find(start) else { continue };
        let bias = start.wrapping_sub(first.vaddr);
        for l in m.loads.iter().filter(|l| l.flags & 1 != 0 && l.filesz > 0) {
            // The part of this executable segment inside this mapping.
            let (lo, hi) = (l.vaddr.wrapping_add(bias), l.vaddr.wrapping_add(bias).saturating_add(l.filesz));
            let (lo, hi) = (lo.max(start), hi.min(end));
            if lo < hi {
                placed.push(modules::MappedModule { start: lo, end: hi, bias, module: m.clone() });
            }
        }
    }
    if !placed.is_empty() {
        let mem = TraceMemory::new(modules::ModuleCode::new(placed.clone()));
        // A transcript that does not show the instruction at the crashed thread's pc (no `x/i
        // $pc`, or a command file that stopped before it) gets it decoded from the binary, as a
        // core does: the rules read the faulting instruction from it.
        for stop in &mut trace.stops {
            let Some(th) = stop.crashed_thread() else { continue };
            let pc = th.registers.get(&0).and_then(|r| r.get(trace.arch.pc_register()).or_else(|| r.get("pc")));
            let Some(pc) = pc.or_else(|| th.frames.first().and_then(|f| f.pc).map(|a| a.0)) else { continue };
            if stop.disassembly.iter().any(|i| i.address.0 == pc) {
                continue;
            }
            let decoded = match trace.arch {
                crate::model::Arch::X86_64 => crate::provenance::disassemble_at_pc(&*mem.0, stop),
                crate::model::Arch::Aarch64 => crate::provenance_a64::disassemble_at_pc_a64(&*mem.0, stop),
                _ => Vec::new(),
            };
            stop.disassembly.extend(decoded);
        }
        trace.memory = Some(mem);
    }
    placed
}

/// [`attach_module_code`] on its own, before [`symbolize_trace`] (which then finds the code
/// attached): the placed code segments of the `--exe` modules, for a stage that walks the
/// stack over them (`crate::unwind::dumps`). Empty when the trace has process memory already
/// or no module was given.
pub fn attach_code(trace: &mut Trace, sup: &dyn SymbolSupplier) -> Vec<modules::MappedModule> {
    let map = ModuleMap::from_trace(trace, sup);
    attach_module_code(trace, &map, sup)
}

/// `<sym+off> at file:line` for a code address, `None` for anything else.
fn describe(lookup: &mut impl FnMut(u64) -> Option<(SymbolInfo, u64)>, v: u64) -> Option<String> {
    if v < 0x1000 {
        return None;
    }
    let (info, vaddr) = lookup(v)?;
    let label = info.label(vaddr)?;
    if info.symbol.as_ref().is_some_and(|s| matches!(s.kind, NearKind::Section { .. })) {
        // `.rodata+0x1c20 in prog`: a place, not a symbol, so not in gdb's `<…>`.
        return Some(label);
    }
    Some(match info.source() {
        Some(src) => format!("<{label}> at {src}"),
        None => format!("<{label}>"),
    })
}

/// The target of a direct call or jump as gdb/objdump print it (`call 0x401136 <f>`).
pub fn branch_target(text: &str) -> Option<u64> {
    let mut it = text.split_whitespace();
    let op = it.next()?;
    if !(op.starts_with("call")
        || op.starts_with('j')
        || op == "b"
        || op == "bl"
        || op.starts_with("b.")
        || op == "cbz"
        || op == "cbnz")
    {
        return None;
    }
    it.find_map(|t| {
        let t = t.trim_end_matches(',').trim_start_matches('#').trim_start_matches('*');
        t.strip_prefix("0x").and_then(|h| u64::from_str_radix(h, 16).ok())
    })
}

/// The target of the x86-64 direct `call rel32` (e8 xx xx xx xx) that ends right before the
/// return address `ret`, when the process's code there is readable.
pub fn direct_call_target(mem: &TraceMemory, ret: u64) -> Option<u64> {
    let mut b = [0u8; 5];
    (mem.0.read(ret.checked_sub(5)?, &mut b) == 5 && b[0] == 0xe8).then(|| {
        let rel = i32::from_le_bytes([b[1], b[2], b[3], b[4]]);
        ret.wrapping_add(rel as i64 as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolize::table::SymbolTable;

    fn table() -> SymbolTable {
        let mut t = SymbolTable::default();
        t.add_function("/opt/app/cb", 0x1e10, 0x40, "julia_module_callback_4212", Some(("cb.jl", 12)));
        t.add_function("/opt/app/cb", 0x1e50, 0x20, "jlcapi_module_callback_4213", None);
        t
    }

    /// A supplier that answers from the table and records what it was told to plan and what
    /// it was asked.
    struct Recording {
        table: SymbolTable,
        planned: std::sync::Mutex<Vec<(String, Vec<u64>)>>,
        asked: std::sync::Mutex<Vec<(String, u64, usize)>>,
    }

    impl SymbolSupplier for Recording {
        fn plan(&self, module: &str, vaddrs: &[u64]) {
            self.planned.lock().unwrap().push((module.to_string(), vaddrs.to_vec()));
        }
        fn lookup(&self, module: &str, vaddr: u64) -> Result<Option<SymbolInfo>, SymbolizeError> {
            let plans = self.planned.lock().unwrap().len();
            self.asked.lock().unwrap().push((module.to_string(), vaddr, plans));
            self.table.lookup(module, vaddr)
        }
    }

    /// A transcript's lookups are planned first, once per module: every address the loop
    /// asks for (frame pcs, registers, dumped words, disassembly) was in the plan before the
    /// first lookup (`symbolize::plan_lookups`; the DWARF supplier then inflates each
    /// compressed section once).
    #[test]
    fn lookups_of_a_transcript_are_planned_before_the_first_one() {
        let text = "\
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x55d0c3a40000     0x55d0c3a42000     0x2000        0x0  r-xp   /opt/app/cb
(gdb) bt
#0  0x000055d0c3a41e20 in ?? ()
#1  0x000055d0c3a41e58 in ?? ()
(gdb) info registers
r13            0x55d0c3a41e20      94364346785312
rbx            0x55d0c3a41e60      94364346785376
rip            0x55d0c3a41e20      0x55d0c3a41e20
(gdb) x/2gx $sp
0x7ffc0000:	0x000055d0c3a41e58	0x000055d0c3a41e54
(gdb) x/2i $pc
=> 0x55d0c3a41e20:	call   0x55d0c3a41e50
   0x55d0c3a41e25:	ret
";
        let mut p = crate::input::parse(text);
        let sup = Recording { table: table(), planned: Default::default(), asked: Default::default() };
        let mut notes = Vec::new();
        symbolize_trace(&mut p.trace, &sup, &mut notes);
        let planned = sup.planned.lock().unwrap().clone();
        assert_eq!(planned.len(), 1, "one plan per module: {planned:?}");
        let (module, vaddrs) = &planned[0];
        assert_eq!(module, "/opt/app/cb");
        assert!(vaddrs.windows(2).all(|w| w[0] < w[1]), "sorted, distinct: {vaddrs:?}");
        let asked = sup.asked.lock().unwrap().clone();
        assert!(asked.len() >= 6, "{asked:?}");
        for (m, v, plans_before) in &asked {
            assert_eq!(m, "/opt/app/cb");
            assert_eq!(*plans_before, 1, "looked up before the plan: {v:#x}");
            assert!(vaddrs.contains(v), "{v:#x} was looked up but not planned: {vaddrs:x?}");
        }
        // Frame #1's return address is looked up at the call (pc - 1); the call's target too.
        assert!(vaddrs.contains(&0x1e57) && vaddrs.contains(&0x1e50) && vaddrs.contains(&0x1e54), "{vaddrs:x?}");
    }

    #[test]
    fn registers_frames_and_words_get_symbols() {
        let text = "\
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x55d0c3a40000     0x55d0c3a42000     0x2000        0x0  r-xp   /opt/app/cb
(gdb) bt
#0  0x000055d0c3a41e20 in ?? ()
#1  0x000055d0c3a41e58 in ?? ()
(gdb) info registers
r13            0x55d0c3a41e20      94364346785312
rip            0x55d0c3a41e20      0x55d0c3a41e20
(gdb) x/2gx $sp
0x7ffc0000:	0x000055d0c3a41e58	0x0000000000000001
";
        let mut p = crate::input::parse(text);
        let mut notes = Vec::new();
        let st = symbolize_trace(&mut p.trace, &table(), &mut notes);
        let th = &p.trace.stops[0].threads[0];
        assert_eq!(th.frames[0].function.as_deref(), Some("julia_module_callback_4212"));
        assert_eq!(th.frames[0].file.as_deref(), Some("cb.jl"));
        assert_eq!(th.frames[1].function.as_deref(), Some("jlcapi_module_callback_4213"));
        let r13 = th.registers[&0].reg("r13").unwrap();
        assert_eq!(r13.natural.as_deref(), Some("<julia_module_callback_4212+16> at cb.jl:12"));
        assert!(
            p.trace
                .code_symbols
                .iter()
                .any(|(a, s)| a.0 == 0x55d0c3a41e58 && s.contains("jlcapi_module_callback_4213+8"))
        );
        assert_eq!(st.frames, 2);
        assert!(notes.is_empty());
    }

    #[test]
    fn branch_targets() {
        assert_eq!(branch_target("call   0x401136 <f>"), Some(0x401136));
        assert_eq!(branch_target("jne    0x55d0c3a41e58 <g+8>"), Some(0x55d0c3a41e58));
        assert_eq!(branch_target("mov    %rax,%rbx"), None);
        assert_eq!(branch_target("bl\t0x4005d0 <abort@plt>"), Some(0x4005d0));
    }
}
