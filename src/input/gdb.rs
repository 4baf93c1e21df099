//! gdb's output, one line shape per function. Each returns a `Gdb…` record borrowing from
//! the line, or `None` when the line is not of that shape; none of them allocate on the
//! frame-line hot path except through the caller's interner.
//!
//! rr replays through gdb, so everything here serves rr transcripts too; rr's own lines are
//! in `rr.rs`.

use super::lexemes::{file_line, hex_u64, hex_width, open_paren_of_last_group, parse_hex, skip_ws};
use crate::model::MismatchKind;

/// One backtrace line: `#3  0x00007f… in foo (a=1) at src/foo.c:42`.
#[derive(Debug, PartialEq, Eq, Default, Clone)]
pub struct GdbFrameLine<'a> {
    pub index: u32,
    pub pc: Option<u64>,
    pub function: Option<&'a str>,
    pub args: Option<&'a str>,
    pub file: Option<&'a str>,
    pub line: Option<u32>,
    pub module: Option<&'a str>,
    pub signal_handler: bool,
    /// The line ended before the argument list closed (a cut-off paste).
    pub truncated: bool,
}

/// `#N` at the start of a (trimmed) line.
pub fn frame_line(l: &str) -> Option<GdbFrameLine<'_>> {
    let rest = l.strip_prefix('#')?;
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let index: u32 = rest[..digits].parse().ok()?;
    let rest = &rest[digits..];
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = skip_ws(rest);
    let mut f = GdbFrameLine { index, ..Default::default() };
    location(rest, &mut f)?;
    Some(f)
}

/// The part after the frame number, also printed alone when a stop is reported:
/// `0x… in foo (a=1) at a.c:3`, `foo (a=1) at a.c:3`, `<signal handler called>`.
pub fn location<'a>(rest: &'a str, f: &mut GdbFrameLine<'a>) -> Option<()> {
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
    if let Some(p) = rfind_hopping(rest, " from ", 1) {
        let lib = &rest[p + 6..];
        if !lib.is_empty() && !lib.contains(" (") && head[..p].ends_with(')') {
            f.module = Some(lib);
            head = &rest[..p];
        }
    }
    if f.module.is_none()
        && let Some(p) = rfind_word(rest, " at ")
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
                if is_shared_object(loc) {
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
        // A name may start with a digit when it is a ppc64 linker stub
        // (`00000011.plt_call.memcpy@@GLIBC_2.3+0`: 8 hex digits, a dot, no space).
        if name.starts_with(|c: char| c.is_ascii_digit()) && !name.starts_with("0x") && !is_linker_stub(name) {
            return None;
        }
    }
    Some(())
}

/// `00000011.plt_call.memcpy@@GLIBC_2.3+0`, `00000017.long_branch.foo+0` (ppc64 stubs).
pub fn is_linker_stub(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() > 9
        && b[..8].iter().all(u8::is_ascii_hexdigit)
        && b[8] == b'.'
        && b[9].is_ascii_alphabetic()
        && !name.contains(' ')
}

/// `s.rfind(word)` for a word that starts with a space: walks the spaces from the end with
/// `memrchr`, which beats a general substring search on frame lines (the hot path).
#[inline]
fn rfind_word(s: &str, word: &str) -> Option<usize> {
    rfind_hopping(s, word, 0)
}

/// `s.rfind(word)`, walking from the end with `memrchr` over the occurrences of
/// `word[hop]`: each match has that byte at `hop` past its start, so the last match is found
/// at the first hop that matches. A rare byte means few hops (`" from "` hops on `f`: a frame
/// line holds fewer `f`s than spaces, and most hold no `" from "` at all).
#[inline]
fn rfind_hopping(s: &str, word: &str, hop: usize) -> Option<usize> {
    let (b, w) = (s.as_bytes(), word.as_bytes());
    let mut end = b.len();
    while let Some(q) = memchr::memrchr(w[hop], &b[..end]) {
        if let Some(p) = q.checked_sub(hop)
            && b[p..].starts_with(w)
        {
            return Some(p);
        }
        end = q;
    }
    None
}

/// Whether a path names a shared object (`libc.so.6`, `libfoo.dylib`, `x.dll`).
pub fn is_shared_object(p: &str) -> bool {
    let base = p.rsplit('/').next().unwrap_or(p);
    base.contains(".so") || base.ends_with(".dylib") || base.ends_with(".dll") || base.ends_with(".DLL")
}

/// `rax            0x0                 0` and friends.
#[derive(Debug, PartialEq, Eq)]
pub struct GdbRegisterLine<'a> {
    pub name: &'a str,
    pub value: Option<u64>,
    pub natural: Option<&'a str>,
}

pub fn register_line(l: &str) -> Option<GdbRegisterLine<'_>> {
    let b = l.as_bytes();
    if b.is_empty() || !b[0].is_ascii_lowercase() {
        return None;
    }
    let name_len = b.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
    if name_len == 0 || name_len > 20 {
        return None;
    }
    let name = &l[..name_len];
    let rest = &l[name_len..];
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = skip_ws(rest);
    if rest.is_empty() {
        return None;
    }
    if rest.starts_with("0x") {
        let (after, v) = hex_u64(rest).ok()?;
        if !(after.is_empty() || after.starts_with([' ', '\t'])) {
            return None;
        }
        let nat = skip_ws(after).trim_end();
        return Some(GdbRegisterLine { name, value: Some(v), natural: if nat.is_empty() { None } else { Some(nat) } });
    }
    // Vector and x87 registers: `{v8_bfloat16 = …}`, `0  (raw 0x0000…)`, `<unavailable>`.
    if rest.starts_with('{') || rest.starts_with("<unavailable>") || rest.starts_with("<not saved>") {
        return Some(GdbRegisterLine { name, value: None, natural: Some(rest.trim_end()) });
    }
    if rest.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        // `st0  0  (raw 0x…)` or a decimal-only register.
        let tok = rest.split_whitespace().next()?;
        if tok.parse::<f64>().is_ok()
            || tok == "-nan(0xc000000000000000)"
            || tok.starts_with("-nan")
            || tok.starts_with("nan")
            || tok == "inf"
            || tok == "-inf"
        {
            return Some(GdbRegisterLine { name, value: None, natural: Some(rest.trim_end()) });
        }
    }
    None
}

/// Register names that mark a register block even without an echoed command (from the
/// register tables in [`crate::arch`]).
pub fn is_core_register_name(n: &str) -> bool {
    crate::arch::is_register_block_name(n)
}

/// `Thread 2 (Thread 0x7ffff7d89640 (LWP 1235) "worker"):` — the header before each
/// thread's backtrace in `thread apply all bt`.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct GdbThreadHeader<'a> {
    pub id: &'a str,
    pub handle: Option<u64>,
    pub lwp: Option<u64>,
    pub name: Option<&'a str>,
}

pub fn thread_header(l: &str) -> Option<GdbThreadHeader<'_>> {
    let rest = l.strip_prefix("Thread ")?;
    let id_len = rest.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    if id_len == 0 {
        return None;
    }
    let id = &rest[..id_len];
    let rest = rest[id_len..].strip_prefix(" (")?;
    let inner = rest.trim_end().strip_suffix("):")?;
    let mut h = GdbThreadHeader { id, ..Default::default() };
    target_id(inner, &mut h);
    Some(h)
}

/// `Thread 0x7ffff7d89640 (LWP 1235) "worker"`, `LWP 1235`, `process 123`.
pub fn target_id<'a>(s: &'a str, h: &mut GdbThreadHeader<'a>) {
    if let Some(p) = s.find("0x")
        && let Ok((_, v)) = hex_u64(&s[p..])
    {
        h.handle = Some(v);
    }
    let digits = |r: &str| -> Option<u64> {
        let d = r.bytes().take_while(|c| c.is_ascii_digit()).count();
        r[..d].parse().ok()
    };
    if let Some(p) = s.find("LWP ") {
        h.lwp = digits(&s[p + 4..]);
    } else if let Some(p) = s.find("process ") {
        h.lwp = digits(&s[p + 8..]);
    } else if let Some(r) = s.strip_prefix("Thread ") {
        // Old gdb on cores: `Thread 19965` is the LWP in decimal.
        if !r.starts_with("0x") {
            h.lwp = digits(r);
        }
    }
    if let Some(q) = s.find('"')
        && let Some(e) = s[q + 1..].find('"')
    {
        h.name = Some(&s[q + 1..q + 1 + e]);
    }
}

/// One row of `info threads`: `* 1    Thread 0x… (LWP 1234) "prog" 0x… in main () at t.c:5`.
#[derive(Debug, PartialEq, Eq)]
pub struct GdbInfoThreadsRow<'a> {
    pub current: bool,
    pub id: &'a str,
    pub handle: Option<u64>,
    pub lwp: Option<u64>,
    pub name: Option<&'a str>,
    pub frame: Option<GdbFrameLine<'a>>,
}

pub fn info_threads_row(l: &str) -> Option<GdbInfoThreadsRow<'_>> {
    let t = l.trim_start();
    let (current, t) = match t.strip_prefix('*') {
        Some(r) => (true, r.trim_start()),
        None => (false, t),
    };
    let id_len = t.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    if id_len == 0 {
        return None;
    }
    let id = &t[..id_len];
    let rest = skip_ws(&t[id_len..]);
    let kinds = ["Thread ", "LWP ", "process ", "Remote target"];
    if !kinds.iter().any(|k| rest.starts_with(k)) {
        return None;
    }
    // The target id ends after the LWP paren group and optional quoted name.
    let mut end = 0;
    let bytes = rest.as_bytes();
    if rest.starts_with("Thread ") {
        if let Some(p) = rest.find(")") {
            end = p + 1;
        }
    } else {
        end = rest
            .char_indices()
            .skip_while(|(_, c)| !c.is_ascii_digit())
            .find(|(_, c)| !c.is_ascii_digit())
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
    }
    if end < bytes.len()
        && rest[end..].starts_with(" \"")
        && let Some(q) = rest[end + 2..].find('"')
    {
        end = end + 2 + q + 1;
    }
    let mut h = GdbThreadHeader { id, ..Default::default() };
    target_id(&rest[..end], &mut h);
    let frame_text = skip_ws(&rest[end..]);
    let frame = if frame_text.is_empty() {
        None
    } else {
        let mut f = GdbFrameLine::default();
        location(frame_text, &mut f).map(|_| f)
    };
    Some(GdbInfoThreadsRow { current, id, handle: h.handle, lwp: h.lwp, name: h.name, frame })
}

/// The lines that report why the program stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum GdbStopLine<'a> {
    /// `Program received signal SIGSEGV, Segmentation fault.` / `Thread 3 "w" received …`
    Signal { thread: Option<&'a str>, thread_name: Option<&'a str>, signal: &'a str, desc: &'a str },
    /// `Program terminated with signal SIGSEGV, Segmentation fault.` (cores; the old form
    /// prints the number: `signal 11, Segmentation fault`).
    Terminated { signal: &'a str, desc: &'a str },
    /// `Breakpoint 1, main () at t.c:5` / `Thread 2 "x" hit Breakpoint 1, f () at …`
    Breakpoint { thread: Option<&'a str>, number: i64, location: &'a str },
    /// `Hardware watchpoint 2: *0x…` / `Thread 1 hit Watchpoint 2: x`
    Watchpoint { thread: Option<&'a str>, number: i64, expr: &'a str },
    /// `[Inferior 1 (process 1234) exited with code 01]` / `exited normally]`
    Exited { code: i64 },
    /// `Program terminated with signal SIGKILL` without a core, `The program is not being run.`
    Killed { signal: &'a str },
}

pub fn stop_line(l: &str) -> Option<GdbStopLine<'_>> {
    let l = l.trim_end();
    if let Some(r) = l.strip_prefix("Program received signal ") {
        let (signal, desc) = signal_and_desc(r)?;
        return Some(GdbStopLine::Signal { thread: None, thread_name: None, signal, desc });
    }
    if let Some(r) = l.strip_prefix("Program terminated with signal ") {
        let (signal, desc) = signal_and_desc(r)?;
        return Some(GdbStopLine::Terminated { signal, desc });
    }
    if let Some(r) = l.strip_prefix("Inferior ") {
        // `Inferior 1 (process 1234) received signal …`? gdb prints that rarely; skip.
        let _ = r;
    }
    if let Some(r) = l.strip_prefix("[Inferior ") {
        if l.contains("exited normally") {
            return Some(GdbStopLine::Exited { code: 0 });
        }
        if let Some(p) = r.find("exited with code ") {
            let d = r[p + 17..].trim_end_matches(']');
            // gdb prints the code in octal with a leading 0.
            let code = i64::from_str_radix(d, 8).or_else(|_| d.parse()).ok()?;
            return Some(GdbStopLine::Exited { code });
        }
        return None;
    }
    // Thread-qualified forms.
    let (thread, thread_name, rest) = if let Some(r) = l.strip_prefix("Thread ") {
        let id_len = r.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
        if id_len == 0 {
            return None;
        }
        let id = &r[..id_len];
        let mut rest = &r[id_len..];
        let mut name = None;
        if let Some(q) = rest.strip_prefix(" \"") {
            let e = q.find("\" ")?;
            name = Some(&q[..e]);
            rest = &q[e + 1..];
        }
        (Some(id), name, rest.strip_prefix(' ')?)
    } else {
        (None, None, l)
    };
    if let Some(r) = rest.strip_prefix("received signal ") {
        let (signal, desc) = signal_and_desc(r)?;
        return Some(GdbStopLine::Signal { thread, thread_name, signal, desc });
    }
    let rest = rest.strip_prefix("hit ").unwrap_or(rest);
    for bp in ["Breakpoint ", "Temporary breakpoint "] {
        if let Some(r) = rest.strip_prefix(bp) {
            let (num, loc) = r.split_once(", ")?;
            // `Breakpoint 1.2,`: location 2 of breakpoint 1 (an inlined or template function).
            let number = num.split('.').next()?.parse().ok()?;
            return Some(GdbStopLine::Breakpoint { thread, number, location: loc });
        }
    }
    for wp in
        ["Hardware watchpoint ", "Watchpoint ", "Hardware read watchpoint ", "Hardware access (read/write) watchpoint "]
    {
        if let Some(r) = rest.strip_prefix(wp) {
            let (num, expr) = r.split_once(": ")?;
            let number = num.parse().ok()?;
            return Some(GdbStopLine::Watchpoint { thread, number, expr });
        }
    }
    None
}

/// `SIGSEGV, Segmentation fault.` or the old `11, Segmentation fault.`
fn signal_and_desc(r: &str) -> Option<(&str, &str)> {
    let (sig, desc) = match r.split_once(", ") {
        Some((s, d)) => (s, d.trim_end_matches('.')),
        None => (r.trim_end_matches('.'), ""),
    };
    if sig.starts_with("SIG") || sig.bytes().all(|b| b.is_ascii_digit()) || sig.starts_with("EXC_") || sig == "?" {
        Some((sig, desc))
    } else {
        None
    }
}

/// A row of `info proc mappings` (with or without the Perms column).
#[derive(Debug, PartialEq, Eq)]
pub struct GdbMappingRow<'a> {
    pub start: u64,
    pub end: u64,
    pub offset: u64,
    pub perms: Option<&'a str>,
    pub path: Option<&'a str>,
}

pub fn mapping_row(l: &str) -> Option<GdbMappingRow<'_>> {
    let t = l.trim_start();
    if !t.starts_with("0x") {
        return None;
    }
    let mut fields = Vec::with_capacity(6);
    let mut rest = t;
    for _ in 0..4 {
        rest = skip_ws(rest);
        let end = rest.find([' ', '\t']).unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    let start = parse_hex(fields[0])?;
    let end = parse_hex(fields[1])?;
    let _size = parse_hex(fields[2])?;
    let offset = parse_hex(fields[3])?;
    if end < start {
        return None;
    }
    let rest = skip_ws(rest).trim_end();
    let (perms, path) = {
        let first = rest.split([' ', '\t']).next().unwrap_or("");
        let is_perms = first.len() == 4
            && first.bytes().enumerate().all(|(i, b)| match i {
                0 => b == b'r' || b == b'-',
                1 => b == b'w' || b == b'-',
                2 => b == b'x' || b == b'-',
                _ => b == b'p' || b == b's' || b == b'-',
            });
        if is_perms {
            let p = skip_ws(&rest[4..]).trim_end();
            (Some(first), if p.is_empty() { None } else { Some(p) })
        } else {
            (None, if rest.is_empty() { None } else { Some(rest) })
        }
    };
    Some(GdbMappingRow { start, end, offset, perms, path })
}

/// A row of `info sharedlibrary`.
#[derive(Debug, PartialEq, Eq)]
pub struct GdbSharedLibRow<'a> {
    pub from: Option<u64>,
    pub to: Option<u64>,
    pub syms_read: bool,
    pub path: &'a str,
}

pub fn sharedlib_row(l: &str) -> Option<GdbSharedLibRow<'_>> {
    let t = l.trim_start();
    let mut rest = t;
    let mut from = None;
    let mut to = None;
    if t.starts_with("0x") {
        let (r, f) = hex_u64(t).ok()?;
        let r = skip_ws(r);
        let (r, e) = hex_u64(r).ok()?;
        from = Some(f);
        to = Some(e);
        rest = skip_ws(r);
    }
    let (syms_read, r) = if let Some(r) = rest.strip_prefix("Yes") {
        (true, r)
    } else if let Some(r) = rest.strip_prefix("No") {
        (false, r)
    } else {
        return None;
    };
    let r = skip_ws(r);
    let r = r.strip_prefix("(*)").unwrap_or(r);
    let path = skip_ws(r).trim_end();
    if path.is_empty() {
        return None;
    }
    Some(GdbSharedLibRow { from, to, syms_read, path })
}

/// `x/` output: `0x7ffe…:\t0x0000000000000001\t0x…` or `0x… <sym+8>:\t…`, or `x/s`.
#[derive(Debug, PartialEq, Eq)]
pub struct GdbMemoryRow<'a> {
    pub address: u64,
    pub symbol: Option<&'a str>,
    /// Values with their printed hex width (digits), so the unit can be inferred.
    pub words: Vec<(u64, usize)>,
    pub string: Option<&'a str>,
}

pub fn memory_row(l: &str) -> Option<GdbMemoryRow<'_>> {
    let l = l.trim_end();
    if !l.starts_with("0x") {
        return None;
    }
    let (rest, address) = hex_u64(l).ok()?;
    let (symbol, rest) = if let Some(r) = rest.strip_prefix(" <") {
        let e = r.find(">:")?;
        (Some(&r[..e]), &r[e + 1..])
    } else {
        (None, rest)
    };
    let rest = rest.strip_prefix(':')?;
    let body = skip_ws(rest);
    if body.starts_with('"')
        || body.starts_with("<error:")
        || body.starts_with("U\"")
        || body.starts_with("u\"")
        || body.starts_with("L\"")
    {
        return Some(GdbMemoryRow { address, symbol, words: Vec::new(), string: Some(body) });
    }
    let mut words = Vec::new();
    for tok in body.split([' ', '\t']).filter(|s| !s.is_empty()) {
        let w = hex_width(tok);
        if w == 0 || w + 2 != tok.len() {
            // Decimal `x/8gd` or mixed — take decimal numbers too.
            if let Ok(v) = tok.parse::<i64>() {
                words.push((v as u64, 0));
                continue;
            }
            return None;
        }
        words.push((parse_hex(tok)?, w));
    }
    if words.is_empty() {
        return None;
    }
    Some(GdbMemoryRow { address, symbol, words, string: None })
}

/// A disassembly line from `x/i` or `disassemble` (and CASR's `==>` form).
#[derive(Debug, PartialEq, Eq)]
pub struct GdbInsnLine<'a> {
    pub current: bool,
    pub address: u64,
    pub location: Option<&'a str>,
    pub text: &'a str,
}

pub fn insn_line(l: &str) -> Option<GdbInsnLine<'_>> {
    let l = l.trim_end();
    let (current, rest) = if let Some(r) = l.strip_prefix("=> ") {
        (true, r)
    } else if let Some(r) = l.strip_prefix("==> ") {
        (true, r)
    } else if let Some(r) = l.strip_prefix("   ") {
        (false, r.trim_start())
    } else if let Some(r) = l.strip_prefix("->  ") {
        (true, r)
    } else {
        return None;
    };
    let (r, address) = hex_u64(rest).ok()?;
    let (location, r) = if let Some(x) = r.strip_prefix(" <") {
        let e = x.find(">:")?;
        (Some(&x[..e]), &x[e + 1..])
    } else {
        (None, r)
    };
    // `=> 0x3fff7c8f2b4c :\tld r2,24(r1)`: other tools strip the symbol and leave the space.
    let r = r.strip_prefix(':').or_else(|| r.strip_prefix(" :"))?;
    let mut text = skip_ws(r);
    // `=> 0x0:\tgdb/x.gdb:48: Error in sourced command file:`: the memory could not be read
    // and gdb's error message was glued onto the half-printed line.
    if sourced_file_error(text) {
        text = "";
    }
    Some(GdbInsnLine { current, address, location, text })
}

/// A disassembly line cut inside its `<symbol+offset>` (`   0x0000555555555215 <+1`, the
/// end of a truncated paste): the address is all that is left. Only read in a disassembly.
pub fn cut_insn_line(l: &str) -> Option<u64> {
    let rest = l.strip_prefix("   ").or_else(|| l.strip_prefix("=> "))?.trim_start();
    let (r, address) = hex_u64(rest).ok()?;
    let x = r.strip_prefix(" <")?;
    (!x.contains('>') && !x.contains(char::is_whitespace)).then_some(address)
}

/// `gdb/x.gdb:42: Error in sourced command file:` (batch mode, a failing command).
pub fn sourced_file_error(t: &str) -> bool {
    t.trim_end().ends_with(": Error in sourced command file:")
}

/// One `info symbol` answer: `stream_fill + 49 in section .text of /path/prog`,
/// `pass_callback_thunk_vtable in section .data.rel.ro`, `No symbol matches s.`
#[derive(Debug, PartialEq, Eq)]
pub struct GdbSymbolLine<'a> {
    pub symbol: Option<&'a str>,
    pub offset: u64,
    pub section: Option<&'a str>,
    pub objfile: Option<&'a str>,
}

pub fn symbol_line(t: &str) -> Option<GdbSymbolLine<'_>> {
    let t = t.trim_end();
    if t.starts_with("No symbol matches ") {
        return Some(GdbSymbolLine { symbol: None, offset: 0, section: None, objfile: None });
    }
    let p = t.find(" in section ")?;
    let (sym, rest) = (&t[..p], &t[p + 12..]);
    let (section, objfile) = match rest.split_once(" of ") {
        Some((s, o)) => (s, Some(o)),
        None => (rest, None),
    };
    // ELF section names: `.text`, `.data.rel.ro`, `.bss`…
    if !section.starts_with('.') || section.contains(' ') {
        return None;
    }
    let (symbol, offset) = match sym.rsplit_once(" + ") {
        Some((s, off)) => (s, off.parse().ok()?),
        None => (sym, 0),
    };
    if symbol.is_empty() {
        return None;
    }
    Some(GdbSymbolLine { symbol: Some(symbol), offset, section: Some(section), objfile })
}

/// Echoed commands: `(gdb) bt`, `(rr) when`, `pwndbg> i r`, `gef➤  x/4gx $sp`.
pub fn prompt(l: &str) -> Option<(&'static str, &str)> {
    for (p, name) in [
        ("(gdb)", "gdb"),
        ("(rr)", "rr"),
        ("(lldb)", "lldb"),
        ("pwndbg>", "gdb"),
        ("gdb-peda$", "gdb"),
        ("gef➤", "gdb"),
        ("gef>", "gdb"),
        ("(cuda-gdb)", "gdb"),
    ] {
        if let Some(r) = l.strip_prefix(p) {
            return Some((name, r.trim()));
        }
    }
    None
}

/// What `p $_siginfo` tells: signo, code and fault address.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct GdbSiginfo {
    pub signo: Option<i32>,
    pub code: Option<i32>,
    pub addr: Option<u64>,
}

/// Pulls the fields out of a (possibly multi-line, pretty-printed) `$_siginfo` value.
pub fn siginfo(v: &str) -> Option<GdbSiginfo> {
    if !v.contains("si_signo") {
        return None;
    }
    // C syntax `si_code = 1`, Rust syntax `si_code: 1` (gdb uses the selected frame's
    // language).
    fn field<'a>(v: &'a str, name: &str) -> Option<&'a str> {
        let mut from = 0;
        while let Some(p) = v[from..].find(name) {
            let at = from + p;
            from = at + name.len();
            let before_ok = at == 0 || !v.as_bytes()[at - 1].is_ascii_alphanumeric() && v.as_bytes()[at - 1] != b'_';
            let r = v[from..].trim_start();
            let r = match r.strip_prefix('=').or_else(|| r.strip_prefix(':')) {
                Some(r) if before_ok => r.trim_start(),
                _ => continue,
            };
            let end = r.find([',', '}', '\n', ' ']).unwrap_or(r.len());
            return Some(&r[..end]);
        }
        None
    }
    let signo = field(v, "si_signo").and_then(|s| s.parse().ok());
    let code = field(v, "si_code").and_then(|s| s.parse().ok().or_else(|| crate::model::signals::si_code_value(s)));
    let addr = field(v, "si_addr").and_then(|s| parse_hex(s).or_else(|| if s == "0x0" { Some(0) } else { None }));
    Some(GdbSiginfo { signo, code, addr })
}

/// `$1 = value` (the value may continue on following lines when pretty printing).
pub fn history_value(l: &str) -> Option<(u32, &str)> {
    let r = l.strip_prefix('$')?;
    let d = r.bytes().take_while(|b| b.is_ascii_digit()).count();
    if d == 0 {
        return None;
    }
    let n = r[..d].parse().ok()?;
    let v = r[d..].strip_prefix(" = ")?;
    Some((n, v))
}

/// A source line echoed by gdb after a stop or `frame N`: `42\t  x = p->y;`.
pub fn is_source_line(l: &str) -> bool {
    let d = l.bytes().take_while(|b| b.is_ascii_digit()).count();
    d > 0 && d < 9 && l[d..].starts_with('\t')
}

/// The same with the tab turned into spaces (`42  ../sysdeps/…: No such file or directory.`),
/// as old reports and re-flowed pastes have it. Only trusted right after a frame line.
pub fn is_spaced_source_line(l: &str) -> bool {
    let d = l.bytes().take_while(|b| b.is_ascii_digit()).count();
    d > 0 && d < 9 && l[d..].starts_with("  ")
}

/// gdb chatter that carries no fact but is known (counted as recognized).
/// gdb's warnings that a file it loaded does not match the core, with the path they name.
pub fn file_mismatch(t: &str) -> Option<(MismatchKind, Option<&str>)> {
    let w = t.strip_prefix("warning: ")?;
    if w.starts_with("exec file is newer than core file") {
        return Some((MismatchKind::ExecNewer, None));
    }
    if w.starts_with("core file may not match specified executable file") {
        return Some((MismatchKind::ExecMayNotMatch, None));
    }
    if let Some(rest) = w.strip_prefix("Build-id of ")
        && let Some(path) = rest.strip_suffix(" does not match core file.")
    {
        return Some((MismatchKind::BuildId, Some(path.trim_matches('"'))));
    }
    if let Some(rest) = w.strip_prefix(".dynamic section for \"")
        && let Some((path, tail)) = rest.split_once('"')
        && tail.contains("is not at the expected address")
    {
        return Some((MismatchKind::LibraryAddress, Some(path.strip_prefix("target:").unwrap_or(path))));
    }
    if let Some(rest) = w.strip_prefix("the debug information found in \"")
        && let Some((_, tail)) = rest.split_once("\" does not match \"")
        && let Some((path, _)) = tail.split_once('"')
    {
        return Some((MismatchKind::DebugCrc, Some(path)));
    }
    None
}

pub fn is_noise(l: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "[Thread debugging using libthread_db",
        "Using host libthread_db library",
        "[New Thread ",
        "[New LWP ",
        "[Thread 0x",
        "[LWP ",
        "[Detaching after",
        "[Attaching after",
        "[New inferior",
        "[Inferior ",
        "Reading symbols from",
        "Starting program:",
        "Continuing.",
        "Downloading ",
        "Download failed",
        "warning: ",
        "Warning: ",
        "Run till exit from",
        "(More stack frames follow...)",
        "Quit anyway?",
        "A debugging session is active.",
        "\tInferior 1",
        "Debuginfod ",
        "This GDB supports auto-downloading",
        "Enable debuginfod?",
        "Loaded symbols for",
        "Missing separate debuginfo",
        "Missing separate debuginfos",
        "Try: ",
        "Dump of assembler code",
        "End of assembler dump.",
        "Mapped address spaces:",
        "(*): Shared library is missing debugging information.",
        "Type \"apropos word\"",
        "Type \"show copying\"",
        "(No debugging symbols found in",
        "For help, type",
        "GNU gdb ",
        "Copyright (C)",
        "License GPLv3+",
        "This is free software",
        "There is NO WARRANTY",
        // gdb 7's banner wraps its licence sentence differently.
        "and \"show warranty\" for details.",
        "This GDB was configured as",
        "Type \"show configuration\"",
        "For bug reporting instructions",
        "<https://",
        "Find the GDB manual",
        "<http://",
        "Selected thread is running.",
        "No shared libraries loaded at this time.",
        "No stack.",
        "No frame selected.",
        "The program being debugged has been started already.",
        "Start it from the beginning?",
        "[Current thread is ",
        "Cannot access memory at address",
        "process ",
        "Remote debugging using",
        "Attaching to ",
        "Detaching from",
        "Kill the program being debugged?",
        "Id   Target Id",
        "  Id   Target Id",
        "From                To ",
        "Start Addr",
        "Initial frame selected; you cannot go up.",
        "Bottom (innermost) frame selected; you cannot go down.",
        "Value returned is",
        "Python Exception",
        "Error while running hook",
        "Program stopped.",
        "The program is not being run.",
        "Undefined command",
        "No symbol ",
        "Left operand of assignment",
        "Invalid number",
        "Note: breakpoint",
        "Function \"",
        "Make breakpoint pending",
        "Argument required",
        "A syntax error in expression",
        "Attempt to take contents of a non-pointer value.",
        "Could not fetch register",
        "value has been optimized out",
        "[process ",
        "libthread_db",
    ];
    let t = l.trim_start();
    if t.is_empty() || PREFIXES.iter().any(|p| t.starts_with(p)) {
        return true;
    }
    // `x/2xg 0x6e69…` on an unreadable address: `0x6e69…:\tCannot access memory at address 0x6e69…`.
    if let Some((a, r)) = t.split_once(':')
        && a.strip_prefix("0x").is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
        && r.trim_start().starts_with("Cannot access memory at address 0x")
    {
        return true;
    }
    // `Breakpoint 1 at 0x1587: file x.c, line 5.` (set, not hit), `[Thread 0x… exited]`.
    for p in ["Breakpoint ", "Temporary breakpoint ", "Hardware breakpoint "] {
        if let Some(r) = t.strip_prefix(p) {
            let d = r.bytes().take_while(|b| b.is_ascii_digit()).count();
            if d > 0 && r[d..].starts_with(" at ") {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {

    #[test]
    fn digit_names_and_stripped_insn_lines() {
        // ppc64 linker stubs start with a digit; other tools print `=> 0xADDR :\tinsn`.
        let f =
            frame_line("#0  0x00003fff7c8f2b4c in 00000011.plt_call.memcpy@@GLIBC_2.3+0 () from /usr/lib/libfoo.so")
                .expect("frame");
        assert_eq!(f.function, Some("00000011.plt_call.memcpy@@GLIBC_2.3+0"));
        assert_eq!(f.module, Some("/usr/lib/libfoo.so"));
        assert_eq!(frame_line("#0  3 threads (running)"), None, "prose is still not a frame");
        let i = insn_line("=> 0x3fff7c8f2b4c :\tld      r2,24(r1)").expect("insn");
        assert_eq!((i.current, i.address, i.location, i.text), (true, 0x3fff7c8f2b4c, None, "ld      r2,24(r1)"));
    }

    use super::*;

    #[test]
    fn frames_of_every_shape() {
        let f = frame_line("#0  0x0000555555555139 in main () at t.c:2").unwrap();
        assert_eq!(
            (f.index, f.pc, f.function, f.args, f.file, f.line),
            (0, Some(0x555555555139), Some("main"), Some(""), Some("t.c"), Some(2))
        );

        let f = frame_line("#1  0x00007ffff7e0a15f in __pthread_kill_internal (signo=6, threadid=<optimized out>) at ./nptl/pthread_kill.c:78").unwrap();
        assert_eq!(f.function, Some("__pthread_kill_internal"));
        assert_eq!(f.args, Some("signo=6, threadid=<optimized out>"));
        assert_eq!(f.file, Some("./nptl/pthread_kill.c"));
        assert_eq!(f.line, Some(78));

        let f = frame_line("#7  0x00007ffff7e5c1a4 in ?? () from /lib/x86_64-linux-gnu/libc.so.6").unwrap();
        assert_eq!((f.function, f.module), (None, Some("/lib/x86_64-linux-gnu/libc.so.6")));

        let f = frame_line("#0  __pthread_kill_implementation (no_tid=0, signo=6, threadid=140737351481152) at ./nptl/pthread_kill.c:44").unwrap();
        assert_eq!((f.pc, f.function), (None, Some("__pthread_kill_implementation")));

        let f = frame_line("#3  <signal handler called>").unwrap();
        assert!(f.signal_handler);

        let f = frame_line("#0  0x0000000000000000 in ?? ()").unwrap();
        assert_eq!((f.pc, f.function), (Some(0), None));

        let f = frame_line("#2  0x000000000048a45c in (anonymous namespace)::decrypt_xlsx (bytes=std::vector of length 6778, capacity 8192 = {...}, password=u\"VelvetSweatshop\") at /xlnt/source/detail/cryptography/xlsx_crypto_consumer.cpp:320").unwrap();
        assert_eq!(f.function, Some("(anonymous namespace)::decrypt_xlsx"));
        assert_eq!(f.line, Some(320));

        let f = frame_line("#4  0x00007ffff7e9a3b2 in std::vector<int, std::allocator<int> >::at (this=0x7fffffffe560, __n=10) at /usr/include/c++/12/bits/stl_vector.h:1143").unwrap();
        assert_eq!(f.function, Some("std::vector<int, std::allocator<int> >::at"));

        let f = frame_line("#3  0x00007ffff7ad1234 in foo(int) () from /usr/lib/libfoo.so").unwrap();
        assert_eq!((f.function, f.args), (Some("foo(int)"), Some("")));

        let f = frame_line(
            "#5  0x000055555555a1b2 in core::panicking::panic_fmt (fmt=...) at library/core/src/panicking.rs:72",
        )
        .unwrap();
        assert_eq!(f.function, Some("core::panicking::panic_fmt"));

        // A truncated paste keeps what it can.
        let f = frame_line("#9  0x0000555555555189 in worker (arg=0x55555555").unwrap();
        assert!(f.truncated);
        assert_eq!(f.function, Some("worker"));

        assert!(frame_line("#include <stdio.h>").is_none());
        assert!(frame_line("#1").is_none());
    }

    #[test]
    fn rfind_words() {
        for (s, w) in [
            ("f () at a.c:1", " at "),
            ("a at b at c", " at "),
            ("x from y", " from "),
            ("no", " at "),
            ("  at ", " at "),
            ("f (s=\" at \") from /l.so", " from "),
        ] {
            assert_eq!(rfind_word(s, w), s.rfind(w), "{s:?} {w:?}");
            assert_eq!(rfind_hopping(s, w, 1), s.rfind(w), "{s:?} {w:?}");
        }
    }

    #[test]
    fn registers() {
        let r = register_line("rip            0x555555555139      0x555555555139 <main+16>").unwrap();
        assert_eq!((r.name, r.value, r.natural), ("rip", Some(0x555555555139), Some("0x555555555139 <main+16>")));
        let r = register_line("eflags         0x10246             [ PF ZF IF RF ]").unwrap();
        assert_eq!(r.value, Some(0x10246));
        let r = register_line("cpsr           0x60000000          [ EL=0 BTYPE=0 SSBS C Z ]").unwrap();
        assert_eq!(r.value, Some(0x60000000));
        let r = register_line("xmm0           {v8_bfloat16 = {0x0, 0x0}, v4_float = {0x0, 0x0}}").unwrap();
        assert_eq!(r.value, None);
        let r = register_line("st0            0                   (raw 0x00000000000000000000)").unwrap();
        assert_eq!(r.value, None);
        assert!(register_line("ret = <value optimized out>").is_none());
        assert!(register_line("Program received signal").is_none());
        assert!(is_core_register_name("x30"));
        assert!(!is_core_register_name("x31"));
    }

    #[test]
    fn threads() {
        let h = thread_header("Thread 2 (Thread 0x7ffff7d89640 (LWP 1235) \"worker\"):").unwrap();
        assert_eq!((h.id, h.handle, h.lwp, h.name), ("2", Some(0x7ffff7d89640), Some(1235), Some("worker")));
        let h = thread_header("Thread 1 (LWP 3575):").unwrap();
        assert_eq!((h.id, h.lwp), ("1", Some(3575)));
        let r =
            info_threads_row("* 1    Thread 0x7ffff7d8a740 (LWP 1234) \"prog\" 0x0000555555555139 in main () at t.c:5")
                .unwrap();
        assert!(r.current);
        assert_eq!((r.id, r.lwp, r.name), ("1", Some(1234), Some("prog")));
        assert_eq!(r.frame.unwrap().function, Some("main"));
        let r = info_threads_row("  2    Thread 0x7ffff7d89640 (LWP 1235) \"w\" __futex_abstimed_wait_common (futex_word=0x1, expected=0) at ./nptl/futex-internal.c:57").unwrap();
        assert!(!r.current);
        assert_eq!(r.frame.unwrap().line, Some(57));
    }

    #[test]
    fn stops() {
        assert_eq!(
            stop_line("Program received signal SIGSEGV, Segmentation fault."),
            Some(GdbStopLine::Signal {
                thread: None,
                thread_name: None,
                signal: "SIGSEGV",
                desc: "Segmentation fault"
            })
        );
        assert_eq!(
            stop_line("Thread 3 \"crasher\" received signal SIGSEGV, Segmentation fault."),
            Some(GdbStopLine::Signal {
                thread: Some("3"),
                thread_name: Some("crasher"),
                signal: "SIGSEGV",
                desc: "Segmentation fault"
            })
        );
        assert_eq!(
            stop_line("Program terminated with signal 11, Segmentation fault."),
            Some(GdbStopLine::Terminated { signal: "11", desc: "Segmentation fault" })
        );
        assert_eq!(
            stop_line("Breakpoint 1, main () at t.c:5"),
            Some(GdbStopLine::Breakpoint { thread: None, number: 1, location: "main () at t.c:5" })
        );
        assert_eq!(
            stop_line("Thread 2 \"x\" hit Hardware watchpoint 2: *(long *) 0x7ffe"),
            Some(GdbStopLine::Watchpoint { thread: Some("2"), number: 2, expr: "*(long *) 0x7ffe" })
        );
        assert_eq!(stop_line("[Inferior 1 (process 99) exited with code 01]"), Some(GdbStopLine::Exited { code: 1 }));
        assert_eq!(stop_line("Thread 2 (Thread 0x7 (LWP 5)):"), None);
    }

    #[test]
    fn mappings_and_libs() {
        let m = mapping_row("      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/t").unwrap();
        assert_eq!(
            (m.start, m.end, m.offset, m.perms, m.path),
            (0x555555554000, 0x555555555000, 0, Some("r--p"), Some("/tmp/t"))
        );
        let m = mapping_row("            0x6d8000           0x71b000    0x43000        0x0 [heap]").unwrap();
        assert_eq!((m.perms, m.path), (None, Some("[heap]")));
        let m = mapping_row("      0x7ffff7a28000     0x7ffff7a2c000     0x4000        0x0 ").unwrap();
        assert_eq!(m.path, None);
        let s = sharedlib_row("0x00007ffff7dab700  0x00007ffff7f3d93d  Yes (*)     /lib/x86_64-linux-gnu/libc.so.6")
            .unwrap();
        assert_eq!((s.from, s.syms_read, s.path), (Some(0x7ffff7dab700), true, "/lib/x86_64-linux-gnu/libc.so.6"));
        let s = sharedlib_row("                                        No          linux-vdso.so.1").unwrap();
        assert_eq!((s.from, s.syms_read), (None, false));
    }

    #[test]
    fn memory_and_insns() {
        let m = memory_row("0x7fffffffe700:\t0x0000000000000001\t0x00007ffff7dd3d90").unwrap();
        assert_eq!(m.words, vec![(1, 16), (0x7ffff7dd3d90, 16)]);
        let m = memory_row("0x555555558010 <buf+16>:\t0x41414141\t0x00000000").unwrap();
        assert_eq!((m.symbol, m.words.len(), m.words[0].1), (Some("buf+16"), 2, 8));
        let m = memory_row("0x555555556004:\t\"hello\"").unwrap();
        assert_eq!(m.string, Some("\"hello\""));
        assert!(memory_row("0x1234 in main ()").is_none());
        let i = insn_line("=> 0x555555555139 <main+16>:\tmov    0x8(%rax),%rax").unwrap();
        assert_eq!(
            (i.current, i.address, i.location, i.text),
            (true, 0x555555555139, Some("main+16"), "mov    0x8(%rax),%rax")
        );
        let i = insn_line("   0x0000555555555129 <+0>:\tpush   %rbp").unwrap();
        assert!(!i.current);
        assert_eq!(cut_insn_line("   0x0000555555555215 <+1"), Some(0x555555555215));
        assert_eq!(cut_insn_line("=> 0x555555555215 <main+1"), Some(0x555555555215));
        assert_eq!(cut_insn_line("   0x0000555555555215 <+1>:\tmov"), None);
        assert_eq!(cut_insn_line("   0x0000555555555215"), None);
        let i = insn_line("==> 0x5e3099: movups xmm0, xmmword ptr [rax + 0x70]").unwrap();
        assert!(i.current);
        assert_eq!(i.text, "movups xmm0, xmmword ptr [rax + 0x70]");
    }

    #[test]
    fn siginfo_fields() {
        let v = "{si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_pad = {24, 0}, _sigfault = {si_addr = 0x18, _addr_lsb = 0}}}";
        assert_eq!(siginfo(v), Some(GdbSiginfo { signo: Some(11), code: Some(1), addr: Some(0x18) }));
        let v = "{si_signo = 11, si_errno = 0, si_code = 128, _sifields = {_sigfault = {si_addr = 0x0}}}";
        assert_eq!(siginfo(v).unwrap().code, Some(128));
        // Rust syntax (selected frame in Rust code), from the rust-null sample.
        let v = "siginfo {si_signo: 11, si_errno: 0, si_code: 1, _sifields: {_pad: [4120, 0 <repeats 27 times>], _kill: {si_pid: 4120, si_uid: 0}, _sigfault: {si_addr: 0x1018, _addr_lsb: 0, _addr_bnd: {_lower: 0x0, _upper: 0x0}}}}";
        assert_eq!(siginfo(v), Some(GdbSiginfo { signo: Some(11), code: Some(1), addr: Some(0x1018) }));
        // `si_addr_lsb`-like longer names do not match `si_addr`.
        let v = "{si_signo = 7, si_code = 4, _sifields = {_sigfault = {si_addr_lsb = 3, si_addr = 0x7f00}}}";
        assert_eq!(siginfo(v).unwrap().addr, Some(0x7f00));
        assert_eq!(siginfo("{x = 1}"), None);
    }

    #[test]
    fn old_gdb_and_abrt_shapes() {
        // satyr rhbz-1239318: abrt prints the library after `at`.
        let f = frame_line("#0  0x00007f77903f8239 in syscall () at /lib64/libc.so.6").unwrap();
        assert_eq!((f.function, f.module, f.file), (Some("syscall"), Some("/lib64/libc.so.6"), None));
        // A source file without a line stays a file.
        let f = frame_line("#3  0x0000000000401136 in f () at t.c").unwrap();
        assert_eq!((f.file, f.line), (Some("t.c"), None));
        // satyr rhbz-621492: `Thread 11 (Thread 19965):` names the LWP in decimal.
        let h = thread_header("Thread 11 (Thread 19965):").unwrap();
        assert_eq!((h.id, h.lwp, h.handle), ("11", Some(19965), None));
        // A wrapped frame line is cut off until its continuation arrives.
        let f = frame_line("#1  0x0000003139e1f34e in nsProfileLock::FatalSignalHandler (signo=11, ").unwrap();
        assert!(f.truncated);
        assert_eq!(f.function, Some("nsProfileLock::FatalSignalHandler"));
        assert!(is_spaced_source_line("42  ../nptl/sysdeps/unix/sysv/linux/pt-raise.c: No such file or directory."));
        assert!(!is_spaced_source_line("42 is the answer"));
        assert!(is_source_line("57\t./nptl/futex-internal.c: No such file or directory."));
        assert!(is_shared_object("/lib/x86_64-linux-gnu/libstdc++.so.6") && !is_shared_object("src/x.c"));
    }

    #[test]
    fn info_symbol() {
        // null-fnptr, julia-trampoline-bad-r13 and write-rodata samples.
        let s = symbol_line("stream_fill + 49 in section .text of /work/main/sample-traces/build/null-fnptr").unwrap();
        assert_eq!(
            (s.symbol, s.offset, s.section, s.objfile),
            (Some("stream_fill"), 49, Some(".text"), Some("/work/main/sample-traces/build/null-fnptr"))
        );
        let s = symbol_line("pass_callback_thunk_vtable in section .data.rel.ro of /work/main/sample-traces/build/julia-trampoline-bad-r13").unwrap();
        assert_eq!((s.symbol, s.offset, s.section), (Some("pass_callback_thunk_vtable"), 0, Some(".data.rel.ro")));
        let s = symbol_line("main + 4 in section .text").unwrap();
        assert_eq!((s.symbol, s.objfile), (Some("main"), None));
        assert_eq!(symbol_line("No symbol matches s.").unwrap().symbol, None);
        assert_eq!(symbol_line("the answer in section four of the book"), None);
    }

    #[test]
    fn batch_mode_errors() {
        // null-fnptr: `x/2i $pc` at pc 0 fails after printing `=> 0x0:\t`.
        let i = insn_line("=> 0x0:\tgdb/null-fnptr.gdb:48: Error in sourced command file:").unwrap();
        assert_eq!((i.current, i.address, i.text), (true, 0, ""));
        assert!(sourced_file_error("gdb/noncanonical.gdb:42: Error in sourced command file:"));
    }

    #[test]
    fn aarch64_registers() {
        // gdb's AArch64 `info registers` / `info all-registers` layout (name, hex, natural).
        for (l, name, v) in [
            ("x0             0x0                 0", "x0", Some(0)),
            ("x29            0xfffffffff1c0      281474976707008", "x29", Some(0xfffffffff1c0)),
            ("x30            0xaaaaaaaa0778      187649984432120", "x30", Some(0xaaaaaaaa0778)),
            ("sp             0xfffffffff1c0      0xfffffffff1c0", "sp", Some(0xfffffffff1c0)),
            ("pc             0xaaaaaaaa0754      0xaaaaaaaa0754 <main+20>", "pc", Some(0xaaaaaaaa0754)),
            ("cpsr           0x80000000          [ EL=0 BTYPE=0 N ]", "cpsr", Some(0x80000000)),
            ("fpsr           0x0                 [ ]", "fpsr", Some(0)),
            ("fpcr           0x0                 [ Len=0 Stride=0 RMode=0 ]", "fpcr", Some(0)),
            (
                "v0             {d = {f = {0x0, 0x0}, u = {0x0, 0x0}, s = {0x0, 0x0}}, s = {f = {0x0, 0x0, 0x0, 0x0}}}",
                "v0",
                None,
            ),
            ("s0             {f = 0, u = 0, s = 0}", "s0", None),
        ] {
            let r = register_line(l).unwrap_or_else(|| panic!("{l}"));
            assert_eq!((r.name, r.value), (name, v), "{l}");
        }
        assert!(is_core_register_name("x0") && is_core_register_name("cpsr"));
        let i = insn_line("=> 0xaaaaaaaa0754 <main+20>:\tldr\tw0, [x0]").unwrap();
        assert_eq!((i.current, i.location, i.text), (true, Some("main+20"), "ldr\tw0, [x0]"));
    }
}

#[cfg(test)]
mod mismatch_tests {
    use super::*;

    #[test]
    fn file_mismatch_warnings_are_typed_with_their_paths() {
        // Shapes of gdb's messages (gdb/solib-svr4.c, gdb/corelow.c, gdb/symfile.c); the paths
        // are made up.
        assert_eq!(file_mismatch("warning: exec file is newer than core file."), Some((MismatchKind::ExecNewer, None)));
        assert_eq!(
            file_mismatch("warning: core file may not match specified executable file."),
            Some((MismatchKind::ExecMayNotMatch, None))
        );
        assert_eq!(
            file_mismatch("warning: Build-id of /usr/lib/libz.so.1 does not match core file."),
            Some((MismatchKind::BuildId, Some("/usr/lib/libz.so.1")))
        );
        assert_eq!(
            file_mismatch(
                "warning: .dynamic section for \"target:/lib/libm.so.6\" is not at the expected address (wrong library or version mismatch?)"
            ),
            Some((MismatchKind::LibraryAddress, Some("/lib/libm.so.6")))
        );
        assert_eq!(
            file_mismatch(
                "warning: the debug information found in \"/usr/lib/debug/libq.so.debug\" does not match \"/usr/lib/libq.so\" (CRC mismatch)."
            ),
            Some((MismatchKind::DebugCrc, Some("/usr/lib/libq.so")))
        );
        // Look-alikes that are not mismatches.
        assert_eq!(file_mismatch("warning: Section `.reg-xstate/7' in core file too small."), None);
        assert_eq!(file_mismatch("warning: Could not load shared library symbols for 3 libraries."), None);
    }
}
