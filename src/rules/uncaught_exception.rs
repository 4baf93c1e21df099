//! `uncaught-exception`: a C++ exception reached `std::terminate`, which aborted.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "uncaught-exception",
    title: "an exception was not caught: std::terminate aborted (C++) or Julia stopped with ERROR",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A SIGABRT (or a stop with no signal) explained by libstdc++'s
terminate handler: `terminate called after throwing an instance of 'T'` with the exception's
`what():` text, `terminate called without an active exception`, or `terminate called
recursively`; glibc's `FATAL: exception not rethrown` (a `catch (...)` swallowed the
forced-unwind exception with which `pthread_cancel` or `pthread_exit` unwinds a thread; in a
core, without stderr, nptl's `unwind_cleanup` under `__libc_fatal`); `pure virtual method called` (with its causes: a virtual call from a base-class
constructor or destructor, or a destroyed object), also from a `__cxa_pure_virtual` frame; an
exception thrown through a `noexcept` function (the compiler's `__clang_call_terminate` /
`__cxa_call_terminate` landing pad) or one the C++ personality routine stopped itself
(`__gxx_personality_v0` on the stack between the abort and `__cxa_throw`: the exception was
leaving a `noexcept` function as gcc compiles it, or a destructor that threw while the stack
unwound for another exception, which the finding says when the culprit is a destructor); or,
when stderr is not in the transcript, `std::terminate` / `__cxa_throw` /
`__cxa_rethrow` frames on the crashed thread. The finding names the exception type (from the
message, or from a `std::__throw_out_of_range_fmt`-style frame), quotes `what()`, and names the
culprit: the first frame outside the C++ runtime and the standard library headers, i.e. the
user function whose call threw (`Inventory::lookup` calling `std::vector::at`). Also other
languages' errors that no handler caught: Rust's `fatal runtime error: Rust cannot catch
foreign exceptions` (a C++ exception unwound into Rust; in a core, the
`std::panicking::__rust_foreign_exception` frame), Lua's `PANIC: unprotected error in call to
Lua API (…)` (an error raised outside `lua_pcall`; the culprit is the host function that called
Lua unprotected), and V8's `Uncaught TypeError: …` when node aborts on it
(`--abort-on-uncaught-exception`: a trap in `v8::base::OS::Abort`; the culprit is the first
named function of the JavaScript stack V8 printed after `FROM`).

**Why it matters** The abort is the runtime's reaction, not the bug: the exception's type,
message and throwing call say what went wrong, and no handler was there to catch it (or the
exception left a `noexcept` function or a destructor during unwinding).

**Example** `cpp-uncaught.gdb.txt`: `terminate called after throwing an instance of
'std::out_of_range'`, `what():  vector::_M_range_check: __n (which is 10) >= this->size()
(which is 3)`, frames `__cxa_throw` ← `std::vector<int>::_M_range_check` ←
`std::vector<int>::at` ← `Inventory::lookup (this=…, slot=10) at src/cpp-uncaught.cpp:9`.

Julia: a stop made of `ERROR: T: message` and a `Stacktrace:` (an exception that reached the
top level, often wrapped in `LoadError`). The finding names the innermost exception type and
message and the frame a Julia engineer would look at: the first frame outside Base, Core and
the runtime (`enzyme_extract_world at ~/.julia/dev/Enzyme/src/compiler.jl:2494` for an
`AssertionError` thrown by `@assert` there). Also Julia's `fatal: error thrown and no
exception handler available.` with the exception on the next line (`ErrorException("…")`,
`Core.ReadOnlyMemoryError()`), on whatever stop that output follows: an exception thrown where
no Julia handler was active (C code calling the runtime outside a Julia call, such as a
pointer finalizer or a callback, or the runtime's signal handler turning a fault into an
exception); the process then exits.

**Known false positives** `terminate called without an active exception` has other causes
than a throw (a joinable `std::thread` destroyed, `throw;` outside a handler); the finding
says so. Frames alone (no message) could belong to a throw that a handler further out would
have caught if `std::terminate` had not been called for another reason; those findings are
heuristic."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/cpp-uncaught.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// `std::__throw_*` helpers and the exception type they throw.
const THROWERS: &[(&str, &str)] = &[
    ("std::__throw_out_of_range", "std::out_of_range"),
    ("std::__throw_length_error", "std::length_error"),
    ("std::__throw_logic_error", "std::logic_error"),
    ("std::__throw_invalid_argument", "std::invalid_argument"),
    ("std::__throw_bad_alloc", "std::bad_alloc"),
    ("std::__throw_bad_array_new_length", "std::bad_array_new_length"),
    ("std::__throw_bad_function_call", "std::bad_function_call"),
    ("std::__throw_bad_cast", "std::bad_cast"),
    ("std::__throw_runtime_error", "std::runtime_error"),
    ("std::__throw_system_error", "std::system_error"),
    ("std::__throw_future_error", "std::future_error"),
    ("std::__throw_bad_optional_access", "std::bad_optional_access"),
    ("std::__throw_bad_variant_access", "std::bad_variant_access"),
];

fn is_terminate_frame(name: &str) -> bool {
    name.starts_with("std::terminate")
        || name.starts_with("__cxxabiv1::__terminate")
        || name.starts_with("__gnu_cxx::__verbose_terminate_handler")
        || name.starts_with("__cxa_call_terminate")
        || name.starts_with("__clang_call_terminate")
}

fn is_throw_frame(name: &str) -> bool {
    name.starts_with("__cxa_throw")
        || name.starts_with("__cxa_rethrow")
        || name.starts_with("std::rethrow_exception")
        || name.starts_with("_Unwind_RaiseException")
}

/// Julia `ERROR: [LoadError: ]T: message` with a Stacktrace: an exception nothing caught.
fn julia_error(cx: &RuleContext<'_>, si: usize, stop: &Stop) -> Option<Finding> {
    if stop.reason.kind != StopKind::RuntimeError {
        return None;
    }
    // Only Julia's `ERROR:` report: a Go panic or an LLVM fatal error is a runtime error too,
    // and so is a memory checker's report (valgrind's `Invalid read of size 8` in a Julia
    // process under valgrind).
    if !cx.trace.formats.contains(&Format::Julia) || stop.checker.is_some() {
        return None;
    }
    let th = stop.crashed_thread()?;
    let d = stop.reason.description.as_deref()?;
    let e = stop.reason.julia_error.as_ref()?;
    let (ty, text) = (&*e.exception, &*e.message);
    if th.frames.is_empty() || (ty.is_empty() && text.is_empty()) {
        return None;
    }
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let first_line = text.lines().next().unwrap_or("").trim();
    let short: String = first_line.chars().take(160).collect();
    let mut msg =
        if ty.is_empty() { "uncaught Julia exception".to_string() } else { format!("uncaught Julia exception {ty}") };
    if let Some(c) = culprit {
        msg.push_str(&format!(" thrown in {}", c.location()));
    }
    if !short.is_empty() {
        msg.push_str(&format!(": \"{short}\""));
    }
    let mut f = Finding::new(&RULE, msg).at(si, Some(th), culprit.map(|c| c.index)).rank(75);
    f = f.evidence(format!("ERROR: {}", d.lines().next().unwrap_or(d)), Some(stop.reason.span));
    if !e.wrappers.is_empty() {
        f = f.evidence(format!("the innermost exception is {ty} (wrapped: {})", e.wrappers.join(" → ")), None);
    }
    if let Some(c) = culprit {
        f = f.evidence(
            format!("culprit: #{} {} (first frame outside Base and the runtime)", c.index, c.location()),
            Some(c.span),
        );
    }
    if let Some(top) = th.frames.first().filter(|t| culprit.is_none_or(|c| c.index != t.index)) {
        f = f.evidence(format!("innermost frame: #{} {}", top.index, top.location()), Some(top.span));
    }
    if ty == "AssertionError" {
        f = f.evidence("AssertionError comes from @assert: an invariant the code relies on did not hold", None);
    }
    if let Some(c) = culprit {
        f = f.step(format!("read {} at the throw site: the condition or error call there", c.location()));
    }
    f = f
        .step("reproduce in the REPL and run `err = try … catch e; e end; showerror(stdout, err, catch_backtrace())` (or `show(err)`) for the full message and types")
        .step("Infiltrator.jl `@infiltrate` or Debugger.jl `@enter` just before the throw site to inspect the values");
    Some(f)
}

/// The finding for glibc's `FATAL: exception not rethrown`: the culprit's `catch (...)`
/// swallowed the forced unwind of a cancelled (or exiting) thread.
fn forced_unwind(
    cx: &RuleContext<'_>,
    si: usize,
    stop: &Stop,
    th: Option<&Thread>,
    msg: Option<&Message>,
    cleanup: Option<&Frame>,
) -> Finding {
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let at = culprit.map(|c| format!(" in {}", c.location())).unwrap_or_default();
    let text = format!(
        "thread cancellation unwound through a catch (...) that did not rethrow{at}: pthread_cancel (or pthread_exit) unwinds the thread with a forced-unwind exception (abi::__forced_unwind), a handler caught it and ended normally, and glibc aborted (\"FATAL: exception not rethrown\")"
    );
    let mut f = Finding::new(&RULE, text).at(si, th, culprit.map(|c| c.index)).rank(75);
    if msg.is_none() {
        f.heuristic = true;
    }
    if let Some(m) = msg {
        f = f.evidence(format!("stderr: {}", m.text), Some(m.span));
    }
    if let Some(c) = cleanup {
        f = f.evidence(format!("#{} {} (nptl's cleanup of the forced unwind)", c.index, c.location()), Some(c.span));
    }
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    f = f.step("rethrow it: add `catch (abi::__forced_unwind&) { throw; }` (<cxxabi.h>) before the catch (...), or disable cancellation around the code (pthread_setcancelstate)");
    if let Some(c) = culprit {
        f = f.step(format!("frame {}", c.index)).step("info locals");
    }
    f
}

/// Rust's `fatal runtime error: Rust cannot catch foreign exceptions`: a C++ exception (or any
/// other language's) unwound out of foreign code into Rust frames; Rust's panic machinery
/// cannot catch it and aborts.
fn foreign_exception(
    cx: &RuleContext<'_>,
    si: usize,
    stop: &Stop,
    th: Option<&Thread>,
    m: Option<&Message>,
    frame: Option<&Frame>,
) -> Finding {
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let at = culprit.map(|c| format!(" (last Rust-side frame {})", c.location())).unwrap_or_default();
    let text = format!(
        "a foreign exception unwound into Rust{at}: a C++ function called through FFI (`extern \"C-unwind\"`, or a callback) threw, the exception left the foreign code, and Rust, which cannot catch it, aborted (\"Rust cannot catch foreign exceptions\")"
    );
    let mut f = Finding::new(&RULE, text).at(si, th, culprit.map(|c| c.index)).rank(75);
    if let Some(m) = m {
        f = f.evidence(format!("stderr: {}", m.text), Some(m.span));
    } else if let Some(fr) = frame {
        // A core has no stderr: the abort's own frame says it.
        f = f.heuristic().evidence(format!("#{} {}", fr.index, fr.function_name()), Some(fr.span));
    }
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    f.step("catch the exception on the C++ side of the boundary (try/catch around the call, log what(), return an error code)")
        .step("break on the throw: `catch throw` in gdb, `br set -E c++` in lldb, then bt")
}

/// Lua's `PANIC: unprotected error in call to Lua API (…)`: a Lua error (the `error()` of a
/// script or a C function's `luaL_error`) was raised with no protected call (`lua_pcall`)
/// to catch it, so Lua's panic function reported it and the host was aborted. The culprit is
/// the host's function that called into Lua unprotected (`lua_call` rather than `lua_pcall`).
fn lua_panic(cx: &RuleContext<'_>, si: usize, stop: &Stop, th: Option<&Thread>, m: &Message) -> Finding {
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let at = culprit.map(|c| format!(" in {}", c.location())).unwrap_or_default();
    let error = crate::messages::lua_panic_error(&m.text);
    let text = format!(
        "a Lua error had no handler{at}: it was raised outside any protected call, so Lua's panic function printed it (\"unprotected error in call to Lua API\") and the host program aborted{}",
        error.map(|e| format!("; the error: {e}")).unwrap_or_default()
    );
    let mut f = Finding::new(&RULE, text).at(si, th, culprit.map(|c| c.index)).rank(75);
    f = f.evidence(format!("stderr: {}", m.text.trim()), Some(m.span));
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    f.step("call into Lua with lua_pcall (or install a message handler) and handle the error it returns")
}

/// V8's `Uncaught TypeError: …` when the process aborts on an uncaught exception (node
/// `--abort-on-uncaught-exception`): V8 stops the process in `v8::base::OS::Abort` (a trap
/// or abort) after printing the error and its JavaScript stack. The native frames are all
/// the runtime's; the code that threw is the JavaScript stack's first named function.
fn v8_uncaught(cx: &RuleContext<'_>, si: usize, stop: &Stop) -> Option<Finding> {
    let m = stop.messages.iter().rfind(|m| m.detail == Some(MessageDetail::V8Uncaught))?;
    let th = stop.crashed_thread()?;
    if !th.frames.iter().any(|f| crate::roles::without_params(f.function_name()) == "v8::base::OS::Abort") {
        return None;
    }
    let site = crate::messages::js_site(stop);
    let at = site.as_ref().map(|s| format!(" in {}", s.function)).unwrap_or_default();
    let text = format!(
        "uncaught JavaScript exception{at}: {} (V8 aborted the process on it: --abort-on-uncaught-exception)",
        crate::messages::v8_uncaught_error(&m.text)
    );
    let mut f = Finding::new(&RULE, text).at(si, Some(th), None).rank(75);
    f = f.evidence(format!("stderr: {}", m.text.trim()), Some(m.span));
    if let Some(s) = site {
        let loc = match (&s.file, s.line) {
            (Some(file), Some(line)) => format!(" at {file}:{line}"),
            _ => String::new(),
        };
        f = f.evidence(format!("JavaScript stack: {}{loc}", s.function), None);
    }
    let _ = cx;
    Some(f.step("catch the exception (try/catch, or a .catch on the promise), or check the value before using it"))
}

/// Julia's `fatal: error thrown and no exception handler available.` with the exception on the
/// next line: the runtime's `jl_no_exc_handler` (the process then exits). It follows a stop
/// with any reason (output after a `continue` joins the stop it continued from), whose frames
/// show where the code that threw was running.
fn julia_no_handler(cx: &RuleContext<'_>, si: usize, stop: &Stop) -> Option<Finding> {
    let m = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::JuliaNoHandler))?;
    let exc = stop
        .messages
        .iter()
        .find(|x| x.span.first == m.span.first + 1)
        .map(|x| x.text.trim())
        .filter(|t| !t.is_empty() && t.len() < 400);
    let th = stop.crashed_thread();
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let mut msg = match exc {
        Some(e) => format!("uncaught Julia exception {e}: the runtime found no exception handler"),
        None => "uncaught Julia exception: the runtime found no exception handler".to_string(),
    };
    // Where the program was: the culprit, or (a breakpoint stop has none) the innermost frame.
    if let Some(c) = culprit.or_else(|| th.and_then(|t| t.frames.first())) {
        msg.push_str(&format!(" (the program was in {})", c.location()));
    }
    msg.push_str(": it was thrown where no Julia try (and no task's base handler) was active, e.g. in C code that calls the runtime (a pointer finalizer, a callback, an embedding's call), or by the runtime's signal handler turning a fault into an exception (ReadOnlyMemoryError, a stack overflow)");
    let mut f = Finding::new(&RULE, msg).at(si, th, culprit.map(|c| c.index)).rank(50);
    f = f.evidence(format!("stderr: {}", m.text.trim()), Some(m.span));
    if let Some(e) = exc {
        f = f.evidence(format!("the exception: {e}"), None);
    }
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    f = f
        .step("break ijl_throw (by its ELF address when the debug info is shifted) and bt: the throw site and who called the runtime")
        .step("call the runtime from C only inside a Julia call that catches (a @ccallable or @cfunction entry, jl_call with jl_exception_occurred), never from a C finalizer or an unadopted thread");
    Some(f)
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        if let Some(f) = julia_no_handler(cx, si, stop) {
            out.push(f);
            continue;
        }
        if let Some(f) = v8_uncaught(cx, si, stop) {
            out.push(f);
            continue;
        }
        if !stop.abort_like() {
            continue;
        }
        if let Some(f) = julia_error(cx, si, stop) {
            out.push(f);
            continue;
        }
        let th = stop.crashed_thread();
        let frames: &[Frame] = th.map(|t| t.frames.as_slice()).unwrap_or(&[]);
        let term = stop.messages.iter().find(|m| m.kind == Some(MessageKind::UncaughtException));
        let what = term.and_then(|t| {
            stop.messages.iter().find(|m| m.span.first > t.span.first && m.detail == Some(MessageDetail::ExceptionWhat))
        });
        let terminate_frame = frames.iter().find(|f| is_terminate_frame(f.function_name()));
        let throw_frame = frames.iter().find(|f| is_throw_frame(f.function_name()));
        // `pure virtual method called` (libstdc++'s __cxa_pure_virtual) then std::terminate.
        let pure = stop
            .messages
            .iter()
            .find(|m| matches!(m.detail, Some(MessageDetail::PureVirtualCall | MessageDetail::DeletedVirtualCall)));
        // Only inner to the program's first frame: the runtime's `__cxa_pure_virtual` calls
        // std::terminate itself. One outer to it is a symbolizer's nearest-symbol guess for
        // some other code of the same binary (lldb names an address in node's stripped text
        // `__cxa_pure_virtual + 16`, frames below an N-API addon).
        let inner = frames.iter().position(|f| !crate::roles::is_machinery(f) && f.function.is_some());
        let pure_frame = frames[..inner.unwrap_or(frames.len())]
            .iter()
            .find(|f| matches!(f.function_name(), "__cxa_pure_virtual" | "__cxa_deleted_virtual"));
        // A noexcept boundary: the compiler's landing pad that calls std::terminate.
        let noexcept_frame =
            frames.iter().find(|f| matches!(f.function_name(), "__clang_call_terminate" | "__cxa_call_terminate"));
        // The C++ personality routine on the stack at std::terminate: it stopped the throw
        // itself, because the exception was about to leave a region that may not throw (a
        // `noexcept` function as gcc compiles it, or a destructor that runs while another
        // exception unwinds the stack). A throw that finds no handler at all terminates from
        // `__cxa_throw` after the unwinder returns, with no personality frame left.
        let personality_frame = frames
            .iter()
            .position(|f| f.function_name() == "__gxx_personality_v0")
            .filter(|&p| frames[p..].iter().any(|f| is_throw_frame(f.function_name())))
            .map(|p| &frames[p]);
        // glibc's `FATAL: exception not rethrown` (`__libc_fatal` called from nptl's
        // `unwind_cleanup`): a thread cancelled or ending with pthread_exit unwinds with a
        // forced-unwind exception, and a `catch (...)` finished without rethrowing it. The
        // message, or in a core (no stderr) the frames.
        let foreign_msg = term.filter(|t| t.detail == Some(MessageDetail::ForeignException));
        let foreign_frame = frames.iter().find(|f| crate::messages::is_foreign_exception_frame(f.function_name()));
        if foreign_msg.is_some() || foreign_frame.is_some() {
            out.push(foreign_exception(cx, si, stop, th, foreign_msg, foreign_frame));
            continue;
        }
        if let Some(m) = term.filter(|t| t.detail == Some(MessageDetail::LuaUnprotectedError)) {
            out.push(lua_panic(cx, si, stop, th, m));
            continue;
        }
        let forced_msg = term.filter(|t| t.detail == Some(MessageDetail::ForcedUnwindNotRethrown));
        let forced_frame = frames
            .iter()
            .position(|f| f.function_name() == "unwind_cleanup")
            .filter(|&p| frames[..p].iter().any(|f| matches!(f.function_name(), "__GI___libc_fatal" | "__libc_fatal")));
        if let Some(p) = forced_frame.or_else(|| forced_msg.map(|_| usize::MAX)) {
            out.push(forced_unwind(cx, si, stop, th, forced_msg, frames.get(p)));
            continue;
        }
        if term.is_none() && terminate_frame.is_none() && pure_frame.is_none() && personality_frame.is_none() {
            continue;
        }
        let ty = term.and_then(|t| t.thrown.as_deref().map(str::to_string)).or_else(|| {
            frames.iter().find_map(|f| {
                THROWERS.iter().find(|(p, _)| f.function_name().starts_with(p)).map(|(_, t)| t.to_string())
            })
        });
        let culprit = cx.named_culprit(stop).map(|(_, f)| f);
        let what_text = what.and_then(|w| w.what.as_deref().map(str::to_string));
        let from = culprit.map(|c| format!(" from {}", c.location())).unwrap_or_default();
        let no_active = term.is_some_and(|t| t.detail == Some(MessageDetail::TerminateWithoutException));
        let recursive = term.is_some_and(|t| t.detail == Some(MessageDetail::TerminateRecursively));
        let at = culprit.map(|c| format!(" in {}", c.location())).unwrap_or_default();
        let mut msg = if pure.is_some() || pure_frame.is_some() {
            let deleted = pure.is_some_and(|m| m.detail == Some(MessageDetail::DeletedVirtualCall))
                || pure_frame.is_some_and(|f| f.function_name() == "__cxa_deleted_virtual");
            if deleted {
                format!(
                    "deleted virtual method called{at}: a virtual call reached a deleted function (objects of mismatched builds or an ODR violation), and std::terminate aborted"
                )
            } else {
                format!(
                    "pure virtual method called{at}: a virtual call reached a pure virtual function; either it came from a base-class constructor or destructor (the object is only its base part then), or the object was already destroyed (a dangling pointer); std::terminate aborted"
                )
            }
        } else if no_active {
            format!(
                "std::terminate called without an active exception{} (a joinable std::thread destroyed, or `throw;` outside a handler)",
                culprit.map(|c| format!(" in {}", c.location())).unwrap_or_default()
            )
        } else if recursive {
            format!(
                "std::terminate called recursively{}: an exception escaped while terminating",
                culprit.map(|c| format!(" in {}", c.location())).unwrap_or_default()
            )
        } else {
            match &ty {
                Some(t) => format!("uncaught {t}{from}"),
                None => format!("uncaught exception{from}"),
            }
        };
        if let Some(w) = &what_text {
            msg.push_str(&format!(": \"{w}\""));
        }
        if let Some(n) = noexcept_frame
            && pure.is_none()
            && pure_frame.is_none()
        {
            msg.push_str(&format!(
                "; it was thrown through a noexcept function{} (#{} {} is the compiler's terminate landing pad): std::terminate was called without looking for a handler",
                culprit.map(|c| format!(" ({})", c.function_name())).unwrap_or_default(),
                n.index,
                n.function_name()
            ));
        }
        let personality_frame =
            personality_frame.filter(|_| noexcept_frame.is_none() && pure.is_none() && pure_frame.is_none());
        if let Some(p) = personality_frame {
            match culprit.filter(|c| c.function_name().contains("::~")) {
                Some(c) => msg.push_str(&format!(
                    "; it was thrown from the destructor {} while the stack was unwinding for another exception (or the destructor is noexcept): the C++ runtime's personality routine (#{} {}) called std::terminate",
                    c.function_name(),
                    p.index,
                    p.function_name()
                )),
                None => msg.push_str(&format!(
                    "; the C++ runtime's personality routine (#{} {}) called std::terminate: the exception was leaving a function that may not throw (noexcept) or a destructor running during unwinding",
                    p.index,
                    p.function_name()
                )),
            }
        }
        let mut f = Finding::new(&RULE, msg).at(si, th, culprit.map(|c| c.index)).rank(75);
        if term.is_none() && pure.is_none() && pure_frame.is_none() {
            f.heuristic = true;
        }
        if let Some(p) = pure {
            f = f.evidence(format!("stderr: {}", p.text), Some(p.span));
        }
        for fr in [pure_frame, noexcept_frame, personality_frame].into_iter().flatten() {
            f = f.evidence(format!("#{} {}", fr.index, fr.location()), Some(fr.span));
        }
        if let Some(t) = term {
            f = f.evidence(format!("stderr: {}", t.text), Some(t.span));
        }
        if let Some(w) = what {
            f = f.evidence(format!("stderr: {}", w.text), Some(w.span));
        }
        for fr in [throw_frame, terminate_frame].into_iter().flatten() {
            f = f.evidence(format!("#{} {}", fr.index, fr.location()), Some(fr.span));
        }
        if let Some(c) = culprit {
            f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
        }
        f = f.step("catch throw (then run again) to stop where the exception is thrown");
        if let Some(c) = culprit {
            f = f.step(format!("frame {}", c.index)).step("info locals");
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminate_from_the_personality_routine_names_the_destructor() {
        // crashers/cpp-dtor-throw: a destructor throws while the stack unwinds for another
        // exception; __gxx_personality_v0 is on the stack between abort and __cxa_throw.
        let f = run_rule_on_sample(&RULE, "crashers/cpp-dtor-throw.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("thrown from the destructor Journal::~Journal while the stack was unwinding"),
            "{}",
            f[0].message
        );
        // Look-alike: a throw nothing catches terminates from __cxa_throw, with no personality
        // frame left on the stack: no such clause.
        let f = run_rule_on_sample(&RULE, "cpp-uncaught.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(!f[0].message.contains("personality"), "{}", f[0].message);
    }
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn fires_on_cpp_uncaught_sample() {
        let f = run_rule_on_sample(&RULE, "cpp-uncaught.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "uncaught std::out_of_range from Inventory::lookup at src/cpp-uncaught.cpp:9: \"vector::_M_range_check: __n (which is 10) >= this->size() (which is 3)\""
        );
        assert_eq!(f[0].frame, Some(11));
        assert!(!f[0].heuristic);
        let lines: Vec<Option<u32>> = f[0].evidence.iter().map(|e| e.lines.map(|l| l.first)).collect();
        assert_eq!(lines[..2], [Some(4), Some(5)]);
        assert!(f[0].evidence.iter().any(|e| e.text.starts_with("#7 __cxa_throw")));
    }

    #[test]
    fn quiet_on_go_panics_and_llvm_fatal_errors() {
        let go = "panic: job 3: checksum mismatch\n\ngoroutine 1 [running]:\nmain.handle(0x3)\n\t/src/main.go:12 +0x65\nmain.main()\n\t/src/main.go:20 +0x1d\n";
        assert!(run_rule(&RULE, go).is_empty());
        let llvm = "LLVM ERROR: cannot select\nPLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.\nStack dump:\n #0 0x00007f2f9fca5291 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/lib/libLLVM.so+0xea5291)\n #1 0x00007f2fa621971f llvm::SelectionDAGISel::Select(llvm::SDNode*) (/lib/libLLVM.so+0xa1971f)\n";
        assert!(run_rule(&RULE, llvm).is_empty());
    }

    #[test]
    fn quiet_on_other_aborts() {
        for s in [
            "glibc-abort.gdb.txt",
            "assert-fail.gdb.txt",
            "rust-panic.gdb.txt",
            "stack-chk.gdb.txt",
            "null-field.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn frames_only_is_heuristic_and_type_from_thrower() {
        let t = "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  0x00007ffff7aa8eec in __pthread_kill_implementation () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x00007ffff7a44472 in abort () from /lib/x86_64-linux-gnu/libc.so.6
#2  0x00007ffff7c9d919 in ?? () from /lib/x86_64-linux-gnu/libstdc++.so.6
#3  0x00007ffff7ca8e85 in std::terminate() () from /lib/x86_64-linux-gnu/libstdc++.so.6
#4  0x00007ffff7ca90d8 in __cxa_throw () from /lib/x86_64-linux-gnu/libstdc++.so.6
#5  0x00007ffff7ca026d in std::__throw_length_error(char const*) () from /lib/x86_64-linux-gnu/libstdc++.so.6
#6  0x00005555555552a1 in grow (v=...) at src/g.cpp:7
#7  0x000055555555522e in main () at src/g.cpp:21
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "uncaught std::length_error from grow at src/g.cpp:7");
        assert!(f[0].heuristic);
        // The same frames at a SIGSEGV stop are not this rule's business.
        assert!(run_rule(&RULE, &t.replace("SIGABRT, Aborted", "SIGSEGV, Segmentation fault")).is_empty());
    }

    #[test]
    fn terminate_without_active_exception() {
        let t = "\
terminate called without an active exception

Program received signal SIGABRT, Aborted.
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("std::terminate called without an active exception"), "{}", f[0].message);
    }
}
