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
    // Hot path (every input line): one branch-free pass that rules out almost every line.
    if !may_hold_escapes(s.as_bytes())
        || (!s.bytes().any(|b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f) && !s.contains('\u{9b}'))
    {
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

/// [`visible`] for a one-line message (stderr, progress lines): a newline shows as `\n`, so
/// text from a dump or a file name cannot forge a line of its own.
pub fn visible_line(s: &str) -> Cow<'_, str> {
    match visible(s) {
        Cow::Borrowed(b) if !b.contains('\n') => Cow::Borrowed(b),
        c => Cow::Owned(c.replace('\n', "\\n")),
    }
}

/// [`strip_escapes`], then [`show_invisible`]: dump text as it may be shown to a person
/// (terminal, TUI, markdown, `note --list`).
pub fn visible(s: &str) -> Cow<'_, str> {
    match strip_escapes(s) {
        Cow::Borrowed(b) => show_invisible(b),
        Cow::Owned(o) => Cow::Owned(show_invisible(&o).into_owned()),
    }
}

/// Characters that change how the text around them is displayed without showing
/// themselves: zero-width spaces and joiners, direction marks, bidirectional embeddings,
/// overrides and isolates, invisible operators, the byte order mark.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{061c}' // arabic letter mark
        | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}' // hangul fillers
        | '\u{180e}' // mongolian vowel separator
        | '\u{200b}'..='\u{200f}' // zero-width space, non-joiner, joiner, LRM, RLM
        | '\u{202a}'..='\u{202e}' // LRE, RLE, PDF, LRO, RLO
        | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}' // LRI, RLI, FSI, PDI
        | '\u{206a}'..='\u{206f}' // deprecated format characters
        | '\u{feff}' // byte order mark / zero-width no-break space
    )
}

/// Replaces each [`is_invisible`] character by `<U+XXXX>`; borrows when there is none.
pub fn show_invisible(s: &str) -> Cow<'_, str> {
    if s.is_ascii() || !s.chars().any(is_invisible) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if is_invisible(c) {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `b` may hold something [`strip_escapes`] removes. A superset test (any C0
/// control, tab and newline included, DEL, or any non-ASCII byte), re-checked exactly by the
/// caller. On x86-64, 16 bytes at a time with SSE2 (the last 16 overlapping) for a line of
/// 16 bytes or more; otherwise 8 bytes at a time (SWAR). No early exit: a clean line is
/// read whole either way. (LLVM does not turn a per-byte loop here into SIMD compares.)
#[inline]
fn may_hold_escapes(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; every load reads 16 bytes inside `b`.
        unsafe {
            #[inline(always)]
            unsafe fn flags(p: *const u8) -> __m128i {
                // Signed: a non-ASCII byte is negative, so "below 0x20" takes it in too.
                unsafe {
                    let v = _mm_loadu_si128(p.cast());
                    _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)))
                }
            }
            return super::lexemes::sse2_any(b, b.len(), |p| flags(p));
        }
    }
    may_hold_escapes_words(b)
}

/// [`may_hold_escapes`], or an `&` anywhere: [`clean_line`]'s test for the common line in one
/// SSE2 pass (it was the escape pass and then a memchr for `&`, whose call cost more than the
/// pass on a short line: 13 M instructions on a 10 MB transcript).
#[inline]
fn may_hold_escapes_or_amp(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; every load reads 16 bytes inside `b`.
        unsafe {
            #[inline(always)]
            unsafe fn flags(p: *const u8) -> __m128i {
                unsafe {
                    let v = _mm_loadu_si128(p.cast());
                    let esc =
                        _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f)));
                    _mm_or_si128(esc, _mm_cmpeq_epi8(v, _mm_set1_epi8(b'&' as i8)))
                }
            }
            return super::lexemes::sse2_any(b, b.len(), |p| flags(p));
        }
    }
    may_hold_escapes_words(b) || b.contains(&b'&')
}

/// [`may_hold_escapes`] 8 bytes at a time (SWAR).
#[inline]
fn may_hold_escapes_words(b: &[u8]) -> bool {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    #[inline(always)]
    fn word(x: u64) -> u64 {
        let low = x & LOW7; // adding to it cannot carry into the next byte
        let printable = (low + 0x6060_6060_6060_6060) | x; // bit 7: byte >= 0x20 or non-ASCII
        let del_or_high = (low + 0x0101_0101_0101_0101) | x; // bit 7: byte == 0x7f or non-ASCII
        (!printable | del_or_high) & HIGH
    }
    let mut chunks = b.chunks_exact(8);
    let mut acc = 0;
    for c in &mut chunks {
        // `chunks_exact(8)` yields 8-byte slices only: the conversion cannot fail.
        acc |= word(u64::from_le_bytes(c.try_into().unwrap()));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [b' '; 8];
        w[..rest.len()].copy_from_slice(rest);
        acc |= word(u64::from_le_bytes(w));
    }
    acc != 0
}

/// `str::trim` (Unicode whitespace on both ends), with the ASCII whitespace skipped byte-wise;
/// the Unicode-aware `trim` only runs when a non-ASCII byte sits at an end. Used on every
/// `bt full` locals line.
#[inline]
pub fn trim(s: &str) -> &str {
    #[inline(always)]
    fn ws(b: u8) -> bool {
        // The ASCII characters for which `char::is_whitespace` holds: \t \n \x0b \x0c \r and ' '.
        const MASK: u64 = (1 << b'\t') | (1 << b'\n') | (1 << 0x0b) | (1 << 0x0c) | (1 << b'\r') | (1 << b' ');
        b <= b' ' && MASK & (1 << b) != 0
    }
    let b = s.as_bytes();
    let mut i = leading_spaces(b);
    while i < b.len() && ws(b[i]) {
        i += 1;
    }
    let mut j = b.len();
    while j > i && ws(b[j - 1]) {
        j -= 1;
    }
    if i < j && (b[i] >= 0x80 || b[j - 1] >= 0x80) {
        return s.trim();
    }
    &s[i..j]
}

/// How many spaces `b` starts with (8 at a time: `bt full` indents locals by 8).
#[inline]
pub(crate) fn leading_spaces(b: &[u8]) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    let mut i = 0;
    while i + 8 <= b.len() && u64::from_ne_bytes(b[i..i + 8].try_into().unwrap()) == SPACES {
        i += 8;
    }
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    i
}

/// Length of a GitHub-Actions style timestamp prefix (`2024-05-01T10:11:12.1234567Z `), or of
/// Jenkins' timestamper's bracketed one (`[2024-05-21T11:42:07.311Z] `).
fn timestamp_prefix(s: &str) -> usize {
    if let Some(inner) = s.strip_prefix('[') {
        let b = inner.as_bytes();
        let Some(close) = b.iter().take(40).position(|&c| c == b']') else { return 0 };
        let stamp = &b[..close];
        let shaped = stamp.len() >= 19
            && stamp[0].is_ascii_digit()
            && stamp[4] == b'-'
            && stamp[7] == b'-'
            && stamp[10] == b'T'
            && stamp.iter().all(|c| c.is_ascii_digit() || matches!(c, b'-' | b':' | b'.' | b'T' | b'Z' | b'+'));
        return match b.get(close + 1) {
            Some(b' ') if shaped => close + 3,
            None if shaped => close + 2,
            _ => 0,
        };
    }
    let b = s.as_bytes();
    if b.len() < 21 || !b[0].is_ascii_digit() || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' {
        return 0;
    }
    // Find the 'Z' (or offset) that ends it, within a short window, followed by a space.
    let lim = b.len().min(40);
    for i in 19..lim {
        if b[i] == b' ' {
            let stamp = &b[..i];
            if stamp.iter().all(|c| c.is_ascii_digit() || matches!(c, b'-' | b':' | b'.' | b'T' | b'Z' | b'+')) {
                return i + 1;
            }
            return 0;
        }
    }
    0
}

/// A bare `prog[pid]: rest` (`/usr/bin/vpp[20471]: received signal …`): `(prog[pid], rest)`.
#[inline]
pub fn bare_prog_prefix(l: &str) -> Option<(&str, &str)> {
    // Every line comes here: the name's first byte (the line's) is checked inline before the
    // substring search (`split_once` builds a searcher), which a local (`        x = 1`) or
    // a frame line (`#3 …`) then never reaches. Same result: the name must start so below.
    if !l.as_bytes().first().is_some_and(|c| *c == b'/' || c.is_ascii_alphanumeric()) {
        return None;
    }
    bare_prog_prefix_slow(l)
}

#[inline(never)]
fn bare_prog_prefix_slow(l: &str) -> Option<(&str, &str)> {
    let (ident, rest) = l.split_once("]: ")?;
    let (name, pid) = ident.rsplit_once('[')?;
    if name.is_empty()
        || name.contains(char::is_whitespace)
        || !name.starts_with(|c: char| c == '/' || c.is_ascii_alphanumeric())
        || pid.is_empty()
        || pid.len() > 10
        || !pid.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    Some((&l[..ident.len() + 1], rest))
}

/// The rest of a line after a log collector's prefix: a journal / syslog prefix of a process
/// (`Mar 04 11:02:31 host app[88121]: `, not the kernel's, which `kernel.rs` reads), then or
/// alone a docker compose service prefix (`app-worker-1  | `, `app-worker-1  |` for an empty
/// line). `None` when the line has neither.
#[inline]
pub fn service_prefix_rest(l: &str) -> Option<&str> {
    // Every prefix read below starts with an ASCII letter or digit (a logcat date also with
    // `-`) or with the lead byte of Julia's box characters `│` and `└` (0xE2): a backtrace
    // line (`#3 …`) or an indented local has none of these. Checked inline, so the common
    // line costs no call.
    if !l.as_bytes().first().is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == 0xe2) {
        return None;
    }
    service_prefix_rest_slow(l)
}

#[inline(never)]
fn service_prefix_rest_slow(l: &str) -> Option<&str> {
    let b = l.as_bytes();
    let mut rest = l;
    let mut peeled = false;
    // Android logcat: `01-20 10:14:52.337  6230  6230 F DEBUG   : rest` (`-v threadtime`),
    // `2020-09-24 15:32:44.997 14368-14368/? A/DEBUG: rest` (Android Studio),
    // `I/DEBUG   (  119): rest` (`-v brief`).
    if let Some(r) = logcat_rest(l) {
        return Some(r);
    }
    // Julia's logging box (`┌ Error: worker 3 exited`, `│ line`, …, `└ last line`): a test
    // worker's crash report relayed through the parent's logger, one box line per line.
    if let Some(r) = l.strip_prefix("│ ").or_else(|| l.strip_prefix("└ ")) {
        return Some(r);
    }
    if l.trim_end() == "│" {
        return Some("");
    }
    if b.len() > 16 && b[0].is_ascii_uppercase() && b[3] == b' ' && b[9] == b':' && b[12] == b':' {
        let (_, after_host) = l.get(16..)?.split_once(' ')?;
        let (ident, r) = after_host.split_once(": ").or_else(|| after_host.strip_suffix(':').map(|i| (i, "")))?;
        let (name, pid) = ident.strip_suffix(']')?.rsplit_once('[')?;
        if name.is_empty() || name.contains(' ') || pid.is_empty() || !pid.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        // rsyslog writes a control character as `#` and three octal digits: a Go traceback's
        // leading tab is `#011`.
        rest = r.strip_prefix("#011").unwrap_or(r);
        peeled = true;
    }
    let rb = rest.as_bytes();
    let word = rb.iter().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')).count();
    // A service name has a letter: `431 | code` is a compiler diagnostic's source excerpt.
    if word > 0 && rb[0].is_ascii_alphanumeric() && rb[..word].iter().any(u8::is_ascii_alphabetic) {
        let spaces = rb[word..].iter().take_while(|&&c| c == b' ').count();
        let bar = word + spaces;
        if spaces > 0 && rb.get(bar) == Some(&b'|') && matches!(rb.get(bar + 1), None | Some(b' ')) {
            rest = rest.get(bar + 2..).unwrap_or("");
            peeled = true;
        }
    }
    peeled.then_some(rest)
}

fn logcat_rest(l: &str) -> Option<&str> {
    let level = |w: &str| w.len() == 1 && "VDIWEFA".contains(w);
    let b = l.as_bytes();
    // `-v brief`: `I/DEBUG   (  119): rest`.
    if b.len() > 4 && l.get(..1).is_some_and(level) && b[1] == b'/' {
        let (head, rest) = l.split_once("): ")?;
        let (_, pid) = head.rsplit_once('(')?;
        return pid.trim().bytes().all(|c| c.is_ascii_digit()).then_some(rest);
    }
    let date = l.split(' ').next()?;
    // An app's crash logger relaying logcat: `2025/02/11 08:41:07.512 20318 20377 Error CRASH rest`
    // (date with slashes, time, pid, tid, the level spelled out, a one-word tag).
    if date.len() == 10
        && date.as_bytes()[4] == b'/'
        && date.as_bytes()[7] == b'/'
        && date.bytes().all(|c| c.is_ascii_digit() || c == b'/')
    {
        let mut rest = &l[10..];
        let mut field = || {
            let r = rest.strip_prefix(' ')?.trim_start_matches(' ');
            let (f, after) = r.split_once(' ').map_or((r, ""), |(f, a)| (f, a));
            rest = if after.is_empty() { after } else { &r[f.len()..] };
            Some(f)
        };
        let (time, pid, tid, lv, tag) = (field()?, field()?, field()?, field()?, field()?);
        let ok = time.len() >= 8
            && time.as_bytes()[2] == b':'
            && !pid.is_empty()
            && pid.bytes().all(|c| c.is_ascii_digit())
            && !tid.is_empty()
            && tid.bytes().all(|c| c.is_ascii_digit())
            && matches!(lv, "Verbose" | "Debug" | "Info" | "Warn" | "Warning" | "Error" | "Fatal" | "Assert")
            && !tag.is_empty();
        return ok.then_some(rest);
    }
    let dated = (date.len() == 5 || date.len() == 10)
        && date.bytes().all(|c| c.is_ascii_digit() || c == b'-')
        && date.as_bytes().get(date.len() - 3) == Some(&b'-');
    if !dated {
        return None;
    }
    let mut w = l.split_whitespace();
    let (_, time, who) = (w.next()?, w.next()?, w.next()?);
    if !(time.len() >= 8 && time.as_bytes()[2] == b':') {
        return None;
    }
    if let Some((ids, _pkg)) = who.split_once('/') {
        // `14368-14368/? A/DEBUG: rest`
        let (pid, tid) = ids.split_once('-')?;
        let tag = w.next()?;
        if !(pid.bytes().all(|c| c.is_ascii_digit()) && tid.bytes().all(|c| c.is_ascii_digit())) {
            return None;
        }
        if !(tag.len() > 2 && tag.get(..1).is_some_and(level) && tag.as_bytes()[1] == b'/') {
            return None;
        }
        let p = l.find(tag)? + tag.len();
        let after = &l[p..];
        return after
            .strip_prefix(' ')
            .or(Some(after))
            .map(|r| if tag.ends_with(':') { r } else { r.split_once(": ").map_or(r, |x| x.1) });
    }
    // `6230  6230 F DEBUG   : rest`
    let (tid, lv) = (w.next()?, w.next()?);
    if !(who.bytes().all(|c| c.is_ascii_digit()) && tid.bytes().all(|c| c.is_ascii_digit()) && level(lv)) {
        return None;
    }
    let p = l.find(&format!(" {lv} "))?;
    l[p + 3..].split_once(": ").map(|(_, r)| r).or_else(|| l[p + 3..].trim_end().strip_suffix(':').map(|_| ""))
}

/// Where gdb's pager prompt starts in a line (gdb 7.12+ and the older wording): the first
/// `--Type <RET> for more, q to quit, c to continue without paging--`, else the first
/// `---Type <return> to continue, or q <return> to quit---`.
///
/// Every line goes through this, so it is not two `str::find`s (each builds a substring
/// searcher, two thirds of a whole run's instructions): both prompts hold `Type <` after
/// dashes, and a `T` is rare in a backtrace; memchr finds the candidates.
#[inline]
pub fn pager_prompt(l: &str) -> Option<usize> {
    // Most lines (locals) are shorter than either prompt: checked inline, no call.
    if l.len() < PAGER_OLD.len() || !has_dash_t(l.as_bytes()) {
        return None;
    }
    pager_prompt_in(l.as_bytes())
}

/// Whether `b` holds `-T`, which both prompts do (`--Type`, `---Type`): one SSE2 pass (each
/// 16-byte block compared with `-` and, one byte on, with `T`; the last block overlapping)
/// rules out a long line without a call (a memchr for `T` per line was 7 M instructions on a
/// 10 MB transcript). For lines of 17 bytes or more; shorter ones byte by byte.
#[inline]
fn has_dash_t(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 17 {
        use std::arch::x86_64::*;
        let n = b.len() - 1;
        // SAFETY: SSE2 is part of x86-64; each pair of loads reads b[i..i + 17] with
        // i + 16 <= n, inside `b`.
        unsafe {
            #[inline(always)]
            unsafe fn pairs(p: *const u8) -> __m128i {
                unsafe {
                    let dash = _mm_cmpeq_epi8(_mm_loadu_si128(p.cast()), _mm_set1_epi8(b'-' as i8));
                    let t = _mm_cmpeq_epi8(_mm_loadu_si128(p.add(1).cast()), _mm_set1_epi8(b'T' as i8));
                    _mm_and_si128(dash, t)
                }
            }
            return super::lexemes::sse2_any(b, n, |p| pairs(p));
        }
    }
    b.windows(2).any(|w| w == b"-T")
}

const PAGER_NEW: &str = "--Type <RET> for more, q to quit, c to continue without paging--";
const PAGER_OLD: &str = "---Type <return> to continue, or q <return> to quit---";

#[inline(never)]
fn pager_prompt_in(b: &[u8]) -> Option<usize> {
    const NEW: &str = PAGER_NEW;
    const OLD: &str = PAGER_OLD;
    let mut old = None;
    for i in memchr::memchr_iter(b'T', b) {
        if i >= 2 && b[i - 2..].starts_with(NEW.as_bytes()) {
            return Some(i - 2);
        }
        if old.is_none() && i >= 3 && b[i - 3..].starts_with(OLD.as_bytes()) {
            old = Some(i - 3);
        }
    }
    old
}

/// Cleans one line: escapes, CR, timestamp prefix, quote prefixes. Returns the text and marks.
pub fn clean_line(raw: &str) -> (Cow<'_, str>, LineMarks) {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    // Fast path, the same result as the general one below for the common line: printable
    // ASCII only (no escape to strip), no timestamp digit or '>' in front (no prefix to
    // peel), and a first non-blank byte that cannot start a fence.
    let b = raw.as_bytes();
    if !may_hold_escapes_or_amp(b)
        && !matches!(b.first(), Some(b'0'..=b'9' | b'>' | b'['))
        && !matches!(b.get(leading_spaces(b)), Some(b'`' | b'~'))
    {
        return (Cow::Borrowed(raw), LineMarks::default());
    }
    let mut marks = LineMarks::default();
    let mut s: Cow<'_, str> = Cow::Borrowed(raw);
    let stripped = strip_escapes(&s);
    if let Cow::Owned(o) = stripped {
        marks.had_escapes = true;
        s = Cow::Owned(o);
    }
    if let Some(z) = without_zero_width(&s) {
        s = Cow::Owned(z);
    }
    // Peel prefixes: timestamps and markdown quotes, in any order, a few levels deep.
    let mut start = 0usize;
    loop {
        let rest = &s[start..];
        let t = timestamp_prefix(rest);
        if t > 0 {
            start += t;
            // A container runtime's log (CRI, what `kubectl logs` files hold): the stream and
            // a full/partial tag follow the timestamp, `2024-03-02T11:07:41.1182Z stderr F `.
            let r = &s[start..];
            for stream in ["stdout ", "stderr "] {
                if let Some(tag) = r.strip_prefix(stream)
                    && matches!(tag.as_bytes(), [b'F' | b'P', b' ', ..] | [b'F' | b'P'])
                {
                    start += stream.len() + tag.len().min(2);
                }
            }
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
    let t = s.trim();
    if t.starts_with("```") || t.starts_with("~~~") {
        let info = t.trim_start_matches(['`', '~']);
        if info.chars().all(|c| c.is_ascii_alphanumeric() || "-_+ ".contains(c)) {
            marks.fence = true;
        }
    }
    (s, marks)
}

/// The zero-width space's HTML entities, which issue trackers insert: GitHub's Bugzilla
/// migration wrote every `#N` as `#&#8203;N` (so `#1` would not link an issue). `None` when the
/// line has none. (The character U+200B itself is kept, and shown as `<U+200B>`: text must
/// not display differently from what it is.)
fn without_zero_width(s: &str) -> Option<String> {
    const ENTITIES: [&str; 4] = ["&#8203;", "&#x200b;", "&#x200B;", "&ZeroWidthSpace;"];
    if !s.contains('&') || !ENTITIES.iter().any(|e| s.contains(e)) {
        return None;
    }
    let mut out = s.to_string();
    for e in ENTITIES {
        if out.contains(e) {
            out = out.replace(e, "");
        }
    }
    Some(out)
}

/// Decodes bytes as UTF-8, replacing invalid sequences, and drops NUL bytes.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    // `str::from_utf8` validates ASCII-heavy text much faster than the lossy decoder; the
    // lossy one only runs when there is something to replace.
    let s = match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    if memchr::memchr(0, s.as_bytes()).is_some() { Cow::Owned(s.replace('\0', "")) } else { s }
}

/// Removes terminal escape sequences and control characters from dump-derived text, and
/// shows invisible and bidirectional-override characters as `<U+202E>` (see [`is_invisible`]),
/// so a frame or a note cannot display differently from what it is. (Same as [`visible`].)
pub fn safe(s: &str) -> Cow<'_, str> {
    visible(s)
}

/// [`safe`] for a one-line message (stderr, `note --list`): also shows a newline as `\n`,
/// so text from a dump or a file name cannot forge a line of its own.
pub fn safe_line(s: &str) -> Cow<'_, str> {
    match safe(s) {
        Cow::Borrowed(b) if !b.contains('\n') => Cow::Borrowed(b),
        c => Cow::Owned(c.replace('\n', "\\n")),
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
    fn service_prefixes() {
        let j = "Mar 04 11:02:31 node-3 imgconv[88121]: imgconv-worker-1  | \t/src/x.go:3 +0x1";
        assert_eq!(service_prefix_rest(j), Some("\t/src/x.go:3 +0x1"));
        assert_eq!(service_prefix_rest("Mar 04 11:02:31 node-3 imgconv[88121]: panic: x"), Some("panic: x"));
        assert_eq!(service_prefix_rest("web-1  | panic: boom"), Some("panic: boom"));
        // rsyslog's octal escape of the traceback's tab
        assert_eq!(
            service_prefix_rest("Jun 14 02:41:07 store-07 blobd[88412]: #011runtime/panic.go:1047 +0x5d"),
            Some("runtime/panic.go:1047 +0x5d")
        );
        assert_eq!(service_prefix_rest("web-1  |"), Some(""));
        // The kernel's own journal lines, a markdown table, a Julia test summary, plain text.
        assert_eq!(service_prefix_rest("Dec 01 09:14:22 host kernel: a[1]: segfault at 0"), None);
        assert_eq!(service_prefix_rest("| a | b |"), None);
        assert_eq!(service_prefix_rest("Test Summary: | Pass  Total"), None);
        assert_eq!(service_prefix_rest("gc    (2) |  started at"), None);
        assert_eq!(service_prefix_rest("a|b"), None);
        assert_eq!(service_prefix_rest("│ [52410] signal 6 (-6): Aborted"), Some("[52410] signal 6 (-6): Aborted"));
        assert_eq!(
            service_prefix_rest("└ Allocations: 1 (Pool: 1; Big: 0); GC: 0"),
            Some("Allocations: 1 (Pool: 1; Big: 0); GC: 0")
        );
        assert_eq!(service_prefix_rest("│ "), Some(""));
        // A box character inside a line (a progress bar, a table) is no prefix.
        assert_eq!(service_prefix_rest("  67%|██▋ │ 3/4"), None);
        let lc = "01-20 10:14:52.337  6230  6230 F DEBUG   :       #00 pc 000000000003f2e7  /x/libv.so (f+39)";
        assert_eq!(service_prefix_rest(lc), Some("      #00 pc 000000000003f2e7  /x/libv.so (f+39)"));
        assert_eq!(service_prefix_rest("01-20 10:14:52.337  6230  6230 F DEBUG   : backtrace:"), Some("backtrace:"));
        let st = "2020-09-24 15:32:44.997 14368-14368/? A/DEBUG:     x0   000000732715a768  x1   000000732715a758";
        assert_eq!(service_prefix_rest(st), Some("    x0   000000732715a768  x1   000000732715a758"));
        assert_eq!(service_prefix_rest("I/DEBUG   (  119): backtrace:"), Some("backtrace:"));
        assert_eq!(service_prefix_rest("I/O error: 12"), None);
        // Multibyte text where the prefixes' ASCII bytes are looked for: never a panic.
        for l in [
            "é/DEBUG (1): x",
            "Dec 01 09:14:2é host a[1]: x",
            "Dec 01 09:14:22 hé a[1]: x",
            "01-20 10:14:52.337 1-2/? é/X: y",
            "é",
        ] {
            let _ = service_prefix_rest(l);
        }
        assert_eq!(service_prefix_rest("2024-01-02 10:00:00 started"), None);
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
        // A Kubernetes container log (CRI): stream and tag after the timestamp.
        let (l, _) = clean_line("2024-03-02T11:07:41.118203551Z stderr F fatal error: unknown caller pc");
        assert_eq!(l, "fatal error: unknown caller pc");
        let (l, _) = clean_line("2024-03-02T11:07:41.118277431Z stderr F ");
        assert_eq!(l, "");
        let (l, _) = clean_line("2024-03-02T11:07:41.118295720Z stderr F \truntime/panic.go:1047 +0x5d");
        assert_eq!(l, "\truntime/panic.go:1047 +0x5d");
        // Text that only starts like a stream name stays.
        let (l, _) = clean_line("2024-03-02T11:07:41Z stderr Fails here");
        assert_eq!(l, "stderr Fails here");
    }

    /// The SSE2 scan flags exactly the lines the 8-byte scan flags: every byte value at every
    /// position of lines of 16 to 40 bytes.
    #[test]
    fn simd_escape_test_matches_the_word_test() {
        for len in [16, 17, 23, 31, 32, 33, 40] {
            for filler in [b'a', b' ', b'~', b'!'] {
                for pos in 0..len {
                    for v in 0..=255u8 {
                        let mut line = vec![filler; len];
                        line[pos] = v;
                        let flagged = !(0x20..0x7f).contains(&v);
                        assert_eq!(may_hold_escapes(&line), flagged, "{line:?}");
                        assert_eq!(may_hold_escapes_words(&line), flagged, "{line:?}");
                        assert_eq!(may_hold_escapes_or_amp(&line), flagged || v == b'&', "{line:?}");
                    }
                }
            }
        }
    }

    /// The one-pass test of `clean_line` flags what the escape test or a search for `&` flags,
    /// for short lines too (the SWAR path and the byte search below 16 bytes).
    #[test]
    fn escape_or_amp_test_matches_the_two_tests() {
        for len in [0, 1, 5, 8, 15, 16, 17, 31, 32, 33] {
            for filler in [b'a', b' ', b'&', b'\t'] {
                for pos in 0..len {
                    for v in 0..=255u8 {
                        let mut line = vec![filler; len];
                        line[pos] = v;
                        let want = may_hold_escapes(&line) || memchr::memchr(b'&', &line).is_some();
                        assert_eq!(may_hold_escapes_or_amp(&line), want, "{line:?}");
                    }
                }
            }
        }
    }

    /// The `-T` pre-check of `pager_prompt` says what a search for `-T` says: every pair of
    /// byte values at every position of lines around the 16-byte steps.
    #[test]
    fn dash_t_test_matches_a_search() {
        for len in [0, 1, 2, 16, 17, 18, 31, 32, 33, 54, 70] {
            for filler in [b'a', b'-', b'T'] {
                for pos in 0..len {
                    for v in [b'-', b'T', b't', b'x', 0xff] {
                        for w in [b'-', b'T', b'a'] {
                            let mut line = vec![filler; len];
                            line[pos] = v;
                            if pos + 1 < len {
                                line[pos + 1] = w;
                            }
                            let want = line.windows(2).any(|x| x == b"-T");
                            assert_eq!(has_dash_t(&line), want, "{line:?}");
                        }
                    }
                }
            }
        }
        let l = format!("#3  0x0 in f () at futex-i{PAGER_NEW}");
        assert_eq!(pager_prompt(&l), l.find(PAGER_NEW));
    }

    #[test]
    fn decode_lossy() {
        assert_eq!(decode(b"a\xffb\0c"), "a\u{fffd}bc");
    }
}
