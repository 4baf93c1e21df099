//! Faults the ninth round of new crash shapes found (`sample-traces/crashers`, issue #11):
//! static libc without debug info, libc inlined from its headers, a replacement allocator,
//! an overrun into an allocator's guard page, and, in cores, a tail call that left no frame,
//! a stack-protector trap without CFI, and a runaway recursion in Rust's drop glue thousands of
//! frames above the program's code. Each is read from its real recording (gdb 13, lldb 14) or
//! from a core of the rebuilt program, with look-alike negative controls: the same text edited
//! where a comment says so, or another real recording that resembles it.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{message, read, read_text, text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// In a static binary without libc debug info, glibc's functions have a name and no source:
/// the recursion overflowed inside `snprintf` → `__vsnprintf_internal` → `__vfprintf_internal`
/// (lldb: `_IO_default_xsputn`), and the culprit is the program's recursing function.
#[test]
fn static_libc_frames_without_source_are_libc() {
    for name in ["i386-recursion-overflow.gdb.txt", "i386-recursion-overflow.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("depth_of"), "{name}");
        assert!(r.rules.contains(&"stack-overflow"), "{name}: {:?}", r.rules);
    }
    let r = read("i386-recursion-overflow.gdb.txt");
    assert_eq!(&r.frames[..4], ["__vfprintf_internal", "__vsnprintf_internal", "snprintf", "depth_of"]);
    // Look-alike: the same frame with a source file of the program's is the program's own
    // function of that name.
    let t = text("i386-recursion-overflow.gdb.txt").replace(
        "#0  0x08055293 in __vfprintf_internal ()",
        "#0  0x08055293 in __vfprintf_internal () at src/fmt.c:12",
    );
    assert_ne!(t, text("i386-recursion-overflow.gdb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("__vfprintf_internal"));
}

/// lldb prints glibc's inline `atoi` (from `/usr/include/stdlib.h`) as an inlined frame with the
/// header's base name: `worker_count [inlined] atoi(…) at stdlib.h:364`. It is libc's.
#[test]
fn libc_inlined_from_its_header_is_libc() {
    for name in ["atoi-getenv-null.gdb.txt", "atoi-getenv-null.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("worker_count"), "{name}");
        assert!(message(&r, "null-dereference").contains("0x0"), "{name}");
    }
    // Look-alike: a function of the program's inlined from a header of the same base name.
    let t = text("atoi-getenv-null.lldb.txt").replace("[inlined] atoi(__nptr", "[inlined] parse_count(__nptr");
    assert_ne!(t, text("atoi-getenv-null.lldb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("parse_count"));
}

/// jemalloc (preloaded, no symbols): gdb prints `?? () from …/libjemalloc.so.2`, lldb names the
/// same frames `___lldb_unnamed_symbol352`. Neither is the culprit: the program's call to free.
#[test]
fn a_replacement_allocators_frames_are_the_allocators() {
    for name in ["jemalloc-free-stack.gdb.txt", "jemalloc-free-stack.lldb.txt"] {
        assert_eq!(read(name).culprit.as_deref(), Some("release_text"), "{name}");
    }
    // Look-alike: a named function in another library is that library's code, and a culprit.
    let t = text("jemalloc-free-stack.lldb.txt")
        .replace("libjemalloc.so.2`___lldb_unnamed_symbol352 + 147", "libplugin.so`plugin_release + 147");
    assert_ne!(t, text("jemalloc-free-stack.lldb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("plugin_release"));
    // And the same name inside jemalloc is still the allocator's.
    let t = text("jemalloc-free-stack.lldb.txt")
        .replace("libjemalloc.so.2`___lldb_unnamed_symbol352 + 147", "libjemalloc.so.2`je_free_default + 147");
    assert_eq!(read_text(&t).culprit.as_deref(), Some("release_text"));
}

/// A copy ran off the end of a 4 KiB arena into the PROT_NONE guard page after it: gdb's
/// mappings show `---p`, lldb shows none, and the store faulted at the page's first byte. Not a
/// write to read-only memory.
#[test]
fn an_overrun_into_a_guard_page_is_no_write_to_readonly() {
    for name in ["guard-page-arena.gdb.txt", "guard-page-arena.lldb.txt"] {
        let r = read(name);
        assert!(!r.rules.contains(&"write-to-readonly"), "{name}: {:?}", r.rules);
        assert!(!r.rules.contains(&"stack-overflow"), "{name}: {:?}", r.rules);
        assert_eq!(r.culprit.as_deref(), Some("store_record"), "{name}");
    }
    // Look-alike: a real write into a page made read-only (mprotect-write, 4 bytes into the
    // page) still is one, without mappings too.
    let r = read("mprotect-write.lldb.txt");
    assert!(message(&r, "write-to-readonly").contains("0x7ffff7fbf004"));
    // And the arena's own fault 16 bytes into the page (no longer where an overrun enters it)
    // is reported, as the heuristic it is.
    let t =
        text("guard-page-arena.lldb.txt").replace("(fault address: 0x7ffff7fbf000)", "(fault address: 0x7ffff7fbf010)");
    assert_ne!(t, text("guard-page-arena.lldb.txt"));
    let r = read_text(&t);
    assert!(message(&r, "write-to-readonly").contains("no write permission per SEGV_ACCERR; no mappings printed"));
}

/// A function of the program's crate whose pc's line is the standard library's (a core's line
/// table gives `rust_big_frame_thread::parse_block` the file of an inlined iterator) is the
/// program's; the library's own functions there are not.
#[test]
fn a_rust_crates_function_at_a_std_line_is_the_programs() {
    let path = "src/rust-big-frame-thread.rs:8";
    let std_line = "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/iter/adapters/map.rs:86";
    let t = text("rust-big-frame-thread.gdb.txt").replace(path, std_line);
    assert_ne!(t, text("rust-big-frame-thread.gdb.txt"));
    let r = read_text(&t);
    assert_eq!(r.culprit.as_deref(), Some("rust_big_frame_thread::parse_block"));
    assert!(r.rules.contains(&"stack-overflow"));
    // Look-alike: the standard library's map_fold at that line is the library's; the culprit
    // is the program's closure further out.
    let t = t.replace(
        "in rust_big_frame_thread::parse_block (seed=0)",
        "in core::iter::adapters::map::map_fold<u8, u64> (seed=0)",
    );
    let r = read_text(&t);
    assert_ne!(r.culprit.as_deref(), Some("core::iter::adapters::map::map_fold<u8, u64>"));
    assert!(r.culprit.as_deref().is_some_and(|c| c.starts_with("rust_big_frame_thread::")), "{:?}", r.culprit);
}

/// Destructors run by the thread's exit (glibc's `__nptl_deallocate_tsd`, `__call_tls_dtors`)
/// and by `exit` (a static object's destructor): the fault is the destructor's, under no frame
/// of the program's thread function.
#[test]
fn destructors_run_by_thread_exit_and_exit() {
    let r = read("tls-dtor-null.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("release_slot"));
    assert!(message(&r, "null-dereference").contains("0x40"), "{:?}", r.messages);
    assert_eq!(read("cpp-thread-local-dtor.gdb.txt").culprit.as_deref(), Some("Counter::~Counter"));
    let r = read("cpp-static-dtor-order.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("Journal::write"));
    assert_eq!(&r.frames[..3], ["Journal::write", "Audit::~Audit", "__run_exit_handlers"]);
}

/// The runtimes' own messages, with their values.
#[test]
fn runtime_messages_name_the_fault() {
    let r = read("go-goroutine-index.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("main.pick"));
    assert!(message(&r, "panic").contains("index out of range [5] with length 3"));
    let r = read("rust-precondition-null.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("rust_precondition_null::mean"));
    assert!(message(&r, "panic").contains("slice::from_raw_parts requires the pointer to be aligned and non-null"));
    let r = read("cpp-bad-optional.lldb.txt");
    assert_eq!(r.culprit.as_deref(), Some("port_for"));
    assert!(message(&r, "uncaught-exception").contains("bad_optional_access"));
    // Look-alike: Rust's overflow check is a panic, not undefined behaviour.
    let r = read("rust-mul-overflow.gdb.txt");
    assert!(message(&r, "panic").contains("attempt to multiply with overflow"));
    assert!(!r.rules.contains(&"undefined-behavior"), "{:?}", r.rules);
}

/// What tracecheck reports for a core: the culprit's function, the crashed thread's frame
/// functions, and each finding's rule and message.
struct CoreRead {
    culprit: Option<String>,
    frames: Vec<String>,
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
    let th = stop["threads"].as_array().and_then(|t| t.iter().find(|t| t["crashed"] == true)).cloned();
    let frames = th
        .and_then(|t| t["frames"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|f| f["function"].as_str().unwrap_or("??").to_string())
        .collect();
    let findings = v["inputs"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| (f["rule"].as_str().unwrap_or("").to_string(), f["message"].as_str().unwrap_or("").to_string()))
        .collect();
    CoreRead { culprit: stop["culprit"]["function"].as_str().map(str::to_string), frames, findings }
}

/// Builds the cases and writes their cores (`regenerate.sh --cores`).
fn cores(names: &[&str]) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-shapes9-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = common::samples_dir().join("crashers/regenerate.sh");
    let out = Command::new("bash").arg(script).arg("--cores").arg(&dir).args(names).output().expect("regenerate.sh");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    dir
}

/// Cores of the rebuilt programs: what gdb's backtrace shows, the core's unwinder finds too.
#[test]
fn cores_agree_with_gdb_on_tail_calls_traps_and_deep_drop_glue() {
    if !common::require_tools(&["gcc", "musl-gcc", "rustc", "gdb", "bash"]) {
        return;
    }
    let names =
        ["printf-bad-string", "musl-stack-smash", "rust-list-drop-overflow", "guard-page-arena", "atoi-getenv-null"];
    let dir = cores(&names);

    // report_user ends in `jmp printf@plt`: it left no frame. main's return address follows its
    // direct call to report_user, whose code jumps to the PLT stub of the function inside.
    let c = read_core(&dir, "printf-bad-string");
    // (frame #0 is the CPU's strlen variant: __strlen_evex here, __strlen_avx2 elsewhere)
    assert_eq!(c.frames.len(), 5, "{:?}", c.frames);
    assert_eq!(&c.frames[1..], ["__vfprintf_internal", "__printf", "report_user", "main"]);
    assert_eq!(c.culprit.as_deref(), Some("report_user"));
    // Look-alike: ordinary calls get no extra frame (worker_count calls strtol through atoi).
    let c = read_core(&dir, "atoi-getenv-null");
    assert_eq!(c.culprit.as_deref(), Some("worker_count"));
    assert_eq!(c.frames.iter().filter(|f| *f == "worker_count").count(), 1, "{:?}", c.frames);
    assert_eq!(c.frames.last().map(String::as_str), Some("main"));

    // musl's __stack_chk_fail (no CFI, no frame of its own) over copy_tag's smashed saved rbp:
    // the return address is the word at [sp], not the garbage rbp leads to.
    let c = read_core(&dir, "musl-stack-smash");
    assert_eq!(c.culprit.as_deref(), Some("copy_tag"));
    assert_eq!(&c.frames[..2], ["__stack_chk_fail_local", "copy_tag"]);
    assert!(c.findings.iter().any(|(r, m)| r == "heap-corruption" && m.contains("on return from copy_tag")));

    // About 4000 drop_in_place frames between the fault and main: the crashed thread is unwound
    // deep enough to reach main, and the fault's frame is the one above the signal trampoline.
    let c = read_core(&dir, "rust-list-drop-overflow");
    assert_eq!(c.culprit.as_deref(), Some("rust_list_drop_overflow::main"));
    assert!(c.frames.len() > 3000, "{}", c.frames.len());
    let rules: Vec<&str> = c.findings.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(rules, ["stack-overflow"], "{:?}", c.findings);
    // (how far below depends on where the stack starts: the environment's size)
    assert!(c.findings[0].1.contains(" bytes below the stack "), "{}", c.findings[0].1);

    // gdb writes the PROT_NONE guard as a readable segment: in the core it is an `r--p` page
    // right after the writable arena, written at its first byte.
    let c = read_core(&dir, "guard-page-arena");
    assert_eq!(c.frames, ["store_record", "main"]);
    assert!(!c.findings.iter().any(|(r, _)| r == "write-to-readonly"), "{:?}", c.findings);
    let _ = std::fs::remove_dir_all(&dir);
}
