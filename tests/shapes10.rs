//! Faults the tenth round of new crash shapes found (`sample-traces/crashers`, issue #11): D and
//! Ada programs (their symbols as the debuggers print them), glibc's fortified `FD_SET`, a
//! panic inside Rust's panic hook, an assert in a SIGALRM handler, a Go runtime error's
//! standard-library frames in a `-trimpath` build, a program's log line quoting a runtime error,
//! and lldb's spelling of template functions, fortified `read` and cgo's wrappers. Each is read
//! from its real recording (gdb 13, lldb 14) or from a core of the rebuilt program, with
//! look-alike negative controls: the same text edited where a comment says so, or another real
//! recording that resembles it.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{message, read, read_text, text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// gdb 13 prints gdc's symbols mangled (`_D9nullclass9Tokenizer4peekMFZi`), lldb 14 too; gdb
/// decodes GNAT's, lldb prints them as symbols (`ada_null_access__count_of.0`). Either way the
/// culprit is named as gdb names it in the language's own terms.
#[test]
fn d_and_ada_functions_are_named_in_their_language() {
    for name in ["d-null-class.gdb.txt", "d-null-class.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("nullclass.Tokenizer.peek"), "{name}");
        assert_eq!(r.frames[1], "nullclass.countTokens", "{name}");
        assert!(message(&r, "null-dereference").contains("0x10"), "{name}: {:?}", r.messages);
    }
    for name in ["ada-null-access.gdb.txt", "ada-null-access.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("ada_null_access.count_of"), "{name}");
        assert!(message(&r, "null-dereference").contains("0x4"), "{name}");
    }
    // Look-alike: a D nested function's symbol (identifiers after a function type) is not
    // the plain shape; it is kept as printed rather than named wrongly.
    let t = text("d-null-class.gdb.txt")
        .replace("_D9nullclass9Tokenizer4peekMFZi (this=0x0)", "_D9nullclass9Tokenizer4peekMFZ4implFZi (this=0x0)");
    assert_ne!(t, text("d-null-class.gdb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("_D9nullclass9Tokenizer4peekMFZ4implFZi"));
    // Look-alike: GNAT's shape from a C source file is that C function's own name.
    let t = text("ada-null-access.lldb.txt").replace(
        "ada_null_access__count_of.0 at ada_null_access.adb:27:7",
        "ada_null_access__count_of.0 at lookup.c:27:7",
    );
    assert_ne!(t, text("ada-null-access.lldb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("ada_null_access__count_of.0"));
}

/// glibc's fortified `FD_SET` (`__fdelt_chk`) has its own message; the finding says what it
/// means, not "buffer overflow".
#[test]
fn a_descriptor_past_fd_setsize_is_named() {
    for name in ["fortify-fdset.gdb.txt", "fortify-fdset.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("wait_readable"), "{name}");
        let m = message(&r, "heap-corruption");
        assert!(m.contains("FD_SETSIZE (1024)") && m.contains("bit out of range"), "{name}: {m}");
    }
    // Look-alike: a fortified read() past its buffer is the ordinary overflow message.
    let r = read("fortify-read-stack.gdb.txt");
    let m = message(&r, "heap-corruption");
    assert!(m.contains("buffer overflow detected by a fortified libc call in read_body"), "{m}");
    assert!(!m.contains("FD_SET"), "{m}");
}

/// A panic inside the panic hook: Rust prints the location without a thread and then
/// `thread panicked while processing panic. aborting.`; the first panic is never reported.
#[test]
fn a_panic_inside_the_panic_hook() {
    for name in ["rust-panic-in-hook.gdb.txt", "rust-panic-in-hook.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("rust_panic_in_hook::report_panic"), "{name}");
        let m = message(&r, "panic");
        assert!(
            m.starts_with("panic while processing a panic (inside the panic hook) at src/rust-panic-in-hook.rs:11:29"),
            "{name}: {m}"
        );
        assert!(m.contains("Rust aborted (\"thread panicked while processing panic. aborting.\")"), "{name}: {m}");
    }
    // Look-alike: without the abort line, the header alone is a panic's, with no word of a
    // nested one.
    let t = text("rust-panic-in-hook.gdb.txt").replace("thread panicked while processing panic. aborting.\n", "");
    assert_ne!(t, text("rust-panic-in-hook.gdb.txt"));
    let r = read_text(&t);
    assert!(!message(&r, "panic").contains("Rust aborted"), "{:?}", r.messages);
    // Look-alike: `panicked at` followed by no source location is not a panic header.
    let t = text("rust-panic-in-hook.gdb.txt")
        .replace("panicked at src/rust-panic-in-hook.rs:11:29:", "panicked at the sight of it:");
    let r = read_text(&t);
    assert!(!message(&r, "panic").contains("inside the panic hook"), "{:?}", r.messages);
}

/// An assert that fails in a SIGALRM handler is the handler's own: the interrupted loop below
/// `<signal handler called>` did nothing wrong.
#[test]
fn a_handlers_own_assert_is_the_handlers() {
    for name in ["handler-assert.gdb.txt", "handler-assert.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("on_tick"), "{name}");
        assert!(message(&r, "assertion-failure").contains("samples <= budget"), "{name}");
    }
    // Look-alike: the same assert in a SIGSEGV handler (sig=11) is reporting the fault below it.
    let t = text("handler-assert.gdb.txt").replace("on_tick (sig=14)", "on_tick (sig=11)");
    assert_ne!(t, text("handler-assert.gdb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("sample_loop"));
    // And a handler that aborts without an assertion (it prints psiginfo) still points below.
    assert_eq!(read("handler-psiginfo.gdb.txt").culprit.as_deref(), Some("store_total"));
}

/// Go's runtime prints the standard library's files by import path (`sync/mutex.go`), as a
/// `-trimpath` build's debug info does: those frames are the library's.
#[test]
fn go_standard_library_frames_by_import_path() {
    let r = read("go-unlock-unlocked.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("main.(*Store).put.func1"));
    assert!(!r.rules.contains(&"panic"), "{:?}", r.rules);
    // Look-alike: the same function in the program's own file (`./mutex.go`) is the program's.
    let t = text("go-unlock-unlocked.gdb.txt").replace("\tsync/mutex.go:229 ", "\t./mutex.go:229 ");
    assert_ne!(t, text("go-unlock-unlocked.gdb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("sync.(*Mutex).unlockSlow"));
}

/// A program's log line quoting a Go runtime error (`recovered in handler: runtime error: …`)
/// is no UndefinedBehaviorSanitizer report: UBSan's line starts at a source location.
#[test]
fn ubsan_reports_start_at_a_location() {
    for name in ["go-recover-then-nil.gdb.txt", "go-recover-then-nil.lldb.txt"] {
        let r = read(name);
        assert!(!r.rules.contains(&"undefined-behavior"), "{name}: {:?}", r.rules);
        assert_eq!(r.culprit.as_deref(), Some("main.(*Session).user"), "{name}");
        assert!(r.rules.contains(&"null-dereference"), "{name}: {:?}", r.rules);
    }
    // Look-alike: UBSan's own line, at its location, still is a report.
    let r = read("ubsan-misaligned.gdb.txt");
    assert!(message(&r, "undefined-behavior").contains("misaligned"), "{:?}", r.messages);
}

/// lldb 14's spellings: a function template with its return type
/// (`void std::__throw_with_nested_impl<…>`), glibc's fortified `read` inlined from
/// `unistd.h`, and cgo's wrapper named at the inlined C function's line.
#[test]
fn lldb_spellings_of_library_and_wrapper_frames() {
    let r = read("cpp-nested-exception.lldb.txt");
    assert_eq!(r.culprit.as_deref(), Some("load_config"));
    assert!(r.frames.iter().any(|f| f == "std::__throw_with_nested_impl<std::runtime_error>"), "{:?}", r.frames);
    assert!(message(&r, "uncaught-exception").contains("_Nested_exception"));
    assert_eq!(read("fortify-read-stack.lldb.txt").culprit.as_deref(), Some("read_body"));
    let r = read("cgo-assert.lldb.txt");
    assert_eq!(r.culprit.as_deref(), Some("sum_counts"));
    assert!(message(&r, "assertion-failure").contains("counts[i] >= 0"));
    // Look-alike: the wrapper at its own generated source is the wrapper.
    let t = text("cgo-assert.lldb.txt")
        .replace("_Cfunc_sum_counts at cgo-assert.go:13:3", "_Cfunc_sum_counts at cgo-gcc-prolog:50:3");
    assert_ne!(t, text("cgo-assert.lldb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("_cgo_c2992826da7b_Cfunc_sum_counts"));
}

/// What tracecheck reports for a core: the culprit's function and each finding's rule and
/// message.
struct CoreRead {
    culprit: Option<String>,
    findings: Vec<(String, String)>,
}

fn read_core(dir: &Path, name: &str) -> CoreRead {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--fail-on", "never", "--exe"])
        .arg(dir.join(name))
        .arg(dir.join(format!("{name}.core")))
        .output()
        .expect("run tracecheck");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let stop = &v["inputs"][0]["stops"][0];
    let findings = v["inputs"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| (f["rule"].as_str().unwrap_or("").to_string(), f["message"].as_str().unwrap_or("").to_string()))
        .collect();
    CoreRead { culprit: stop["culprit"]["function"].as_str().map(str::to_string), findings }
}

/// Builds the cases and writes their cores (`regenerate.sh --cores`).
fn cores(names: &[&str]) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-shapes10-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = common::samples_dir().join("crashers/regenerate.sh");
    let out = Command::new("bash").arg(script).arg("--cores").arg(&dir).args(names).output().expect("regenerate.sh");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    dir
}

/// Cores of the rebuilt programs: the symbolizer names D and Ada functions as gdb does, the
/// fortified FD_SET is read from its frame (a core has no stderr), and the handler's assert
/// is the handler's.
#[test]
fn cores_name_d_ada_fd_set_and_handler_asserts() {
    if !common::require_tools(&["gcc", "gdc", "gnatmake", "gdb", "bash"]) {
        return;
    }
    let names = ["d-null-class", "ada-null-access", "fortify-fdset", "handler-assert"];
    let dir = cores(&names);
    let c = read_core(&dir, "d-null-class");
    assert_eq!(c.culprit.as_deref(), Some("nullclass.Tokenizer.peek"));
    assert!(c.findings.iter().any(|(r, _)| r == "null-dereference"), "{:?}", c.findings);
    assert_eq!(read_core(&dir, "ada-null-access").culprit.as_deref(), Some("ada_null_access.count_of"));
    let c = read_core(&dir, "fortify-fdset");
    assert_eq!(c.culprit.as_deref(), Some("wait_readable"));
    assert!(
        c.findings.iter().any(|(r, m)| r == "heap-corruption" && m.contains("file descriptor out of fd_set's range")),
        "{:?}",
        c.findings
    );
    // No stderr and no `sig=` argument in a core: the assert alone says the handler failed.
    let c = read_core(&dir, "handler-assert");
    assert_eq!(c.culprit.as_deref(), Some("on_tick"));
    assert!(c.findings.iter().any(|(r, _)| r == "assertion-failure"), "{:?}", c.findings);
    let _ = std::fs::remove_dir_all(&dir);
}
