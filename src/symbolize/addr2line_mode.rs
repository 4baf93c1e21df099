//! `tracecheck symbolize`: an addr2line-compatible batch mode.
//!
//! Output matches binutils `addr2line` for the flags it shares (`-a -f -i -C -p -s`):
//! per address an optional `0x%016x` line, then for each inlined level, innermost first,
//! the function (`??` when unknown) and `file:line` (`??:0` when nothing is known,
//! `file:?` when the line is unknown). Addresses are the ELF file's virtual addresses.
//!
//! Speed comes from batching: the distinct addresses are sorted and resolved together by
//! [`batch::resolve`], which visits each unit that holds one of them once, for all of
//! them, and shares the units out between threads; addresses DWARF does not know go to
//! the ELF symbol table in one pass. The answers are printed in input order. Deliberate
//! difference from binutils: no `(discriminator N)` suffix (the addr2line crate, whose
//! rules the batch engine follows, does not report discriminators).

use super::batch::{self, Frame};
use super::demangle::demangle_into;
use super::dwarf::ElfModule;
use std::io::{self, Write};

/// The flags, as in binutils addr2line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Addr2LineOptions {
    /// `-a`: print the address first.
    pub addresses: bool,
    /// `-f`: print function names.
    pub functions: bool,
    /// `-i`: print the inlined-call chain.
    pub inlines: bool,
    /// `-C`: demangle.
    pub demangle: bool,
    /// `-p`: one line per address.
    pub pretty: bool,
    /// `-s`: base names of files only.
    pub basenames: bool,
    /// Worker threads (0 = one per core).
    pub threads: usize,
}

/// Parses an address as binutils does (hex, optional `0x`); garbage reads as 0.
pub fn parse_address(s: &str) -> u64 {
    let t = s.trim();
    let t = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    let digits: String = t.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    u64::from_str_radix(&digits, 16).unwrap_or(0)
}

fn in_alloc_section(m: &ElfModule, a: u64) -> bool {
    m.loads.iter().any(|l| l.memsz > 0 && a >= l.vaddr && a < l.vaddr + l.memsz)
}

/// Whether the answer needs the symbol table: DWARF knows nothing of the address, or not
/// the name of its outermost function.
fn needs_symbol(m: &ElfModule, frames: &[Frame<'_>], addr: u64) -> bool {
    frames.last().is_none_or(|f| f.name.is_none()) && in_alloc_section(m, addr)
}

/// Formats the answer for one address (all lines, each ending in `\n`) from its frames,
/// innermost first, and the nearest ELF symbol (when [`needs_symbol`]): binutils takes
/// the symbol's name (and file, for a local symbol) when DWARF has none.
fn answer(
    frames: &[Frame<'_>],
    symbol: Option<(&str, Option<&str>)>,
    addr: u64,
    o: &Addr2LineOptions,
    out: &mut String,
) {
    use std::fmt::Write as _;
    if o.addresses {
        let _ = write!(out, "0x{addr:016x}");
        out.push_str(if o.pretty { ": " } else { "\n" });
    }
    // Only the symbol table knows it: a name, perhaps a file, no line.
    let from_symbols;
    let frames = match symbol {
        Some((name, file)) if frames.is_empty() => {
            from_symbols = [Frame { name: Some(name.into()), file, line: None }];
            &from_symbols[..]
        }
        _ => frames,
    };
    if frames.is_empty() {
        if o.functions {
            out.push_str(if o.pretty { "?? " } else { "??\n" });
        }
        out.push_str("??:0\n");
        return;
    }
    let n = if o.inlines { frames.len() } else { 1 };
    for (i, f) in frames.iter().take(n).enumerate() {
        if i > 0 && o.pretty {
            out.push_str(" (inlined by) ");
        }
        if o.functions {
            // The outermost level without a DWARF name takes the symbol's.
            let symbol = if i + 1 == frames.len() { symbol.map(|s| s.0) } else { None };
            match f.name.as_deref().or(symbol) {
                Some(name) if !name.is_empty() => {
                    if o.demangle {
                        demangle_into(name, out);
                    } else {
                        out.push_str(name);
                    }
                }
                _ => out.push_str("??"),
            }
            out.push_str(if o.pretty { " at " } else { "\n" });
        }
        let file = f.file.map(|p| if o.basenames { p.rsplit('/').next().unwrap_or(p) } else { p });
        out.push_str(file.unwrap_or("??"));
        out.push(':');
        match f.line {
            Some(l) => {
                let _ = writeln!(out, "{l}");
            }
            None => out.push_str("?\n"),
        }
    }
}

/// Resolves `addrs` (in any order) and writes the answers in input order.
pub fn run(m: &ElfModule, addrs: &[u64], o: &Addr2LineOptions, w: &mut dyn Write) -> io::Result<()> {
    // Distinct addresses inside the file's loaded segments, sorted: the DWARF queries.
    let mut qs: Vec<u64> = addrs.iter().copied().filter(|&a| in_alloc_section(m, a)).collect();
    qs.sort_unstable();
    qs.dedup();
    let threads =
        if o.threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { o.threads };
    // An answer, or the frames (owned) of one that needs the symbol table (done after,
    // in one pass over the table for all of them).
    type Owned = Vec<(Option<String>, Option<String>, Option<u32>)>;
    thread_local! {
        // Answers are written here, then copied out at their exact size: growing a string
        // per answer would mean reallocations, which take the allocator's arena lock (and
        // with two threads, contend for it).
        static BUF: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    let emit = |addr: u64, frames: &[Frame<'_>]| -> Result<String, Owned> {
        if needs_symbol(m, frames, addr) {
            return Err(frames
                .iter()
                .map(|f| (f.name.as_deref().map(str::to_string), f.file.map(str::to_string), f.line))
                .collect());
        }
        Ok(BUF.with_borrow_mut(|b| {
            b.clear();
            answer(frames, None, addr, o, b);
            b.as_str().to_owned()
        }))
    };
    let mut answers: Vec<Result<String, Owned>> = match m.dwarf_for_one_pass() {
        Some(d) => batch::resolve(&d, &qs, threads, &emit),
        None => qs.iter().map(|&a| emit(a, &[])).collect(),
    };
    let missing: Vec<usize> = (0..qs.len()).filter(|&i| answers[i].is_err()).collect();
    if !missing.is_empty() {
        let symbols = m.symbol_names(&missing.iter().map(|&i| qs[i]).collect::<Vec<_>>());
        for (&i, sym) in missing.iter().zip(symbols) {
            if let Err(owned) = &answers[i] {
                let frames: Vec<Frame<'_>> = owned
                    .iter()
                    .map(|(n, f, l)| Frame { name: n.as_deref().map(Into::into), file: f.as_deref(), line: *l })
                    .collect();
                let mut s = String::new();
                answer(&frames, sym, qs[i], o, &mut s);
                answers[i] = Ok(s);
            }
        }
    }
    let mut other = String::new();
    for &a in addrs {
        match qs.binary_search(&a).ok().and_then(|i| answers[i].as_ref().ok()) {
            Some(s) => w.write_all(s.as_bytes())?,
            None => {
                other.clear();
                answer(&[], None, a, o, &mut other);
                w.write_all(other.as_bytes())?;
            }
        }
    }
    Ok(())
}
