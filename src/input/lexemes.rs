//! Leaf parsers shared by every dialect: hex numbers, decimal numbers, `file:line`.
//!
//! They are nom parsers over `&str`, or plain functions where a nom combinator would only
//! add overhead on the hot path (every frame line goes through [`hex_u64`]).

use nom::{IResult, bytes::complete::take_while1};
use std::borrow::Cow;

/// `0x` followed by 1-16 hex digits. Unlike nom's `hex_u32` it accepts full 64-bit values
/// and fails (instead of wrapping) on more than 16 digits.
pub fn hex_u64(i: &str) -> IResult<&str, u64> {
    // Hand-written equivalent of `tag("0x")`, `take_while1(is_ascii_hexdigit)` and
    // `parse_hex_digits` (same results and error kinds), in one pass: this runs for every
    // frame line.
    use nom::error::{Error, ErrorKind};
    let Some(rest) = i.strip_prefix("0x") else {
        return Err(nom::Err::Error(Error::new(i, ErrorKind::Tag)));
    };
    let b = rest.as_bytes();
    // Leading zeros do not count towards the 16-digit limit.
    let zeros = b.iter().take_while(|&&c| c == b'0').count();
    let mut v = 0u64;
    let mut n = zeros;
    while n < b.len() {
        let d = HEX_VALUE[b[n] as usize];
        if d > 15 {
            break;
        }
        v = (v << 4) | d as u64;
        n += 1;
    }
    if n == 0 {
        return Err(nom::Err::Error(Error::new(rest, ErrorKind::TakeWhile1)));
    }
    if n - zeros > 16 {
        return Err(nom::Err::Error(Error::new(i, ErrorKind::HexDigit)));
    }
    Ok((&rest[n..], v))
}

/// The value of each ASCII hex digit; 0xff for every other byte.
static HEX_VALUE: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// `s.parse::<u32>().ok()`, with a fast path for the plain 1-9 digit numbers of line numbers.
#[inline]
fn parse_u32(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if !b.is_empty() && b.len() <= 9 && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0u32, |v, &c| v * 10 + (c - b'0') as u32));
    }
    s.parse().ok()
}

/// `s.rsplit_once(':')` through the memchr crate's memrchr.
#[inline]
fn rsplit_colon(s: &str) -> Option<(&str, &str)> {
    let p = memchr::memrchr(b':', s.as_bytes())?;
    Some((&s[..p], &s[p + 1..]))
}

/// Hex digits without the prefix; `None` when empty or wider than 64 bits.
pub fn parse_hex_digits(d: &str) -> Option<u64> {
    let d = d.trim_start_matches('0');
    if d.len() > 16 {
        return None;
    }
    if d.is_empty() {
        return Some(0);
    }
    u64::from_str_radix(d, 16).ok()
}

/// Parses `0x…` (or bare hex with `allow_bare`) as a whole string.
pub fn parse_hex(s: &str) -> Option<u64> {
    let s = s.trim();
    let d = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    parse_hex_digits(d)
}

/// A decimal number that fits in u32.
pub fn dec_u32(i: &str) -> IResult<&str, u32> {
    let (rest, d) = take_while1(|c: char| c.is_ascii_digit())(i)?;
    match d.parse::<u32>() {
        Ok(v) => Ok((rest, v)),
        Err(_) => Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Digit))),
    }
}

/// Splits `path/to/file.c:42` or `file.rs:13:5` into (file, line, column). The file part must
/// be non-empty and the line a number; a trailing `[inlined]` or similar is not accepted here.
pub fn file_line(s: &str) -> Option<(&str, u32, Option<u32>)> {
    let s = s.trim_end();
    let (head, last) = rsplit_colon(s)?;
    let last_n: u32 = parse_u32(last)?;
    // file:line:col ?
    if let Some((file, mid)) = rsplit_colon(head)
        && let Some(line) = parse_u32(mid)
        && !file.is_empty()
        && !file.ends_with(' ')
    {
        return Some((file, line, Some(last_n)));
    }
    if head.is_empty() {
        return None;
    }
    Some((head, last_n, None))
}

/// Skips leading spaces and tabs.
#[inline]
pub fn skip_ws(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// Counts hex digits after `0x` at the start of `s` (0 when there is no `0x`).
pub fn hex_width(s: &str) -> usize {
    s.strip_prefix("0x").map(|d| d.bytes().take_while(|b| b.is_ascii_hexdigit()).count()).unwrap_or(0)
}

/// Position of the first `"`, `'`, `(` or `)` in `b`, testing 8 bytes at a time (SWAR; each
/// test is exact per byte, so no carry crosses bytes).
#[inline]
fn next_quote_or_paren(b: &[u8]) -> Option<usize> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    #[inline(always)]
    fn mask(x: u64) -> u64 {
        let low = x & LOW7;
        // bytes 0x27..=0x29: '\'', '(', ')'
        let ge27 = low + ONES * (0x80 - 0x27);
        let ge2a = low + ONES * (0x80 - 0x2a);
        let range = ge27 & !ge2a;
        // byte 0x22: '"'
        let t = (x ^ (ONES * 0x22)) & LOW7;
        let quote = !((t + LOW7) | x ^ (ONES * 0x22));
        (range | quote) & !x & HIGH
    }
    let mut chunks = b.chunks_exact(8);
    let mut base = 0;
    for c in &mut chunks {
        // `chunks_exact(8)` yields 8-byte slices only: the conversion cannot fail.
        let m = mask(u64::from_le_bytes(c.try_into().unwrap()));
        if m != 0 {
            return Some(base + (m.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks.remainder().iter().position(|&c| matches!(c, b'"' | b'\'' | b'(' | b')')).map(|k| base + k)
}

/// Finds the index of the `(` that opens the balanced group ending at `s.len()-1` (which must
/// be `)`), skipping quoted strings. Returns `None` when unbalanced.
pub fn open_paren_of_last_group(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.last() != Some(&b')') {
        return None;
    }
    // Forward scan: track depth and quotes; remember the position of each depth-0 '('.
    let mut depth = 0i32;
    let mut open_at = None;
    let mut in_str = false;
    let mut in_chr = false;
    let mut i = 0;
    while i < b.len() {
        // Jump to the next byte that can change the state (same result as stepping one byte
        // at a time; this function sees every frame line's argument list).
        let skip = if in_str {
            memchr::memchr2(b'"', b'\\', &b[i..])
        } else if in_chr {
            memchr::memchr2(b'\'', b'\\', &b[i..])
        } else {
            next_quote_or_paren(&b[i..])
        };
        match skip {
            Some(k) => i += k,
            None => break,
        }
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
        } else if in_chr {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'\'' {
                in_chr = false;
            }
        } else {
            match c {
                b'"' => in_str = true,
                // A char literal as gdb prints it: 40 '(' — only when it looks like one.
                b'\'' if i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') => in_chr = true,
                b'(' => {
                    if depth == 0 {
                        open_at = Some(i);
                    }
                    depth += 1;
                }
                b')' => {
                    depth -= 1;
                    if depth < 0 {
                        depth = 0;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    if depth == 0 && !in_str { open_at } else { None }
}

/// The C string gdb printed for argument `name` in a frame's argument list (`str=str@entry=0x7ffff7f72098 "free(): …"`),
/// unescaped. `None` when the argument is absent or not a string.
pub fn arg_string(args: &str, name: &str) -> Option<String> {
    let key = format!("{name}=");
    let mut from = 0;
    let start = loop {
        let p = from + args[from..].find(&key)?;
        if p == 0 || args[..p].ends_with(' ') || args[..p].ends_with(',') {
            break p + key.len();
        }
        from = p + key.len();
    };
    string_value(&args[start..], name)
}

/// The C string in `v`, the text after `name=` in an argument list: after gdb's
/// `name@entry=` repeat and the pointer value, before the next argument; unescaped.
fn string_value(v: &str, name: &str) -> Option<String> {
    string_value_cow(v, name).map(Cow::into_owned)
}

/// [`string_value`], borrowing the text when it holds no backslash (nothing to unescape).
fn string_value_cow<'a>(mut v: &'a str, name: &str) -> Option<Cow<'a, str>> {
    if let Some(r) = v.strip_prefix(name).and_then(|r| r.strip_prefix("@entry=")) {
        v = r;
    }
    // The string follows the pointer value, before the next argument: the first `"`, with
    // no `", "` before it. Values are short; a byte loop stops at whichever comes first.
    let vb = v.as_bytes();
    let mut q = 0;
    loop {
        match vb.get(q)? {
            b'"' => break,
            b',' if vb.get(q + 1) == Some(&b' ') => return None,
            _ => q += 1,
        }
    }
    let body = &v[q + 1..];
    match memchr::memchr2(b'"', b'\\', body.as_bytes()) {
        None => return None,
        Some(e) if body.as_bytes()[e] == b'"' => return Some(Cow::Borrowed(&body[..e])),
        Some(_) => {}
    }
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(Cow::Owned(out)),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// Every C string argument of a frame's argument list (`name=0x… "text"`), unescaped, in
/// order: what [`arg_string`] finds for each argument name.
pub fn string_args(args: &str) -> Vec<(String, String)> {
    string_args_borrowed(args).into_iter().map(|(n, v)| (n.to_string(), v.into_owned())).collect()
}

/// [`string_args`] without copies: the names borrowed, the texts borrowed unless they had
/// escapes to undo.
pub fn string_args_borrowed(args: &str) -> Vec<(&str, Cow<'_, str>)> {
    let mut out = Vec::new();
    string_args_into(args, &mut out);
    out
}

/// [`string_args_borrowed`] into `out` (cleared first), so a caller walking many frames
/// reuses one buffer.
pub fn string_args_into<'a>(args: &'a str, out: &mut Vec<(&'a str, Cow<'a, str>)>) {
    out.clear();
    let b = args.as_bytes();
    if memchr::memchr(b'"', b).is_none() {
        return;
    }
    // The names tried so far: a few on the stack, the rest (rare) in a Vec.
    let mut tried_few: [&str; 8] = [""; 8];
    let mut n_few = 0;
    let mut tried_more: Vec<&str> = Vec::new();
    // An argument name starts the list or follows a space or a comma; names hold neither,
    // so these are the positions the old byte-by-byte walk looked at.
    let starts =
        std::iter::once(0).chain(b.iter().enumerate().filter(|(_, c)| matches!(c, b' ' | b',')).map(|(i, _)| i + 1));
    for i in starts {
        let Some(&c) = b.get(i) else { continue };
        if !(c.is_ascii_alphabetic() || c == b'_') {
            continue;
        }
        let end = i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
        if b.get(end) != Some(&b'=') {
            continue;
        }
        let name = &args[i..end];
        // The first `name=` after the list's start, a space or a comma is the one
        // `arg_string` finds: read its value here instead of searching again (and a
        // later `name=` gets no second look, as `arg_string` would find the first).
        if tried_few[..n_few].contains(&name) || tried_more.contains(&name) {
            continue;
        }
        if n_few < tried_few.len() {
            tried_few[n_few] = name;
            n_few += 1;
        } else {
            tried_more.push(name);
        }
        if let Some(v) = string_value_cow(&args[end + 1..], name) {
            out.push((name, v));
        }
    }
}

/// One SSE2 pass: `flags(p)` gives a 16-byte mask for the block at `p`, taken for the blocks at
/// 0, 16, … while they end by `n`, and for the last one at `n - 16` (overlapping); true when a
/// byte of any mask is set. The shared loop of the line scanners' pre-checks
/// (`clean::may_hold_escapes*`, `clean::has_dash_t`, `finish::has_brace`).
///
/// # Safety
/// `n >= 16`, and `flags(b.as_ptr() + i)` reads only inside `b` for every `i <= n - 16`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn sse2_any(b: &[u8], n: usize, flags: impl Fn(*const u8) -> std::arch::x86_64::__m128i) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64; the caller vouches for the reads `flags` makes.
    unsafe {
        let mut acc = _mm_setzero_si128();
        let mut i = 0;
        while i + 16 <= n {
            acc = _mm_or_si128(acc, flags(b.as_ptr().add(i)));
            i += 16;
        }
        acc = _mm_or_si128(acc, flags(b.as_ptr().add(n - 16)));
        _mm_movemask_epi8(acc) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_string_arguments() {
        let f = crate::model::Frame {
            function: Some("malloc_printerr".into()),
            args: Some("str=str@entry=0x7ffff7f72098 \"free(): double free detected in tcache 2\"".into()),
            ..Default::default()
        };
        assert_eq!(
            arg_string(f.args.as_deref().unwrap(), "str").as_deref(),
            Some("free(): double free detected in tcache 2")
        );
        let f = crate::model::Frame {
            args: Some("assertion=0x555555556020 \"r->lo <= r->hi && \\\"range is inverted\\\"\", file=0x555555556008 \"src/assert-fail.c\", line=9, function=0x555555556050 <__PRETTY_FUNCTION__.0> \"range_width\"".into()),
            ..Default::default()
        };
        assert_eq!(
            arg_string(f.args.as_deref().unwrap(), "assertion").as_deref(),
            Some("r->lo <= r->hi && \"range is inverted\"")
        );
        assert_eq!(arg_string(f.args.as_deref().unwrap(), "file").as_deref(), Some("src/assert-fail.c"));
        assert_eq!(arg_string(f.args.as_deref().unwrap(), "function").as_deref(), Some("range_width"));
        assert_eq!(arg_string(f.args.as_deref().unwrap(), "line"), None);
        assert_eq!(arg_string(f.args.as_deref().unwrap(), "mem"), None);
        let all = string_args(f.args.as_deref().unwrap());
        let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["assertion", "file", "function"]);
        assert_eq!(all[2].1, "range_width");
        assert!(string_args("a=1, b=0x0").is_empty());
    }

    /// The byte pre-checks of `null_pointer_args` and `changed_entry_values` (no `0x0`, no
    /// `@entry`: nothing to find) leave their answers as they were.
    #[test]
    fn pre_checks_keep_the_answers() {
        assert_eq!(null_pointer_args("p=0x0, q=0x01"), vec!["p"]);
        assert!(null_pointer_args("p=0x01, q=0").is_empty());
        assert!(null_pointer_args("p=0x00").is_empty());
        let e = changed_entry_values("p=0x0, p@entry=0x10, n=3");
        assert_eq!(e.len(), 1);
        assert_eq!((&*e[0].name, e[0].at_entry_pointer), ("p", Some(0x10)));
        assert!(changed_entry_values("p=p@entry=0x10").is_empty());
        assert!(changed_entry_values("p=0x0, q=0x10").is_empty());
    }

    #[test]
    fn hex() {
        assert_eq!(hex_u64("0x0000555555555139 in"), Ok((" in", 0x555555555139)));
        assert_eq!(hex_u64("0xffffffffffffffff"), Ok(("", u64::MAX)));
        assert!(hex_u64("0x1ffffffffffffffff").is_err());
        assert!(hex_u64("x12").is_err());
        assert_eq!(parse_hex("0x00"), Some(0));
        assert_eq!(parse_hex("0xz"), None);
    }

    #[test]
    fn file_lines() {
        assert_eq!(file_line("t.c:2"), Some(("t.c", 2, None)));
        assert_eq!(file_line("src/main.rs:13:5"), Some(("src/main.rs", 13, Some(5))));
        assert_eq!(
            file_line("../sysdeps/unix/sysv/linux/raise.c:50"),
            Some(("../sysdeps/unix/sysv/linux/raise.c", 50, None))
        );
        assert_eq!(file_line("C:\\x\\a.c:7"), Some(("C:\\x\\a.c", 7, None)));
        assert_eq!(file_line("nocolon"), None);
        assert_eq!(file_line(":5"), None);
    }

    #[test]
    fn parens() {
        let s = "foo (a=0x1, s=0x2 \"x)y\")";
        assert_eq!(open_paren_of_last_group(s), Some(4));
        let s = "operator() (this=0x1)";
        assert_eq!(open_paren_of_last_group(s), Some(11));
        assert_eq!(open_paren_of_last_group("f (a=1"), None);
        assert_eq!(open_paren_of_last_group("f (c=40 '(')"), Some(2));
    }
}

/// The typed facts of a frame's argument list that the rules read, found in one walk over
/// its top-level parts: [`int_args`], [`null_pointer_args`] and [`changed_entry_values`].
#[derive(Debug, Default, PartialEq)]
pub struct TypedArgs<'a> {
    /// The arguments printed as decimal integers, the first of each name.
    pub ints: Vec<(&'a str, i64)>,
    /// The arguments printed as exactly `0x0`, each name once.
    pub nulls: Vec<&'a str>,
    /// The arguments whose entry value differs from their value now.
    pub entry_values: Vec<crate::model::EntryValue>,
}

/// [`TypedArgs`] of one argument list.
pub fn typed_args(args: &str) -> TypedArgs<'_> {
    let mut t = TypedArgs::default();
    typed_args_into(args, &mut t);
    t
}

/// [`typed_args`] into `t` (cleared first), so a caller walking many frames reuses its
/// buffers.
pub fn typed_args_into<'a>(args: &'a str, t: &mut TypedArgs<'a>) {
    t.ints.clear();
    t.nulls.clear();
    t.entry_values.clear();
    let mut entry_parts = false;
    for_each_part(args, |n, v| {
        entry_parts |= n.ends_with("@entry");
        let Some(value) = top_level_value(n, v) else { return };
        if value == "0x0" {
            if !t.nulls.contains(&n) {
                t.nulls.push(n);
            }
        } else if value.as_bytes().first().is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+')
            && let Ok(i) = value.parse::<i64>()
            && !t.ints.iter().any(|(m, _)| *m == n)
        {
            t.ints.push((n, i));
        }
    });
    // Only a part named `…@entry` can give an entry value (most lists have none).
    if entry_parts {
        t.entry_values = entry_values_of(args);
    }
}

/// Calls `f` with the name and the value of each top-level part of an argument list that
/// holds a `=` (commas inside strings, braces, brackets and `<…>` do not split), both
/// trimmed: `part.trim().split_once('=')`, then each side trimmed.
fn for_each_part<'a>(args: &'a str, mut f: impl FnMut(&'a str, &'a str)) {
    // Parts are short: a byte loop finds the `=` sooner than a memchr call is set up.
    // `p.trim().split_once('=')` with each side trimmed: trimming the whole part first
    // removes only whitespace, which the two sides' own trims remove as well.
    let mut part = |p: &'a str| {
        if let Some(e) = p.bytes().position(|c| c == b'=') {
            f(trim_short(&p[..e]), trim_short(&p[e + 1..]));
        }
    };
    let b = args.as_bytes();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        // Most bytes change nothing: one table load each.
        if !PART_BYTE[b[i] as usize] {
            i += 1;
            continue;
        }
        match b[i] {
            b'"' => {
                // Inside a string only a backslash (which skips the next byte) and the closing
                // quote count; a string left open runs to the end.
                i += 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', &b[i.min(b.len())..]) {
                        None => {
                            i = b.len();
                            break;
                        }
                        Some(k) if b[i + k] == b'"' => {
                            i += k;
                            break;
                        }
                        Some(k) => i += k + 2,
                    }
                }
            }
            b'{' | b'(' | b'[' | b'<' => depth += 1,
            b'}' | b')' | b']' | b'>' => depth -= 1,
            b',' if depth == 0 => {
                part(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    part(&args[start..]);
}

/// The bytes that can end a part or change its nesting: `"`, brackets of four kinds, `,`.
static PART_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let special = b"\"{([<})]>,";
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

/// `str::trim` for short strings: ASCII whitespace is skipped byte by byte; `str::trim`
/// decides when a non-ASCII byte is left at either end.
#[inline]
fn trim_short(s: &str) -> &str {
    let b = s.as_bytes();
    // Nothing to trim when both ends are printable ASCII (whitespace is at most b' ').
    if let (Some(&f), Some(&l)) = (b.first(), b.last())
        && f > b' '
        && f < 0x80
        && l > b' '
        && l < 0x80
    {
        return s;
    }
    let (mut i, mut j) = (0, b.len());
    while i < j && ws(b[i]) {
        i += 1;
    }
    while j > i && ws(b[j - 1]) {
        j -= 1;
    }
    let t = &s[i..j];
    if i < j && (b[i] >= 0x80 || b[j - 1] >= 0x80) { t.trim() } else { t }
}

/// The ASCII bytes `char::is_whitespace` holds for (`u8::is_ascii_whitespace` leaves out
/// `\x0b`).
#[inline(always)]
fn ws(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// A top-level argument's value as [`TypedArgs`] reads it: `None` unless the name is a plain
/// identifier; gdb's `name@entry=` repeat removed.
fn top_level_value<'a>(name: &str, value: &'a str) -> Option<&'a str> {
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    Some(value.strip_prefix(name).and_then(|v| v.strip_prefix("@entry=")).unwrap_or(value))
}

/// The arguments of a frame's argument list whose value gdb printed as exactly `0x0`
/// (`p=0x0`, `p=p@entry=0x0`): pointer arguments that are NULL. Integers print in decimal
/// and strings, structs and arrays are skipped, so `0x0` here is a pointer value.
pub fn null_pointer_args(args: &str) -> Vec<String> {
    typed_args(args).nulls.into_iter().map(str::to_string).collect()
}

/// The arguments whose entry value differs from their current value: gdb prints
/// `p=0x0, p@entry=0x…` (two parts) when they differ and `p=p@entry=0x…` when they do not
/// (those are not returned).
pub fn changed_entry_values(args: &str) -> Vec<crate::model::EntryValue> {
    typed_args(args).entry_values
}

fn entry_values_of(args: &str) -> Vec<crate::model::EntryValue> {
    let mut parts: Vec<(&str, &str)> = Vec::new();
    for_each_part(args, |n, v| parts.push((n, v)));
    let mut out = Vec::new();
    for (n, v) in &parts {
        let Some(name) = n.strip_suffix("@entry") else { continue };
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let Some(now) = parts.iter().find(|(m, _)| *m == name).map(|(_, v)| *v) else { continue };
        if now.strip_prefix(name).is_some_and(|r| r.starts_with("@entry=")) {
            continue;
        }
        out.push(crate::model::EntryValue {
            name: name.into(),
            now: (now != "<optimized out>").then(|| now.into()),
            at_entry: (*v).into(),
            at_entry_pointer: v.strip_prefix("0x").and_then(|h| u64::from_str_radix(h, 16).ok()),
        });
    }
    out
}

/// Every `0x…` number in a printed value, in order (`{a = 0x10, b = 0x0}` → 0x10, 0).
pub fn hex_numbers(text: &str) -> Vec<u64> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = text[i..].find("0x").map(|p| p + i) {
        let n = b[p + 2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        i = p + 2 + n;
        let word_start = p == 0 || !b[p - 1].is_ascii_alphanumeric();
        if n > 0
            && n <= 16
            && word_start
            && let Ok(v) = u64::from_str_radix(&text[p + 2..p + 2 + n], 16)
        {
            out.push(v);
        }
    }
    out
}

/// The arguments printed as decimal integers (`line=9`, `line=line@entry=9`, `n=-1`); the
/// first of each name.
pub fn int_args(args: &str) -> Vec<(String, i64)> {
    typed_args(args).ints.into_iter().map(|(n, v)| (n.to_string(), v)).collect()
}

#[cfg(test)]
mod null_arg_tests {
    use super::null_pointer_args;

    #[test]
    fn finds_null_pointer_arguments() {
        assert_eq!(null_pointer_args("s=0x0"), vec!["s"]);
        assert_eq!(null_pointer_args("prefix=0x0, s=0x10000"), vec!["prefix"]);
        assert_eq!(null_pointer_args("v=v@entry=0x0, n=0"), vec!["v"]);
        assert!(null_pointer_args("argc=2, argv=0x7fffffffed78").is_empty());
        assert!(null_pointer_args("msg=0x555555556004 \"a=0x0, b\", n=0").is_empty());
        assert!(null_pointer_args("st={a = 0x0, b = 1}").is_empty());
        assert!(null_pointer_args("").is_empty());
    }

    #[test]
    fn finds_hex_numbers() {
        use super::hex_numbers;
        assert_eq!(hex_numbers("(struct peer *) 0xa5a5a5a5a5a5a5a5"), vec![0xa5a5a5a5a5a5a5a5]);
        assert_eq!(hex_numbers("{a = 0x10, b = 0x0, c = x0x5}"), vec![0x10, 0]);
        assert!(hex_numbers("0x").is_empty());
    }

    #[test]
    fn finds_integer_arguments() {
        use super::int_args;
        let a = "assertion=0x5555 \"x, y\", file=0x5556 \"a.c\", line=9, function=0x5557 <__PRETTY_FUNCTION__.0> \"f\"";
        assert_eq!(int_args(a), vec![("line".to_string(), 9)]);
        assert_eq!(int_args("line=line@entry=12, n=-1, p=0x10"), vec![("line".to_string(), 12), ("n".to_string(), -1)]);
        assert!(int_args("st={line = 3}").is_empty());
    }
}

#[cfg(test)]
mod entry_value_tests {
    use super::*;
    use crate::model::EntryValue;

    #[test]
    fn entry_values_that_differ_are_read() {
        // entry-value-walk.gdb.txt's frame #0.
        let v = changed_entry_values("p=0x0, p@entry=0x5555555592e0, steps=<optimized out>, steps@entry=3");
        assert_eq!(
            v,
            vec![
                EntryValue {
                    name: "p".into(),
                    now: Some("0x0".into()),
                    at_entry: "0x5555555592e0".into(),
                    at_entry_pointer: Some(0x5555555592e0),
                },
                EntryValue { name: "steps".into(), now: None, at_entry: "3".into(), at_entry_pointer: None },
            ]
        );
        // `x=x@entry=…`: the same value at entry and now.
        assert!(changed_entry_values("n=n@entry=7, s=<optimized out>").is_empty());
        // A string argument with commas and `@entry=` inside is one part.
        assert!(changed_entry_values("s=0x4020 \"a, b@entry=1\"").is_empty());
        assert_eq!(null_pointer_args("p=0x0, p@entry=0x5555555592e0"), vec!["p"]);
    }
}
