//! Faults the eleventh round of new crash shapes found (`sample-traces/crashers`, issue #11):
//! native code hosted by a language runtime (CPython extensions and faulthandler, JNI under
//! HotSpot, N-API addons under Node, Lua's C API, Perl XS), other languages' uncaught errors
//! (Lua's unprotected error, V8's uncaught exception, a C++ exception unwinding into Rust), and
//! a gdb transcript whose `frame 1` contradicts its own backtrace. Each is read from its real
//! recording (gdb 13, lldb 14) or from a core of the rebuilt program, with look-alike negative
//! controls: the same text edited where a comment says so, or another real recording that
//! resembles it.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{message, read, read_text, text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The runtime's API is where the program called the runtime, not the code that went wrong:
/// CPython's `_Py_FatalErrorFunc` (in the python3.11 executable, the process's own), HotSpot's
/// `os::abort(bool, void*, void const*) [clone .cold]` and `jni_FatalError`, Node's
/// `node::OnFatalError(char const*, char const*)` and `napi_fatal_error`.
#[test]
fn a_runtimes_fatal_error_api_is_the_runtimes() {
    for name in ["py-fatal-error.gdb.txt", "py-fatal-error.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("check_cache"), "{name}");
        assert!(r.rules.is_empty(), "{name}: {:?}", r.rules);
    }
    for name in ["jni-fatal-error.gdb.txt", "jni-fatal-error.lldb.txt"] {
        assert_eq!(read(name).culprit.as_deref(), Some("Java_JniFatal_parseHeader"), "{name}");
    }
    for name in ["node-napi-fatal.gdb.txt", "node-napi-fatal.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("take_slot"), "{name}");
        // lldb names an address deep in node's stripped text `__cxa_pure_virtual + 16`, far
        // outer to the addon: no pure virtual call.
        assert!(!r.rules.contains(&"uncaught-exception"), "{name}: {:?}", r.messages);
    }
    // Look-alike: an extension's own module initializer (`PyInit_<module>`) is the extension's.
    let t = text("py-fatal-error.gdb.txt").replace("in check_cache (self=", "in PyInit_py_fatal_error (self=");
    assert_ne!(t, text("py-fatal-error.gdb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("PyInit_py_fatal_error"));
    // Look-alike: a program's own function whose name starts with `py` but not CPython's
    // `Py` + capital is the program's.
    let t = text("py-fatal-error.gdb.txt").replace("in check_cache (self=", "in pycache_check (self=");
    assert_eq!(read_text(&t).culprit.as_deref(), Some("pycache_check"));
    // And a pure virtual call inner to the program's frame still is one.
    assert!(message(&read("cpp-pure-virtual.gdb.txt"), "uncaught-exception").starts_with("pure virtual method called"));
}

/// A recursion inside the interpreter (list repr, 1500 frames): no frame is the program's and
/// the recursion's own frames have no name, so the runtime's first named function is the
/// culprit, as for a stack that is all V8's (`tests/wild_pass7.rs`).
#[test]
fn an_interpreter_recursion_names_the_interpreter() {
    for name in ["py-recursion-overflow.gdb.txt", "py-recursion-overflow.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("PyDict_GetItemWithError"), "{name}");
        assert!(r.rules.contains(&"stack-overflow"), "{name}: {:?}", r.rules);
    }
}

/// Lua's `PANIC: unprotected error in call to Lua API (…)` is an error nothing caught; the
/// culprit is the host function that called Lua unprotected (`lua_callk` is Lua's API).
#[test]
fn luas_unprotected_error_is_uncaught() {
    for name in ["lua-panic-unprotected.gdb.txt", "lua-panic-unprotected.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("read_limit"), "{name}");
        let m = message(&r, "uncaught-exception");
        assert!(m.starts_with("a Lua error had no handler in read_limit"), "{name}: {m}");
        assert!(m.contains("attempt to index a nil value (field 'limits')"), "{name}: {m}");
    }
    // Look-alike: the same error caught by lua_pcall and logged; the program then reads
    // through its own NULL fallback table.
    let r = read("lua-pcall-legal.gdb.txt");
    assert!(!r.rules.contains(&"uncaught-exception"), "{:?}", r.messages);
    assert!(r.rules.contains(&"null-dereference"));
    // Look-alike: the text without the error in parentheses (a log line quoting Lua's words).
    let t = text("lua-panic-unprotected.gdb.txt").replace(
        "PANIC: unprotected error in call to Lua API ([string",
        "note: the unprotected error in call to Lua API ([string",
    );
    assert_ne!(t, text("lua-panic-unprotected.gdb.txt"));
    assert!(!read_text(&t).rules.contains(&"uncaught-exception"));
}

/// node --abort-on-uncaught-exception: V8 prints `Uncaught TypeError: …`, `FROM` and the
/// JavaScript stack, then traps in `v8::base::OS::Abort`. A JavaScript null is no native NULL
/// dereference; the culprit is the stack's first named function.
#[test]
fn v8s_uncaught_exception_names_the_javascript_function() {
    let r = read("node-abort-uncaught.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("total"));
    let m = message(&r, "uncaught-exception");
    assert!(m.starts_with("uncaught JavaScript exception in total: TypeError: Cannot read properties of null"), "{m}");
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: without V8's `FROM` stack there is no JavaScript function to name.
    let t = text("node-abort-uncaught.gdb.txt").replacen("\nFROM\n", "\nfrom\n", 1);
    assert_ne!(t, text("node-abort-uncaught.gdb.txt"));
    assert_ne!(read_text(&t).culprit.as_deref(), Some("total"));
}

/// HotSpot's fatal error report inside a gdb transcript (the JVM's handler ran: gdb passed
/// SIGSEGV): its `siginfo:` line gives the fault address; `No core dump will be written` does
/// not end the report. At the JVM's own start-up probe (gdb's default stop), the NULL read is
/// the runtime's and the finding says so.
#[test]
fn hotspot_reports_and_probes() {
    for name in ["jni-null.gdb.txt", "jni-null.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("Java_JniNull_checksum"), "{name}");
        assert!(message(&r, "null-dereference").contains("0x0"), "{name}: {:?}", r.messages);
    }
    let r = read("jvm-probe-legal.gdb.txt");
    let m = message(&r, "null-dereference");
    assert!(m.contains("in a process running the JVM") && m.contains("not by itself a crash"), "{m}");
    // gdb walks guessed frames past the stub into libjvm (the function that runs the probe);
    // lldb stops at the stub.
    assert_eq!(r.culprit.as_deref(), Some("VM_Version::get_processor_features()"));
    assert!(unnamed(&read("jvm-probe-legal.lldb.txt").culprit));
}

/// No function: no culprit, or a frame without a symbol (gdb's `??`, lldb's
/// `___lldb_unnamed_symbolN`), which the JSON report gives as no function.
fn unnamed(c: &Option<String>) -> bool {
    c.as_deref().is_none_or(|c| c == "??" || c.starts_with("___lldb_unnamed_symbol"))
}

/// V8's embedded builtins (`Builtins_CEntry_…`) have no unwind information: the frames gdb
/// prints past them are guesses (an info finding), not a corrupt stack.
#[test]
fn past_v8_builtins_the_unwinder_guesses() {
    let r = read("node-napi-null.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("decode_frame"));
    assert!(message(&r, "null-dereference").contains("0x4"));
    let m = message(&r, "corrupt-backtrace");
    assert!(m.contains("could only guess the caller of #5 Builtins_CEntry"), "{m}");
    assert!(m.contains("a V8 builtin") && m.ends_with("this alone is no evidence of a corrupt stack"), "{m}");
}

/// A C++ exception that unwound into Rust aborts with `fatal runtime error: Rust cannot catch
/// foreign exceptions`: an uncaught exception, not a panic (its frames are the panic
/// runtime's).
#[test]
fn a_foreign_exception_is_no_panic() {
    for name in ["rust-foreign-exception.gdb.txt", "rust-foreign-exception.lldb.txt"] {
        let r = read(name);
        assert!(message(&r, "uncaught-exception").starts_with("a foreign exception unwound into Rust"), "{name}");
        assert!(!r.rules.contains(&"panic"), "{name}: {:?}", r.messages);
        assert_eq!(r.culprit.as_deref(), Some("rust_foreign_exception::load"), "{name}");
    }
    // Look-alike: two Rust panics are panics.
    assert!(read("rust-two-panics.gdb.txt").rules.contains(&"panic"));
}

/// gdb's `frame 1` after `info threads` printed `#1 0x0000555555554470 in ?? ()` where its
/// backtrace had `#1 _dl_runtime_resolve_xsavec` (the fs base was clobbered, and libthread_db
/// reread the thread through it): the named frame of the backtrace stands, so no corrupt
/// backtrace; the fault is a wild read in ld.so on behalf of switch_to.
#[test]
fn a_bare_refetched_frame_does_not_replace_the_backtrace() {
    let r = read("tls-fs-clobbered.gdb.txt");
    assert!(!r.rules.contains(&"corrupt-backtrace"), "{:?}", r.messages);
    assert_eq!(r.culprit.as_deref(), Some("switch_to"));
    assert!(message(&r, "wild-pointer").contains("0x7ffff7fc07c0"));
    assert_eq!(r.frames[1], "_dl_runtime_resolve_xsavec");
    // Look-alike: when the backtrace itself printed that bare frame, it is garbage.
    let t = text("tls-fs-clobbered.gdb.txt").replace(
        "#1  0x00007ffff7fdc30a in _dl_runtime_resolve_xsavec () at ../sysdeps/x86_64/dl-trampoline.h:130",
        "#1  0x0000555555554470 in ?? ()",
    );
    assert_ne!(t, text("tls-fs-clobbered.gdb.txt"));
    assert!(read_text(&t).rules.contains(&"corrupt-backtrace"));
}

/// glibc 2.36's `Fatal glibc error: malloc assertion failure in sysmalloc: …` is heap
/// corruption (the top chunk's size was overwritten), not the program's assertion.
#[test]
fn a_malloc_assertion_is_heap_corruption() {
    for name in ["glibc-sysmalloc-assert.gdb.txt", "glibc-sysmalloc-assert.lldb.txt"] {
        let r = read(name);
        assert!(message(&r, "heap-corruption").contains("sysmalloc"), "{name}");
        assert!(!r.rules.contains(&"assertion-failure"), "{name}: {:?}", r.rules);
    }
    // Look-alike: the program's own assert in a Python extension is an assertion failure.
    let r = read("py-dump-then-assert.gdb.txt");
    assert!(message(&r, "assertion-failure").contains("pending <= 64"));
    assert!(!r.rules.contains(&"null-dereference") && !r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
}

/// What tracecheck reports for a core: the culprit's function and each finding's rule.
fn read_core(dir: &Path, name: &str) -> (Option<String>, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--fail-on", "never", "--exe"])
        .arg(dir.join(name))
        .arg(dir.join(format!("{name}.core")))
        .output()
        .expect("run tracecheck");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let stop = &v["inputs"][0]["stops"][0];
    let rules = v["inputs"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["rule"].as_str().unwrap_or("").to_string())
        .collect();
    (stop["culprit"]["function"].as_str().map(str::to_string), rules)
}

fn cores(names: &[&str]) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-shapes11-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = common::samples_dir().join("crashers/regenerate.sh");
    let out = Command::new("bash").arg(script).arg("--cores").arg(&dir).args(names).output().expect("regenerate.sh");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    dir
}

/// Cores of the rebuilt programs (no stderr): CPython's and Lua's API frames are the runtime's,
/// and Rust's `__rust_foreign_exception` frame says a foreign exception aborted.
#[test]
fn cores_of_hosted_code() {
    if !common::require_tools(&["gcc", "g++", "rustc", "gdb", "bash", "python3.11-config"]) {
        return;
    }
    let dir = cores(&["py-fatal-error", "lua-panic-unprotected", "rust-foreign-exception"]);
    assert_eq!(read_core(&dir, "py-fatal-error").0.as_deref(), Some("check_cache"));
    assert_eq!(read_core(&dir, "lua-panic-unprotected").0.as_deref(), Some("read_limit"));
    let (c, rules) = read_core(&dir, "rust-foreign-exception");
    assert_eq!(c.as_deref(), Some("rust_foreign_exception::load"));
    assert!(rules.contains(&"uncaught-exception".to_string()) && !rules.contains(&"panic".to_string()), "{rules:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
