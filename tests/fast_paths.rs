//! The parser's hot-path shortcuts (see docs/performance.md) must give exactly what the plain
//! code they replaced gave. Each `*_ref` function below is that plain code, kept verbatim as
//! the specification; proptest compares the two on generated inputs that are dense in the
//! bytes the shortcuts special-case (controls, quotes, parens, spaces, colons, hex digits).

// The reference functions are the old code verbatim, nested `if`s included.
#![allow(clippy::collapsible_if)]

use proptest::prelude::*;
use std::borrow::Cow;
use tracecheck::input::lexemes::{file_line, hex_u64, open_paren_of_last_group};
use tracecheck::input::{clean, gdb, lexemes};

// ---- reference implementations (the code before the optimization) ----------------------

fn strip_escapes_ref(s: &str) -> Cow<'_, str> {
    if !s.bytes().any(|b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f) && !s.contains('\u{9b}') {
        return Cow::Borrowed(s);
    }
    // The slow path itself is unchanged: reuse it.
    match clean::strip_escapes(s) {
        Cow::Borrowed(b) => Cow::Owned(b.to_string()),
        o => o,
    }
}

fn timestamp_prefix_ref(s: &str) -> usize {
    let b = s.as_bytes();
    if b.len() < 21 || !b[0].is_ascii_digit() || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' {
        return 0;
    }
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

fn clean_line_ref(raw: &str) -> (Cow<'_, str>, clean::LineMarks) {
    let mut marks = clean::LineMarks::default();
    let mut s: Cow<'_, str> = Cow::Borrowed(raw.strip_suffix('\r').unwrap_or(raw));
    let stripped = strip_escapes_ref(&s);
    if let Cow::Owned(o) = stripped {
        marks.had_escapes = true;
        s = Cow::Owned(o);
    }
    let mut start = 0usize;
    loop {
        let rest = &s[start..];
        let t = timestamp_prefix_ref(rest);
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
    let t = s.trim();
    if t.starts_with("```") || t.starts_with("~~~") {
        let info = t.trim_start_matches(['`', '~']);
        if info.chars().all(|c| c.is_ascii_alphanumeric() || "-_+ ".contains(c)) {
            marks.fence = true;
        }
    }
    (s, marks)
}

fn hex_u64_ref(i: &str) -> Option<(&str, u64)> {
    let rest = i.strip_prefix("0x")?;
    let n = rest.chars().take_while(|c| c.is_ascii_hexdigit()).count();
    if n == 0 {
        return None;
    }
    let v = lexemes::parse_hex_digits(&rest[..n])?;
    Some((&rest[n..], v))
}

fn file_line_ref(s: &str) -> Option<(&str, u32, Option<u32>)> {
    let s = s.trim_end();
    let (head, last) = s.rsplit_once(':')?;
    let last_n: u32 = last.parse().ok()?;
    if let Some((file, mid)) = head.rsplit_once(':') {
        if let Ok(line) = mid.parse::<u32>() {
            if !file.is_empty() && !file.ends_with(' ') {
                return Some((file, line, Some(last_n)));
            }
        }
    }
    if head.is_empty() {
        return None;
    }
    Some((head, last_n, None))
}

fn open_paren_ref(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.last() != Some(&b')') {
        return None;
    }
    let mut depth = 0i32;
    let mut open_at = None;
    let mut in_str = false;
    let mut in_chr = false;
    let mut i = 0;
    while i < b.len() {
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

fn location_ref<'a>(rest: &'a str, f: &mut gdb::GdbFrameLine<'a>) -> Option<()> {
    let mut rest = rest;
    if rest.starts_with("0x") {
        let (r, pc) = hex_u64(rest).ok()?;
        f.pc = Some(pc);
        rest = r;
        if let Some(r) = rest.strip_prefix(" in ") {
            rest = r;
        } else {
            // `#5  0x00007f… ()`? Not gdb; `0x… in` is required after a pc.
            let r = rest.trim();
            if r.is_empty() {
                return Some(());
            }
            return None;
        }
    }
    if rest.starts_with("<signal handler called>") {
        f.signal_handler = true;
        f.function = Some("<signal handler called>");
        return Some(());
    }
    let rest = rest.trim_end();
    if rest.is_empty() {
        return None;
    }
    // Suffix: ` from LIB` or ` at FILE:LINE` (search from the right; the args come before).
    let mut head = rest;
    if let Some(p) = rest.rfind(" from ") {
        let lib = &rest[p + 6..];
        if !lib.is_empty() && !lib.contains(" (") && head[..p].ends_with(')') {
            f.module = Some(lib);
            head = &rest[..p];
        }
    }
    if f.module.is_none()
        && let Some(p) = rest.rfind(" at ")
    {
        let loc = &rest[p + 4..];
        if rest[..p].ends_with(')') {
            if let Some((file, line, _)) = file_line(loc) {
                f.file = Some(file);
                f.line = Some(line);
                head = &rest[..p];
            } else if !loc.is_empty() && !loc.contains(' ') {
                // `foo () at /lib64/libc.so.6`: abrt-processed traces name the library
                // this way; a file without a line is kept as a file.
                if gdb::is_shared_object(loc) {
                    f.module = Some(loc);
                } else {
                    f.file = Some(loc);
                }
                head = &rest[..p];
            }
        }
    }
    // Args: the last balanced parenthesised group.
    match open_paren_of_last_group(head) {
        Some(open) => {
            let name = head[..open].trim_end();
            f.args = Some(&head[open + 1..head.len() - 1]);
            f.function = if name == "??" || name.is_empty() { None } else { Some(name) };
        }
        None => {
            // A truncated line: `foo (a=1, b=` — keep the name.
            if let Some(open) = head.find(" (") {
                let name = &head[..open];
                f.function = if name == "??" { None } else { Some(name) };
                f.args = Some(&head[open + 2..]);
            } else if !head.contains(' ') || head.starts_with("??") {
                f.function = if head == "??" { None } else { Some(head) };
            } else {
                return None;
            }
            f.truncated = true;
        }
    }
    if let Some(name) = f.function {
        // Things that are not function names: prose sentences that happen to end in ")".
        if name.starts_with(|c: char| c.is_ascii_digit()) && !name.starts_with("0x") && !gdb::is_linker_stub(name) {
            return None;
        }
    }
    Some(())
}

// ---- generators -------------------------------------------------------------------------

/// Strings made of pieces that hit every special case of the shortcuts.
fn tricky(pieces: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(pieces), 0..max).prop_map(|v| v.concat())
}

const CLEAN_PIECES: &[&str] = &[
    " ",
    "        ",
    "\t",
    "\r",
    "\x1b[31m",
    "\x1b[m",
    "\x1b]0;t\x07",
    "\u{9b}1m",
    "\u{85}",
    "\u{a0}",
    "\u{3000}",
    "\x7f",
    "\x00",
    "\x0b",
    "\x0c",
    "\x01",
    "\x08",
    "\x1e",
    "\x1f",
    "\u{80}",
    "\u{9f}",
    "\u{7ff}",
    "\u{1f600}",
    "`",
    "```",
    "~~~",
    "~",
    "> ",
    ">",
    "2024-05-01T10:11:12.1234567Z ",
    "2024-05-01T10:11:12Z ",
    "#0  ",
    "0x7ffff7d8a740",
    " in ",
    "main ()",
    "x = 1",
    "é",
    "ab",
    "gdb",
    "-",
    "_",
    "+",
    "0",
    "9",
];

const FRAME_PIECES: &[&str] = &[
    " ",
    "  ",
    "\t",
    "0x",
    "0x0000555555555139",
    "0x00000000000000000001",
    "0x1ffffffffffffffff",
    "deadBEEF",
    "0",
    "7",
    "42",
    " in ",
    "??",
    "f",
    "std::vector<int>::at",
    "operator()",
    "(",
    ")",
    "\"",
    "'",
    "\\",
    "'('",
    "40 '('",
    "'\\''",
    "\"x)y\"",
    "a=1",
    ", ",
    " from ",
    "from",
    " from from ",
    "/lib/libc.so.6",
    " at ",
    "at",
    "src/a.c",
    ":",
    "13",
    ":5",
    ":+7",
    "C:\\x\\a.c",
    "<signal handler called>",
    "é",
    "\u{3000}",
    "\r",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn strip_escapes_same(s in tricky(CLEAN_PIECES, 12)) {
        prop_assert_eq!(clean::strip_escapes(&s), strip_escapes_ref(&s));
        // The fast path must also keep borrowing whenever the old code did.
        prop_assert_eq!(matches!(clean::strip_escapes(&s), Cow::Borrowed(_)), matches!(strip_escapes_ref(&s), Cow::Borrowed(_)));
    }

    #[test]
    fn clean_line_same(s in tricky(CLEAN_PIECES, 12)) {
        let (a, ma) = clean::clean_line(&s);
        let (b, mb) = clean_line_ref(&s);
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(ma, mb);
    }

    #[test]
    fn trim_same(s in tricky(CLEAN_PIECES, 12)) {
        prop_assert_eq!(clean::trim(&s), s.trim());
    }

    #[test]
    fn hex_same(s in tricky(FRAME_PIECES, 4)) {
        prop_assert_eq!(lexemes::hex_u64(&s).ok(), hex_u64_ref(&s));
    }

    #[test]
    fn file_line_same(s in tricky(FRAME_PIECES, 8)) {
        prop_assert_eq!(lexemes::file_line(&s), file_line_ref(&s));
    }

    #[test]
    fn open_paren_same(s in tricky(FRAME_PIECES, 16)) {
        prop_assert_eq!(lexemes::open_paren_of_last_group(&s), open_paren_ref(&s));
    }

    #[test]
    fn location_same(s in tricky(FRAME_PIECES, 16)) {
        let mut a = gdb::GdbFrameLine::default();
        let mut b = gdb::GdbFrameLine::default();
        let ra = gdb::location(&s, &mut a);
        let rb = location_ref(&s, &mut b);
        prop_assert_eq!(ra, rb);
        if ra.is_some() {
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn overlapping_from_is_found_like_rfind() {
    // " from " can overlap itself; the last match must win, as with `str::rfind`.
    for s in ["f (x) from from /lib/a.so", "f (x) from /lib/a from b", "f (x) from  from /l", "g () from "] {
        let mut a = gdb::GdbFrameLine::default();
        let mut b = gdb::GdbFrameLine::default();
        assert_eq!(gdb::location(s, &mut a), location_ref(s, &mut b), "{s}");
        assert_eq!(a, b, "{s}");
    }
}

/// The builder's shortcuts: thread lookup by id through an index, appending a frame without
/// searching, reusing the locals buffer. The transcript revisits threads, sends frames out of
/// order and replaces a backtrace; the model must be what the linear searches gave.
#[test]
fn builder_shortcuts_keep_merging_rules() {
    let text = "\
(gdb) thread apply all bt full
Thread 2 (Thread 0x1 (LWP 11) \"w\"):
#0  0x0000000000000001 in a (x=1) at a.c:1
        i = 1
        j = 2
#1  0x0000000000000002 in b () at a.c:2
No locals.

Thread 1 (Thread 0x2 (LWP 10)):
#0  0x0000000000000003 in c () at c.c:3
        k =  3\t

Thread 2 (Thread 0x1 (LWP 11) \"w\"):
#0  0x0000000000000001 in a (x=1) at a.c:1
#3  0x0000000000000004 in d () at a.c:4
        z = 0
#2  0x0000000000000005 in e () at a.c:5
(gdb) thread apply 1 bt
Thread 1 (Thread 0x2 (LWP 10)):
#0  0x0000000000000009 in other () at o.c:9
";
    let p = tracecheck::input::parse(text);
    let stop = &p.trace.stops[0];
    let ids: Vec<&str> = stop.threads.iter().map(|t| &*t.id).collect();
    assert_eq!(ids, ["2", "1"]);
    let t2 = &stop.threads[0];
    let f: Vec<(u32, &str)> = t2.frames.iter().map(|f| (f.index, f.function_name())).collect();
    assert_eq!(f, [(0, "a"), (1, "b"), (2, "e"), (3, "d")]);
    assert_eq!(t2.frames[0].locals.as_deref(), Some("i = 1\nj = 2"));
    assert_eq!(t2.frames[3].locals.as_deref(), Some("z = 0"));
    assert_eq!(t2.name.as_deref(), Some("w"));
    // A different function at #0 of thread 1: the newer backtrace replaces the old one.
    let t1 = &stop.threads[1];
    let f: Vec<(u32, &str)> = t1.frames.iter().map(|f| (f.index, f.function_name())).collect();
    assert_eq!(f, [(0, "other")]);
}

/// `parse_bytes` before the change: decode the whole input, then parse it.
fn parse_bytes_ref(bytes: &[u8]) -> tracecheck::input::Parsed {
    let lossy = String::from_utf8_lossy(bytes);
    let text: Cow<'_, str> = if lossy.contains('\0') { Cow::Owned(lossy.replace('\0', "")) } else { lossy };
    let mut p = tracecheck::input::parse(&text);
    if matches!(text, Cow::Owned(_)) {
        p.diagnostics.notes.insert(
            0,
            tracecheck::input::Note {
                line: None,
                message: "input is not valid UTF-8 or holds NUL bytes; bad bytes were replaced".into(),
            },
        );
    }
    p
}

const BYTE_PIECES: &[&[u8]] = &[
    b"\n",
    b"\n",
    b"\r\n",
    b"\0",
    b"\0\n",
    b"\xff",
    b"\xe2\x82",
    b"\xe2\x82\xac",
    b"\xc3",
    b"\xf0\x9f\x98",
    b"\xed\xa0\x80",
    b"#0  0x0000000000000001 in main (argc=1) at t.c:2",
    b"#1  f () from /lib/libc.so.6",
    b"        x = 1",
    b"No locals.",
    b"Thread 2 (Thread 0x1 (LWP 3) \"w\"):",
    b"(gdb) bt full",
    b"Program received signal SIGSEGV, Segmentation fault.",
    b"rax            0x0                 0",
    b" ",
    b"\t",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parse_bytes_same(pieces in proptest::collection::vec(proptest::sample::select(BYTE_PIECES), 0..24)) {
        let bytes = pieces.concat();
        let a = tracecheck::input::parse_bytes(&bytes);
        let b = parse_bytes_ref(&bytes);
        prop_assert_eq!(a.trace, b.trace);
        prop_assert_eq!(a.diagnostics, b.diagnostics);
    }
}

/// `lexemes::string_args` as it was before it read each value where it found the name
/// (it called `arg_string`, which searches the list again, for every new name).
fn string_args_ref(args: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    if !args.contains('"') {
        return out;
    }
    let b = args.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if (i == 0 || b[i - 1] == b' ' || b[i - 1] == b',') && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
            let end = i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
            if b.get(end) == Some(&b'=') {
                let name = &args[i..end];
                if !out.iter().any(|(n, _)| n == name)
                    && let Some(v) = arg_string_ref(args, name)
                {
                    out.push((name.to_string(), v));
                }
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn arg_string_ref(args: &str, name: &str) -> Option<String> {
    let key = format!("{name}=");
    let mut from = 0;
    let start = loop {
        let p = from + args[from..].find(&key)?;
        if p == 0 || args[..p].ends_with(' ') || args[..p].ends_with(',') {
            break p + key.len();
        }
        from = p + key.len();
    };
    let mut v = &args[start..];
    if let Some(r) = v.strip_prefix(&format!("{name}@entry=")) {
        v = r;
    }
    let q = v.find('"')?;
    if v[..q].contains(", ") {
        return None;
    }
    let mut out = String::new();
    let mut chars = v[q + 1..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
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

const ARG_PIECES: &[&str] = &[
    "s", "str", "a", "_x", "s2", "=", "@entry=", "s@entry=", "0x0", "0x55", " ", ",", ", ", "\"", "\\", "\\\"", "\\n",
    "text", "{", "}", "<", ">", "é", "x, y", "\"a, b\"", "s=0x1 \"", "=s=",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn string_args_same(s in tricky(ARG_PIECES, 14)) {
        prop_assert_eq!(tracecheck::input::lexemes::string_args(&s), string_args_ref(&s));
        for name in ["s", "str", "a", "_x", "s2"] {
            prop_assert_eq!(tracecheck::input::lexemes::arg_string(&s, name), arg_string_ref(&s, name));
        }
    }
}

// ---- frame argument lists: one walk instead of four (issue 14) -------------------------

/// `lexemes::arg_parts` before the one-walk `typed_args`.
fn arg_parts_ref(args: &str) -> Vec<&str> {
    let mut depth = 0i32;
    let mut quoted = false;
    let mut start = 0;
    let b = args.as_bytes();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b'{' | b'(' | b'[' | b'<' if !quoted => depth += 1,
            b'}' | b')' | b']' | b'>' if !quoted => depth -= 1,
            b',' if !quoted && depth == 0 => {
                parts.push(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&args[start..]);
    parts
}

fn top_level_args_ref(args: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for p in arg_parts_ref(args) {
        let Some((name, value)) = p.trim().split_once('=') else { continue };
        let name = name.trim();
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let value = value.trim();
        let value = value.strip_prefix(name).and_then(|v| v.strip_prefix("@entry=")).unwrap_or(value);
        out.push((name, value));
    }
    out
}

fn null_pointer_args_ref(args: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if memchr::memmem::find(args.as_bytes(), b"0x0").is_none() {
        return out;
    }
    for (name, value) in top_level_args_ref(args) {
        if value == "0x0" && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

fn int_args_ref(args: &str) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    for (name, value) in top_level_args_ref(args) {
        if let Ok(v) = value.parse::<i64>()
            && !out.iter().any(|(n, _)| n == name)
        {
            out.push((name.to_string(), v));
        }
    }
    out
}

fn changed_entry_values_ref(args: &str) -> Vec<tracecheck::model::EntryValue> {
    if memchr::memmem::find(args.as_bytes(), b"@entry").is_none() {
        return Vec::new();
    }
    let parts: Vec<(&str, &str)> = arg_parts_ref(args)
        .into_iter()
        .filter_map(|p| p.trim().split_once('='))
        .map(|(n, v)| (n.trim(), v.trim()))
        .collect();
    let mut out = Vec::new();
    for (n, v) in &parts {
        let Some(name) = n.strip_suffix("@entry") else { continue };
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let Some(now) = parts.iter().find(|(m, _)| *m == name).map(|(_, v)| *v) else { continue };
        if now.starts_with(&format!("{name}@entry=")) {
            continue;
        }
        out.push(tracecheck::model::EntryValue {
            name: name.into(),
            now: (now != "<optimized out>").then(|| now.into()),
            at_entry: (*v).into(),
            at_entry_pointer: v.strip_prefix("0x").and_then(|h| u64::from_str_radix(h, 16).ok()),
        });
    }
    out
}

/// `model::symbols::addr_symbols` before the `<` pre-check and the memchr search for `0x`.
fn addr_symbols_ref(text: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(p) = text[i..].find("0x").map(|p| p + i) {
        let digits = b[p + 2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        let end = p + 2 + digits;
        i = end.max(p + 2);
        if digits == 0 || digits > 16 || (p > 0 && b[p - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let Some(rest) = text[end..].strip_prefix(" <") else { continue };
        let Some(close) = rest.find('>') else { continue };
        let (Ok(addr), Some(sym)) =
            (u64::from_str_radix(&text[p + 2..end], 16), tracecheck::model::SymbolRef::parse(&rest[..close]))
        else {
            continue;
        };
        out.push((addr, sym.to_string()));
    }
    out
}

/// Pieces of gdb argument lists: names, `@entry` repeats, integers of every sign and size,
/// NULLs, strings with escapes and commas, nested brackets, Unicode whitespace.
const TYPED_ARG_PIECES: &[&str] = &[
    "p",
    "n",
    "line",
    "_x",
    "p@entry",
    "=",
    "@entry=",
    "p@entry=",
    "n@entry=",
    "0x0",
    "0x00",
    "0x10",
    "0x1f <f+8>",
    "0x401126 <handler>",
    " <",
    ">",
    "<optimized out>",
    "-1",
    "+7",
    "12",
    "9223372036854775807",
    "9223372036854775808",
    "-",
    " ",
    "  ",
    ",",
    ", ",
    "\"",
    "\\",
    "\\\"",
    "\"a, b\"",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    "\t",
    "\u{a0}",
    "\u{3000}",
    "é",
    "...",
    "x0x5 <a>",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, ..ProptestConfig::default() })]

    #[test]
    fn typed_args_same(s in tricky(TYPED_ARG_PIECES, 16)) {
        let t = lexemes::typed_args(&s);
        let ints: Vec<(String, i64)> = t.ints.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        prop_assert_eq!(ints, int_args_ref(&s));
        let nulls: Vec<String> = t.nulls.iter().map(|n| n.to_string()).collect();
        prop_assert_eq!(nulls, null_pointer_args_ref(&s));
        prop_assert_eq!(&t.entry_values, &changed_entry_values_ref(&s));
        prop_assert_eq!(lexemes::int_args(&s), int_args_ref(&s));
        prop_assert_eq!(lexemes::null_pointer_args(&s), null_pointer_args_ref(&s));
        prop_assert_eq!(lexemes::changed_entry_values(&s), changed_entry_values_ref(&s));
        let syms: Vec<(u64, String)> =
            tracecheck::model::symbols::addr_symbols(&s).into_iter().map(|(a, r)| (a, r.to_string())).collect();
        prop_assert_eq!(syms, addr_symbols_ref(&s));
    }

    #[test]
    fn string_args_borrowed_same(s in tricky(ARG_PIECES, 14)) {
        let owned: Vec<(String, String)> = lexemes::string_args_borrowed(&s)
            .into_iter()
            .map(|(n, v)| (n.to_string(), v.into_owned()))
            .collect();
        prop_assert_eq!(owned, string_args_ref(&s));
    }
}

#[test]
fn typed_args_on_real_lists() {
    // Frames of the sample transcripts' shapes (gdb -O2 output with entry values).
    for a in [
        "p=0x0, p@entry=0x5555555592e0, steps=<optimized out>, steps@entry=3",
        "n=n@entry=7, s=<optimized out>",
        "t=0x55555555bd50, depth=132, seed=1479263275, tag=0x555555556018 \"from-d\"",
        "assertion=0x5555 \"x, y\", file=0x5556 \"a.c\", line=9, function=0x5557 <__PRETTY_FUNCTION__.0> \"f\"",
        "st={a = 0x0, b = 1}, cb=0x401126 <handler>, v=v@entry=0x0",
    ] {
        let t = lexemes::typed_args(a);
        let ints: Vec<(String, i64)> = t.ints.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        assert_eq!(ints, int_args_ref(a), "{a}");
        let nulls: Vec<String> = t.nulls.iter().map(|n| n.to_string()).collect();
        assert_eq!(nulls, null_pointer_args_ref(a), "{a}");
        assert_eq!(t.entry_values, changed_entry_values_ref(a), "{a}");
    }
    assert_eq!(lexemes::typed_args("p=0x0, p@entry=0x10").entry_values.len(), 1);
    assert_eq!(lexemes::typed_args("depth=132, seed=-3").ints, vec![("depth", 132), ("seed", -3)]);
}

// ---- log collector prefixes: the first-byte pre-check (issue 14) ----------------------

/// `clean::service_prefix_rest` (and its logcat helper) without the first-byte pre-check.
fn service_prefix_rest_ref(l: &str) -> Option<&str> {
    let b = l.as_bytes();
    let mut rest = l;
    let mut peeled = false;
    // Android logcat: `01-20 10:14:52.337  6230  6230 F DEBUG   : rest` (`-v threadtime`),
    // `2020-09-24 15:32:44.997 14368-14368/? A/DEBUG: rest` (Android Studio),
    // `I/DEBUG   (  119): rest` (`-v brief`).
    if let Some(r) = logcat_rest_ref(l) {
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

fn logcat_rest_ref(l: &str) -> Option<&str> {
    let level = |w: &str| w.len() == 1 && "VDIWEFA".contains(w);
    let b = l.as_bytes();
    // `-v brief`: `I/DEBUG   (  119): rest`.
    if b.len() > 4 && l.get(..1).is_some_and(level) && b[1] == b'/' {
        let (head, rest) = l.split_once("): ")?;
        let (_, pid) = head.rsplit_once('(')?;
        return pid.trim().bytes().all(|c| c.is_ascii_digit()).then_some(rest);
    }
    let date = l.split(' ').next()?;
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

const PREFIX_PIECES: &[&str] = &[
    "Mar 04 11:02:31 host app[88121]: ",
    "Mar 04 11:02:31 host app[88121]:",
    "Mar 04 11:02:31 h ",
    "#011",
    "app-worker-1  | ",
    "app-worker-1  |",
    "svc.1 ",
    "|",
    " ",
    "  ",
    "-",
    "01-20 10:14:52.337  6230  6230 F DEBUG   : ",
    "2020-09-24 15:32:44.997 14368-14368/? A/DEBUG: ",
    "I/DEBUG   (  119): ",
    "F ",
    "DEBUG",
    ": ",
    "#0 ",
    "x = 1",
    "        ",
    "é",
    "\t",
    "0",
    "a",
    "Z",
    "[",
    "]",
    "(",
    ")",
    "/",
    ":",
    "│ ",
    "└ ",
    "│",
    "┌ ",
    "─",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, ..ProptestConfig::default() })]

    #[test]
    fn service_prefix_rest_same(s in tricky(PREFIX_PIECES, 8)) {
        prop_assert_eq!(clean::service_prefix_rest(&s), service_prefix_rest_ref(&s));
    }
}

// ---- the pager prompt (perf3) -------------------------------------------------------------

/// `route.rs`'s `pager_prompt` before the memchr scan: two substring searches per line.
fn pager_prompt_ref(l: &str) -> Option<usize> {
    l.find("--Type <RET> for more, q to quit, c to continue without paging--")
        .or_else(|| l.find("---Type <return> to continue, or q <return> to quit---"))
}

const PAGER_PIECES: &[&str] = &[
    "--Type <RET> for more, q to quit, c to continue without paging--",
    "---Type <return> to continue, or q <return> to quit---",
    "--Type <RET> for more, q to quit, c to continue without paging-",
    "---Type <return> to continue, or q <return> to quit--",
    "-",
    "--",
    "Type <RET>",
    "Type",
    "T",
    " ",
    "#3  0x00005555555552ec in bottom (t=0x5555555598f0) at src/a.c:43",
    "futex-i",
    "é",
    "\u{1f600}",
    "nternal.c:87",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, ..ProptestConfig::default() })]

    #[test]
    fn pager_prompt_same(s in tricky(PAGER_PIECES, 8)) {
        prop_assert_eq!(clean::pager_prompt(&s), pager_prompt_ref(&s));
    }
}

#[test]
fn pager_prompt_real_lines() {
    for l in [
        "#0  0x00007ffff7e2e1b3 in __futex_abstimed_wait_common64 (private=0, cancel=true) at futex-i--Type <RET> for more, q to quit, c to continue without paging--",
        "---Type <return> to continue, or q <return> to quit---",
        "Thread 2 (Thread 0x7ffff7dd06c0 (LWP 4128) \"worker-0\"):",
        "        __ret = -512",
        "--Type <RET> ---Type <return> to continue, or q <return> to quit------Type <return> to continue, or q <return> to quit---",
    ] {
        assert_eq!(clean::pager_prompt(l), pager_prompt_ref(l), "{l}");
    }
    assert_eq!(clean::pager_prompt("ab--Type <RET> for more, q to quit, c to continue without paging--"), Some(2));
    assert_eq!(clean::pager_prompt("Thread 1"), None);
}
