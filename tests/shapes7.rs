//! Faults the seventh round of new crash shapes found (`sample-traces/crashers`, issue #11), each
//! read from its real recording (gdb 13, lldb 14, gdb-multiarch under qemu-user), with look-alike
//! negative controls: the same text edited where a comment says so, or another real recording
//! that resembles it.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{message, read, read_text, text};

/// A handler that recovered from a first fault with siglongjmp printed that fault's psiginfo
/// line (`[0x10]`) before the second fault's (`[0x7ffff7fbf018]`, an unmapped page) that ended
/// the process. The stop's fault is the last report's: a wild pointer, not a NULL dereference.
#[test]
fn the_last_handler_report_is_the_fault_that_ended_the_process() {
    let r = read("siglongjmp-second-fault.gdb.txt");
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.messages);
    assert!(message(&r, "wild-pointer").contains("0x7ffff7fbf018"), "{:?}", r.messages);
    assert_eq!(r.culprit.as_deref(), Some("store_result"));
    // Look-alike: the same transcript with the second report taken out: the one report left is
    // the NULL+0x10 one, which then is the stop's address.
    let t = text("siglongjmp-second-fault.gdb.txt");
    let second = t.lines().filter(|l| l.starts_with("fault: Segmentation fault")).nth(1).expect("two reports");
    let one = t.replace(&format!("{second}\n"), "");
    assert_ne!(one, t);
    let r = read_text(&one);
    assert!(message(&r, "null-dereference").contains("0x10"), "{:?}", r.messages);
    // And a handler with one report (handler-psiginfo) keeps its NULL dereference.
    assert!(read("handler-psiginfo.gdb.txt").rules.contains(&"null-dereference"));
}

/// UBSan's and TSan's reports end at `SUMMARY:` with no closing line; gdb's backtrace after
/// the stop was read as more report stack (`payload_len (pkt=<optimized out>) at` as a
/// function name, the TSan abort's culprit lost).
#[test]
fn a_debugger_stop_ends_a_sanitizer_report() {
    let r = read("ubsan-misaligned.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("payload_len"));
    // gdb's frame names, not a report row's `payload_len (pkt=<optimized out>) at`.
    assert!(r.frames.iter().all(|f| !f.contains("=<optimized out>") && !f.ends_with(" at")), "{:?}", r.frames);
    assert!(r.frames.iter().any(|f| f == "payload_len"), "{:?}", r.frames);
    assert!(r.rules.contains(&"undefined-behavior"));
    let r = read("tsan-race.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("record_hit"));
    assert!(r.rules.contains(&"data-race"));
    // Look-alike: ASan's report (closed by `==PID==ABORTING`) keeps its own stack and finding.
    let r = read("asan-heap-overflow.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("histogram"));
    assert!(message(&r, "heap-buffer-overflow").contains("histogram"));
}

/// musl's dynamic loader is its libc (`/lib/ld-musl-x86_64.so.1`): strlen(NULL) inside it is
/// blamed on the caller.
#[test]
fn musls_loader_is_libc() {
    let r = read("musl-dyn-strlen-null.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("title_width"));
    assert!(r.rules.contains(&"null-dereference"));
    // Look-alike: the same frame in a library of the program's: it is the culprit then.
    let t = text("musl-dyn-strlen-null.gdb.txt").replace("/lib/ld-musl-x86_64.so.1", "/opt/app/lib/libtext.so");
    assert_eq!(read_text(&t).culprit.as_deref(), Some("strlen"));
}

/// A thread on musl's small default stack overflows inside static musl's printf_core, which has
/// no CFI: no frame outer to #0 shows where the stack is, but sp itself is in the `---p` guard
/// page just below the thread's anonymous stack mapping.
#[test]
fn sp_inside_a_guard_page_is_a_stack_overflow() {
    for name in ["musl-thread-overflow.gdb.txt", "musl-thread-overflow.lldb.txt"] {
        let r = read(name);
        assert!(r.rules.contains(&"stack-overflow"), "{name}: {:?}", r.messages);
    }
    let r = read("musl-thread-overflow.gdb.txt");
    assert!(message(&r, "stack-overflow").contains("guard page below the stack 0x7ffff7fd6000-0x7ffff7ff7000"));
    // Look-alike: the mapping above the no-access page is read-only (no stack there): quiet.
    let t = text("musl-thread-overflow.gdb.txt").replace(
        "0x7ffff7fd6000     0x7ffff7ff7000    0x21000        0x0  rw-p",
        "0x7ffff7fd6000     0x7ffff7ff7000    0x21000        0x0  r--p",
    );
    assert_ne!(t, text("musl-thread-overflow.gdb.txt"));
    assert!(!read_text(&t).rules.contains(&"stack-overflow"));
}

/// g++'s noexcept violation terminates from inside `__cxa_throw`, with the throwing function
/// still on the stack; gdb names its `.cold` part's line from an inlined libstdc++ header
/// (`parse_level (s="high") at /usr/include/c++/12/bits/new_allocator.h:90`), which made the
/// program's function library code. gdb and lldb now agree on it.
#[test]
fn a_programs_function_at_a_cxx_header_line_is_the_programs() {
    for name in ["gxx-noexcept-throw.gdb.txt", "gxx-noexcept-throw.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("parse_level"), "{name}");
        assert!(message(&r, "uncaught-exception").contains("noexcept"));
    }
    // Look-alike: std::vector::at's frames at /usr/include/c++ lines stay the library's.
    let r = read("cpp-vector-at.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("nth_score"));
    assert!(r.frames.iter().any(|f| f.starts_with("std::vector")), "{:?}", r.frames);
}

/// lldb stops at the sanitizer runtime's report hook: `handleTypeMismatchImpl(…)`, called by
/// `__ubsan_handle_type_mismatch_v1_abort`, has no runtime prefix of its own; glibc's malloc
/// debugging library's `free_check` is the allocator.
#[test]
fn frames_a_runtime_called_are_the_runtimes() {
    assert_eq!(read("ubsan-misaligned.lldb.txt").culprit.as_deref(), Some("payload_len"));
    assert_eq!(read("malloc-check-overflow.lldb.txt").culprit.as_deref(), Some("main"));
    // Look-alike: TSan's thread start calls the program's worker, which is the culprit's caller.
    let r = read("tsan-race.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("record_hit"));
    assert!(r.frames.iter().any(|f| f == "__tsan_thread_start_func"));
}

/// Static musl's free (`__libc_free`, no debug info) faults in `get_meta`, a function it called
/// (not inlined): a crash inside the allocator, and get_meta is not the culprit.
#[test]
fn a_fault_in_a_function_an_undebugged_allocator_called_is_inside_the_allocator() {
    let r = read("musl-double-free.lldb.txt");
    assert!(message(&r, "heap-corruption").contains("__libc_free, in get_meta, which it called"));
    assert_eq!(r.culprit.as_deref(), Some("release"));
    let r = read("musl-double-free.gdb.txt");
    assert!(r.rules.contains(&"heap-corruption"));
    assert_ne!(r.culprit.as_deref(), Some("get_meta"));
    // A garbage frame the symbolizer names after an ELF section (`.data`, with --exe) ran no
    // function: it is not the culprit; a named function there would be.
    let t = text("musl-double-free.gdb.txt");
    let data = t.replace("#3  0x0000000000409020 in ?? ()", "#3  0x0000000000409020 in .data ()");
    assert_ne!(data, t);
    assert_ne!(read_text(&data).culprit.as_deref(), Some(".data"));
    let named = t.replace("#3  0x0000000000409020 in ?? ()", "#3  0x0000000000409020 in flush_all ()");
    assert_eq!(read_text(&named).culprit.as_deref(), Some("flush_all"));
    // Look-alikes: faults in libc functions the program called directly are not the allocator.
    for name in ["musl-dyn-strlen-null.gdb.txt", "memcpy-null-src.gdb.txt", "musl-null.gdb.txt"] {
        assert!(!read(name).rules.contains(&"heap-corruption"), "{name}");
    }
}

/// AArch64 callee-saved integrity from the transcript's text: the returned callee's prologue
/// (`stp x29, x30, [sp, #-48]!`, `stp x21, x22, [sp, #32]`: x21 at CFA-16) from `disassemble
/// window_sum`, the saved copy from `x/8gx $sp-64`, and the caller's `ldr x3, [x21, #8]` before
/// the call, which could not have read through x21 = 0.
#[test]
fn aarch64_save_slot_from_the_transcripts_text() {
    let r = read("a64-stp-slot-overrun.gdb.txt");
    let m = message(&r, "callee-saved-changed");
    assert!(m.contains("window_sum saves x21 at CFA-16 (at window_sum+0x8: `stp\tx21, x22, [sp, #32]`)"), "{m}");
    assert!(m.contains("add_window+0x14 `ldr\tx3, [x21, #8]`"), "{m}");
    assert!(m.contains("at 0x5500800c00 below the caller's sp"), "{m}");
    // Look-alikes: the same callee with the right bound (x21 intact, another NULL read), and the
    // slot overwritten but no dump of the dead frame (a64-cfi-slot's transcript): quiet.
    assert!(!read("a64-stp-slot-ok.gdb.txt").rules.contains(&"callee-saved-changed"));
    assert!(!read("a64-cfi-slot.gdb.txt").rules.contains(&"callee-saved-changed"));
    // The same overrun transcript with the dumped slot holding another word: the saved copy
    // was not what came back, so nothing is claimed.
    let t = text("a64-stp-slot-overrun.gdb.txt").replace(
        "0x5500800c00:\t0x0000000000000000\t0x0000005500800e28",
        "0x5500800c00:\t0x0000005500801000\t0x0000005500800e28",
    );
    assert_ne!(t, text("a64-stp-slot-overrun.gdb.txt"));
    assert!(!read_text(&t).rules.contains(&"callee-saved-changed"));
}

/// The same from the transcript alone: `disassemble` (the caller, with its back edge `jne
/// <accumulate+40>` after the call) and `disassemble /r mix` (the clobber).
#[test]
fn a_clobber_round_a_loops_back_edge_from_the_transcript() {
    let r = read("inline-asm-clobber-rbx.gdb.txt");
    let m = message(&r, "callee-saved-changed");
    assert!(m.contains("mix writes rbx without saving it, at mix+0x2"), "{m}");
    assert!(m.contains("`call mix` at accumulate+0x2e"), "{m}");
    // Look-alikes: rbx saved by the callee (clobber listed), and the same transcript with the
    // back edge pointing past the pc (no loop brings the call round): quiet.
    assert!(!read("inline-asm-clobber-ok.gdb.txt").rules.contains(&"callee-saved-changed"));
    let t = text("inline-asm-clobber-rbx.gdb.txt")
        .replace("jne    0x5555555551d8 <accumulate+40>", "jne    0x5555555551e3 <accumulate+51>");
    assert_ne!(t, text("inline-asm-clobber-rbx.gdb.txt"));
    assert!(!read_text(&t).rules.contains(&"callee-saved-changed"));
}

/// A leaf's inline assembly clobbers rbx; the caller's loop reads through rbx at its top, and
/// the call is after the pc in the code: it reaches the pc round the back edge. The machine
/// code (`--exe`) shows it; the call's label is the caller's, not the callee's that lies below.
#[test]
fn a_clobber_round_a_loops_back_edge() {
    if !common::require_tools(&["gcc"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("tracecheck-shapes7-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let src = common::samples_dir().join("crashers/src");
    let mut found = Vec::new();
    for name in ["inline-asm-clobber-rbx", "inline-asm-clobber-ok"] {
        let exe = dir.join(name);
        let st = std::process::Command::new("gcc")
            .args(["-O2", "-g"])
            .arg(src.join(format!("{name}.c")))
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("gcc");
        assert!(st.success());
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tracecheck"))
            .args(["--format", "json", "--fail-on", "never", "--exe"])
            .arg(&exe)
            .arg(common::samples_dir().join(format!("crashers/{name}.gdb.txt")))
            .output()
            .expect("tracecheck");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let msgs: Vec<String> = v["inputs"][0]["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["rule"] == "callee-saved-changed")
            .map(|f| f["message"].as_str().unwrap_or("").to_string())
            .collect();
        found.push(msgs);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found[0].len(), 1, "{:?}", found[0]);
    assert!(found[0][0].contains("mix writes rbx without saving it, at mix+0x2"), "{}", found[0][0]);
    assert!(found[0][0].contains("`call mix` at accumulate+0x2e"), "{}", found[0][0]);
    assert!(found[1].is_empty(), "{:?}", found[1]);
}
