//! An in-memory symbol table: the test double for [`SymbolSupplier`], in the spirit of
//! rust-minidump's string symbol supplier. Addresses are module virtual addresses, which
//! the default [`SymbolSupplier::offset_to_vaddr`] equates with file offsets.

use super::{NearSymbol, SourceFrame, SymbolInfo, SymbolSupplier, SymbolizeError};
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
struct Entry {
    size: u64,
    name: String,
    source: Option<(String, u32)>,
    /// Inlined callees inside this function: (start, end, name, file, line).
    inlined: Vec<(u64, u64, String, String, u32)>,
}

/// Functions per module path.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    modules: BTreeMap<String, BTreeMap<u64, Entry>>,
}

impl SymbolTable {
    /// Adds a function `[start, start+size)` of `module`, optionally with one source line.
    pub fn add_function(&mut self, module: &str, start: u64, size: u64, name: &str, source: Option<(&str, u32)>) {
        self.modules.entry(module.to_string()).or_default().insert(
            start,
            Entry {
                size,
                name: name.to_string(),
                source: source.map(|(f, l)| (f.to_string(), l)),
                inlined: Vec::new(),
            },
        );
    }
    /// Adds an inlined callee inside the function that starts at `func_start`.
    pub fn add_inlined(&mut self, module: &str, func_start: u64, range: (u64, u64), name: &str, file: &str, line: u32) {
        if let Some(e) = self.modules.get_mut(module).and_then(|m| m.get_mut(&func_start)) {
            e.inlined.push((range.0, range.1, name.to_string(), file.to_string(), line));
        }
    }
}

impl SymbolSupplier for SymbolTable {
    fn lookup(&self, module: &str, vaddr: u64) -> Result<Option<SymbolInfo>, SymbolizeError> {
        let Some(m) = self.modules.get(module) else { return Ok(None) };
        let Some((&start, e)) = m.range(..=vaddr).next_back() else { return Ok(None) };
        if vaddr >= start.saturating_add(e.size) {
            return Ok(None);
        }
        let frame = |name: &str, src: Option<(&str, u32)>| SourceFrame {
            raw_function: Some(name.to_string()),
            function: Some(name.to_string()),
            display_function: Some(name.to_string()),
            file: src.map(|s| s.0.to_string()),
            display_file: src.map(|s| s.0.to_string()),
            line: src.map(|s| s.1),
            column: None,
        };
        let mut frames = Vec::new();
        for (lo, hi, name, file, line) in &e.inlined {
            if (*lo..*hi).contains(&vaddr) {
                frames.push(frame(name, Some((file, *line))));
            }
        }
        frames.push(frame(&e.name, e.source.as_ref().map(|(f, l)| (f.as_str(), *l))));
        Ok(Some(SymbolInfo {
            frames,
            symbol: Some(NearSymbol { name: e.name.clone(), address: start, kind: Default::default() }),
        }))
    }
}
