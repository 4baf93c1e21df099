//! Messages a program, its allocator or its runtime print just before they abort.
//!
//! The parser keeps these lines on the stop (`Stop::messages`); the abort rules quote them.

/// Whether a line is one of the well-known fatal messages.
pub fn is_abort_message(t: &str) -> bool {
    let t = t.trim();
    classify(t).is_some()
        || t.starts_with("what():")
        || t.starts_with("note: run with `RUST_BACKTRACE")
        || t == "pure virtual method called"
        || t == "deleted virtual method called"
        || t.starts_with("thread caused non-unwinding panic")
        || is_rust_alloc_failure(t)
        || is_handled_fault_report(t)
}

/// Rust's `memory allocation of 35184372088832 bytes failed` (`handle_alloc_error`, which
/// then aborts).
pub fn is_rust_alloc_failure(t: &str) -> bool {
    t.strip_prefix("memory allocation of ")
        .and_then(|r| r.strip_suffix(" bytes failed"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
}

/// A program's own signal handler reporting the fault it caught: `psiginfo()`'s
/// `fatal: Segmentation fault (Address not mapped to object [0x28])`, or a `strsignal()` line
/// with the address (`crash handler: Segmentation fault at address 0x7ffff7fc0410`). Not the
/// debugger's own `Program received signal SIGSEGV, Segmentation fault.`.
pub fn is_handled_fault_report(t: &str) -> bool {
    const FAULTS: &[&str] = &["Segmentation fault", "Bus error", "Illegal instruction", "Floating point exception"];
    let t = t.trim();
    if t.starts_with("Program received signal")
        || t.starts_with("Program terminated with signal")
        || t.starts_with("Thread ")
        || t.ends_with("(core dumped)")
    {
        return false;
    }
    FAULTS.iter().any(|f| t.contains(f))
        && (t.contains("(Address not mapped to object")
            || t.contains("(Invalid permissions for mapped object")
            || t.contains(" 0x")
            || t.contains("[0x"))
}

/// Kept at its old path: the kind is a model field ([`crate::model::Message::kind`]).
pub use crate::model::{MessageDetail, MessageKind};

const HEAP: &[&str] = &[
    "double free detected",
    "double free or corruption",
    "corrupted size vs. prev_size",
    "corrupted double-linked list",
    "malloc(): corrupted",
    "malloc(): unaligned",
    "malloc(): invalid",
    "malloc(): memory corruption",
    "malloc(): mismatching next->prev_size",
    "malloc_consolidate(): ",
    "free(): invalid",
    "free(): corrupted",
    "free(): unaligned",
    "free(): too many chunks",
    "munmap_chunk(): invalid pointer",
    "realloc(): invalid",
    "realloc(): corrupted",
    "corrupted top size",
    "malloc(): smallbin double linked list corrupted",
    "malloc(): largebin double linked list corrupted",
    "tcache_thread_shutdown(): unaligned",
    // tcmalloc: `src/tcmalloc.cc:333] Attempt to free invalid pointer 0x…`.
    "] Attempt to free invalid pointer",
    "] Attempt to realloc invalid pointer",
    "*** Error in `",
    // Go's collector: `fatal error: found bad pointer in Go heap (incorrect use of unsafe or
    // cgo?)`, Go 1.5's `fatal error: objectstart: bad pointer in unexpected span`.
    "found bad pointer in Go heap",
    "bad pointer in unexpected span",
    // The sweeper found a marked object in a free slot (a pointer to freed memory survived),
    // and the stack scan a pointer into no allocation.
    "found pointer to free object",
    "sweep increased allocation count",
    "invalid pointer found on stack",
];

pub fn classify(t: &str) -> Option<MessageKind> {
    if t.contains("stack smashing detected")
        || t.contains("longjmp causes uninitialized stack frame")
        || t.contains("buffer overflow detected ***")
        || t.contains("bit out of range 0 - FD_SETSIZE on fd_set ***")
        || t.contains("%n in writable segment")
    {
        return Some(MessageKind::StackSmashing);
    }
    if t.starts_with("*** ") && t.contains(" detected ***") {
        return Some(MessageKind::FortifyFail);
    }
    if HEAP.iter().any(|h| t.match_indices(h).any(|(i, _)| !quoted_at(t, i))) {
        return Some(MessageKind::HeapCorruption);
    }
    if t.starts_with("terminate called after throwing an instance of")
        || t.starts_with("terminate called without an active exception")
        || t.starts_with("terminate called recursively")
        || t.starts_with("FATAL: exception not rethrown")
        || t.starts_with("fatal: error thrown and no exception handler available.")
        || t.starts_with("fatal runtime error: Rust cannot catch foreign exceptions")
        || is_lua_panic(t)
        || is_v8_uncaught(t)
    {
        return Some(MessageKind::UncaughtException);
    }
    // `thread 'main' panicked at …`; Rust 1.89+ adds the tid: `thread 'main' (26319) panicked at …`.
    if t.starts_with("thread '") && t.contains(" panicked at ") {
        return Some(MessageKind::Panic);
    }
    // A panic inside the panic hook: Rust prints its location without the thread
    // (`panicked at src/main.rs:11:29:`) and then `thread panicked while processing panic.
    // aborting.` (the hook is not run a second time).
    if t.strip_prefix("panicked at ").and_then(|r| r.strip_suffix(':')).is_some_and(is_source_location) {
        return Some(MessageKind::Panic);
    }
    if is_panic_while_panicking(t) {
        return Some(MessageKind::FatalError);
    }
    // Zig: `thread 3318042 panic: incorrect alignment`; `reached unreachable code` is what a
    // failed `std.debug.assert` (and any `unreachable` in a safe build) prints.
    if let Some((num, msg)) = t.strip_prefix("thread ").and_then(|r| r.split_once(" panic: "))
        && !num.is_empty()
        && num.bytes().all(|c| c.is_ascii_digit())
    {
        return Some(if msg.trim() == "reached unreachable code" {
            MessageKind::Assertion
        } else {
            MessageKind::Panic
        });
    }
    // Chromium's and V8's `CHECK` (`# Check failed: result.second.`, `# CHECK(x) failed`,
    // `# Debug check failed: …`) and glog's (`F1102 13:25:03.481375  5208 op.cpp:43] Check
    // failed: …`).
    if t.starts_with("Check failed: ")
        || t.starts_with("Debug check failed: ")
        || t.contains("] Check failed: ")
        || (t.starts_with("CHECK(") || t.starts_with("DCHECK(")) && t.ends_with(") failed")
    {
        return Some(MessageKind::Assertion);
    }
    // libstdc++'s own checks (_GLIBCXX_ASSERTIONS) quote with `'`: `…/stl_vector.h:1142: …
    // operator[](size_type) const [with …]: Assertion '__n < this->size()' failed.`
    if (t.contains("Assertion `") || t.contains("Assertion '")) && t.ends_with("failed.")
        || t.contains("Assertion failed:")
    {
        return Some(MessageKind::Assertion);
    }
    if t.starts_with("GC error (probable corruption)") {
        return Some(MessageKind::GcCorruption);
    }
    // Rust's guard-page handler, before its `fatal runtime error: stack overflow`:
    // `thread 'main' has overflowed its stack` (1.89+: `thread 'main' (26319) has …`).
    if t.starts_with("LLVM ERROR:")
        || t.starts_with("fatal runtime error:")
        || t.starts_with("fatal error: ")
        || (t.starts_with("thread '") && t.ends_with(" has overflowed its stack"))
    {
        return Some(MessageKind::FatalError);
    }
    None
}

/// Whether the text at byte `i` of `t` is inside a double-quoted string or opens a quotation
/// (`grep for "free(): invalid pointer"`): a program's own output that names a message is not
/// the message.
fn quoted_at(t: &str, i: usize) -> bool {
    let b = &t.as_bytes()[..i];
    if b.iter().filter(|&&c| c == b'"').count() % 2 == 1 {
        return true;
    }
    // Single quotes: one that opens (at the start, after a space or `(`) and is not closed
    // before `i` (a `'` before a space, the end or punctuation); glibc's `prog': ` and an
    // apostrophe (`can't`) open nothing.
    let mut open = 0usize;
    for (k, &c) in b.iter().enumerate() {
        if c != b'\'' {
            continue;
        }
        let before = k.checked_sub(1).map(|p| b[p]);
        let after = t.as_bytes().get(k + 1).copied();
        if before.is_none_or(|p| p == b' ' || p == b'(') {
            open += 1;
        } else if open > 0 && after.is_none_or(|a| a == b' ' || a.is_ascii_punctuation()) {
            open -= 1;
        }
    }
    open > 0
}

/// The parts of an assertion message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion<'a> {
    /// The program name glibc prints first (`julia-debug`).
    pub program: Option<&'a str>,
    pub file: Option<&'a str>,
    pub line: Option<u32>,
    pub function: Option<&'a str>,
    pub expr: &'a str,
}

/// Reads an assertion message in glibc's shape
/// (`prog: file.c:5: func: Assertion `x' failed.`, also used by LLVM and Julia debug builds),
/// musl's (`Assertion failed: x (file.c: func: 5)`) or macOS's
/// (`Assertion failed: (x), function func, file file.c, line 5.`).
pub fn parse_assertion(t: &str) -> Option<Assertion<'_>> {
    let t = t.trim();
    if let Some(p) = t.find("Assertion `").or_else(|| t.find("Assertion '").filter(|_| t.ends_with("' failed."))) {
        let expr_and = &t[p + "Assertion `".len()..];
        let expr = expr_and.strip_suffix("' failed.").or_else(|| expr_and.rsplit_once("' failed").map(|(e, _)| e))?;
        let head = t[..p].trim_end().strip_suffix(':').unwrap_or(&t[..p]).trim_end();
        let (rest, function) = match head.rsplit_once(": ") {
            Some((r, f)) => (r, Some(f.trim())),
            None => ("", if head.is_empty() { None } else { Some(head) }),
        };
        let (program, loc) = match rest.split_once(": ") {
            Some((prog, loc)) => (Some(prog.trim()), loc.trim()),
            None => (None, rest.trim()),
        };
        let (file, line) = match loc.rsplit_once(':') {
            Some((f, l)) => match l.parse::<u32>() {
                Ok(n) => (Some(f), Some(n)),
                Err(_) => (None, None),
            },
            None => (None, None),
        };
        return Some(Assertion { program, file, line, function, expr });
    }
    let r = t.split_once("Assertion failed: ")?.1.trim_end_matches('.');
    // macOS: `(x), function f, file a.c, line 5`
    if let Some((expr, tail)) = r.rsplit_once(", function ") {
        let (function, tail) = tail.split_once(", file ").unwrap_or((tail, ""));
        let (file, line) =
            tail.split_once(", line ").map(|(f, l)| (Some(f), l.trim().parse().ok())).unwrap_or((None, None));
        let expr = expr.strip_prefix('(').and_then(|e| e.strip_suffix(')')).unwrap_or(expr);
        return Some(Assertion { program: None, file, line, function: Some(function), expr });
    }
    // musl: `x (a.c: f: 5)`
    if let Some((expr, tail)) = r.rsplit_once(" (") {
        let parts: Vec<&str> = tail.trim_end_matches(')').split(": ").collect();
        if let [file, function, line] = parts[..] {
            return Some(Assertion {
                program: None,
                file: Some(file),
                line: line.parse().ok(),
                function: Some(function),
                expr,
            });
        }
    }
    Some(Assertion { program: None, file: None, line: None, function: None, expr: r })
}

/// The parts of a Rust panic header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicHeader<'a> {
    /// The thread name (`main`, `<unnamed>`).
    pub thread: &'a str,
    /// `src/main.rs:13:5`
    pub location: Option<&'a str>,
    /// The payload, when it is on the same line (the format before Rust 1.73).
    pub payload: Option<&'a str>,
}

/// Reads `thread 'main' panicked at src/main.rs:13:5:`,
/// `thread 'main' (12345) panicked at src/main.rs:13:5:` and
/// `thread 'main' panicked at 'msg', src/main.rs:13:5`.
pub fn parse_panic_header(t: &str) -> Option<PanicHeader<'_>> {
    let t = t.trim();
    // A panic inside the panic hook: no thread (`panicked at src/main.rs:11:29:`).
    if let Some(loc) =
        t.strip_prefix("panicked at ").and_then(|r| r.strip_suffix(':')).filter(|l| is_source_location(l))
    {
        return Some(PanicHeader { thread: "", location: Some(loc), payload: None });
    }
    let r = t.strip_prefix("thread '")?;
    let (thread, rest) = r.split_once('\'')?;
    let at = rest.find("panicked at ")? + "panicked at ".len();
    let tail = rest[at..].trim_end();
    if let Some(q) = tail.strip_prefix('\'') {
        // Old format: the payload is quoted, the location follows the last `', `.
        let (payload, loc) = match q.rsplit_once("', ") {
            Some((p, l)) => (p, Some(l.trim())),
            None => (q.trim_end_matches('\''), None),
        };
        return Some(PanicHeader { thread, location: loc, payload: Some(payload) });
    }
    let loc = tail.strip_suffix(':').unwrap_or(tail).trim();
    Some(PanicHeader { thread, location: if loc.is_empty() { None } else { Some(loc) }, payload: None })
}

/// Rust's abort after a panic during a panic: `thread panicked while processing panic.
/// aborting.` (Rust 1.71+), `thread panicked while panicking. aborting.` (before).
fn is_panic_while_panicking(t: &str) -> bool {
    t.starts_with("thread panicked while processing panic") || t.starts_with("thread panicked while panicking")
}

/// `src/main.rs:13:5`: a path, a line and a column.
fn is_source_location(loc: &str) -> bool {
    let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    loc.rsplit_once(':').is_some_and(|(rest, col)| {
        num(col)
            && rest.rsplit_once(':').is_some_and(|(path, line)| num(line) && !path.is_empty() && !path.contains(' '))
    })
}

/// The exception type in `terminate called after throwing an instance of 'std::out_of_range'`.
pub fn thrown_type(t: &str) -> Option<&str> {
    let r = t.trim().strip_prefix("terminate called after throwing an instance of '")?;
    Some(r.strip_suffix('\'').unwrap_or(r))
}

/// What a fatal message's text says beyond its kind: which heap check failed, which
/// terminate, a `what():` or `note:` line, … (also applied to C string arguments such as
/// `malloc_printerr`'s `str`).
/// Lua's default panic function (`lauxlib.c`): `PANIC: unprotected error in call to Lua API
/// (<the error>)`, printed when an error is raised outside any protected call (`lua_pcall`),
/// before the host program is aborted.
pub(crate) fn is_lua_panic(t: &str) -> bool {
    t.strip_prefix("PANIC: unprotected error in call to Lua API (").is_some_and(|r| r.ends_with(')'))
}

/// V8's report of an exception nothing caught when the process aborts on it (node
/// `--abort-on-uncaught-exception`): `Uncaught TypeError: Cannot read properties of null
/// (reading 'price')`, then `FROM` and the JavaScript stack. The error's constructor is one
/// word ending in `Error` or `Exception` (a `throw` of another value prints `Uncaught <value>`,
/// which is not read: a program's own log line could say as much).
pub(crate) fn is_v8_uncaught(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("Uncaught ") else { return false };
    let ty = rest.split([':', ' ']).next().unwrap_or("");
    (ty.ends_with("Error") || ty.ends_with("Exception"))
        && ty.len() > 5
        && ty.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        && ty.starts_with(|c: char| c.is_ascii_uppercase())
        && (rest.len() == ty.len() || rest[ty.len()..].starts_with(": "))
}

pub fn detail(text: &str) -> Option<MessageDetail> {
    let t = text.trim();
    // Lines whose shape says what they are come first: a `what():` line quotes any text.
    Some(if t.starts_with("what():") {
        MessageDetail::ExceptionWhat
    } else if text.starts_with("note: ") && t.contains(" unexpectedly overflowed its stack!") {
        // rustc's fatal-signal handler: `note: rustc unexpectedly overflowed its stack! this is a bug`.
        MessageDetail::StackOverflow
    } else if text.starts_with("note: ") {
        MessageDetail::Note
    } else if text.starts_with("panic: ") {
        MessageDetail::GoPanic
    } else if text.starts_with("!!!") {
        MessageDetail::RuntimeAbortBanner
    } else if text.starts_with("Allocations:") {
        MessageDetail::AllocationSummary
    } else if t == "pure virtual method called" {
        MessageDetail::PureVirtualCall
    } else if t == "deleted virtual method called" {
        MessageDetail::DeletedVirtualCall
    } else if is_panic_while_panicking(t) {
        MessageDetail::PanicWhilePanicking
    } else if t.starts_with("fatal: error thrown and no exception handler available.") {
        MessageDetail::JuliaNoHandler
    } else if t.starts_with("terminate called") && t.contains("without an active exception") {
        MessageDetail::TerminateWithoutException
    } else if t.starts_with("terminate called") && t.contains("recursively") {
        MessageDetail::TerminateRecursively
    } else if t.strip_prefix("fatal error: concurrent map ").is_some_and(|r| r.ends_with("map write") || r == "writes")
    {
        MessageDetail::GoMapRace
    } else if t.starts_with("FATAL: exception not rethrown") {
        MessageDetail::ForcedUnwindNotRethrown
    } else if t.starts_with("fatal runtime error: Rust cannot catch foreign exceptions") {
        MessageDetail::ForeignException
    } else if is_lua_panic(t) {
        MessageDetail::LuaUnprotectedError
    } else if is_v8_uncaught(t) {
        MessageDetail::V8Uncaught
    } else if t.starts_with("ERROR: ")
        && t.trim_end().ends_with("ReadOnlyMemoryError()")
        && t["ERROR: ".len()..].trim_end().trim_start_matches("LoadError: ").starts_with("ReadOnlyMemoryError()")
    {
        MessageDetail::ReadOnlyMemoryError
    } else if t.contains("longjmp causes uninitialized stack frame") {
        MessageDetail::LongjmpCheck
    } else if t.contains("buffer overflow detected") {
        MessageDetail::FortifyOverflow
    } else if t.contains("bit out of range 0 - FD_SETSIZE on fd_set") {
        MessageDetail::FortifyFdSet
    } else if t.contains("%n in writable segment") {
        MessageDetail::FortifyPercentN
    } else if t.contains("stack smashing") {
        MessageDetail::StackCanary
    } else if t.contains("double free or corruption") {
        MessageDetail::DoubleFreeOrCorruption
    } else if t.contains("double free") {
        MessageDetail::DoubleFree
    } else if t.contains("invalid pointer")
        || t.contains("invalid size")
        || t.contains("free(): invalid")
        || t.contains("munmap_chunk()")
    {
        MessageDetail::InvalidFree
    } else if t.contains("has overflowed its stack")
        || t.contains("Stack overflow in thread #")
        // A macOS crash report's VM region table, the row of the fault address (`--->`) in a
        // thread's stack guard: `--->  STACK GUARD  38a1b8000-38a1bc000 [ 16K] ---/rwx SM=NUL
        // stack guard for thread 8`.
        || t.starts_with("--->") && t.contains("STACK GUARD")
        || t == "fatal error: stack overflow"
        // Go: the system stack (g0) or the signal stack (gsignal) believed exhausted.
        || t == "fatal: morestack on g0"
        || t == "fatal: morestack on gsignal"
        // Android's debuggerd: `Cause: stack pointer is not in a rw map; likely due to stack
        // overflow.` (older: `… is in a non-existent map; …`).
        || t.contains("likely due to stack overflow")
        // Windows' STATUS_STACK_OVERFLOW, Wasmtime's `call stack exhausted`.
        || t.starts_with("Stack overflow (STATUS_STACK_OVERFLOW)")
        || t.contains("wasm trap: call stack exhausted")
        || (t.starts_with("runtime: goroutine stack exceeds ") && t.ends_with("-byte limit"))
    {
        MessageDetail::StackOverflow
    } else if t.starts_with("runtime: ") && t.contains("unexpected return pc for ") && t.contains(" called from ") {
        MessageDetail::UnexpectedReturnPc
    } else if t.contains("Hint: this fault was caused by a dereference of a high value address") {
        MessageDetail::HighValueAddress
    } else {
        return None;
    })
}

/// A fault a signal handler reported on a message line: psiginfo's `prefix: Segmentation fault
/// (Address not mapped to object [0x28])`, a `strsignal()` line with the address, or Rust's
/// guard-page handler (`thread 'main' has overflowed its stack`, a SIGSEGV).
pub fn fault_report(text: &str) -> Option<crate::model::FaultReport> {
    use crate::model::FaultReport;
    use crate::model::signals::{SEGV_ACCERR, SEGV_MAPERR};
    const FAULTS: &[(&str, i32)] = &[
        ("Segmentation fault", 11),
        ("Bus error", 7),
        ("Illegal instruction", 4),
        ("Floating point exception", 8),
        ("Arithmetic exception", 8),
    ];
    fn hex(s: &str) -> Option<u64> {
        let h = s.strip_prefix("0x")?;
        let end = h.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(h.len());
        if end == 0 {
            return None;
        }
        u64::from_str_radix(&h[..end], 16).ok()
    }
    if text.contains("has overflowed its stack") {
        return Some(FaultReport { signo: 11, si_code: None, address: None });
    }
    let &(_, signo) = FAULTS.iter().find(|(d, _)| text.contains(d))?;
    let si_code = if text.contains("Address not mapped to object") {
        Some(SEGV_MAPERR)
    } else if text.contains("Invalid permissions for mapped object") {
        Some(SEGV_ACCERR)
    } else {
        None
    };
    // glibc's psiginfo prints a NULL si_addr with `%p`: `[(nil)]`.
    let address = text
        .find("[0x")
        .and_then(|i| hex(&text[i + 1..]))
        .or_else(|| text.find("0x").and_then(|i| hex(&text[i..])))
        .or_else(|| text.contains("[(nil)]").then_some(0));
    Some(FaultReport { signo, si_code, address })
}

/// The exception's text on a `  what():  …` line.
pub fn what_text(t: &str) -> Option<&str> {
    let r = t.trim_start().strip_prefix("what():")?;
    Some(r.trim_start_matches("what():").trim())
}

/// Julia's `ERROR:` description: `LoadError: T: message`, the wrappers peeled off.
pub fn julia_error(d: &str) -> crate::model::JuliaErrorText {
    let mut inner = d.trim();
    while let Some(r) = ["LoadError: ", "InitError: ", "TaskFailedException: ", "CompositeException: "]
        .iter()
        .find_map(|p| inner.strip_prefix(p))
    {
        inner = r;
    }
    // `T: message`; a bare message (`type Array has no field layer_1`, older versions) names
    // no type.
    let (ty, text) = match inner.split_once(": ") {
        Some((t, m)) if !t.contains(' ') && t.chars().next().is_some_and(char::is_uppercase) => (t, m),
        _ => ("", inner),
    };
    let wrappers = if d.trim() != inner && !ty.is_empty() {
        d.split(": ").take_while(|p| *p != ty).map(Into::into).collect()
    } else {
        Vec::new()
    };
    crate::model::JuliaErrorText { exception: ty.into(), message: text.into(), wrappers }
}

/// The typed parts of a message line, as the model keeps them (filled at input time).
pub fn typed(m: &mut crate::model::Message) {
    m.kind = classify(&m.text);
    if m.kind == Some(MessageKind::HeapCorruption)
        && let Some(start) = glued_glibc_message(&m.text)
    {
        m.text = m.text[start..].into();
    }
    m.detail = detail(&m.text);
    m.fault = fault_report(&m.text);
    m.what = if m.detail == Some(MessageDetail::ExceptionWhat) { what_text(&m.text).map(Into::into) } else { None };
    m.assertion = parse_assertion(&m.text).map(|a| crate::model::AssertionText {
        program: a.program.map(Into::into),
        file: a.file.map(Into::into),
        line: a.line,
        function: a.function.map(Into::into),
        expr: a.expr.into(),
    });
    m.panic = parse_panic_header(&m.text).map(|h| crate::model::PanicText {
        thread: h.thread.into(),
        location: h.location.map(Into::into),
        payload: h.payload.map(Into::into),
    });
    m.thrown = thrown_type(&m.text).map(Into::into);
    m.pointer = if m.detail == Some(MessageDetail::InvalidFree) { freed_pointer(&m.text) } else { None };
}

/// Where glibc's malloc message starts in a line whose beginning is the program's own output
/// without its newline (`ZZZZ…ZZZmunmap_chunk(): invalid pointer`: stdout flushed by the
/// abort, glibc's message written right after it); `None` when the line is the message.
fn glued_glibc_message(t: &str) -> Option<usize> {
    const STARTS: &[&str] = &[
        "munmap_chunk(): ",
        "malloc(): ",
        "free(): ",
        "realloc(): ",
        "malloc_consolidate(): ",
        "tcache_thread_shutdown(): ",
        "double free or corruption",
        "corrupted size vs. prev_size",
        "corrupted double-linked list",
    ];
    if t.contains("*** Error in `") {
        return None;
    }
    let start = STARTS.iter().filter_map(|p| t.find(p)).min()?;
    let before = t[..start].chars().next_back()?;
    (!before.is_whitespace() && before != ':' && before != '(' && before != '`' && before != '\'').then_some(start)
}

/// The last `0x…` word of an invalid-free message: the pointer passed to free.
fn freed_pointer(t: &str) -> Option<u64> {
    t.split(|c: char| c.is_whitespace() || c == '*').rev().find_map(|w| {
        let h = w.strip_prefix("0x")?;
        if h.is_empty() || h.len() > 16 || !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        u64::from_str_radix(h, 16).ok()
    })
}

/// A glibc malloc assertion (`malloc.c:2379: sysmalloc: Assertion … failed`) reports a
/// damaged heap, not a failed program invariant.
/// An assertion inside glibc outside malloc: nptl's checks on pthread objects
/// (`pthread_mutex_lock.c:94: ___pthread_mutex_lock: Assertion \`mutex->__data.__owner == 0'
/// failed.`) and the dynamic loader's (`dl-open.c`, `_dl_…`).
pub fn is_glibc_internal_assertion(a: &crate::model::AssertionText) -> bool {
    let file = a.file.as_deref().map(|f| f.rsplit('/').next().unwrap_or(f));
    let glibc_file = file.is_some_and(|f| {
        f.ends_with(".c") && (f.starts_with("pthread_") || f.starts_with("dl-") || f == "rtld.c" || f == "tpp.c")
    });
    let glibc_fn = a.function.as_deref().is_some_and(|f| {
        let f = f.trim_start_matches('_');
        f.starts_with("pthread_mutex")
            || f.starts_with("pthread_cond")
            || f.starts_with("pthread_rwlock")
            || f.starts_with("dl_")
            || f.starts_with("GI___pthread")
    });
    glibc_file && (glibc_fn || a.function.is_none())
}

pub fn is_malloc_assertion(a: &crate::model::AssertionText) -> bool {
    {
        a.file.as_deref().is_some_and(|f| f.ends_with("malloc.c") || f.ends_with("arena.c"))
            || a.function.as_deref().is_some_and(|f| {
                matches!(
                    f,
                    "sysmalloc"
                        | "_int_malloc"
                        | "_int_free"
                        | "malloc_consolidate"
                        | "unlink_chunk"
                        | "tcache_get"
                        | "_int_realloc"
                )
            })
    }
}

/// The Lua error of `PANIC: unprotected error in call to Lua API (<error>)`.
pub(crate) fn lua_panic_error(text: &str) -> Option<&str> {
    text.trim().strip_prefix("PANIC: unprotected error in call to Lua API (").and_then(|r| r.strip_suffix(')'))
}

/// V8's `Uncaught TypeError: …` without its `Uncaught `: the error as JavaScript names it.
pub(crate) fn v8_uncaught_error(text: &str) -> &str {
    text.trim().trim_start_matches("Uncaught ")
}

/// Rust's abort on a foreign exception (`std::panicking::__rust_foreign_exception`, called from
/// `panic_unwind`'s cleanup when catch_unwind catches an exception of another language).
pub(crate) fn is_foreign_exception_frame(name: &str) -> bool {
    name == "__rust_foreign_exception" || name.ends_with("::__rust_foreign_exception")
}

/// The first named function of the JavaScript stack V8 printed after `Uncaught …` and `FROM`
/// (`total (/srv/app/orders.js:5:44)`): rows of anonymous functions (a bare location) and of
/// the runtime's own code (`Array.reduce (<anonymous>)`, `node:internal/…`) are skipped.
pub(crate) fn js_site(stop: &crate::model::Stop) -> Option<crate::model::MessageSite> {
    let start = stop.messages.iter().rposition(|m| m.detail == Some(MessageDetail::V8Uncaught))?;
    let mut rows = stop.messages[start + 1..].iter().map(|m| m.text.trim());
    if rows.next() != Some("FROM") {
        return None;
    }
    for row in rows.take(64) {
        let Some((name, loc)) = row.strip_suffix(')').and_then(|r| r.rsplit_once(" (")) else { continue };
        if name.is_empty()
            || name.contains(' ') && !name.contains(" [as ")
            || loc.starts_with('<')
            || loc.starts_with("node:")
        {
            continue;
        }
        let mut parts = loc.rsplitn(3, ':');
        let (_col, line, file) = (parts.next(), parts.next(), parts.next());
        let Some(line) = line.and_then(|l| l.parse::<u32>().ok()) else { continue };
        return Some(crate::model::MessageSite {
            function: name.to_string(),
            file: file.map(str::to_string),
            line: Some(line),
            source: "V8's JavaScript stack",
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn kinds() {
        assert_eq!(classify("free(): double free detected in tcache 2"), Some(MessageKind::HeapCorruption));
        assert_eq!(classify("*** stack smashing detected ***: terminated"), Some(MessageKind::StackSmashing));
        assert_eq!(
            classify("terminate called after throwing an instance of 'std::out_of_range'"),
            Some(MessageKind::UncaughtException)
        );
        assert_eq!(classify("thread 'main' panicked at src/main.rs:13:5:"), Some(MessageKind::Panic));
        assert_eq!(classify("thread 'main' (26319) panicked at src/rust-panic.rs:23:28:"), Some(MessageKind::Panic));
        assert_eq!(classify("thread 'main' panicked at 'explicit panic', src/main.rs:2:5"), Some(MessageKind::Panic));
        assert_eq!(classify("t: t.c:5: main: Assertion `x == 1' failed."), Some(MessageKind::Assertion));
        assert_eq!(classify("GC error (probable corruption)"), Some(MessageKind::GcCorruption));
        assert_eq!(
            classify("fatal: error thrown and no exception handler available."),
            Some(MessageKind::UncaughtException)
        );
        assert_eq!(
            detail("fatal: error thrown and no exception handler available."),
            Some(MessageDetail::JuliaNoHandler)
        );
        assert_eq!(classify("hello world"), None);
        // A program's own output quoting a message (a test log) is not the message.
        assert_eq!(classify("test 9: grep for \"free(): invalid pointer\" ... none"), None);
        assert_eq!(classify("expect 'malloc(): corrupted top size' in the log"), None);
        assert_eq!(classify("grep \"free(): invalid pointer\" and \"malloc(): corrupted top size\""), None);
        assert_eq!(
            classify("*** Error in `./a.out': free(): invalid pointer: 0x0000000001a2b010 ***"),
            Some(MessageKind::HeapCorruption)
        );
        assert!(is_abort_message("  what():  vector::_M_range_check: __n (which is 10) >= this->size() (which is 3)"));
    }

    #[test]
    fn details() {
        use MessageDetail as D;
        let cases = [
            ("double free or corruption (out)", Some(D::DoubleFreeOrCorruption)),
            ("free(): double free detected in tcache 2", Some(D::DoubleFree)),
            ("free(): invalid pointer", Some(D::InvalidFree)),
            ("munmap_chunk(): invalid pointer", Some(D::InvalidFree)),
            ("malloc(): corrupted top size", None),
            ("*** stack smashing detected ***: terminated", Some(D::StackCanary)),
            ("*** buffer overflow detected ***: terminated", Some(D::FortifyOverflow)),
            ("*** bit out of range 0 - FD_SETSIZE on fd_set ***: terminated", Some(D::FortifyFdSet)),
            ("*** longjmp causes uninitialized stack frame ***: terminated", Some(D::LongjmpCheck)),
            ("terminate called without an active exception", Some(D::TerminateWithoutException)),
            ("terminate called recursively", Some(D::TerminateRecursively)),
            ("FATAL: exception not rethrown", Some(D::ForcedUnwindNotRethrown)),
            ("fatal runtime error: Rust cannot catch foreign exceptions", Some(D::ForeignException)),
            (
                "PANIC: unprotected error in call to Lua API (x.lua:2: attempt to index a nil value)",
                Some(D::LuaUnprotectedError),
            ),
            ("PANIC: unprotected error in call to Lua API", None),
            ("Uncaught TypeError: Cannot read properties of null (reading 'price')", Some(D::V8Uncaught)),
            ("Uncaught RangeError", Some(D::V8Uncaught)),
            ("Uncaught typeError: x", None),
            ("Uncaught exception in worker 3, retrying", None),
            ("terminate called after throwing an instance of 'std::out_of_range'", None),
            ("  what():  vector::_M_range_check", Some(D::ExceptionWhat)),
            ("  what():  double free", Some(D::ExceptionWhat)),
            ("pure virtual method called", Some(D::PureVirtualCall)),
            ("deleted virtual method called", Some(D::DeletedVirtualCall)),
            ("note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", Some(D::Note)),
            ("thread 'main' has overflowed its stack", Some(D::StackOverflow)),
            ("!!! ERROR in jl_ -- ABORTING !!!", Some(D::RuntimeAbortBanner)),
            ("Allocations: 5000 (Pool: 4990; Big: 10); GC: 3", Some(D::AllocationSummary)),
            ("hello", None),
        ];
        for (t, d) in cases {
            assert_eq!(detail(t), d, "{t}");
        }
        assert_eq!(what_text("  what():  vector::_M_range_check: __n"), Some("vector::_M_range_check: __n"));
        let mut m = crate::model::Message::new("  what():  boom", crate::model::Span::line(3));
        typed(&mut m);
        assert_eq!((m.detail, m.what.as_deref()), (Some(D::ExceptionWhat), Some("boom")));
    }

    #[test]
    fn fault_reports() {
        let r = fault_report("fatal: Segmentation fault (Address not mapped to object [0x28])").unwrap();
        assert_eq!((r.signo, r.si_code, r.address), (11, Some(1), Some(0x28)));
        let r = fault_report("crash handler: Bus error at address 0x7ffff7fc0410").unwrap();
        assert_eq!((r.signo, r.si_code, r.address), (7, None, Some(0x7ffff7fc0410)));
        let r = fault_report("thread 'main' has overflowed its stack").unwrap();
        assert_eq!((r.signo, r.address), (11, None));
        assert_eq!(fault_report("hello"), None);
    }

    #[test]
    fn julia_errors() {
        let e = julia_error("LoadError: BoundsError: attempt to access 3-element Vector{Int64} at index [4]");
        assert_eq!(&*e.exception, "BoundsError");
        assert_eq!(&*e.message, "attempt to access 3-element Vector{Int64} at index [4]");
        assert_eq!(e.wrappers, vec![Box::from("LoadError")]);
        let e = julia_error("type Array has no field layer_1");
        assert_eq!((&*e.exception, &*e.message, e.wrappers.len()), ("", "type Array has no field layer_1", 0));
        let e = julia_error("DomainError with -1.0: sqrt was called");
        assert_eq!(&*e.exception, "");
    }

    #[test]
    fn assertions() {
        let a = parse_assertion("assert-fail: src/assert-fail.c:9: range_width: Assertion `r->lo <= r->hi && \"range is inverted\"' failed.").unwrap();
        assert_eq!(
            a,
            Assertion {
                program: Some("assert-fail"),
                file: Some("src/assert-fail.c"),
                line: Some(9),
                function: Some("range_width"),
                expr: "r->lo <= r->hi && \"range is inverted\""
            }
        );
        // Seed 001 (Julia debug build).
        let a = parse_assertion("julia-debug: /home/tim/Julia/src/julia/src/dump.c:2159: jl_deserialize_value: Assertion `offs < backref_list.len' failed.").unwrap();
        assert_eq!(
            (a.file, a.line, a.function, a.expr),
            (
                Some("/home/tim/Julia/src/julia/src/dump.c"),
                Some(2159),
                Some("jl_deserialize_value"),
                "offs < backref_list.len"
            )
        );
        let a = parse_assertion("Assertion failed: x == 1 (t.c: main: 5)").unwrap();
        assert_eq!((a.file, a.line, a.function, a.expr), (Some("t.c"), Some(5), Some("main"), "x == 1"));
        let a = parse_assertion("Assertion failed: (x == 1), function main, file t.c, line 5.").unwrap();
        assert_eq!((a.file, a.line, a.function, a.expr), (Some("t.c"), Some(5), Some("main"), "x == 1"));
        assert_eq!(parse_assertion("hello"), None);
    }

    #[test]
    fn panic_headers() {
        assert_eq!(
            parse_panic_header("thread 'main' (26319) panicked at src/rust-panic.rs:23:28:"),
            Some(PanicHeader { thread: "main", location: Some("src/rust-panic.rs:23:28"), payload: None })
        );
        assert_eq!(
            parse_panic_header("thread 'main' panicked at src/main.rs:13:5:"),
            Some(PanicHeader { thread: "main", location: Some("src/main.rs:13:5"), payload: None })
        );
        assert_eq!(
            parse_panic_header(
                "thread '<unnamed>' panicked at 'called `Option::unwrap()` on a `None` value', src/lib.rs:4:37"
            ),
            Some(PanicHeader {
                thread: "<unnamed>",
                location: Some("src/lib.rs:4:37"),
                payload: Some("called `Option::unwrap()` on a `None` value")
            })
        );
        assert_eq!(
            thrown_type("terminate called after throwing an instance of 'std::out_of_range'"),
            Some("std::out_of_range")
        );
    }
}
