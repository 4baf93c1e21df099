//! Where each code address lives: the module (mapped file) and the address inside that
//! module's ELF virtual address space. Built from a trace's mappings (`info proc
//! mappings`, a core's NT_FILE note) or, failing those, `info sharedlibrary`.
//!
//! The load bias of a PIE or shared library falls out of the mapping's file offset:
//! `vaddr = offset_to_vaddr(addr - start + offset)`.

use super::SymbolSupplier;
use super::dwarf::ElfModule;
use crate::model::Trace;
use std::sync::Arc;

/// One address range of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Range {
    start: u64,
    end: u64,
    /// Module vaddr = addr - start + base... computed per lookup via `offset`.
    offset: u64,
    /// For `info sharedlibrary` rows: a fixed bias (addr - bias = vaddr).
    bias: Option<u64>,
    path: String,
}

/// An address resolved to a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleRef {
    pub path: String,
    /// The module's ELF virtual address for the runtime address.
    pub vaddr: u64,
}

/// Address ranges of the modules in a trace, sorted by start.
#[derive(Clone, Default)]
pub struct ModuleMap<'s> {
    ranges: Vec<Range>,
    sup: Option<&'s dyn SymbolSupplier>,
}

impl<'s> ModuleMap<'s> {
    pub fn from_trace(trace: &Trace, sup: &'s dyn SymbolSupplier) -> Self {
        let mut ranges: Vec<Range> = trace
            .mappings
            .iter()
            .filter_map(|m| {
                let p = m.path.as_deref()?;
                if p.starts_with('[') || p.is_empty() {
                    return None;
                }
                let path = p.strip_suffix(" (deleted)").unwrap_or(p).to_string();
                Some(Range { start: m.start.0, end: m.end.0, offset: m.offset, bias: None, path })
            })
            .collect();
        if ranges.is_empty() {
            for l in &trace.libraries {
                let (Some(from), Some(to)) = (l.from, l.to) else { continue };
                let Some(text) = sup.text_vaddr(&l.path) else { continue };
                ranges.push(Range {
                    start: from.0,
                    end: to.0,
                    offset: 0,
                    bias: Some(from.0.wrapping_sub(text)),
                    path: l.path.to_string(),
                });
            }
            // A non-PIE executable given with --exe sits at its link addresses.
            for (path, segs) in sup.fixed_user_modules() {
                for (start, end) in segs {
                    ranges.push(Range { start, end, offset: 0, bias: Some(0), path: path.clone() });
                }
            }
        }
        // One load bias per module, from its mapping at file offset 0 (the ELF header's
        // page): every segment of a module moves by the same bias. Per-mapping offsets are
        // ambiguous when two segments share a file page (read-only data and the writable
        // segment of a small binary both start in page 0x2000), which put `.fini_array`
        // addresses into the wrong segment.
        // A file can be mapped more than once (a runtime that also mmaps its own image as
        // data): each range takes the bias of the nearest offset-0 mapping of the same file at
        // or below it, which is the start of the load it belongs to.
        // One pass in address order: linear in the number of mappings (an untrusted count).
        ranges.sort_by_key(|r| (r.start, r.end));
        let mut head_bias: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
        for r in ranges.iter_mut().filter(|r| r.bias.is_none()) {
            if r.offset == 0
                && let Some(base) = sup.offset_to_vaddr(&r.path, 0)
            {
                head_bias.insert(r.path.clone(), r.start.wrapping_sub(base));
            }
            if let Some(b) = head_bias.get(&r.path) {
                r.bias = Some(*b);
            }
        }
        ranges.sort_by_key(|r| (r.start, r.end));
        ModuleMap { ranges, sup: Some(sup) }
    }

    /// The module holding `addr`, if any.
    pub fn find(&self, addr: u64) -> Option<ModuleRef> {
        let i = self.ranges.partition_point(|r| r.start <= addr);
        let r = self.ranges[..i].iter().rev().find(|r| addr < r.end)?;
        let vaddr = match r.bias {
            Some(b) => addr.wrapping_sub(b),
            None => {
                // The mapping's own offset names its segment; addresses inside follow it.
                let base = match self.sup {
                    Some(s) => s.offset_to_vaddr(&r.path, r.offset)?,
                    None => r.offset,
                };
                // Damaged mappings (a core's NT_FILE) can put this past the address space.
                base.checked_add(addr - r.start)?
            }
        };
        Some(ModuleRef { path: r.path.clone(), vaddr })
    }

    /// [`Self::find`] where the range's load bias is known: no question to the supplier
    /// (which opens the module, earlier than a lookup would: see `symbolize::plan_lookups`).
    pub fn find_biased(&self, addr: u64) -> Option<ModuleRef> {
        let i = self.ranges.partition_point(|r| r.start <= addr);
        let r = self.ranges[..i].iter().rev().find(|r| addr < r.end)?;
        Some(ModuleRef { path: r.path.clone(), vaddr: addr.wrapping_sub(r.bias?) })
    }

    /// Every mapped range with its module path (start, end, path), in address order.
    pub fn placed(&self) -> Vec<(u64, u64, String)> {
        self.ranges.iter().map(|r| (r.start, r.end, r.path.clone())).collect()
    }

    /// Every module path, once.
    pub fn paths(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.ranges.iter().map(|r| r.path.as_str()).collect();
        v.sort();
        v.dedup();
        v
    }
}

/// A module's file standing in for memory the core did not dump.
#[derive(Clone, Debug)]
pub struct MappedModule {
    pub start: u64,
    pub end: u64,
    /// Runtime address minus module virtual address.
    pub bias: u64,
    pub module: Arc<ElfModule>,
}

/// Process memory made of module files only: the code of the modules a transcript's user
/// gave with `--exe`, at the addresses the trace's mappings put them (nothing else reads).
pub struct ModuleCode {
    modules: Vec<MappedModule>,
}

impl ModuleCode {
    pub fn new(mut modules: Vec<MappedModule>) -> Self {
        modules.sort_by_key(|m| m.start);
        ModuleCode { modules }
    }
}

impl crate::model::MemorySource for ModuleCode {
    fn read(&self, addr: u64, buf: &mut [u8]) -> usize {
        let mut done = 0;
        while done < buf.len() {
            let a = addr.wrapping_add(done as u64);
            let Some(m) = self.modules.iter().find(|m| a >= m.start && a < m.end) else { break };
            let n = (buf.len() - done).min(usize::try_from(m.end - a).unwrap_or(usize::MAX));
            let got = m.module.read_vaddr(a.wrapping_sub(m.bias), &mut buf[done..done + n]);
            if got == 0 {
                break;
            }
            done += got;
        }
        done
    }
    fn describe(&self) -> String {
        format!("code of {} module segment(s) given with --exe", self.modules.len())
    }
    fn cfi_saved_slot(&self, pc: u64, dwarf_reg: u16) -> Option<(u16, i64, i64)> {
        let m = self.modules.iter().find(|m| pc >= m.start && pc < m.end)?;
        cfi_saved_slot(m, pc, dwarf_reg)
    }
    fn function_range(&self, pc: u64) -> Option<(u64, u64)> {
        let m = self.modules.iter().find(|m| pc >= m.start && pc < m.end)?;
        cfi_function_range(m, pc)
    }
}

/// The extent `[start, end)` (runtime addresses) of the FDE covering `pc` in `m`: the
/// function's code as its call-frame information describes it.
pub fn cfi_function_range(m: &MappedModule, pc: u64) -> Option<(u64, u64)> {
    use gimli::UnwindSection;
    let cfi = *m.module.cfi();
    let endian = if m.module.little_endian { gimli::RunTimeEndian::Little } else { gimli::RunTimeEndian::Big };
    let rel = pc.wrapping_sub(m.bias);
    let mut bases = gimli::BaseAddresses::default();
    if let Some(t) = cfi.text {
        bases = bases.set_text(t.address);
    }
    if let Some(g) = cfi.got {
        bases = bases.set_got(g.address);
    }
    let range = |start: u64, len: u64| {
        let s = start.wrapping_add(m.bias);
        (len > 0).then(|| (s, s.saturating_add(len)))
    };
    if let Some(eh) = cfi.eh_frame {
        let b = bases.clone().set_eh_frame(eh.address);
        let mut section = gimli::EhFrame::new(eh.data, endian);
        section.set_address_size(m.module.address_size());
        if let Ok(fde) = section.fde_for_address(&b, rel, gimli::EhFrame::cie_from_offset) {
            return range(fde.initial_address(), fde.len());
        }
    }
    if let Some(df) = cfi.debug_frame {
        let mut section = gimli::DebugFrame::new(df.data, endian);
        section.set_address_size(m.module.address_size());
        if let Ok(fde) = section.fde_for_address(&bases, rel, gimli::DebugFrame::cie_from_offset) {
            return range(fde.initial_address(), fde.len());
        }
    }
    None
}

/// Where the CFI of the function holding `pc` (a runtime address in `m`) says `dwarf_reg` is
/// saved at `pc`: its offset from the CFA, with the CFA rule (register, offset). `None` when
/// the module has no CFI there or the register is not saved at that address.
pub fn cfi_saved_slot(m: &MappedModule, pc: u64, dwarf_reg: u16) -> Option<(u16, i64, i64)> {
    use gimli::UnwindSection;
    let cfi = *m.module.cfi();
    let endian = if m.module.little_endian { gimli::RunTimeEndian::Little } else { gimli::RunTimeEndian::Big };
    let rel = pc.wrapping_sub(m.bias);
    let mut bases = gimli::BaseAddresses::default();
    if let Some(t) = cfi.text {
        bases = bases.set_text(t.address);
    }
    if let Some(g) = cfi.got {
        bases = bases.set_got(g.address);
    }
    let mut ctx = Box::new(gimli::UnwindContext::new());
    let pick = |row: &gimli::UnwindTableRow<usize>| {
        let (gimli::CfaRule::RegisterAndOffset { register, offset }, Some(gimli::RegisterRule::Offset(o))) =
            (row.cfa(), row.register(gimli::Register(dwarf_reg)))
        else {
            return None;
        };
        Some((register.0, *offset, o))
    };
    if let Some(eh) = cfi.eh_frame {
        let b = bases.clone().set_eh_frame(eh.address);
        let mut section = gimli::EhFrame::new(eh.data, endian);
        section.set_address_size(m.module.address_size());
        if let Ok(fde) = section.fde_for_address(&b, rel, gimli::EhFrame::cie_from_offset)
            && let Ok(row) = fde.unwind_info_for_address(&section, &b, &mut ctx, rel)
        {
            return pick(row);
        }
    }
    if let Some(df) = cfi.debug_frame {
        let mut section = gimli::DebugFrame::new(df.data, endian);
        section.set_address_size(m.module.address_size());
        if let Ok(fde) = section.fde_for_address(&bases, rel, gimli::DebugFrame::cie_from_offset)
            && let Ok(row) = fde.unwind_info_for_address(&section, &bases, &mut ctx, rel)
        {
            return pick(row);
        }
    }
    None
}
