//! Process memory from a core: the bytes of its PT_LOAD segments, and for file-backed
//! code that the core did not dump (cores usually leave out read-only file pages), the
//! bytes of the mapped ELF file itself.

use super::{CoreBytes, Segment};
use crate::model::MemorySource;
/// Kept at its old path; it lives with the modules in `symbolize`.
pub use crate::symbolize::modules::MappedModule;
use std::sync::Arc;

/// Core segments first, then the mapped files.
pub struct CoreMemory {
    bytes: Arc<CoreBytes>,
    segments: Vec<Segment>,
    modules: Vec<MappedModule>,
    name: String,
}

impl CoreMemory {
    pub fn new(bytes: Arc<CoreBytes>, segments: Vec<Segment>, modules: Vec<MappedModule>, name: String) -> Self {
        CoreMemory { bytes, segments, modules, name }
    }

    fn read_core(&self, addr: u64, buf: &mut [u8]) -> usize {
        let i = self.segments.partition_point(|s| s.vaddr <= addr);
        let Some(s) = i.checked_sub(1).map(|i| &self.segments[i]) else { return 0 };
        if addr >= s.vaddr + s.filesz {
            return 0;
        }
        let Some(off) = s.offset.checked_add(addr - s.vaddr).and_then(|o| usize::try_from(o).ok()) else { return 0 };
        let n = buf.len().min(usize::try_from(s.vaddr + s.filesz - addr).unwrap_or(usize::MAX));
        match off.checked_add(n).and_then(|end| self.bytes.get(off..end)) {
            Some(src) => {
                buf[..n].copy_from_slice(src);
                n
            }
            None => 0,
        }
    }

    fn read_file(&self, addr: u64, buf: &mut [u8]) -> usize {
        for m in &self.modules {
            if addr >= m.start && addr < m.end {
                let n = buf.len().min((m.end - addr) as usize);
                return m.module.read_vaddr(addr.wrapping_sub(m.bias), &mut buf[..n]);
            }
        }
        0
    }
}

impl MemorySource for CoreMemory {
    fn read(&self, addr: u64, buf: &mut [u8]) -> usize {
        let mut done = 0;
        // A read may cross from one segment (or file) into the next.
        while done < buf.len() {
            let a = addr.wrapping_add(done as u64);
            let n = match self.read_core(a, &mut buf[done..]) {
                0 => self.read_file(a, &mut buf[done..]),
                n => n,
            };
            if n == 0 {
                break;
            }
            done += n;
        }
        done
    }
    fn describe(&self) -> String {
        format!("{} ({} segments, {} mapped files)", self.name, self.segments.len(), self.modules.len())
    }
    fn cfi_saved_slot(&self, pc: u64, dwarf_reg: u16) -> Option<(u16, i64, i64)> {
        let m = self.modules.iter().find(|m| pc >= m.start && pc < m.end)?;
        crate::symbolize::modules::cfi_saved_slot(m, pc, dwarf_reg)
    }
    fn function_range(&self, pc: u64) -> Option<(u64, u64)> {
        let m = self.modules.iter().find(|m| pc >= m.start && pc < m.end)?;
        crate::symbolize::modules::cfi_function_range(m, pc)
    }
}
