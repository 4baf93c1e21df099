//! Input hygiene: turns pasted text back into the lines the debugger printed.
//!
//! Bug reports wrap debugger output in markdown fences and `> ` quotes, CI logs prefix
//! each line with a timestamp, terminals add colour codes and CRLF. [`clean_line`] undoes
//! all of that for one line; it borrows when there is nothing to undo (the common case),
//! so the hot path does not allocate.

use std::borrow::Cow;

/// What the cleaner found on a line, besides its text.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct LineMarks {
    /// A markdown code fence (```` ``` ```` or `~~~`) — not content.
    pub fence: bool,
    /// Escape sequences were removed.
    pub had_escapes: bool,
}

/// Removes terminal escape sequences (CSI, OSC, and single-character escapes) and other
/// C0 control characters except tab. Used on input and before printing anything that came
/// from a dump.
pub fn strip_escapes(s: &str) -> Cow<'_, str> {
    if !may_need_cleaning(s.as_bytes()) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    // CSI: parameters and intermediates, then one final byte 0x40..=0x7e.
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                Some(']') | Some('P') | Some('_') | Some('^') | Some('X') => {
                    chars.next();
                    // OSC / DCS / APC / PM / SOS: until BEL or ST (ESC \).
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' {
                            if chars.peek() == Some(&'\\') {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                Some(_) => {
                    // Two-character escape (ESC c, ESC 7, ESC ( B …): drop the next char;
                    // for charset selection also the one after.
                    let n = chars.next();
                    if matches!(n, Some('(') | Some(')') | Some('#') | Some('%')) {
                        chars.next();
                    }
                }
                None => {}
            },
            '\u{9b}' => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether a line may hold a control character other than tab, DEL, or a C1 control (UTF-8
/// `0xc2 0x80..=0x9f`). A false positive only costs the slow path. Eight bytes at a time:
/// this runs on every line, and almost every line is clean.
#[inline]
fn may_need_cleaning(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte of `x` is zero → its high bit is set in the result (and maybe a few more bits
    // above a true hit, which is fine for a yes/no answer).
    #[inline]
    fn has_zero(x: u64) -> bool {
        x.wrapping_sub(ONES) & !x & HIGH != 0
    }
    // A byte of `x` is below 0x20 (`hasless(x, 0x20)`, valid for n <= 128).
    #[inline]
    fn has_less_than_0x20(x: u64) -> bool {
        x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0
    }
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        let x = u64::from_le_bytes(w);
        if has_less_than_0x20(x) || has_zero(x ^ (ONES * 0x7f)) || has_zero(x ^ (ONES * 0xc2)) {
            // Maybe only a tab: decide byte by byte.
            if c.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f || b == 0xc2) {
                return true;
            }
        }
    }
    chunks.remainder().iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f || b == 0xc2)
}

/// Length of a GitHub-Actions style timestamp prefix (`2024-05-01T10:11:12.1234567Z `).
fn timestamp_prefix(s: &str) -> usize {
    let b = s.as_bytes();
    if b.len() < 21 || !b[0].is_ascii_digit() || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' {
        return 0;
    }
    // Find the 'Z' (or offset) that ends it, within a short window, followed by a space.
    let lim = b.len().min(40);
    for i in 19..lim {
        if b[i] == b' ' {
            let stamp = &b[..i];
            if stamp
                .iter()
                .all(|c| c.is_ascii_digit() || matches!(c, b'-' | b':' | b'.' | b'T' | b'Z' | b'+'))
            {
                return i + 1;
            }
            return 0;
        }
    }
    0
}

/// Cleans one line: escapes, CR, timestamp prefix, quote prefixes. Returns the text and marks.
pub fn clean_line(raw: &str) -> (Cow<'_, str>, LineMarks) {
    let mut marks = LineMarks::default();
    let mut s: Cow<'_, str> = Cow::Borrowed(raw.strip_suffix('\r').unwrap_or(raw));
    let stripped = strip_escapes(&s);
    if let Cow::Owned(o) = stripped {
        marks.had_escapes = true;
        s = Cow::Owned(o);
    }
    // Peel prefixes: timestamps and markdown quotes, in any order, a few levels deep.
    let mut start = 0usize;
    loop {
        let rest = &s[start..];
        let t = timestamp_prefix(rest);
        if t > 0 {
            start += t;
            continue;
        }
        if let Some(r) = rest.strip_prefix('>') {
            if r.is_empty() {
                start += 1;
                continue;
            }
            if r.starts_with(' ') || r.starts_with('>') {
                start += 1 + usize::from(r.starts_with(' '));
                continue;
            }
        }
        break;
    }
    let s = match s {
        Cow::Borrowed(b) => Cow::Borrowed(&b[start..]),
        Cow::Owned(o) if start == 0 => Cow::Owned(o),
        Cow::Owned(o) => Cow::Owned(o[start..].to_string()),
    };
    let t = s.trim_start_matches([' ', '\t']);
    if t.starts_with("```") || t.starts_with("~~~") {
        let info = t.trim_end().trim_start_matches(['`', '~']);
        if info.chars().all(|c| c.is_ascii_alphanumeric() || "-_+ ".contains(c)) {
            marks.fence = true;
        }
    }
    (s, marks)
}

/// Decodes bytes as UTF-8, replacing invalid sequences, and drops NUL bytes.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    // Validating is much faster than the lossy decoder's chunking; almost all input is valid.
    let s = match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    if s.contains('\0') {
        Cow::Owned(s.replace('\0', ""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colour_and_osc() {
        let s = "\u{1b}[31m#0\u{1b}[m  \u{1b}[34m0x0000555555555139\u{1b}[m in \u{1b}[33mmain\u{1b}[m ()";
        assert_eq!(strip_escapes(s), "#0  0x0000555555555139 in main ()");
        let osc = "a\u{1b}]52;c;ZXZpbA==\u{7}b\u{1b}]0;title\u{1b}\\c";
        assert_eq!(strip_escapes(osc), "abc");
        assert!(matches!(strip_escapes("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn peels_prefixes() {
        let (l, _) = clean_line("2024-05-01T10:11:12.1234567Z > #1  0x1 in f () at a.c:3\r");
        assert_eq!(l, "#1  0x1 in f () at a.c:3");
        let (l, _) = clean_line("> > rax            0x0                 0");
        assert_eq!(l, "rax            0x0                 0");
        let (_, m) = clean_line("```gdb");
        assert!(m.fence);
        let (l, m) = clean_line("=> 0x401136 <main+4>:\tmov    (%rax),%eax");
        assert!(!m.fence);
        assert_eq!(l, "=> 0x401136 <main+4>:\tmov    (%rax),%eax");
        let (l, _) = clean_line(">");
        assert_eq!(l, "");
    }

    #[test]
    fn fast_check_finds_every_control() {
        for pos in 0..20 {
            for bad in ["\u{1b}", "\r", "\u{7f}", "\u{9b}", "\0"] {
                let mut s = "a".repeat(20);
                s.insert_str(pos, bad);
                assert!(may_need_cleaning(s.as_bytes()), "{bad:?} at {pos}");
            }
            let mut s = "a".repeat(20);
            s.insert(pos, '\t');
            assert!(!may_need_cleaning(s.as_bytes()), "tab at {pos}");
        }
        assert!(!may_need_cleaning("        mirror = {x = 10, y = 42, weight = -21} ä é ü".as_bytes()));
    }

    #[test]
    fn decode_lossy() {
        assert_eq!(decode(b"a\xffb\0c"), "a\u{fffd}bc");
    }
}
