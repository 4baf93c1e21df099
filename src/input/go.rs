//! The Go runtime's crash output (what a Go program prints on stderr when it dies).
//!
//! Three openings, all from `src/runtime/{panic,signal_unix}.go`:
//!
//! ```text
//! panic: runtime error: invalid memory address or nil pointer dereference
//! [signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x480fc0]
//!
//! fatal error: unexpected signal during runtime execution
//! [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x45ac90]
//!
//! SIGABRT: abort
//! PC=0x7fd537458eec m=0 sigcode=18446744073709551610
//! signal arrived during cgo execution
//! ```
//!
//! then goroutine tracebacks (each goroutine is a [`Thread`] with id `goroutine N` and its
//! state as the name; `runtime stack:` is the crashing M's system stack):
//!
//! ```text
//! goroutine 1 [running]:
//! main.registryTotal(0xc00006af48, 0x2)
//!     /src/nil-deref.go:33 +0x3e   (a tab, then the location)
//! ```
//!
//! and, for the fatal-signal form, the register block of the thread that took the signal,
//! one `name value` per line with names padded to 7 columns (`rax    0x0`, `r28     0x…`).
//! Those become frame 0's registers of the crashing goroutine (the first one printed).
//! On arm64 Go names the general registers `r0`…`r29` and `lr`; they are stored under the
//! architectural names gdb uses (`x0`…`x30`) so rules see one name per register.

use super::lexemes::parse_hex;
use super::{Builder, Ctx, GdbOwnedLocation};
use crate::model::*;

#[derive(Clone, Default)]
pub(crate) struct GoState {
    /// A Go crash header was seen: goroutine tracebacks and registers may follow.
    pub active: bool,
    /// Inside the sweeper's `runtime: marked free object in span …` report (its object rows).
    pub sweeper_report: bool,
    /// The goroutine (thread index) whose frames are being read.
    pub thread: Option<usize>,
    pub next_index: u32,
    /// Position of the frame whose `\tfile:line` line comes next.
    pub pending: Option<usize>,
    /// The next frame location belongs to a `created by` line, not to a frame.
    pub created_by: bool,
    /// The first goroutine after the header is the one that crashed.
    pub crashed_marked: bool,
    /// Thread index that the register block belongs to.
    pub regs_thread: Option<usize>,
    /// A location line that a paste cut before its `pc=`: (thread, frame position, text).
    pub loc_cont: Option<(usize, usize, String)>,
    /// A report inside a `go test` log (`    x_test.go:611: SIGSEGV: …`): the indentation of
    /// its following lines, which `testing` indents four blanks deeper than the prefix.
    pub test_log_indent: Option<usize>,
}

/// Reads one line (untrimmed: location lines start with a tab). Returns whether it was Go.
pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim_end();
    if t.is_empty() {
        return false;
    }
    // A test's log message: `    crash_test.go:611: SIGSEGV: segmentation violation`, its
    // further lines indented four blanks deeper than the prefix.
    if let Some(k) = b.go.test_log_indent {
        let spaces = l.len() - l.trim_start_matches(' ').len();
        if spaces >= k {
            b.go.test_log_indent = None;
            let read = line(b, &l[k..], n);
            if b.go.active {
                b.go.test_log_indent = Some(k);
            }
            return read;
        }
        b.go.test_log_indent = None;
    }
    if let Some((indent, rest)) = test_log_prefix(l)
        && (rest.starts_with("SIG") && rest.contains(": ")
            || rest.starts_with("fatal error: ")
            || rest.starts_with("panic: "))
        && line(b, rest, n)
    {
        b.go.test_log_indent = Some(indent + 4);
        return true;
    }
    // Openings, recognized in any state.
    if let Some(msg) = t.strip_prefix("panic: ") {
        start(b, StopKind::RuntimeError, Some(msg), n);
        push_message(b, t, n);
        return true;
    }
    // The same line with its first word cut by the paste (`error: unexpected signal during
    // runtime execution`): only this runtime sentence, `error: ` alone is everyone's.
    let cut = (t == "error: unexpected signal during runtime execution")
        .then_some("unexpected signal during runtime execution");
    if let Some(msg) = t.strip_prefix("fatal error: ").or(cut) {
        b.go.sweeper_report = false;
        start(b, StopKind::RuntimeError, Some(msg), n);
        push_message(b, t, n);
        // `-d=checkptr` (on under `-race` and `-msan`): an unsafe.Pointer conversion or
        // arithmetic whose result leaves its allocation (`checkptr: pointer arithmetic result
        // points to invalid allocation`, `checkptr: converted pointer straddles multiple
        // allocations`); a misaligned conversion (`checkptr: misaligned pointer conversion`) is no
        // access outside an object.
        if let Some(what) = msg.strip_prefix("checkptr: ") {
            let kind = (what.contains("invalid allocation") || what.contains("straddles multiple allocations"))
                .then_some("invalid-access");
            let si = b.ensure_stop();
            b.trace.stops[si].checker = Some(CheckerReport {
                tool: "Go checkptr".into(),
                kind,
                text: what.into(),
                access: None,
                summary: None,
                at_system_call: false,
                span: Span::line(n),
            });
        }
        return true;
    }
    // The runtime's own report before its `fatal error:` line: a goroutine that outgrew the
    // stack limit, or a traceback that found a return address outside Go code.
    // `unexpected fault address 0x…` opens the report of a fault in Go code that
    // `debug.SetPanicOnFault` did not turn into a panic (`fatal error: fault` follows).
    if t.starts_with("unexpected fault address 0x") && !b.go.active {
        start(b, StopKind::RuntimeError, None, n);
        if let Some(v) = parse_hex(&t["unexpected fault address ".len()..]) {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.address.get_or_insert(Address(v));
        }
        push_message(b, t, n);
        return true;
    }
    // The runtime's checks that print before (or instead of) `fatal error:`: the system or
    // signal stack believed exhausted (`fatal: morestack on g0`), and the collector's report of
    // a bad pointer (`runtime: pointer 0x… to unused region of span …`, Go 1.5's
    // `runtime:objectstart Span weird: …`).
    let collector = t.starts_with("runtime: pointer 0x")
        && (t.contains(" to unused region of span") || t.contains(" to unallocated span"))
        || t.starts_with("runtime:objectstart Span weird: ")
        // The sweeper's: `runtime: marked free object in span 0x…, elemsize=16 freeindex=0 (bad
        // use of unsafe.Pointer? try -d=checkptr)`; the stack scan's: `runtime: bad pointer in
        // frame main.f at 0x…: 0x…`.
        || t.starts_with("runtime: marked free object in span ")
        || t.starts_with("runtime: bad pointer in frame ");
    if t.starts_with("goroutine ") {
        b.go.sweeper_report = false;
    }
    if (t.starts_with("runtime: goroutine stack exceeds ") && t.ends_with("-byte limit"))
        || (t.starts_with("runtime: g ") && t.contains(": unexpected return pc for "))
        || (t.starts_with("runtime: unexpected return pc for ") && t.contains(" called from "))
        || t == "fatal: morestack on g0"
        || t == "fatal: morestack on gsignal"
        || collector
    {
        if !b.go.active {
            start(b, StopKind::RuntimeError, None, n);
        }
        b.go.sweeper_report = t.starts_with("runtime: marked free object in span ");
        push_message(b, t, n);
        return true;
    }
    if t.starts_with("[signal ")
        && t.ends_with(']')
        && let Some(()) = signal_bracket(b, &t[8..t.len() - 1], n)
    {
        return true;
    }
    // Windows: `Exception 0xc0000005 0x0 0x18 0x7ffb3c2a41d0` (code, the two exception
    // parameters, the pc) then `PC=…`; the crashing goroutine's frames follow without a header.
    if let Some(r) = t.strip_prefix("Exception 0x")
        && let Some(words) = windows_exception(r)
    {
        let (code, info0, info1, pc) = words;
        start(b, StopKind::Signal, None, n);
        let si = b.ensure_stop();
        let (sig, signo, desc) = match code {
            0xc000_0005 => ("SIGSEGV", 11, "access violation"),
            0xc000_001d => ("SIGILL", 4, "illegal instruction"),
            0xc000_0094 => ("SIGFPE", 8, "integer divide by zero"),
            0xc000_00fd => ("SIGSEGV", 11, "stack overflow"),
            _ => ("", 0, "exception"),
        };
        let r = &mut b.trace.stops[si].reason;
        if signo != 0 {
            r.signal = Some(sig.into());
            r.signo = Some(signo);
        }
        r.description = Some(desc.into());
        // An access violation's parameters: read (0) / write (1) / execute (8), then the address.
        if code == 0xc000_0005 && matches!(info0, 0 | 1 | 8) {
            r.address = Some(Address(info1));
        }
        b.stop_location[si] = Some(GdbOwnedLocation { pc: Some(pc), function: None, ..Default::default() });
        select(b, "goroutine (current)", None, n);
        return true;
    }
    if let Some((sig, desc)) = signal_heading(t) {
        start(b, StopKind::Signal, None, n);
        let si = b.ensure_stop();
        let r = &mut b.trace.stops[si].reason;
        super::fill_signal(r, sig, desc);
        return true;
    }
    // A goroutine dump pasted without the report's first lines (`goroutine 0 [idle]:`).
    if !b.go.active
        && let Some(r) = t.strip_prefix("goroutine ")
        && r.bytes().next().is_some_and(|c| c.is_ascii_digit())
        && r.ends_with("]:")
        && r.contains(" [")
    {
        start(b, StopKind::Unknown, None, n);
        if let Some(()) = goroutine_header(b, r, n) {
            return true;
        }
    }
    if !b.go.active {
        return false;
    }
    if let Some((ti, pos, prev)) = b.go.loc_cont.take()
        && let Some(()) = location_continues(b, ti, pos, &prev, t.trim_start(), n)
    {
        return true;
    }
    if t.starts_with("PC=0x") {
        return pc_line(b, t, n);
    }
    // SIGILL and SIGTRAP reports show the code at the pc (Go 1.16+): `instruction bytes: 0x0 0x0 …`.
    if t.starts_with("instruction bytes") {
        push_message(b, t, n);
        return true;
    }
    // The collector's dump of the object that held the bad pointer: `object=0x… s.base()=…`,
    // ` *(object+16) = 0xc000a9bc30 <==`.
    // The sweeper's object rows: `0xc000412000 alloc marked`, `0xc0004129a0 free  marked
    // zombie`, and a zombie's words: `0x000000c0004129a0:  0x000000c0004129a0  0x0000000000c1a7e8`.
    let object_row = {
        let mut w = t.split_whitespace();
        let first = w.next().unwrap_or("");
        let rest: Vec<&str> = w.collect();
        first.starts_with("0x")
            && parse_hex(first.trim_end_matches(':')).is_some()
            && (matches!(rest.first(), Some(&"alloc" | &"free"))
                && rest[1..].iter().all(|x| matches!(*x, "marked" | "unmarked" | "zombie"))
                || first.ends_with(':')
                    && !rest.is_empty()
                    && rest.iter().all(|x| x.starts_with("0x") && parse_hex(x).is_some()))
    };
    // (Only inside the sweeper's report: a gdb session on a Go program prints `x/8gx` rows of
    // the same shape.)
    if b.go.sweeper_report && object_row
        || t.starts_with("object=0x") && t.contains(" s.base()=")
        || t.trim_start().starts_with("*(object+") && t.contains(") = ")
    {
        push_message(b, t.trim_start(), n);
        return true;
    }
    // `go run`'s and `go test`'s verdict on the program: `signal: trace/breakpoint trap (core
    // dumped)`, `signal: segmentation fault`.
    if let Some(desc) = t.strip_prefix("signal: ") {
        let desc = desc.strip_suffix(" (core dumped)").unwrap_or(desc);
        let signo = match desc {
            "trace/breakpoint trap" => Some(5),
            "segmentation fault" => Some(11),
            "aborted" => Some(6),
            "illegal instruction" => Some(4),
            "bus error" => Some(7),
            "killed" => Some(9),
            _ => None,
        };
        if let Some(sg) = signo {
            let si = b.ensure_stop();
            let r = &mut b.trace.stops[si].reason;
            if r.signo.is_none() {
                r.kind = StopKind::Signal;
                r.signo = Some(sg);
                r.signal = crate::model::signals::name(sg).map(Into::into);
            }
            push_message(b, t, n);
            return true;
        }
    }
    if t == "signal arrived during cgo execution"
        || t == "signal arrived during external code execution"
        || t.starts_with("unexpected fault address 0x")
        || t.starts_with("runtime: ")
        || t.starts_with("[recovered]")
    {
        if let Some(a) = t.strip_prefix("unexpected fault address ")
            && let Some(v) = parse_hex(a)
        {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.address.get_or_insert(Address(v));
        }
        push_message(b, t, n);
        return true;
    }
    if let Some(r) = t.strip_prefix("goroutine ")
        && let Some(()) = goroutine_header(b, r, n)
    {
        return true;
    }
    // The stack around a bad return pc: `stack: frame={sp:…, fp:…} stack=[…)`, then rows of
    // `0x000000c00005a690:  0x0000000000455e36 <runtime.sigpanic+0x2f6>  0x00000000005940c0`.
    if (t.starts_with("stack: frame={") && t.contains("} stack=[")) || go_stack_row(t) {
        push_message(b, t, n);
        return true;
    }
    if t == "runtime stack:" {
        select(b, "runtime stack", Some("system stack"), n);
        return true;
    }
    if t == "...additional frames elided..."
        || t == "goroutine running on other thread; stack unavailable"
        || t.starts_with("exit status ")
    {
        return true;
    }
    // gccgo prints a frame of C code without symbols as an empty name line and `:0`.
    if t.trim() == ":0"
        && l.starts_with([' ', '\t'])
        && let Some(ti) = b.go.thread
        && b.go.pending.is_none()
    {
        let idx = b.go.next_index;
        b.go.next_index += 1;
        b.put_frame(ti, Frame { index: idx, span: Span::line(n), ..Default::default() });
        return true;
    }
    // Locations are indented with a tab (spaces after a re-indenting paste, nothing after a
    // paste that lost indentation: then only right after a frame line).
    if (l.starts_with('\t') || l.starts_with(' ') || b.go.pending.is_some() || b.go.created_by)
        && let Some(()) = location(b, t.trim_start(), n)
    {
        return true;
    }
    if let Some(r) = t.strip_prefix("created by ") {
        // The goroutine's creator, not a frame on its stack; its location line follows.
        let _ = r;
        b.go.pending = None;
        b.go.created_by = true;
        return true;
    }
    if l.starts_with('\t') && t.trim_start().starts_with("panic: ") {
        push_message(b, t.trim_start(), n);
        return true;
    }
    if let Some((name, v)) = register_line(t) {
        put_register(b, name, v, n);
        return true;
    }
    // gccgo (libgo) prints frames without an argument list: `main.Session.Len`.
    if b.go.thread.is_some() && b.go.pending.is_none() && !l.starts_with([' ', '\t']) && is_bare_symbol(t) {
        let ti = b.go.thread.unwrap_or(0);
        let idx = b.go.next_index;
        b.go.next_index += 1;
        let frame = Frame { index: idx, function: Some(b.intern(t)), span: Span::line(n), ..Default::default() };
        let pos = b.put_frame(ti, frame);
        b.go.pending = Some(pos);
        b.go.created_by = false;
        return true;
    }
    if b.go.thread.is_some()
        && let Some((func, args)) = frame_line(t)
    {
        let ti = b.go.thread.unwrap_or(0);
        let idx = b.go.next_index;
        b.go.next_index += 1;
        let frame = Frame {
            index: idx,
            function: Some(b.intern(func)),
            args: Some(args.into()),
            inlined: args == "...",
            span: Span::line(n),
            ..Default::default()
        };
        let pos = b.put_frame(ti, frame);
        b.go.pending = Some(pos);
        b.go.created_by = false;
        return true;
    }
    false
}

/// A row of the stack dump Go prints with `unexpected return pc`: an address, a colon, then
/// one or two words, each `0x` and 16 hex digits, optionally followed by `<symbol+0x…>`.
fn go_stack_row(t: &str) -> bool {
    // Go before 1.12 printed the words without `0x` (`000000c0004bb868:  0000000000000000`)
    // and marked the one at sp with `<` (`000000c0004bb968: <000000000000001b`).
    let word = |w: &str| {
        let w = w.strip_prefix("0x").unwrap_or(w);
        w.len() == 16 && w.bytes().all(|c| c.is_ascii_hexdigit())
    };
    let Some((addr, rest)) = t.split_once(": ") else { return false };
    if !word(addr) {
        return false;
    }
    let mut words = 0;
    for w in rest.split_whitespace() {
        if word(w.strip_prefix('<').unwrap_or(w)) {
            words += 1;
        } else if !(w.starts_with('<') && w.ends_with('>') && w.contains('+')) {
            return false;
        }
    }
    (1..=2).contains(&words)
}

/// `        crash_cgo_test.go:611: rest` → (indentation, rest): the prefix `testing` puts on a
/// test's log message.
fn test_log_prefix(l: &str) -> Option<(usize, &str)> {
    let indent = l.len() - l.trim_start_matches(' ').len();
    let r = &l[indent..];
    let (file, rest) = r.split_once(".go:")?;
    if file.is_empty() || file.contains(' ') {
        return None;
    }
    let (num, rest) = rest.split_once(": ")?;
    (!num.is_empty() && num.bytes().all(|c| c.is_ascii_digit())).then_some((indent, rest))
}

fn push_message(b: &mut Builder, t: &str, n: u32) {
    let msg = Message::new(t, Span::line(n));
    b.stop_mut().messages.push(msg);
}

/// Starts a Go stop (or continues the one a `panic:` line just started).
fn start(b: &mut Builder, kind: StopKind, desc: Option<&str>, n: u32) {
    b.saw(Format::Go);
    let si = b.ensure_stop();
    let fresh_go =
        b.go.active && b.go.thread.is_none() && b.trace.stops[si].threads.iter().all(|t| t.frames.is_empty());
    if !fresh_go {
        b.new_stop(StopReason { span: Span::line(n), ..Default::default() }, None);
    }
    let si = b.ensure_stop();
    let r = &mut b.trace.stops[si].reason;
    if r.kind == StopKind::Unknown || (kind == StopKind::Signal && r.kind == StopKind::RuntimeError) {
        r.kind = kind;
    }
    if r.description.is_none() {
        r.description = desc.map(Box::from);
    }
    r.span.extend_to(n);
    b.trace.stops[si].span.extend_to(n);
    b.go = GoState { active: true, ..Default::default() };
    b.ctx = Ctx::None;
}

/// `SIGSEGV: segmentation violation` (the fatal-signal heading): `(name, description)`.
fn signal_heading(t: &str) -> Option<(&str, &str)> {
    let (sig, desc) = t.split_once(": ")?;
    if !sig.starts_with("SIG")
        || sig.len() < 5
        || !sig[3..].bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return None;
    }
    // Go's sigtable descriptions are lowercase words.
    if desc.is_empty() || !desc.bytes().all(|c| c.is_ascii_lowercase() || c == b' ' || c == b'-' || c == b'/') {
        return None;
    }
    Some((sig, desc))
}

/// `SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x480fc0` (inside the brackets).
fn signal_bracket(b: &mut Builder, inner: &str, n: u32) -> Option<()> {
    // Go before 1.7 printed the number: `[signal 0xb code=0x1 addr=0x… pc=0x…]`.
    let mut numeric = None;
    let (mut sig, rest) = match inner.split_once(": ").filter(|(s, _)| s.starts_with("SIG")) {
        Some(x) => x,
        None => {
            let (num, rest) = inner.split_once(' ')?;
            let signo = parse_int(num).filter(|v| (1..=64).contains(v))?;
            numeric = Some(signo);
            (crate::model::signals::name(signo)?, rest)
        }
    };
    let mut desc_end = rest.len();
    let mut code = None;
    let mut addr = None;
    let mut pc = None;
    for (i, w) in rest.split(' ').enumerate() {
        let _ = i;
        if let Some(v) = w.strip_prefix("code=") {
            code = parse_int(v);
        } else if let Some(v) = w.strip_prefix("addr=") {
            addr = parse_hex(v).or_else(|| gccgo_decimal(v));
        } else if let Some(v) = w.strip_prefix("pc=") {
            pc = parse_hex(v).or_else(|| gccgo_decimal(v));
        } else {
            continue;
        }
        desc_end = desc_end.min(rest.find(w).unwrap_or(desc_end));
    }
    // Signal 10 with a fault code (`[signal 0xa code=0x2 addr=0x… pc=0x…]`) is SIGBUS by the
    // BSD numbering (darwin, FreeBSD, OpenBSD): Linux's 10, SIGUSR1, is only ever sent and
    // carries no fault code, and Go's runtime throws on it without an address.
    if numeric == Some(10) && code.is_some_and(|c| c > 0) && addr.is_some() {
        sig = "SIGBUS";
    }
    let desc = rest[..desc_end].trim();
    if !b.go.active {
        start(b, StopKind::Signal, None, n);
    }
    b.saw(Format::Go);
    let si = b.ensure_stop();
    let r = &mut b.trace.stops[si].reason;
    let runtime_msg = r.description.take();
    super::fill_signal(r, sig, desc);
    r.kind = StopKind::Signal;
    r.si_code = code.or(r.si_code);
    r.address = addr.map(Address).or(r.address);
    r.span.extend_to(n);
    // Keep the panic / fatal error text as the description when there was one.
    if let Some(m) = runtime_msg {
        r.description = Some(m);
    }
    if let Some(pc) = pc {
        b.stop_location[si] = Some(GdbOwnedLocation { pc: Some(pc), function: None, ..Default::default() });
    }
    b.trace.stops[si].span.extend_to(n);
    Some(())
}

/// `c0000005 0x0 0x18 0x7ffb3c2a41d0` (after `Exception 0x`): code, two parameters, pc.
fn windows_exception(r: &str) -> Option<(u32, u64, u64, u64)> {
    let mut w = r.split_whitespace();
    let code = u32::from_str_radix(w.next()?, 16).ok()?;
    let info0 = parse_hex(w.next()?)?;
    let info1 = parse_hex(w.next()?)?;
    let pc = parse_hex(w.next()?)?;
    (w.next().is_none() && code >= 0x8000_0000).then_some((code, info0, info1, pc))
}

/// gccgo's runtime prints `addr=8 pc=52314617` in decimal (gc's always with `0x`).
fn gccgo_decimal(v: &str) -> Option<u64> {
    (!v.is_empty() && v.len() <= 20 && v.bytes().all(|c| c.is_ascii_digit())).then(|| v.parse().ok()).flatten()
}

fn parse_int(v: &str) -> Option<i32> {
    if let Some(x) = parse_hex(v) {
        return Some(x as i64 as i32);
    }
    // `sigcode=18446744073709551610` is -6 printed as an unsigned 64-bit number.
    v.parse::<i64>().ok().map(|x| x as i32).or_else(|| v.parse::<u64>().ok().map(|x| x as i64 as i32))
}

/// `PC=0x7fd537458eec m=0 sigcode=18446744073709551610 addr=0x0`
fn pc_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let si = b.ensure_stop();
    let mut pc = None;
    for w in t.split(' ') {
        if let Some(v) = w.strip_prefix("PC=") {
            pc = parse_hex(v);
        } else if let Some(v) = w.strip_prefix("sigcode=") {
            b.trace.stops[si].reason.si_code = parse_int(v);
        } else if let Some(v) = w.strip_prefix("addr=") {
            b.trace.stops[si].reason.address = parse_hex(v).map(Address);
        }
    }
    let Some(pc) = pc else { return false };
    b.stop_location[si] = Some(GdbOwnedLocation { pc: Some(pc), function: None, ..Default::default() });
    b.trace.stops[si].reason.span.extend_to(n);
    b.trace.stops[si].span.extend_to(n);
    true
}

/// `1 [running]:`, `18 [chan receive]:`, `7 [select, 2 minutes]:`,
/// `1 gp=0xc000002380 m=0 mp=0x5a0f20 [running]:` (newer runtimes).
fn goroutine_header(b: &mut Builder, r: &str, n: u32) -> Option<()> {
    let id_len = r.bytes().take_while(u8::is_ascii_digit).count();
    if id_len == 0 {
        return None;
    }
    let open = r.find(" [")?;
    let rest = r[open + 2..].strip_suffix("]:")?;
    let id = format!("goroutine {}", &r[..id_len]);
    select(b, &id, Some(rest), n);
    Some(())
}

fn select(b: &mut Builder, id: &str, name: Option<&str>, n: u32) {
    b.saw(Format::Go);
    let ti = b.thread_by_id(id);
    let si = b.ensure_stop();
    let crashed = !b.go.crashed_marked && id != "runtime stack";
    {
        let th = &mut b.trace.stops[si].threads[ti];
        if let Some(name) = name {
            th.name = Some(name.into());
        }
        th.span.extend_to(n);
        if crashed {
            th.crashed = true;
        }
    }
    if crashed {
        b.go.crashed_marked = true;
        b.go.regs_thread = Some(ti);
    }
    b.go.thread = Some(ti);
    b.go.next_index = 0;
    b.go.pending = None;
    b.go.created_by = false;
    b.trace.stops[si].span.extend_to(n);
}

/// `main.registryTotal(0xc00006af48, 0x2)`, `runtime.panicmem(...)`,
/// `runtime.(*scavengerState).park(0x4f15e0)`, `panic({0x46e420, 0x4ea580})`.
/// `main.Session.Len`, `runtime.gopanic`, `main.main..func1`: a qualified Go name alone.
fn is_bare_symbol(t: &str) -> bool {
    t.len() < 512
        && t.contains('.')
        && !t.ends_with(':')
        && !t.ends_with('.')
        && !t.ends_with(')')
        && t.as_bytes()[0].is_ascii_alphabetic()
        && t.bytes().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, b'.' | b'_' | b'*' | b'(' | b')' | b'/' | b'-' | b'$' | b'[' | b']')
        })
}

fn frame_line(t: &str) -> Option<(&str, &str)> {
    if t.starts_with([' ', '\t']) || !t.ends_with(')') {
        return None;
    }
    let open = super::lexemes::open_paren_of_last_group(t)?;
    let func = &t[..open];
    if func.is_empty() || func.contains(' ') {
        return None;
    }
    Some((func, &t[open + 1..t.len() - 1]))
}

/// `/src/nil-deref.go:33 +0x3e fp=0xc000086ef8 sp=0xc000086e38 pc=0x42f55a`
fn location(b: &mut Builder, t: &str, n: u32) -> Option<()> {
    // The path may hold blanks (`C:/Program Files/Go/src/runtime/proc.go:271 +0x28b`): it ends
    // at the `:LINE` before the first ` +0x` / ` fp=` word, or at the end of the line.
    let cut = [" +0x", " fp=", " sp=", " pc="].iter().filter_map(|k| t.find(k)).min().unwrap_or(t.len());
    let fl = &t[..cut];
    let mut words = t[cut..].split(' ');
    words.next();
    let (file, line) = fl.rsplit_once(':')?;
    let line: u32 = line.parse().ok()?;
    if file.is_empty() || (file.contains(' ') && !file.contains(['/', '\\'])) {
        return None;
    }
    let mut pc = None;
    let words: Vec<&str> = words.collect();
    for (i, w) in words.iter().enumerate() {
        if let Some(v) = w.strip_prefix("pc=") {
            pc = parse_hex(v);
        } else if !(w.starts_with("+0x") || w.starts_with("fp=") || w.starts_with("sp=") || w.is_empty()) {
            // The last word may be cut by a hard wrap (`s` of `sp=…`).
            let cut = i + 1 == words.len() && ["fp=", "sp=", "pc=", "+0x"].iter().any(|k| k.starts_with(*w));
            if !cut {
                return None;
            }
        }
    }
    let wrapped = pc.is_none() && words.iter().any(|w| w.starts_with("fp=") || w.starts_with("sp="));
    if std::mem::take(&mut b.go.created_by) {
        return Some(());
    }
    if b.trace.arch == Arch::Unknown {
        // The runtime's assembly files name the architecture (`asm_amd64.s`, `sys_linux_arm64.s`).
        if file.ends_with("_amd64.s") {
            b.trace.arch = Arch::X86_64;
        } else if file.ends_with("_arm64.s") {
            b.trace.arch = Arch::Aarch64;
        }
    }
    let ti = b.go.thread?;
    let pos = b.go.pending.take()?;
    let file = b.intern(file);
    let si = b.ensure_stop();
    // `go.thread` may be an index from an earlier stop (an lldb stop line between a
    // goroutine header and its location line): look it up, never index.
    if let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|t| t.frames.get_mut(pos)) {
        f.file = Some(file);
        f.line = Some(line);
        f.pc = pc.map(Address).or(f.pc);
        f.span.extend_to(n);
    }
    b.trace.stops[si].span.extend_to(n);
    if wrapped {
        b.go.loc_cont = Some((ti, pos, t.to_string()));
    }
    Some(())
}

/// The rest of a location line a paste wrapped (`x7fff14cd38a8 pc=0x4333dd` after
/// `… fp=0x7fff14cd3878 sp=0`): joined to it without a space, it must complete the `pc=`.
fn location_continues(b: &mut Builder, ti: usize, pos: usize, prev: &str, t: &str, n: u32) -> Option<()> {
    if t.is_empty() || t.len() > 200 {
        return None;
    }
    let joined = format!("{prev}{t}");
    let mut pc = None;
    for w in joined.split(' ').skip(1) {
        if let Some(v) = w.strip_prefix("pc=") {
            pc = Some(parse_hex(v)?);
        } else if !(w.starts_with("+0x") || w.starts_with("fp=") || w.starts_with("sp=") || w.is_empty()) {
            return None;
        }
    }
    let pc = pc?;
    let si = b.ensure_stop();
    if let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|t| t.frames.get_mut(pos)) {
        f.pc = Some(Address(pc));
        f.span.extend_to(n);
    }
    b.trace.stops[si].span.extend_to(n);
    Some(())
}

/// `rax    0x0`, `rflags 0x246`, `r28     0x40000021a0`: a name of lowercase letters and
/// digits, spaces, one hex value.
fn register_line(t: &str) -> Option<(&str, u64)> {
    let (name, v) = t.split_once(' ')?;
    if name.is_empty()
        || name.len() > 7
        || !name.as_bytes()[0].is_ascii_lowercase()
        || !name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    {
        return None;
    }
    let v = v.trim_start();
    Some((name, parse_hex(v)?))
}

fn put_register(b: &mut Builder, name: &str, v: u64, n: u32) {
    let ti = match b.go.regs_thread {
        Some(t) => t,
        None => {
            let t = b.current_thread();
            b.go.regs_thread = Some(t);
            t
        }
    };
    let si = b.ensure_stop();
    let set = b.trace.stops[si].threads[ti].registers.entry(0).or_default();
    // arm64: `lr` after `r0`…`r29` (32-bit arm has lr but no r28; ppc64 and mips say `link`).
    let arm64 = name == "lr" && set.reg("r28").is_some() && set.reg("r29").is_some();
    let name = if arm64 {
        for r in set.regs.iter_mut() {
            if let Some(k) = r.name.strip_prefix('r').and_then(|d| d.parse::<u8>().ok())
                && k <= 29
            {
                r.natural = Some(format!("r{k}").into());
                r.name = format!("x{k}").into();
            }
        }
        "x30"
    } else {
        name
    };
    if arm64 {
        b.trace.arch = Arch::Aarch64;
    } else if name == "rip" && b.trace.arch == Arch::Unknown {
        b.trace.arch = Arch::X86_64;
    }
    let sym = b.intern(name);
    let natural = if arm64 { Some("lr".into()) } else { None };
    let set = b.trace.stops[si].threads[ti].registers.entry(0).or_default();
    set.span.extend_to(n);
    if !set.set(Register { name: sym, value: Some(v), natural, span: Span::line(n) }) {
        b.dropped_registers += 1;
    }
    b.trace.stops[si].span.extend_to(n);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_exception_report() {
        assert_eq!(windows_exception("c0000005 0x0 0x18 0x7ffb3c2a41d0"), Some((0xc0000005, 0, 0x18, 0x7ffb3c2a41d0)));
        assert_eq!(windows_exception("1 2 3"), None);
        let t = "Exception 0xc0000005 0x0 0x18 0x7ffb3c2a41d0
PC=0x7ffb3c2a41d0
signal arrived during external code execution

runtime.cgocall(0x7ff6e21a4f40, 0xc00008fd40)
\tC:/Program Files/Go/src/runtime/cgocall.go:157 +0x4a fp=0xc00008fd18 sp=0xc00008fce0 pc=0x7ff6e20e2d0a
main.main()
\tC:/Users/dev/scanner/main.go:31 +0xd5 fp=0xc00008ff50 sp=0xc00008fe20 pc=0x7ff6e21a4c35
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let stop = &p.trace.stops[0];
        assert_eq!((stop.reason.signo, stop.reason.address), (Some(11), Some(Address(0x18))));
        let th = stop.crashed_thread().unwrap();
        assert_eq!(th.frames.len(), 2);
    }

    #[test]
    fn shapes() {
        assert_eq!(signal_heading("SIGSEGV: segmentation violation"), Some(("SIGSEGV", "segmentation violation")));
        assert_eq!(signal_heading("SIGABRT: abort"), Some(("SIGABRT", "abort")));
        assert_eq!(signal_heading("SIGFOO: Not Go"), None);
        assert_eq!(signal_heading("SIG: x"), None);
        assert_eq!(
            frame_line("runtime.(*scavengerState).park(0x4f15e0)"),
            Some(("runtime.(*scavengerState).park", "0x4f15e0"))
        );
        assert_eq!(frame_line("panic({0x46e420, 0x4ea580})"), Some(("panic", "{0x46e420, 0x4ea580}")));
        assert_eq!(frame_line("main.main()"), Some(("main.main", "")));
        assert_eq!(frame_line("not a frame (really)"), None);
        assert_eq!(register_line("rflags 0x246"), Some(("rflags", 0x246)));
        assert_eq!(register_line("r28     0x40000021a0"), Some(("r28", 0x40000021a0)));
        assert_eq!(register_line("goroutine 1 [running]:"), None);
        assert_eq!(parse_int("18446744073709551610"), Some(-6));
        assert_eq!(parse_int("0x1"), Some(1));
        assert!(go_stack_row("0x000000c00005a670:  0x000000012a05f200  0x000000c0000980a0 "));
        assert!(go_stack_row(
            "0x000000c00005a690:  0x0000000000455e36 <runtime.sigpanic+0x00000000000002f6>  0x1234567812345678"
        ));
        assert!(!go_stack_row("0x000000c00005a690:  hello"));
        assert!(!go_stack_row("0x1234:  0x000000012a05f200"));
    }
}
