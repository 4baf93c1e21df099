//! `--format json`: one document, schema `tracecheck/1` (see `docs/json-schema.md`).
//!
//! Written straight from the model by a small streaming writer: no `serde_json::Value` tree,
//! no `String` per field. Object keys are written in alphabetical order (the order the
//! earlier `Value`-based writer produced, which `docs/json-schema.md` promises), strings are
//! escaped exactly as serde_json escapes them, and addresses go through one reused buffer.
//! `tests/json_equivalence.rs` keeps the earlier writer and checks that both give the same
//! bytes on every sample.

use super::annotate_register;
use crate::classify::Classifier;
use crate::model::*;
use std::io::Write;

pub const SCHEMA: &str = "tracecheck/1";

/// Bytes collected before they are handed to the underlying writer.
const CHUNK: usize = 64 << 10;

/// JSON tokens into a buffer that is flushed to `out` in large chunks (one `write_all` per
/// 64 KiB instead of one per token through `dyn Write`).
struct J<'w> {
    out: &'w mut dyn Write,
    buf: Vec<u8>,
    /// Keeps track of whether the next value in the current object or array needs a comma.
    first: bool,
}

/// serde_json's escape table: 0 = written as is; otherwise the escape letter (`u` = `\u00XX`).
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    // First bytes of the UTF-8 forms of the invisible and bidirectional characters
    // (`report::is_invisible`): the character is decoded and, if it is one, written as
    // `\uXXXX` so the document shows where it is (a parser still gets the same string).
    t[0xd8] = b'?';
    t[0xe1] = b'?';
    t[0xe2] = b'?';
    t[0xe3] = b'?';
    t[0xef] = b'?';
    t
};

/// The high bit of each byte of `w` that is below 0x20, `"`, `\\` or not ASCII, except that a byte above
/// such a byte may be marked too (a borrow): the lowest marked byte is always exact, and so is
/// "none" (the "has less than" and "has zero byte" bit tricks).
#[inline(always)]
fn escape_mask(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let below_space = w.wrapping_sub(LO * 0x20) & !w & HI;
    let q = w ^ (LO * b'"' as u64);
    let quote = q.wrapping_sub(LO) & !q & HI;
    let bs = w ^ (LO * b'\\' as u64);
    let backslash = bs.wrapping_sub(LO) & !bs & HI;
    // Bytes with the high bit set too: the lead bytes of invisible characters are among them.
    below_space | quote | backslash | (w & HI)
}

/// The position of the first byte at or after `from` that may need an escape (a byte below
/// 0x20, `"`, `\\`, or any non-ASCII byte, which [`ESCAPE`] then decides on; the last < 8
/// bytes are tested against the table alone): sixteen bytes at a time with SSE2 (every
/// x86-64 has it), then eight at a time, then one at a time ([`next_escape_words`]).
#[inline]
fn next_escape(b: &[u8], mut from: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        while let Some(c) = b.get(from..from + 16) {
            // SAFETY: SSE2 is part of x86-64; `c` is 16 readable bytes (an unaligned load).
            let m = unsafe {
                let v = _mm_loadu_si128(c.as_ptr().cast());
                // A signed compare: bytes >= 0x80 are negative, so "below 0x20" takes in
                // every non-ASCII byte too.
                let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
                let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
                _mm_movemask_epi8(_mm_or_si128(low, _mm_or_si128(quote, backslash))) as u32
            };
            if m != 0 {
                return Some(from + m.trailing_zeros() as usize);
            }
            from += 16;
        }
    }
    next_escape_words(b, from)
}

/// The first flagged byte at or after `from`, eight bytes at a time (the whole scan where
/// there is no SSE2), the last < 8 one at a time.
#[inline]
fn next_escape_words(b: &[u8], mut from: usize) -> Option<usize> {
    while let Some(c) = b.get(from..from + 8) {
        let m = escape_mask(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        if m != 0 {
            return Some(from + (m.trailing_zeros() / 8) as usize);
        }
        from += 8;
    }
    // Fewer than 8 bytes left: one at a time (cheaper than copying them into a word).
    let rest = b.get(from..)?;
    rest.iter().position(|&c| ESCAPE[c as usize] != 0).map(|p| from + p)
}

/// The bytes of a 16-byte block that may need an escape (below 0x20, `"`, `\\`, or not ASCII), as a
/// bit mask (bit `k` for byte `k`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_mask(v: std::arch::x86_64::__m128i) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64. A signed compare: bytes >= 0x80 are negative, so
    // "below 0x20" takes in every non-ASCII byte too.
    unsafe {
        let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
        let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
        let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(low, _mm_or_si128(quote, backslash))) as u32
    }
}

/// Appends `s` escaped as [`J::escaped_by_scan`] does (serde_json's escapes, invisible
/// characters as `\\uXXXX`), sixteen bytes at a time: each block is stored to the output
/// whole and the output advanced only past its plain bytes, up to the first byte that may
/// need an escape, which is written next; the block after it starts there. No copy call per
/// run and no new scan setup per escape (the bench transcript's locals hold 383 K quotes and
/// backslashes, often four bytes apart: docs/performance.md, "2h").
#[cfg(target_arch = "x86_64")]
fn escape_sse2(buf: &mut Vec<u8>, s: &str) {
    use std::arch::x86_64::*;
    let b = s.as_bytes();
    let n = b.len();
    let mut i = 0;
    while i < n {
        // Room for a whole block (stored before it is known how much of it stays) and for
        // the longest escape.
        buf.reserve(32);
        let rest = n - i;
        let (v, valid) = if rest >= 16 {
            // SAFETY: `i + 16 <= n`: 16 readable bytes (an unaligned load).
            (unsafe { _mm_loadu_si128(b.as_ptr().add(i).cast()) }, u32::MAX)
        } else {
            let mut tmp = [0u8; 16];
            tmp[..rest].copy_from_slice(&b[i..]);
            // SAFETY: `tmp` is 16 bytes.
            (unsafe { _mm_loadu_si128(tmp.as_ptr().cast()) }, (1u32 << rest) - 1)
        };
        let len = buf.len();
        // SAFETY: `reserve(32)` left at least 16 bytes of room after `len`; only the bytes
        // kept below are counted into the length.
        unsafe { _mm_storeu_si128(buf.as_mut_ptr().add(len).cast(), v) };
        let m = block_mask(v) & valid;
        if m == 0 {
            let k = rest.min(16);
            // SAFETY: the `k` bytes after `len` were written just now.
            unsafe { buf.set_len(len + k) };
            i += k;
            continue;
        }
        let k = m.trailing_zeros() as usize;
        // SAFETY: as above, `k < 16`.
        unsafe { buf.set_len(len + k) };
        i += k;
        i = escape_at(buf, s, i);
    }
}

/// Writes the byte at `i` of `s` (one the scan flagged) as [`J::escaped_by_scan`] would, and
/// returns where the text goes on: a control byte, `"` or `\\` as its escape; an invisible
/// character as `\\uXXXX`; any other non-ASCII character as it is.
#[cfg(target_arch = "x86_64")]
#[inline]
fn escape_at(buf: &mut Vec<u8>, s: &str, i: usize) -> usize {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let c = s.as_bytes()[i];
    match ESCAPE[c as usize] {
        0 => {
            buf.push(c);
            i + 1
        }
        b'?' => {
            // `i` is a char boundary: these bytes only start a character.
            let ch = s.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ');
            let w = ch.len_utf8();
            if super::is_invisible(ch) {
                let u = ch as u32;
                buf.extend_from_slice(&[
                    b'\\',
                    b'u',
                    HEX[((u >> 12) & 15) as usize],
                    HEX[((u >> 8) & 15) as usize],
                    HEX[((u >> 4) & 15) as usize],
                    HEX[(u & 15) as usize],
                ]);
            } else {
                buf.extend_from_slice(&s.as_bytes()[i..i + w]);
            }
            i + w
        }
        b'u' => {
            buf.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 15) as usize]]);
            i + 1
        }
        e => {
            buf.extend_from_slice(&[b'\\', e]);
            i + 1
        }
    }
}

impl<'w> J<'w> {
    fn new(out: &'w mut dyn Write) -> Self {
        J { out, buf: Vec::with_capacity(CHUNK + 4096), first: true }
    }

    #[inline]
    fn maybe_flush(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    #[inline]
    fn raw(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    #[inline]
    fn comma(&mut self) {
        if !self.first {
            self.buf.push(b',');
        }
        self.first = false;
    }

    fn open_obj(&mut self) {
        self.buf.push(b'{');
        self.first = true;
    }
    fn close_obj(&mut self) {
        self.buf.push(b'}');
        self.first = false;
    }
    fn open_arr(&mut self) {
        self.buf.push(b'[');
        self.first = true;
    }
    fn close_arr(&mut self) {
        self.buf.push(b']');
        self.first = false;
    }

    /// `"key":` (keys are literals from this file: nothing to escape).
    #[inline]
    fn key(&mut self, k: &str) {
        self.comma();
        self.buf.push(b'"');
        self.buf.extend_from_slice(k.as_bytes());
        self.buf.extend_from_slice(b"\":");
        self.first = true;
    }

    /// Marks the value after a key (or an array element) as written.
    #[inline]
    fn val(&mut self) {
        self.comma();
    }

    fn str(&mut self, s: &str) {
        self.val();
        self.escaped(s);
    }

    fn escaped(&mut self, s: &str) {
        #[cfg(target_arch = "x86_64")]
        {
            self.buf.reserve(s.len() + 2);
            self.buf.push(b'"');
            escape_sse2(&mut self.buf, s);
            self.buf.push(b'"');
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.escaped_by_scan(s);
    }

    /// [`Self::escaped`] by [`next_escape`] from each escape to the next, copying the runs
    /// between them (the path where there is no SSE2; on x86-64 the tests' reference).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn escaped_by_scan(&mut self, s: &str) {
        let bytes = s.as_bytes();
        self.buf.reserve(bytes.len() + 2);
        self.buf.push(b'"');
        let mut start = 0;
        let mut from = 0;
        while let Some(i) = next_escape(bytes, from) {
            let b = bytes[i];
            from = i + 1;
            let e = ESCAPE[b as usize];
            if e == 0 {
                // A non-ASCII byte that starts no invisible character (the scans flag every
                // byte with the high bit set).
                continue;
            }
            if e == b'?' {
                // `i` is a char boundary: these bytes only start a character.
                let c = s.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ');
                if !super::is_invisible(c) {
                    continue;
                }
                self.buf.extend_from_slice(&bytes[start..i]);
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let u = c as u32;
                self.buf.extend_from_slice(b"\\u");
                for shift in [12, 8, 4, 0] {
                    self.buf.push(HEX[((u >> shift) & 15) as usize]);
                }
                start = i + c.len_utf8();
                from = start;
                continue;
            }
            self.buf.extend_from_slice(&bytes[start..i]);
            if e == b'u' {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.buf.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
            } else {
                self.buf.extend_from_slice(&[b'\\', e]);
            }
            start = i + 1;
        }
        self.buf.extend_from_slice(&bytes[start..]);
        self.buf.push(b'"');
    }

    /// A literal (`{"key":`, `,"key":`) after which a value follows without a comma.
    #[inline]
    fn lit(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
        self.first = true;
    }

    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.null(),
        }
    }

    fn null(&mut self) {
        self.val();
        self.raw(b"null");
    }

    fn bool(&mut self, b: bool) {
        self.val();
        self.raw(if b { b"true" } else { b"false" });
    }

    fn int<I: itoa::Integer>(&mut self, v: I) {
        self.val();
        let mut b = itoa::Buffer::new();
        self.buf.extend_from_slice(b.format(v).as_bytes());
    }

    fn opt_int<I: itoa::Integer>(&mut self, v: Option<I>) {
        match v {
            Some(v) => self.int(v),
            None => self.null(),
        }
    }

    /// `"0x…"`, as `format!("{v:#x}")` writes it.
    fn hex(&mut self, v: u64) {
        self.val();
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut tmp = [0u8; 20];
        let mut i = tmp.len();
        tmp[i - 1] = b'"';
        i -= 1;
        let mut x = v;
        loop {
            i -= 1;
            tmp[i] = HEX[(x & 15) as usize];
            x >>= 4;
            if x == 0 {
                break;
            }
        }
        tmp[i - 3..i].copy_from_slice(b"\"0x");
        self.buf.extend_from_slice(&tmp[i - 3..]);
    }

    fn opt_hex(&mut self, v: Option<Address>) {
        match v {
            Some(a) => self.hex(a.0),
            None => self.null(),
        }
    }

    fn lines(&mut self, s: Span) {
        self.val();
        self.raw(b"[");
        let mut b = itoa::Buffer::new();
        self.buf.extend_from_slice(b.format(s.first).as_bytes());
        self.raw(b",");
        self.buf.extend_from_slice(b.format(s.last).as_bytes());
        self.raw(b"]");
    }

    fn str_array<S: AsRef<str>>(&mut self, items: &[S]) {
        self.val();
        self.open_arr();
        for s in items {
            self.str(s.as_ref());
        }
        self.close_arr();
    }
}

fn frame(j: &mut J<'_>, f: &Frame) {
    // The hottest object of a big dump: its keys are written as literals, in order.
    j.val();
    j.lit(b"{\"args\":");
    j.opt_str(f.args.as_deref());
    j.lit(b",\"file\":");
    j.opt_str(f.file.as_deref());
    j.lit(b",\"function\":");
    j.opt_str(f.function.as_deref());
    j.lit(b",\"index\":");
    j.int(f.index);
    j.lit(b",\"inlined\":");
    j.bool(f.inlined);
    j.lit(b",\"line\":");
    j.opt_int(f.line);
    j.lit(b",\"lines\":");
    j.lines(f.span);
    if f.locals.is_some() {
        j.lit(b",\"locals\":[");
        for (n, v) in f.locals() {
            j.val();
            j.lit(b"{\"name\":");
            j.str(n);
            j.lit(b",\"value\":");
            j.str(v);
            j.raw(b"}");
            j.first = false;
        }
        j.raw(b"]");
    }
    j.lit(b",\"module\":");
    j.opt_str(f.module.as_deref());
    j.lit(b",\"pc\":");
    j.opt_hex(f.pc);
    j.lit(b",\"signal_handler\":");
    j.bool(f.signal_handler);
    j.close_obj();
}

/// Entries of a JSON object keyed by register name: sorted by name, and for a name that
/// occurs twice the later value (what inserting into a map gives).
fn sorted_last_wins<T>(mut entries: Vec<(&str, T)>) -> Vec<(&str, T)> {
    // Stable sort keeps equal names in input order; keep the last of each run.
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut out: Vec<(&str, T)> = Vec::with_capacity(entries.len());
    for e in entries {
        match out.last_mut() {
            Some(last) if last.0 == e.0 => *last = e,
            _ => out.push(e),
        }
    }
    out
}

fn regs(j: &mut J<'_>, set: Option<&RegisterSet>) {
    j.val();
    j.open_obj();
    if let Some(set) = set {
        let entries = set.regs.iter().filter_map(|r| r.value.map(|v| (&*r.name, v))).collect();
        for (name, v) in sorted_last_wins(entries) {
            j.key_escaped(name);
            j.hex(v);
        }
    }
    j.close_obj();
}

impl J<'_> {
    /// A key taken from the dump (register names): escaped like any string.
    fn key_escaped(&mut self, k: &str) {
        self.comma();
        self.escaped(k);
        self.buf.push(b':');
        self.first = true;
    }
}

fn reg_notes(j: &mut J<'_>, set: Option<&RegisterSet>, c: &Classifier<'_>, arch: Arch) {
    j.val();
    j.open_obj();
    if let Some(set) = set {
        let entries = set.regs.iter().filter_map(|r| annotate_register(r, c, arch).map(|n| (&*r.name, n))).collect();
        for (name, note) in sorted_last_wins(entries) {
            j.key_escaped(name);
            j.str(&note);
        }
    }
    j.close_obj();
}

fn thread(j: &mut J<'_>, t: &Thread) -> std::io::Result<()> {
    j.val();
    j.open_obj();
    j.key("backtrace_stopped");
    j.opt_str(t.backtrace_stopped.as_deref());
    j.key("crashed");
    j.bool(t.crashed);
    j.key("current");
    j.bool(t.current);
    j.key("frames");
    j.val();
    j.open_arr();
    for f in &t.frames {
        j.raw(if j.first { b"\n" } else { b",\n" });
        j.first = true;
        frame(j, f);
        j.maybe_flush()?;
    }
    j.close_arr();
    j.key("id");
    j.str(&t.id);
    j.key("lines");
    j.lines(t.span);
    j.key("lwp");
    j.opt_int(t.lwp);
    j.key("name");
    j.opt_str(t.name.as_deref());
    j.close_obj();
    Ok(())
}

fn reason(j: &mut J<'_>, r: &StopReason, c: &Classifier<'_>) {
    j.val();
    j.open_obj();
    j.key("address");
    j.opt_hex(r.address);
    j.key("address_class");
    match r.address {
        Some(a) => j.str(&c.classify(a.0).to_string()),
        None => j.null(),
    }
    j.key("code");
    match (r.code_name(), r.si_code) {
        (Some(n), _) => j.str(n),
        (None, Some(v)) => j.str(&v.to_string()),
        (None, None) => j.null(),
    }
    j.key("code_value");
    j.opt_int(r.si_code);
    j.key("description");
    j.opt_str(r.description.as_deref());
    j.key("kind");
    j.str(stop_kind_name(r.kind));
    j.key("lines");
    j.lines(r.span);
    j.key("new_value");
    j.opt_str(r.new_value.as_deref());
    j.key("number");
    j.opt_int(r.number);
    j.key("old_value");
    j.opt_str(r.old_value.as_deref());
    j.key("signal");
    j.opt_str(r.signal.as_deref());
    j.key("signo");
    j.opt_int(r.signo);
    j.close_obj();
}

/// The serde name of a [`StopKind`] (`rename_all = "snake_case"`).
fn stop_kind_name(k: StopKind) -> &'static str {
    match k {
        StopKind::Signal => "signal",
        StopKind::Breakpoint => "breakpoint",
        StopKind::Watchpoint => "watchpoint",
        StopKind::Exited => "exited",
        StopKind::RuntimeError => "runtime_error",
        StopKind::RrFatal => "rr_fatal",
        StopKind::Snapshot => "snapshot",
        StopKind::Unknown => "unknown",
    }
}

fn write_stop(j: &mut J<'_>, ir: &InputReport, si: usize, s: &Stop, c: &Classifier<'_>) -> std::io::Result<()> {
    let arch = ir.parsed.trace.arch;
    j.val();
    j.open_obj();
    // What a sanitizer or valgrind reported (null for debugger text).
    j.key("checker");
    match &s.checker {
        Some(k) => {
            j.val();
            j.open_obj();
            j.key("access");
            j.opt_str(k.access.as_deref());
            j.key("kind");
            j.opt_str(k.kind);
            j.key("lines");
            j.lines(k.span);
            j.key("summary");
            j.opt_str(k.summary.as_deref());
            j.key("text");
            j.str(&k.text);
            j.key("tool");
            j.str(&k.tool);
            j.close_obj();
        }
        None => j.null(),
    }
    j.key("culprit");
    let culprit = ir.culprits.get(si).and_then(|c| c.as_ref()).and_then(|c| {
        let t = s.threads.iter().find(|t| *t.id == *c.thread)?;
        Some((c, t.frames.get(c.position)?))
    });
    match culprit {
        Some((cu, _)) if let Some(site) = &cu.named_by_message => {
            // A function the backtrace does not reach, named by a message: no frame.
            j.val();
            j.open_obj();
            j.key("file");
            j.opt_str(site.file.as_deref());
            j.key("frame");
            j.null();
            j.key("function");
            j.str(&site.function);
            j.key("line");
            j.opt_int(site.line);
            j.key("named_by");
            j.str(site.source);
            j.key("thread");
            j.str(&cu.thread);
            j.close_obj();
        }
        Some((cu, f)) => {
            j.val();
            j.open_obj();
            j.key("file");
            j.opt_str(f.file.as_deref());
            j.key("frame");
            j.int(cu.index);
            j.key("function");
            // lldb's `___lldb_unnamed_symbolN` is its name for code without a symbol (gdb's
            // `??`): no function.
            j.opt_str(f.function.as_deref().filter(|n| !n.starts_with("___lldb_unnamed_symbol")));
            j.key("line");
            j.opt_int(f.line);
            j.key("thread");
            j.str(&cu.thread);
            j.close_obj();
        }
        None => j.null(),
    }
    j.key("disassembly");
    j.val();
    j.open_arr();
    for i in &s.disassembly {
        j.val();
        j.open_obj();
        j.key("address");
        j.hex(i.address.0);
        j.key("current");
        j.bool(i.current);
        j.key("lines");
        j.lines(i.span);
        j.key("location");
        j.opt_str(i.location.as_deref());
        j.key("text");
        j.str(&i.text);
        j.close_obj();
    }
    j.close_arr();
    // Julia's `in expression starting at FILE:LINE`.
    j.key("expression");
    j.opt_str(s.expression.as_deref());
    j.key("frame_registers");
    j.val();
    j.open_obj();
    if let Some(t) = s.crashed_thread() {
        // Keys are the frame numbers as strings, so "10" sorts before "2".
        let mut keys: Vec<(String, &RegisterSet)> = t.registers.iter().map(|(k, set)| (k.to_string(), set)).collect();
        keys.sort_by(|a, b| a.0.cmp(&b.0));
        for (k, set) in keys {
            j.key(&k);
            regs(j, Some(set));
        }
    }
    j.close_obj();
    j.key("index");
    j.int(si);
    j.key("lines");
    j.lines(s.span);
    j.key("memory");
    j.val();
    j.open_arr();
    for m in &s.memory {
        j.val();
        j.open_obj();
        j.key("address");
        j.hex(m.address.0);
        j.key("expr");
        j.opt_str(m.expr.as_deref());
        j.key("lines");
        j.lines(m.span);
        j.key("string");
        j.opt_str(m.string.as_deref());
        j.key("unit");
        j.int(m.unit);
        j.key("words");
        j.val();
        j.open_arr();
        for w in &m.words {
            j.hex(*w);
        }
        j.close_arr();
        j.close_obj();
        j.maybe_flush()?;
    }
    j.close_arr();
    j.key("messages");
    j.val();
    j.open_arr();
    for m in &s.messages {
        j.val();
        j.open_obj();
        j.key("lines");
        j.lines(m.span);
        j.key("text");
        j.str(&m.text);
        j.close_obj();
    }
    j.close_arr();
    j.key("printed");
    j.val();
    j.open_arr();
    for p in &s.printed {
        j.val();
        j.open_obj();
        j.key("expr");
        j.opt_str(p.expr.as_deref());
        j.key("lines");
        j.lines(p.span);
        j.key("value");
        j.str(&p.value);
        j.close_obj();
        j.maybe_flush()?;
    }
    j.close_arr();
    j.key("reason");
    reason(j, &s.reason, c);
    j.key("register_notes");
    reg_notes(j, s.registers(), c, arch);
    j.key("registers");
    regs(j, s.registers());
    j.key("rr_event");
    j.opt_int(s.rr_event);
    j.key("rr_ticks");
    j.opt_int(s.rr_ticks);
    // Streamed one frame at a time (a dump may hold millions).
    j.key("threads");
    j.val();
    j.open_arr();
    threads(j, &s.threads)?;
    j.close_arr();
    j.close_obj();
    j.maybe_flush()
}

/// A stop with at least this many frames has its threads written on two cores.
const PARALLEL_FRAMES: usize = 8192;

/// Frames in a group of consecutive threads written by one core (about 1 MB of JSON on a
/// `bt full` transcript).
const GROUP_FRAMES: usize = 2048;

/// The threads of a stop: `\n` before the first, `,\n` before each other one. A stop with
/// many frames is cut into groups of consecutive threads; the second core writes every other
/// group into a buffer of its own while this one writes the groups between, and the buffers
/// go out in order: the bytes are those of one core writing them all, whatever the timing
/// (`report::json::tests::parallel_threads_write_the_same_bytes`). Memory stays
/// bounded: at most two groups wait.
fn threads(j: &mut J<'_>, threads: &[Thread]) -> std::io::Result<()> {
    let frames: usize = threads.iter().map(|t| t.frames.len()).sum();
    if frames < PARALLEL_FRAMES || threads.len() < 2 || !crate::threads::second_core() {
        return threads_from(j, threads, true);
    }
    threads_in_groups(j, threads, GROUP_FRAMES)
}

/// `threads` one after the other (`first`: the first of the array).
fn threads_from(j: &mut J<'_>, threads: &[Thread], mut first: bool) -> std::io::Result<()> {
    for t in threads {
        j.raw(if first { b"\n" } else { b",\n" });
        first = false;
        j.first = true;
        thread(j, t)?;
    }
    Ok(())
}

/// Consecutive threads of about `group_frames` frames each (at least one thread a group).
fn thread_groups(threads: &[Thread], group_frames: usize) -> Vec<std::ops::Range<usize>> {
    let mut groups = Vec::new();
    let (mut start, mut n) = (0, 0);
    for (i, t) in threads.iter().enumerate() {
        n += t.frames.len() + 1;
        if n >= group_frames {
            groups.push(start..i + 1);
            (start, n) = (i + 1, 0);
        }
    }
    if start < threads.len() {
        groups.push(start..threads.len());
    }
    groups
}

/// [`threads`] on two cores: the odd groups are written by a helper thread.
fn threads_in_groups(j: &mut J<'_>, threads: &[Thread], group_frames: usize) -> std::io::Result<()> {
    let groups = thread_groups(threads, group_frames);
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(2);
        let helper = std::thread::Builder::new()
            .name("json-threads".into())
            .stack_size(crate::threads::HELPER_STACK)
            .spawn_scoped(s, {
                let groups = &groups;
                move || {
                    // Sized from the last group (groups are alike): not grown by doubling and
                    // copying.
                    let mut last = 0;
                    for g in groups.iter().skip(1).step_by(2) {
                        let mut v = Vec::with_capacity(last + last / 4);
                        let mut hj = J::new(&mut v);
                        // Never the first thread (group 0 is the caller's); a `Vec` takes every write.
                        if threads_from(&mut hj, &threads[g.clone()], false).and_then(|()| hj.finish()).is_err() {
                            return;
                        }
                        last = v.len();
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                }
            });
        let mut rx = helper.is_ok().then_some(rx);
        for (gi, g) in groups.iter().enumerate() {
            let first = gi == 0;
            if gi % 2 == 1
                && let Some(r) = rx.as_ref()
            {
                match r.recv() {
                    Ok(v) => {
                        j.out.write_all(&j.buf)?;
                        j.buf.clear();
                        j.out.write_all(&v)?;
                        continue;
                    }
                    // The helper is gone (it cannot fail; if it did, this core writes the rest).
                    Err(_) => rx = None,
                }
            }
            threads_from(j, &threads[g.clone()], first)?;
            j.maybe_flush()?;
        }
        // The last thread written closed an object.
        j.first = false;
        drop(rx);
        Ok(())
    })
}

fn finding(j: &mut J<'_>, f: &Finding) {
    j.val();
    j.open_obj();
    j.key("evidence");
    j.val();
    j.open_arr();
    for e in &f.evidence {
        j.val();
        j.open_obj();
        j.key("lines");
        match e.lines {
            Some(s) => j.lines(s),
            None => j.null(),
        }
        j.key("text");
        j.str(&e.text);
        j.close_obj();
    }
    j.close_arr();
    j.key("frame");
    j.opt_int(f.frame);
    j.key("heuristic");
    j.bool(f.heuristic);
    j.key("message");
    j.str(&f.message);
    j.key("next_steps");
    j.str_array(&f.next_steps);
    j.key("registers");
    j.str_array(&f.registers);
    j.key("rule");
    j.str(f.rule);
    j.key("severity");
    j.str(f.severity.name());
    j.key("stop");
    j.opt_int(f.stop);
    j.key("thread");
    j.opt_str(f.thread.as_deref());
    j.key("title");
    j.str(&f.title);
    j.close_obj();
}

fn write_input_to(j: &mut J<'_>, ir: &InputReport) -> std::io::Result<()> {
    let t = &ir.parsed.trace;
    let d = &ir.parsed.diagnostics;
    let c = Classifier::new(t);
    j.val();
    j.open_obj();
    j.key("arch");
    j.opt_str(t.arch.contract_name());
    if t.arch.contract_name().is_none()
        && let Some(name) = t.arch.name()
    {
        // An architecture the contract's `arch` cannot name keeps `arch` null (what a script
        // checking the contract expects) and is named here.
        j.key("arch_detail");
        j.str(name);
    }
    j.key("core_command");
    j.opt_str(t.core_command.as_deref());
    j.key("diagnostics");
    j.val();
    j.open_obj();
    j.key("lines_recognized");
    j.int(d.lines_recognized);
    j.key("lines_total");
    j.int(d.lines_total);
    j.key("lines_unrecognized");
    j.int(d.lines_unrecognized);
    j.key("notes");
    j.val();
    j.open_arr();
    for n in &d.notes {
        j.val();
        j.open_obj();
        j.key("line");
        j.opt_int(n.line);
        j.key("message");
        j.str(&n.message);
        j.close_obj();
    }
    j.close_arr();
    j.key("unrecognized");
    j.val();
    j.open_arr();
    for u in &d.unrecognized {
        j.val();
        j.open_obj();
        j.key("line");
        j.int(u.line);
        j.key("text");
        j.str(&u.text);
        j.close_obj();
    }
    j.close_arr();
    j.close_obj();
    j.key("findings");
    j.val();
    j.open_arr();
    for f in &ir.findings {
        finding(j, f);
    }
    j.close_arr();
    j.key("formats");
    j.val();
    j.open_arr();
    for f in &t.formats {
        j.str(f.name());
    }
    j.close_arr();
    j.key("libraries");
    j.val();
    j.open_arr();
    for l in &t.libraries {
        j.val();
        j.open_obj();
        j.key("from");
        j.opt_hex(l.from);
        j.key("lines");
        j.lines(l.span);
        j.key("path");
        j.str(&l.path);
        j.key("syms_read");
        j.bool(l.syms_read);
        j.key("to");
        j.opt_hex(l.to);
        j.close_obj();
    }
    j.close_arr();
    j.key("mappings");
    j.val();
    j.open_arr();
    for m in &t.mappings {
        j.val();
        j.open_obj();
        j.key("end");
        j.hex(m.end.0);
        j.key("lines");
        j.lines(m.span);
        j.key("offset");
        j.hex(m.offset);
        j.key("path");
        j.opt_str(m.path.as_deref());
        j.key("perms");
        j.opt_str(m.perms.as_deref());
        j.key("start");
        j.hex(m.start.0);
        j.close_obj();
        j.maybe_flush()?;
    }
    j.close_arr();
    // Optional: only when the rules lacked something the debugger can print.
    if !ir.missing_evidence.is_empty() {
        j.key("missing_evidence");
        j.val();
        j.open_arr();
        for m in &ir.missing_evidence {
            j.val();
            j.open_obj();
            j.key("command");
            j.str(&m.command);
            j.key("rules_waiting");
            j.str_array(&m.rules_waiting);
            j.key("stop");
            j.opt_int(m.stop);
            j.key("what");
            j.str(&m.what);
            j.close_obj();
        }
        j.close_arr();
    }
    j.key("path");
    // The file name as a one-line string: no control character decodes out of it.
    j.str(&super::safe_line(&ir.path));
    // Streamed stop by stop.
    j.key("stops");
    j.val();
    j.open_arr();
    for (i, s) in t.stops.iter().enumerate() {
        j.raw(if j.first { b"\n" } else { b",\n" });
        j.first = true;
        write_stop(j, ir, i, s, &c)?;
    }
    j.close_arr();
    j.close_obj();
    Ok(())
}

/// One input as JSON, streamed: memory stays bounded by the writer's buffer, not the dump.
pub fn write_input(out: &mut dyn Write, ir: &InputReport) -> std::io::Result<()> {
    let mut j = J::new(out);
    write_input_to(&mut j, ir)?;
    j.finish()
}

/// The whole document. Compact JSON (newlines between stops, threads and frames), written
/// as it is built so a dump with a million frames does not need the document in memory.
pub fn write(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let mut j = J::new(out);
    j.raw(b"{\"schema\":");
    j.escaped(SCHEMA);
    j.raw(b",\"tool\":{\"name\":\"tracecheck\",\"version\":");
    j.escaped(env!("CARGO_PKG_VERSION"));
    j.raw(b"},\"inputs\":[");
    for (i, ir) in report.inputs.iter().enumerate() {
        j.raw(if i > 0 { b",\n" } else { b"\n" });
        j.first = true;
        write_input_to(&mut j, ir)?;
    }
    j.raw(b"]}\n");
    j.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stop's threads written in groups, every other one by the helper thread, give the
    /// bytes of one core writing them all: for every group size, on every transcript of
    /// `sample-traces/` with more than one thread, the first thread of a stop included.
    #[test]
    fn parallel_threads_write_the_same_bytes() {
        let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces")];
        let mut files = Vec::new();
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("sample-traces").flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "txt") {
                    files.push(p);
                }
            }
        }
        let (mut stops, mut helped) = (0, 0);
        for path in files {
            let Ok(b) = std::fs::read(&path) else { continue };
            let p = crate::input::parse_bytes(&b);
            for s in p.trace.stops.iter().filter(|s| s.threads.len() > 1) {
                stops += 1;
                let mut one = Vec::new();
                let mut j = J::new(&mut one);
                threads_from(&mut j, &s.threads, true).unwrap();
                j.finish().unwrap();
                for group in [1, 2, 3, 5, 8, 1000] {
                    if thread_groups(&s.threads, group).len() > 2 {
                        helped += 1;
                    }
                    let mut two = Vec::new();
                    let mut j = J::new(&mut two);
                    threads_in_groups(&mut j, &s.threads, group).unwrap();
                    assert!(!j.first, "the last thread closed an object");
                    j.finish().unwrap();
                    assert!(one == two, "{}: group of {group} frames", path.display());
                }
            }
        }
        assert!(stops >= 3 && helped >= 3, "{stops} stops with threads, {helped} with groups for the helper");
    }

    #[test]
    fn thread_groups_cover_every_thread_once_in_order() {
        let t = |n: usize| Thread { frames: vec![Frame::default(); n], ..Default::default() };
        let threads = vec![t(5), t(0), t(1), t(9), t(2), t(2), t(0)];
        for g in [1, 2, 3, 4, 10, 100] {
            let groups = thread_groups(&threads, g);
            let flat: Vec<usize> = groups.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(flat, (0..threads.len()).collect::<Vec<_>>(), "group {g}");
            assert!(groups.iter().all(|r| !r.is_empty()));
        }
        assert_eq!(thread_groups(&threads, 100), vec![0..7]);
        assert!(thread_groups(&[] as &[Thread], 10).is_empty());
    }

    /// The first byte the word scan must stop at, byte by byte: one needing an escape, or
    /// any non-ASCII byte (the scan flags them all; `escaped` then decodes the character to
    /// see whether it is an invisible one).
    fn slow(w: u64) -> Option<u32> {
        w.to_le_bytes().iter().position(|&b| ESCAPE[b as usize] != 0 || b >= 0x80).map(|p| p as u32)
    }

    fn fast(w: u64) -> Option<u32> {
        let m = escape_mask(w);
        (m != 0).then(|| m.trailing_zeros() / 8)
    }

    #[test]
    fn word_test_matches_the_table() {
        // Every byte value at every position, among fillers that stress the borrows, and
        // with a second hit or a borrow-prone byte above it.
        for filler in [b'a', 0x20, 0x21, 0x7f, 0x80, 0xff, b'"' + 1, b'\\' + 1, 0x01, b'"'] {
            for pos in 0..8 {
                for b in 0..=255u8 {
                    for above in [filler, 0x00, 0x01, 0x21, b'#', b']', 0x1f] {
                        let mut bytes = [filler; 8];
                        bytes[pos] = b;
                        if pos < 7 {
                            bytes[pos + 1] = above;
                        }
                        let w = u64::from_le_bytes(bytes);
                        assert_eq!(fast(w), slow(w), "{bytes:?}");
                    }
                }
            }
        }
        // And a pseudo-random sweep (xorshift).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(fast(x), slow(x), "{x:#x}");
        }
    }

    /// The 16-byte (SSE2) scan finds every byte that needs an escape, from every start, and
    /// stops at no plain ASCII byte: every byte value at every position of a 40-byte text,
    /// and pseudo-random texts. (A non-ASCII byte may or may not be a stop; `escaped` asks
    /// the table.)
    #[test]
    fn simd_scan_matches_the_table() {
        let needing = |b: &[u8], from: usize| {
            b[from.min(b.len())..].iter().position(|&c| ESCAPE[c as usize] != 0).map(|p| from + p)
        };
        let via_scan = |b: &[u8], mut from: usize| loop {
            let i = next_escape(b, from)?;
            assert!(ESCAPE[b[i] as usize] != 0 || b[i] >= 0x80, "stopped at plain {:?} in {b:?}", b[i]);
            if ESCAPE[b[i] as usize] != 0 {
                return Some(i);
            }
            from = i + 1;
        };
        for filler in [b'a', 0x20, 0x21, 0x7f, b'"' + 1, b'\\' + 1, b'!', 0x80, 0xbf] {
            for pos in 0..40 {
                for b in 0..=255u8 {
                    let mut bytes = vec![filler; 40];
                    bytes[pos] = b;
                    for from in [0, 1, 7, 15, 16, 17, 24, 33, 39, 40] {
                        assert_eq!(via_scan(&bytes, from), needing(&bytes, from), "{bytes:?} from {from}");
                    }
                }
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for n in 0..20_000 {
            let mut bytes = Vec::new();
            for _ in 0..(n % 7) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly plain bytes, a few of each kind the scan stops at.
                bytes.extend(x.to_le_bytes().iter().map(|&c| if c % 5 == 0 { c } else { b'a' + c % 26 }));
            }
            for from in 0..bytes.len().min(20) {
                assert_eq!(via_scan(&bytes, from), needing(&bytes, from), "{bytes:?} from {from}");
            }
        }
    }

    /// `escaped` on texts dense in escapes, invisible characters and other non-ASCII text,
    /// against serde_json's escaping with the invisible characters shown as `\\uXXXX`.
    #[test]
    fn escaped_matches_serde_json() {
        let pieces = [
            "a",
            "\"",
            "\\\\",
            "\n",
            "\u{1}",
            "\u{1f}",
            "é",
            "\u{202e}",
            "\u{200b}",
            "\u{feff}",
            "\u{e000}",
            "≠",
            "0123456789abcdef",
            " ",
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut t = String::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                t.push_str(pieces[(x % pieces.len() as u64) as usize]);
            }
            let mut out = Vec::new();
            let mut j = J::new(&mut out);
            j.escaped(&t);
            j.finish().unwrap();
            let mut want = String::new();
            for c in serde_json::to_string(&t).unwrap().chars() {
                if super::super::is_invisible(c) {
                    want.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    want.push(c);
                }
            }
            assert_eq!(String::from_utf8(out).unwrap(), want, "{t:?}");
        }
    }

    /// The block escaper (x86-64) writes what the scan from escape to escape writes: every
    /// ASCII character and a few non-ASCII ones (invisible or not, two to four bytes) at every
    /// position of texts of 0 to 40 bytes around the 16-byte blocks, and pseudo-random texts
    /// dense in escapes.
    #[test]
    fn block_escaper_matches_the_scan() {
        let both = |t: &str| {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut j = J::new(&mut a);
            j.escaped(t);
            j.finish().unwrap();
            let mut j = J::new(&mut b);
            j.escaped_by_scan(t);
            j.finish().unwrap();
            assert_eq!(String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap(), "{t:?}");
        };
        let mut chars: Vec<char> = (0u8..0x80).map(char::from).collect();
        chars.extend(['é', '\u{202e}', '\u{200b}', '\u{feff}', '\u{e000}', '≠', '\u{061c}', '\u{1f600}', '\u{2028}']);
        for filler in ['a', ' ', '"', '\\', '\u{1}', 'é'] {
            for len in [0, 1, 15, 16, 17, 31, 32, 33, 40] {
                for pos in 0..len {
                    for &c in &chars {
                        let mut t: String = std::iter::repeat_n(filler, len).collect();
                        let at = t.char_indices().nth(pos).map(|(i, _)| i).unwrap_or(t.len());
                        t.insert(at, c);
                        both(&t);
                    }
                }
            }
        }
        let pieces = ["a", "\"", "\\", "\\000", "\n", "\u{7f}", "é", "\u{202e}", "0123456789abcdef", " "];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut t = String::new();
            for _ in 0..(x % 40) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                t.push_str(pieces[(x % pieces.len() as u64) as usize]);
            }
            both(&t);
        }
    }

    #[test]
    fn hex_and_escapes_as_serde_json_writes_them() {
        let mut out = Vec::new();
        let mut j = J::new(&mut out);
        for v in [0, 1, 0xf, 0x10, 0xdead_beef, u64::MAX] {
            j.hex(v);
        }
        let long = "a\"b\\c\u{1}\u{1f}\n\t\u{7f}é long enough to take the 8-byte path\r\"\"x\\";
        j.str(long);
        j.finish().expect("vec");
        let expected = ["0", "1", "f", "10", "deadbeef", "ffffffffffffffff"]
            .iter()
            .map(|h| serde_json::to_string(&format!("0x{h}")).expect("json"))
            .chain([serde_json::to_string(long).expect("json")])
            .collect::<Vec<_>>()
            .join(",");
        assert_eq!(String::from_utf8(out).expect("utf8"), expected);
    }
}
