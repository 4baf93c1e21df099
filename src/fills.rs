//! Fill patterns (knowledge): the bytes allocators, runtimes and exploit payloads write
//! into memory (`0xa5` junk, `MALLOC_PERTURB_`, `0xdeadbeef`, list poison), and whether a
//! value is one. Used by the poison-value, corrupt-backtrace and wild-pointer rules.

use crate::model::*;

/// What a fill means for the data that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    Freed,
    Uninitialised,
    Overflow,
    Guard,
    /// A value set on purpose (0xdeadbeef, list poison).
    Sentinel,
    /// A repeated byte of no known origin.
    Unknown,
}

impl Meaning {
    pub fn conclusion(self) -> &'static str {
        match self {
            Meaning::Freed => "probable use-after-free",
            Meaning::Uninitialised => "use of uninitialised memory",
            Meaning::Overflow => "a buffer overflow wrote over this value",
            Meaning::Guard => "access beyond the end of a heap block",
            Meaning::Sentinel => "a value marked dead on purpose was used",
            Meaning::Unknown => "a memset or allocator fill was used as data",
        }
    }
}

/// How a value matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The whole word is the pattern (all bytes, or the 32-bit word twice).
    Exact,
    /// A 32-bit pattern, zero- or sign-extended: may also be a plain integer.
    Low32,
    /// The `0xdead…` poison-pointer prefix.
    Prefix,
}

/// One recognised fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    /// `0xa5 fill`, `'AAAA…' (0x41) fill`, `0xdeadbeef`.
    pub name: String,
    /// Who writes it.
    pub source: &'static str,
    pub meaning: Meaning,
    pub fit: Fit,
    /// From a known allocator/runtime/payload (not just any repeated byte).
    pub known: bool,
}

/// Which allocator the process uses, for reading `0xa5` / `0x5a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocator {
    Glibc,
    Jemalloc,
}

pub fn allocator(trace: &Trace) -> Allocator {
    let jemalloc = trace.libraries.iter().any(|l| l.path.contains("jemalloc"))
        || trace.mappings.iter().any(|m| m.path.as_deref().is_some_and(|p| p.contains("jemalloc")));
    if jemalloc { Allocator::Jemalloc } else { Allocator::Glibc }
}

/// Repeated bytes that are bit-twiddling constants (strlen/memchr masks, popcount), or
/// that are not patterns at all.
const NOT_FILL_BYTES: &[u8] = &[0x00, 0xff, 0x01, 0x80, 0x7f, 0xfe, 0x0f, 0xf0, 0x33, 0x55, 0xaa];

fn known_byte(b: u8, alloc: Allocator) -> Option<(&'static str, Meaning)> {
    Some(match (b, alloc) {
        (0xa5, Allocator::Glibc) => ("glibc MALLOC_PERTURB_=165 free fill", Meaning::Freed),
        (0xa5, Allocator::Jemalloc) => ("jemalloc opt.junk allocation fill", Meaning::Uninitialised),
        (0x5a, Allocator::Glibc) => ("glibc MALLOC_PERTURB_=165 allocation fill", Meaning::Uninitialised),
        (0x5a, Allocator::Jemalloc) => ("jemalloc opt.junk free fill", Meaning::Freed),
        (0xbb, _) => ("Julia MEMDEBUG fill of freed big objects", Meaning::Freed),
        (0xcc, _) => ("MSVC /RTC uninitialised stack fill, or int3 padding", Meaning::Uninitialised),
        (0xcd, _) => ("MSVC debug heap fill of new allocations", Meaning::Uninitialised),
        (0xdd, _) => ("MSVC debug heap fill of freed blocks", Meaning::Freed),
        (0xfd, _) => ("MSVC debug heap guard bytes", Meaning::Guard),
        (0x41, _) => ("the usual overflow test payload", Meaning::Overflow),
        _ => return None,
    })
}

/// Known 32-bit words (besides the known bytes repeated four times).
const WORDS: &[(u32, &str, Meaning)] = &[
    (0xdeadbeef, "conventional dead-value sentinel", Meaning::Sentinel),
    (0xfeeefeee, "Windows HeapFree fill of freed blocks", Meaning::Freed),
    (0xbaadf00d, "Windows LocalAlloc fill of new allocations", Meaning::Uninitialised),
];

/// `0xa5 fill`; letters that are not an allocator's fill byte read as text (`'AAAA…'`).
fn byte_name(b: u8) -> String {
    if b.is_ascii_alphanumeric() && b != 0x5a {
        let c = b as char;
        format!("'{c}{c}{c}{c}…' (0x{b:02x}) fill")
    } else {
        format!("0x{b:02x} fill")
    }
}

fn is_repeated_byte(v: u64) -> Option<u8> {
    let b = (v & 0xff) as u8;
    (v == u64::from(b) * 0x0101_0101_0101_0101).then_some(b)
}

/// The fill a full-width value is, if any. `arch` decides the word width.
pub fn fill_of(v: u64, arch: Arch, alloc: Allocator) -> Option<Fill> {
    let wide = !matches!(arch, Arch::X86 | Arch::Arm);
    if !wide && v >> 32 != 0 {
        return None;
    }
    if let Some(b) = is_repeated_byte(v).filter(|_| wide) {
        if NOT_FILL_BYTES.contains(&b) {
            return None;
        }
        return Some(match known_byte(b, alloc) {
            Some((source, meaning)) => Fill { name: byte_name(b), source, meaning, fit: Fit::Exact, known: true },
            None => Fill {
                name: byte_name(b),
                source: "a repeated-byte fill",
                meaning: Meaning::Unknown,
                fit: Fit::Exact,
                known: false,
            },
        });
    }
    let lo = v as u32;
    let hi = (v >> 32) as u32;
    let fit = if !wide || hi == lo {
        Some(Fit::Exact)
    } else if hi == 0 || (hi == u32::MAX && lo & 0x8000_0000 != 0) {
        Some(Fit::Low32)
    } else {
        None
    };
    if let Some(fit) = fit {
        if let Some(&(_, source, meaning)) = WORDS.iter().find(|(w, _, _)| *w == lo) {
            return Some(Fill { name: format!("{lo:#010x}"), source, meaning, fit, known: true });
        }
        // A known byte four times in a 32-bit word (the whole register on 32-bit targets).
        let b = (lo & 0xff) as u8;
        if lo == u32::from(b) * 0x0101_0101
            && !NOT_FILL_BYTES.contains(&b)
            && let Some((source, meaning)) = known_byte(b, alloc)
        {
            let name = if wide { format!("32-bit {}", byte_name(b)) } else { byte_name(b) };
            return Some(Fill { name, source, meaning, fit, known: true });
        }
    }
    if wide && v >> 48 == 0xdead && v & 0xffff_ffff_ffff < 0x1_0000 {
        return Some(Fill {
            name: "0xdead… poison pointer".into(),
            source: "Linux POISON_POINTER_DELTA, as in LIST_POISON1/2",
            meaning: Meaning::Sentinel,
            fit: Fit::Prefix,
            known: true,
        });
    }
    None
}

/// A fill plus a small offset (a fault address or an address the unwinder tried to read:
/// `0x4141414141414149` is `0x4141414141414141 + 8`). Only exact or prefix fits.
pub fn fill_near(v: u64, arch: Arch, alloc: Allocator) -> Option<(Fill, i64)> {
    const REACH: u64 = 0x1000;
    if let Some(f) = fill_of(v, arch, alloc).filter(|f| f.fit != Fit::Low32) {
        return Some((f, 0));
    }
    let wide = !matches!(arch, Arch::X86 | Arch::Arm);
    // The pattern the high bytes spell: a repeated top byte, or the high 32-bit word twice.
    let candidates: Vec<u64> = if wide {
        let w = v >> 32;
        vec![(v >> 56) * 0x0101_0101_0101_0101, (w << 32) | w]
    } else {
        let mut c = vec![(v >> 24 & 0xff) * 0x0101_0101];
        c.extend(WORDS.iter().map(|(w, _, _)| u64::from(*w)));
        c
    };
    for c in candidates {
        let off = v.wrapping_sub(c) as i64;
        if off != 0
            && off.unsigned_abs() < REACH
            && let Some(f) = fill_of(c, arch, alloc).filter(|f| f.fit == Fit::Exact)
        {
            return Some((f, off));
        }
    }
    None
}
