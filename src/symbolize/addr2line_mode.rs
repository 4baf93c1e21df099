//! `tracecheck symbolize`: an addr2line-compatible batch mode.
//!
//! Output matches binutils `addr2line` for the flags it shares (`-a -f -i -C -p -s`):
//! per address an optional `0x%016x` line, then for each inlined level, innermost first,
//! the function (`??` when unknown) and `file:line` (`??:0` when nothing is known,
//! `file:?` when the line is unknown). Addresses are the ELF file's virtual addresses.
//!
//! Speed comes from batching: the addresses are sorted, split into one contiguous chunk
//! per core, and each chunk is resolved by its own addr2line `Context` over the shared,
//! memory-mapped DWARF, so every unit is parsed at most once per chunk. The answers are
//! printed in input order. Deliberate difference from binutils: no `(discriminator N)`
//! suffix (the addr2line crate does not report discriminators).

use super::demangle::demangle;
use super::dwarf::{ElfModule, Slice, source_frames};
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

/// Formats the answer for one address (all lines, each ending in `\n`).
fn answer(m: &ElfModule, ctx: Option<&addr2line::Context<Slice>>, addr: u64, o: &Addr2LineOptions, out: &mut String) {
    use std::fmt::Write as _;
    if o.addresses {
        let _ = write!(out, "0x{addr:016x}");
        out.push_str(if o.pretty { ": " } else { "\n" });
    }
    let mut frames = match ctx {
        Some(c) if in_alloc_section(m, addr) => source_frames(c, addr, false).unwrap_or_default(),
        _ => Vec::new(),
    };
    let fallback = if in_alloc_section(m, addr) { m.symbol_name(addr) } else { None };
    if frames.is_empty() {
        if let Some((name, file)) = fallback {
            // Only the symbol table knew it: a name, perhaps a file, no line.
            frames.push(super::SourceFrame {
                raw_function: Some(name.to_string()),
                function: Some(demangle(name).into_owned()),
                file: file.map(str::to_string),
                ..Default::default()
            });
        }
    } else if let Some(last) = frames.last_mut()
        && last.function.is_none()
    {
        last.raw_function = fallback.map(|f| f.0.to_string());
        last.function = fallback.map(|f| demangle(f.0).into_owned());
    }
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
            let name = if o.demangle { f.function.as_deref() } else { f.raw_function.as_deref() };
            match name {
                Some(name) if !name.is_empty() => out.push_str(name),
                _ => out.push_str("??"),
            }
            out.push_str(if o.pretty { " at " } else { "\n" });
        }
        let file = f.file.as_deref().map(|p| if o.basenames { p.rsplit('/').next().unwrap_or(p) } else { p });
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
    let mut order: Vec<u32> = (0..addrs.len() as u32).collect();
    order.sort_by_key(|&i| addrs[i as usize]);
    let threads =
        if o.threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { o.threads };
    // A second context costs a second parse of the unit headers: only worth it for big batches.
    let threads = if addrs.len() < 4096 { 1 } else { threads.max(1) };
    let chunk = order.len().div_ceil(threads).max(1);
    let mut answers: Vec<String> = vec![String::new(); addrs.len()];
    let work = |part: &[u32]| -> Vec<(u32, String)> {
        let ctx = m.new_context().and_then(|r| r.ok());
        let mut res = Vec::with_capacity(part.len());
        let mut prev: Option<(u64, usize)> = None;
        for &i in part {
            let a = addrs[i as usize];
            if let Some((pa, pi)) = prev
                && pa == a
            {
                let s: String = res.get(pi).map(|x: &(u32, String)| x.1.clone()).unwrap_or_default();
                res.push((i, s));
                continue;
            }
            let mut s = String::new();
            answer(m, ctx.as_ref(), a, o, &mut s);
            prev = Some((a, res.len()));
            res.push((i, s));
        }
        res
    };
    if threads == 1 {
        for (i, s) in work(&order) {
            answers[i as usize] = s;
        }
    } else {
        std::thread::scope(|sc| {
            let handles: Vec<_> = order.chunks(chunk).map(|part| sc.spawn(move || work(part))).collect();
            for h in handles {
                if let Ok(v) = h.join() {
                    for (i, s) in v {
                        answers[i as usize] = s;
                    }
                }
            }
        });
    }
    for s in &answers {
        w.write_all(s.as_bytes())?;
    }
    Ok(())
}
