//! Symbols printed next to values, typed once when the text enters the model.
//!
//! A debugger prints a code address with the symbol it falls in: `0x401136 <main+16>` in a
//! register's natural column, `<main+16>` on a disassembly line, `cb=0x401126 <handler>` in an
//! argument list or a printed value; the symbolizer writes `<f+8> at a.c:3`. The text is kept
//! (renderers quote it), and the symbol in it is parsed when the text is stored
//! ([`Natural::from`], [`Location::from`], [`addr_symbols`]), so nothing downstream (rules,
//! classification, renderers) splits a string to find a name or an offset.

use super::trace::Sym;
use std::fmt;
use std::ops::Deref;

/// A symbol and the offset into it: `main+16`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SymbolRef {
    pub name: Sym,
    /// The offset printed after `+`; `None` when none was printed (`<main>`).
    pub offset: Option<u64>,
    /// The offset was printed in hex (`+0x10`) rather than decimal (`+16`).
    pub hex: bool,
}

impl SymbolRef {
    /// Reads `main+16`, `main+0x10` or `main`. The result prints back exactly as the text
    /// (`Display`): a `+…` tail that is not a number stays part of the name (`operator+`).
    pub fn parse(s: &str) -> Option<SymbolRef> {
        if s.is_empty() {
            return None;
        }
        if let Some((name, off)) = s.rsplit_once('+')
            && !name.is_empty()
        {
            let parsed = match off.strip_prefix("0x") {
                Some(h) if !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    u64::from_str_radix(h, 16).ok().map(|v| (v, true))
                }
                Some(_) => None,
                None if !off.is_empty() && off.bytes().all(|b| b.is_ascii_digit()) => {
                    off.parse().ok().map(|v| (v, false))
                }
                None => None,
            };
            if let Some((v, hex)) = parsed {
                let r = SymbolRef { name: name.into(), offset: Some(v), hex };
                // Only when it prints back the same (`f+007` stays a name).
                if r.to_string() == s {
                    return Some(r);
                }
            }
        }
        Some(SymbolRef { name: s.into(), offset: None, hex: false })
    }
    /// The offset, 0 when none was printed.
    pub fn offset_or_zero(&self) -> u64 {
        self.offset.unwrap_or(0)
    }
    /// At the symbol's first byte: no offset or `+0`.
    pub fn at_start(&self) -> bool {
        self.offset.is_none_or(|o| o == 0)
    }
}

impl fmt::Display for SymbolRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        match self.offset {
            Some(o) if self.hex => write!(f, "+{o:#x}"),
            Some(o) => write!(f, "+{o}"),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for SymbolRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{self}>")
    }
}

/// The symbol between the first `<` and the last `>` of `text` (`0x401136 <main+16>`,
/// `<f+8> at a.c:3`).
fn bracketed(text: &str) -> Option<SymbolRef> {
    let a = text.find('<')?;
    let b = text.rfind('>')?;
    if a + 1 >= b {
        return None;
    }
    SymbolRef::parse(&text[a + 1..b])
}

macro_rules! text_with_symbol {
    ($name:ident, $parse:expr) => {
        impl $name {
            pub fn new(text: impl Into<Box<str>>) -> Self {
                let text: Box<str> = text.into();
                let symbol = ($parse)(&*text);
                $name { text, symbol }
            }
            /// The symbol in the text, parsed when it was stored.
            pub fn symbol(&self) -> Option<&SymbolRef> {
                self.symbol.as_ref()
            }
            pub fn as_str(&self) -> &str {
                &self.text
            }
        }
        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.text
            }
        }
        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.text
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.text)
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&*self.text, f)
            }
        }
        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name::new(s)
            }
        }
        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name::new(s)
            }
        }
        impl From<Box<str>> for $name {
            fn from(s: Box<str>) -> Self {
                $name::new(s)
            }
        }
        impl From<Sym> for $name {
            fn from(s: Sym) -> Self {
                $name::new(&*s)
            }
        }
    };
}

/// A register's natural column as printed (`0x401136 <main+16>`, `[ ZF PF ]`, `-2`), or what
/// the symbolizer wrote there (`<f+8> at a.c:3`), with the bracketed symbol typed.
#[derive(Clone, PartialEq, Eq)]
pub struct Natural {
    text: Box<str>,
    symbol: Option<SymbolRef>,
}
text_with_symbol!(Natural, bracketed);

/// A disassembly line's location as printed without the brackets (`main+16`; `+16` in
/// `disassemble`, which names no symbol), with the symbol typed.
#[derive(Clone, PartialEq, Eq)]
pub struct Location {
    text: Box<str>,
    symbol: Option<SymbolRef>,
}
text_with_symbol!(Location, |t: &str| if t.starts_with('+') { None } else { SymbolRef::parse(t) });

impl Location {
    /// The offset into the function: `main+16` → 16, and gdb's `disassemble` form `+16` → 16
    /// (decimal, as gdb prints it there; `+0x10` is read as hex).
    pub fn offset(&self) -> Option<u64> {
        if let Some(s) = &self.symbol {
            return s.offset;
        }
        let d = self.text.strip_prefix('+')?;
        match d.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => d.parse().ok(),
        }
    }
}

/// Every `0x… <sym>` in a printed value or an argument list, in order: the address and the
/// symbol up to the next `>` (`cb=0x401126 <handler>, n=1` → `(0x401126, handler)`).
pub fn addr_symbols(text: &str) -> Vec<(u64, SymbolRef)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    // Every hit needs a `<` after it: most argument lists have none.
    if memchr::memchr(b'<', b).is_none() {
        return out;
    }
    let mut i = 0;
    while let Some(p) = find_0x(b, i) {
        let digits = b[p + 2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        let end = p + 2 + digits;
        i = end.max(p + 2);
        if digits == 0 || digits > 16 || (p > 0 && b[p - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let Some(rest) = text[end..].strip_prefix(" <") else { continue };
        let Some(close) = rest.find('>') else { continue };
        let (Ok(addr), Some(sym)) = (u64::from_str_radix(&text[p + 2..end], 16), SymbolRef::parse(&rest[..close]))
        else {
            continue;
        };
        out.push((addr, sym));
    }
    out
}

/// The first `0x` in `b` at or after `from` (`str::find("0x")` without a substring searcher
/// built per call).
fn find_0x(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(k) = memchr::memchr(b'0', b.get(i..)?) {
        let p = i + k;
        if b.get(p + 1) == Some(&b'x') {
            return Some(p);
        }
        i = p + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_refs_parse_and_print_back() {
        for s in ["main+16", "main", "main+0", "f+0x10", "operator+", "operator++16", "f+007", "a::b<int>+3"] {
            assert_eq!(SymbolRef::parse(s).unwrap().to_string(), s);
        }
        let r = SymbolRef::parse("main+16").unwrap();
        assert_eq!((&*r.name, r.offset, r.hex), ("main", Some(16), false));
        let r = SymbolRef::parse("f+0x10").unwrap();
        assert_eq!((&*r.name, r.offset, r.hex), ("f", Some(16), true));
        let r = SymbolRef::parse("operator+").unwrap();
        assert_eq!((&*r.name, r.offset), ("operator+", None));
        let r = SymbolRef::parse("f+007").unwrap();
        assert_eq!((&*r.name, r.offset), ("f+007", None));
        assert!(SymbolRef::parse("main+0").unwrap().at_start());
        assert!(!SymbolRef::parse("main+1").unwrap().at_start());
        assert_eq!(SymbolRef::parse(""), None);
    }

    #[test]
    fn naturals_and_locations_are_typed_when_stored() {
        let n = Natural::from("0x555555555139 <main+16>");
        assert_eq!(n.symbol().map(|s| (s.name.to_string(), s.offset)), Some(("main".into(), Some(16))));
        assert_eq!(&*n, "0x555555555139 <main+16>");
        let n = Natural::from("<julia_f_1+8> at cb.jl:12".to_string());
        assert_eq!(n.symbol().map(ToString::to_string).as_deref(), Some("julia_f_1+8"));
        assert_eq!(Natural::from("[ ZF PF ]").symbol(), None);
        assert_eq!(Natural::from("0x5555 <session_l").symbol(), None);
        assert_eq!(format!("{:?}", Natural::from("-2")), "\"-2\"");
        assert_eq!(Location::from("+16").symbol(), None);
        assert_eq!(Location::from("main+16").symbol().and_then(|s| s.offset), Some(16));
    }

    #[test]
    fn address_symbols_in_text() {
        let v = addr_symbols("cb=0x401126 <handler>, p=0x0, q=0x7ffff7e1 <f+8>, s=0x4011 \"x\"");
        let v: Vec<(u64, String)> = v.into_iter().map(|(a, s)| (a, s.to_string())).collect();
        assert_eq!(v, vec![(0x401126, "handler".to_string()), (0x7ffff7e1, "f+8".to_string())]);
        assert!(addr_symbols("x0x12 <a>").is_empty());
        assert!(addr_symbols("0x12 <a").is_empty());
        assert!(addr_symbols("").is_empty());
    }
}
