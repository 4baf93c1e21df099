//! Every sample trace in `sample-traces/` (real gdb 13 transcripts) has a snapshot of its
//! parsed model in `tests/snapshots/<sample>.txt` (`UPDATE_SNAPSHOTS=1` rewrites them after
//! review), plus explicit asserts on the facts `sample-traces/README.md` lists for it, so a
//! misparsed frame, register value or signal fails loudly even if a snapshot is updated
//! blindly.

mod common;

use common::{assert_snapshot, parse_sample, render};
use tracecheck::input::Parsed;
use tracecheck::model::*;

const SAMPLES: &[&str] = &[
    "assert-fail",
    "c-r13-plain",
    "cpp-uncaught",
    "glibc-abort",
    "julia-trampoline-bad-r13",
    "julia-trampoline-good-r13",
    "misaligned-sse",
    "noncanonical",
    "null-field",
    "null-fnptr",
    "poison",
    "rust-null",
    "rust-panic",
    "rust-thread-panic-join",
    "smashed-stack",
    "stack-chk",
    "stack-overflow",
    "threads-crash",
    "threads-current",
    "threads-current-core",
    "write-rodata",
];

#[test]
fn every_sample_is_listed() {
    let mut found: Vec<String> = std::fs::read_dir(common::samples_dir())
        .expect("sample-traces")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".gdb.txt")).map(str::to_string))
        .collect();
    found.sort();
    assert_eq!(found, SAMPLES, "a sample trace without a snapshot test (add it to SAMPLES and write its facts test)");
}

#[test]
fn snapshots() {
    for s in SAMPLES {
        let (_, p) = parse_sample(s);
        assert_snapshot(s, &render(&p));
    }
}

// ---- helpers ---------------------------------------------------------------------------

fn main_stop(p: &Parsed) -> &Stop {
    p.trace.main_stop().expect("a stop")
}

fn crashed(p: &Parsed) -> &Thread {
    let t = main_stop(p).crashed_thread().expect("a crashed thread");
    assert!(t.crashed, "the crashed thread must be identified, not guessed");
    t
}

/// The thread a breakpoint or other non-crash stop stopped: current, never "crashed".
fn stopped(p: &Parsed) -> &Thread {
    let t = main_stop(p).crashed_thread().expect("a stopped thread");
    assert!(!t.crashed && t.current, "a non-crash stop marks the stopped thread current, not crashed");
    t
}

fn functions(t: &Thread) -> Vec<&str> {
    t.frames.iter().map(|f| f.function_name()).collect()
}

fn reg(t: &Thread, frame: u32, name: &str) -> u64 {
    t.registers
        .get(&frame)
        .unwrap_or_else(|| panic!("no registers for frame {frame}"))
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in frame {frame}"))
}

fn frame(t: &Thread, index: u32) -> &Frame {
    t.frames.iter().find(|f| f.index == index).unwrap_or_else(|| panic!("no frame #{index}"))
}

fn file_line(f: &Frame) -> (Option<&str>, Option<u32>) {
    (f.file.as_deref(), f.line)
}

/// The dump of `expr` printed while `frame` was selected.
fn memory<'a>(s: &'a Stop, expr: &str, frame: u32) -> &'a MemoryDump {
    s.memory
        .iter()
        .find(|m| m.expr.as_deref() == Some(expr) && m.frame == frame && m.string.is_none())
        .unwrap_or_else(|| panic!("no x/ dump of {expr} in frame {frame}"))
}

/// The `=>` instruction printed while `frame` was selected.
fn current_insn(s: &Stop, frame: u32) -> &Instruction {
    s.disassembly
        .iter()
        .find(|i| i.current && i.frame == frame)
        .unwrap_or_else(|| panic!("no => line for frame {frame}"))
}

fn signal(s: &Stop, name: &str, code: Option<i32>, addr: Option<u64>) {
    assert_eq!(s.reason.kind, StopKind::Signal);
    assert_eq!(s.reason.signal.as_deref(), Some(name));
    assert_eq!(s.reason.signo, tracecheck::signals::signo(name));
    assert_eq!(s.reason.si_code, code, "si_code");
    assert_eq!(s.reason.address.map(|a| a.0), addr, "si_addr");
}

fn clean(p: &Parsed) {
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
    assert_eq!(p.diagnostics.lines_total, p.diagnostics.lines_recognized);
}

// ---- the samples -----------------------------------------------------------------------

#[test]
fn null_field() {
    let (_, p) = parse_sample("null-field");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0x18));
    assert_eq!(s.reason.code_name(), Some("SEGV_MAPERR"));
    let t = crashed(&p);
    assert_eq!((&*t.id, t.name.as_deref(), t.lwp), ("1", Some("null-field"), Some(25935)));
    assert_eq!(functions(t), ["session_bytes", "registry_total", "report", "main"]);
    assert_eq!(file_line(&t.frames[0]), (Some("src/null-field.c"), Some(23)));
    assert_eq!(t.frames[0].pc, Some(Address(0x555555555155)));
    assert_eq!(t.frames[0].args.as_deref(), Some("s=0x0"));
    assert_eq!(file_line(&t.frames[1]), (Some("src/null-field.c"), Some(30)));
    assert_eq!(file_line(&t.frames[3]), (Some("src/null-field.c"), Some(51)));
    assert!(t.frames.iter().all(|f| f.file.is_some() && !f.inlined));
    // bt full locals
    assert_eq!(t.frames[1].locals().collect::<Vec<_>>(), [("i", "2"), ("total", "4608")]);
    assert_eq!(t.frames[3].locals().map(|l| l.0).collect::<Vec<_>>(), ["a", "b", "reg"]);
    // registers: frame 0 (info registers), frame 1 (frame 1 + info registers), frame 2 (three)
    assert_eq!(reg(t, 0, "rax"), 0);
    assert_eq!(reg(t, 0, "rip"), 0x555555555155);
    assert_eq!(reg(t, 0, "rsp"), 0x7fffffffeba0);
    assert_eq!(reg(t, 0, "eflags"), 0x10246);
    assert!(t.registers[&0].reg("pc").is_none(), "p/x $pc is rip, not a new register");
    assert_eq!(reg(t, 1, "rip"), 0x555555555191);
    assert_eq!(reg(t, 1, "rsp"), 0x7fffffffebb0);
    assert_eq!(reg(t, 1, "rbp"), 0x7fffffffebd0);
    assert_eq!(t.registers[&2].regs.len(), 3);
    assert_eq!(reg(t, 2, "rip"), 0x5555555551cc);
    // memory, disassembly, info frame
    assert_eq!(memory(s, "$sp", 0).words[..2], [0x7fffffffebd0, 0x555555555191]);
    assert_eq!(memory(s, "$sp", 0).words.len(), 8);
    let i = current_insn(s, 0);
    assert_eq!((i.address.0, i.text.as_ref()), (0x555555555155, "mov    0x18(%rax),%rax"));
    assert_eq!(s.frame_info.len(), 1);
    let fi = &s.frame_info[0];
    assert_eq!((fi.level, fi.saved_pc), (Some(0), Some(Address(0x555555555191))));
    assert_eq!(
        fi.saved_registers.iter().map(|(n, a)| (&**n, a.0)).collect::<Vec<_>>(),
        [("rbp", 0x7fffffffeba0), ("rip", 0x7fffffffeba8)]
    );
    assert_eq!(p.trace.mappings.len(), 23);
    assert_eq!(p.trace.libraries.len(), 2);
    assert_eq!(p.trace.arch, Arch::X86_64);
}

#[test]
fn null_fnptr() {
    let (_, p) = parse_sample("null-fnptr");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0));
    let t = crashed(&p);
    assert_eq!(functions(t), ["??", "stream_fill", "stream_copy", "main"]);
    assert_eq!((t.frames[0].pc, t.frames[0].function.as_ref()), (Some(Address(0)), None));
    assert_eq!(file_line(&t.frames[1]), (Some("src/null-fnptr.c"), Some(19)));
    assert_eq!(reg(t, 0, "rip"), 0);
    assert_eq!(reg(t, 0, "rdi"), 0x1234);
    assert_eq!(memory(s, "$sp", 0).words[0], 0x5555555551a7);
    // `info symbol *(void **)$sp` names the return address.
    let sym = &s.symbols[0];
    assert_eq!(
        (sym.expr.as_deref(), sym.symbol.as_deref(), sym.offset, sym.section.as_deref()),
        (Some("*(void **)$sp"), Some("stream_fill"), 49, Some(".text"))
    );
    // `f 1` + `i r rip rsp rbp`
    assert_eq!(t.registers[&1].regs.len(), 3);
    assert_eq!(reg(t, 1, "rip"), 0x5555555551a7);
    // `x/2i $pc` at pc 0: the half-printed `=> 0x0:` line with gdb's error glued on.
    let i = current_insn(s, 0);
    assert_eq!((i.address.0, i.text.as_ref()), (0, ""));
    assert_eq!(current_insn(s, 1).address.0, 0x5555555551a7);
    assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("command file")));
}

#[test]
fn stack_overflow() {
    let (_, p) = parse_sample("stack-overflow");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0x7fffff7fe108));
    let t = crashed(&p);
    // `bt 30` gives #0–#29, `bt -3` gives #2071–#2073.
    assert_eq!(t.frames.len(), 33);
    assert_eq!(t.frames[29].index, 29);
    assert_eq!(t.frames[30].index, 2071);
    assert_eq!(frame(t, 2073).function_name(), "main");
    assert!(t.frames[..32].iter().all(|f| f.function_name() == "walk"));
    assert!(
        t.frames[0]
            .args
            .as_deref()
            .is_some_and(|a| a.starts_with("path=<error reading variable: Cannot access memory"))
    );
    assert_eq!(reg(t, 0, "rsp"), 0x7fffff7fe100);
    let stack = p.trace.mappings.iter().find(|m| m.path.as_deref() == Some("[stack]")).expect("[stack]");
    assert_eq!((stack.start.0, stack.end.0), (0x7fffff7ff000, 0x7ffffffff000));
    assert_eq!(stack.start.0 - 0x7fffff7fe108, 0xef8);
    assert_eq!(current_insn(s, 0).text.as_ref(), "mov    %rdi,-0xfb8(%rbp)");
}

#[test]
fn threads_crash() {
    let (_, p) = parse_sample("threads-crash");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0));
    let t = crashed(&p);
    assert_eq!(
        (&*t.id, t.name.as_deref(), t.lwp, t.handle),
        ("6", Some("crasher"), Some(25997), Some(Address(0x7ffff5dcd6c0)))
    );
    assert_eq!(functions(t), ["store_result", "crasher", "start_thread", "clone3"]);
    assert_eq!(t.frames[0].args.as_deref(), Some("j=0x7fffffffec00, value=42"));
    // Registers printed after `thread apply all bt full` belong to the stopped thread.
    assert_eq!(reg(t, 0, "rax"), 0);
    assert_eq!(reg(t, 0, "rdx"), 0x2a);
    assert_eq!(reg(t, 0, "rip"), 0x555555555266);
    assert_eq!(s.threads.iter().filter(|t| !t.registers.is_empty()).count(), 1);
    let names: Vec<(&str, Option<&str>)> = s.threads.iter().map(|t| (&*t.id, t.name.as_deref())).collect();
    assert_eq!(names.len(), 6);
    for (id, name) in [
        ("1", "threads-crash"),
        ("2", "io-reader"),
        ("3", "io-writer"),
        ("4", "gc-sweeper"),
        ("5", "timer"),
        ("6", "crasher"),
    ] {
        assert!(names.contains(&(id, Some(name))), "thread {id} {name}");
    }
    for id in ["2", "3", "4", "5"] {
        let w = s.threads.iter().find(|t| &*t.id == id).expect("worker");
        assert_eq!(
            functions(w)[3..],
            ["__pthread_cond_wait_common", "___pthread_cond_wait", "park", "worker", "start_thread", "clone3"]
        );
        // __pthread_cond_wait_common and the futex waits are inlined (gdb prints their
        // callers without an address).
        assert!(w.frames[0].inlined && w.frames[3].inlined && !w.frames[5].inlined);
        assert!(w.frames[4].pc.is_none());
    }
    let main = s.threads.iter().find(|t| &*t.id == "1").expect("main thread");
    assert_eq!(main.frames.len(), 5);
    assert_eq!(main.frames[4].function_name(), "main");
    assert_eq!(main.frames[4].locals().map(|l| l.0).collect::<Vec<_>>(), ["i", "names", "t", "jobs"]);
    assert_eq!(frame(t, 1).locals().collect::<Vec<_>>(), [("j", "0x7fffffffec00")]);
    assert_eq!(current_insn(s, 0).text.as_ref(), "mov    %rdx,(%rax)");
    assert_eq!(current_insn(s, 0).thread.as_deref(), Some("6"));
    assert_eq!(p.trace.mappings.len(), 34);
}

#[test]
fn glibc_abort() {
    let (_, p) = parse_sample("glibc-abort");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGABRT", Some(-6), None);
    assert_eq!(s.reason.code_name(), Some("SI_TKILL"));
    assert_eq!(s.messages[0].text.as_ref(), "free(): double free detected in tcache 2");
    let t = crashed(&p);
    assert_eq!(
        functions(t),
        [
            "__pthread_kill_implementation",
            "__pthread_kill_internal",
            "__GI_raise",
            "__GI_abort",
            "__libc_message",
            "malloc_printerr",
            "_int_free",
            "__GI___libc_free",
            "buffer_release",
            "main"
        ]
    );
    assert_eq!(t.frames[0].pc, None);
    assert_eq!(file_line(&t.frames[8]), (Some("src/glibc-abort.c"), Some(10)));
    assert_eq!(reg(t, 8, "rip"), 0x555555555174);
    let m = memory(s, "b->data", 8);
    assert_eq!((m.address.0, m.words.len(), m.words[0]), (0x5555555592a0, 8, 0x555555559));
    let st = s.memory.iter().find(|m| m.string.is_some()).expect("x/s");
    assert_eq!(st.string.as_deref(), Some("\"YUUU\\005\""));
    assert_eq!(tracecheck::analyze::crash_line(s).as_deref(), Some("src/glibc-abort.c:10"));
}

#[test]
fn assert_fail() {
    let (_, p) = parse_sample("assert-fail");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGABRT", Some(-6), None);
    assert!(s.messages[0].text.contains("Assertion `r->lo <= r->hi && \"range is inverted\"' failed."));
    let t = crashed(&p);
    assert_eq!(functions(t)[3..], ["__GI_abort", "__assert_fail_base", "__GI___assert_fail", "range_width", "main"]);
    assert!(t.frames[5].args.as_deref().is_some_and(|a| a.contains("line=9")));
    assert_eq!(file_line(&t.frames[6]), (Some("src/assert-fail.c"), Some(9)));
    // `f 6` + `i r`
    assert_eq!(reg(t, 6, "rip"), 0x55555555518e);
    let strings: Vec<&str> = s.memory.iter().filter_map(|m| m.string.as_deref()).collect();
    assert_eq!(
        strings,
        ["\"r->lo <= r->hi && \\\"range is inverted\\\"\"", "\"src/assert-fail.c\"", "\"range_width\""]
    );
    // `f 5` + `info args` are read but not stored as locals; `f 7` + `info locals` are.
    assert_eq!(frame(t, 7).locals().map(|l| l.0).collect::<Vec<_>>(), ["ok", "bad"]);
    assert_eq!(frame(t, 5).locals, None);
}

#[test]
fn rust_panic() {
    let (_, p) = parse_sample("rust-panic");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGABRT", Some(-6), None);
    let msgs: Vec<&str> = s.messages.iter().map(|m| &*m.text).collect();
    assert_eq!(msgs.len(), 3);
    assert!(msgs[0].starts_with("thread 'main' (26319) panicked at src/rust-panic.rs:23:28:"));
    assert!(msgs[1].starts_with("called `Result::unwrap()` on an `Err` value: ParseIntError"));
    let t = crashed(&p);
    assert_eq!(t.frames.len(), 19);
    assert_eq!(t.frames[4].function_name(), "std::sys::pal::unix::abort_internal");
    assert_eq!(t.frames[14].function_name(), "core::result::unwrap_failed");
    assert_eq!(t.frames[16].function_name(), "rust_panic::Config::port");
    assert_eq!(t.frames[18].function_name(), "rust_panic::main");
    // #15 (unwrap) was inlined into #16, which gdb prints without an address.
    assert!(t.frames[15].inlined && t.frames[15].pc.is_some());
    assert!(!t.frames[16].inlined && t.frames[16].pc.is_none());
    assert_eq!(file_line(&t.frames[16]), (Some("src/rust-panic.rs"), Some(23)));
    assert_eq!(reg(t, 16, "rip"), reg(t, 16, "rip"));
    assert!(t.registers.contains_key(&16));
    assert!(current_insn(s, 17).location.as_deref().is_some_and(|l| l.starts_with("_ZN10rust_panic12start_server")));
    assert_eq!(tracecheck::analyze::crash_line(s).as_deref(), Some("src/rust-panic.rs:23"));
}

#[test]
fn rust_thread_panic_join() {
    let (_, p) = parse_sample("rust-thread-panic-join");
    clean(&p);
    let s = main_stop(&p);
    // No signal: the process exits with status 101 (gdb prints it in octal, 0145).
    assert_eq!(s.reason.kind, StopKind::Exited);
    assert_eq!(s.reason.number, Some(101));
    let msgs: Vec<&str> = s.messages.iter().map(|m| &*m.text).collect();
    assert!(msgs[0].starts_with("thread 'tally' ("), "{msgs:?}");
    assert!(msgs[0].ends_with(") panicked at src/rust-thread-panic-join.rs:6:5:"), "{msgs:?}");
    assert_eq!(msgs[1], "index out of bounds: the len is 4 but the index is 4");
    let main_panic = msgs.iter().position(|m| m.starts_with("thread 'main' (")).expect("main's panic");
    assert_eq!(msgs[main_panic + 1], "called `Result::unwrap()` on an `Err` value: Any { .. }");
    // gdb's thread notice is no line of the program's.
    assert!(msgs.iter().all(|m| !m.starts_with("[Thread ")), "{msgs:?}");
}

#[test]
fn rust_null() {
    let (_, p) = parse_sample("rust-null");
    clean(&p);
    let s = main_stop(&p);
    // `p $_siginfo` printed in Rust syntax.
    signal(s, "SIGSEGV", Some(1), Some(0x1018));
    let t = crashed(&p);
    assert_eq!(
        functions(t),
        ["core::ptr::read_volatile<u64>", "rust_null::read_payload", "rust_null::sum_payloads", "rust_null::main"]
    );
    assert_eq!(t.frames[0].args.as_deref(), Some("src=0x1018"));
    assert_eq!(t.frames[1].args.as_deref(), Some("rec=0x1000"));
    assert_eq!(reg(t, 0, "rax"), 0x1018);
    assert_eq!(reg(t, 0, "rdi"), 0x1018);
    assert_eq!(reg(t, 0, "r12"), 0x1000);
    assert_eq!(t.registers[&1].regs.len(), 3);
    assert_eq!(current_insn(s, 0).text.as_ref(), "mov    (%rax),%rax");
    assert_eq!(tracecheck::analyze::crash_line(s).as_deref(), Some("src/rust-null.rs:19"));
}

#[test]
fn cpp_uncaught() {
    let (_, p) = parse_sample("cpp-uncaught");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGABRT", Some(-6), None);
    assert_eq!(s.messages[0].text.as_ref(), "terminate called after throwing an instance of 'std::out_of_range'");
    assert!(s.messages[1].text.starts_with("what():  vector::_M_range_check"));
    let t = crashed(&p);
    assert_eq!(t.frames.len(), 14);
    for k in [4, 5, 8] {
        assert_eq!(t.frames[k].function, None);
    }
    assert_eq!(t.frames[4].module.as_deref(), Some("/lib/x86_64-linux-gnu/libstdc++.so.6"));
    assert_eq!(t.frames[6].function_name(), "std::terminate()");
    assert_eq!(t.frames[7].function_name(), "__cxa_throw");
    assert_eq!(t.frames[9].function_name(), "std::vector<int, std::allocator<int> >::_M_range_check");
    assert_eq!(t.frames[11].function_name(), "Inventory::lookup");
    assert_eq!(file_line(&t.frames[12]), (Some("src/cpp-uncaught.cpp"), Some(14)));
    assert_eq!(t.registers[&12].regs.len(), 3);
    assert_eq!(s.frame_info[0].level, Some(12));
    assert_eq!(p.trace.libraries.len(), 5);
    assert_eq!(tracecheck::analyze::crash_line(s).as_deref(), Some("src/cpp-uncaught.cpp:9"));
}

const THUNK: u64 = 0x5555555593b0;
const MODULE: u64 = 0x555555559380;
const PGCSTACK: u64 = 0x555555559318;

fn julia_frames(t: &Thread) {
    assert_eq!(
        functions(t),
        [
            "julia_module_callback_4212",
            "jlcapi_module_callback_4213",
            "run_pass_manager",
            "LLVMRunPasses",
            "julia_run_21",
            "jfptr_run_22",
            "ijl_apply_generic",
            "main"
        ]
    );
    assert_eq!(file_line(&t.frames[3]), (Some("src/julia-trampoline.c"), Some(113)));
    assert!(t.frames.iter().all(|f| f.pc.is_some()));
}

#[test]
fn julia_trampoline_bad_r13() {
    let (_, p) = parse_sample("julia-trampoline-bad-r13");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0x3a));
    let t = crashed(&p);
    assert_eq!(t.name.as_deref(), Some("julia-trampolin"));
    julia_frames(t);
    assert_eq!(t.frames[0].pc, Some(Address(0x555555555549)));
    // Frame 0: r13 = rsi = r14 = the thunk; rdi = rbx = r12 = the module; rax = 0x2a.
    for r in ["r13", "rsi", "r14", "rcx"] {
        assert_eq!(reg(t, 0, r), THUNK, "{r}");
    }
    for r in ["rdi", "rbx", "r12"] {
        assert_eq!(reg(t, 0, r), MODULE, "{r}");
    }
    assert_eq!(reg(t, 0, "rax"), 0x2a);
    // Frames 1 and 2 keep the thunk in r13; frame 4 has the real pgcstack.
    assert_eq!(reg(t, 1, "r13"), THUNK);
    assert_eq!(reg(t, 2, "r13"), THUNK);
    assert_eq!(reg(t, 4, "r13"), PGCSTACK);
    assert!(!t.registers.contains_key(&3));
    // x/4gx $r13 in frame 0 (the thunk) and frame 4 (the GC frame chain).
    assert_eq!(memory(s, "$r13", 0).words, [0x555555557dd0, 0x555555555528, 0x2a, 0xffffffffffffffff]);
    assert_eq!(memory(s, "$r13", 0).address.0, THUNK);
    assert_eq!(memory(s, "$rsi", 0).words, memory(s, "$r13", 0).words);
    assert_eq!(memory(s, "$r13 - 120", 0).words, [0, 0]);
    assert_eq!(memory(s, "$r13", 4).words, [0x7fffffffeb40, 0x6791, 0x555555559350, 0]);
    assert_eq!(memory(s, "*(void **)$r13", 4).words, [0x8, 0, MODULE, THUNK]);
    // `disassemble` in frame 0 marks +15; in frame 1 it marks the return address.
    let i = current_insn(s, 0);
    assert_eq!(
        (i.address.0, i.location.as_deref(), i.text.as_ref()),
        (0x555555555549, Some("+15"), "mov    0x10(%rax),%rax")
    );
    assert_eq!(
        s.disassembly
            .iter()
            .filter(|i| i.frame == 0 && i.location.as_deref().is_some_and(|l| l.starts_with('+')))
            .count(),
        27
    );
    assert_eq!(current_insn(s, 1).address.0, 0x555555555535);
    // `frame 2` + `info frame`: run_pass_manager saves r13.
    let fi = s.frame_info.iter().find(|f| f.level == Some(2)).expect("info frame 2");
    assert_eq!(fi.function.as_deref(), Some("run_pass_manager"));
    assert!(fi.saved_registers.iter().any(|(n, a)| &**n == "r13" && a.0 == 0x7fffffffeae8));
    // `info symbol *(void **)$r13`
    let sym = &s.symbols[0];
    assert_eq!(
        (sym.symbol.as_deref(), sym.section.as_deref()),
        (Some("pass_callback_thunk_vtable"), Some(".data.rel.ro"))
    );
    let heap = p.trace.mappings.iter().find(|m| m.path.as_deref() == Some("[heap]")).expect("[heap]");
    assert!(heap.contains(THUNK));
    // `frame 3` + `info args`: read, not stored as locals.
    assert_eq!(t.frames[3].locals, None);
}

#[test]
fn julia_trampoline_good_r13() {
    let (_, p) = parse_sample("julia-trampoline-good-r13");
    // The one line left is the program's own stdout, flushed at exit.
    assert_eq!(p.diagnostics.lines_unrecognized, 1);
    assert_eq!(p.diagnostics.unrecognized[0].text, "run! returned 1, thunk status 1, gcstack (nil)");
    assert_eq!(p.trace.stops.len(), 2);
    let s = main_stop(&p);
    assert_eq!(s.reason.kind, StopKind::Breakpoint);
    assert_eq!(s.reason.number, Some(1));
    assert_eq!((s.reason.signal.as_deref(), s.reason.si_code), (Some("SIGTRAP"), Some(128)));
    let t = stopped(&p);
    julia_frames(t);
    assert_eq!(t.frames[0].pc, Some(Address(0x555555555587)));
    assert_eq!(reg(t, 0, "r13"), PGCSTACK);
    assert_eq!(reg(t, 0, "rsi"), THUNK);
    assert_eq!(reg(t, 2, "r13"), THUNK);
    assert_eq!(reg(t, 4, "r13"), PGCSTACK);
    assert_eq!(memory(s, "$r13", 0).words, [0x7fffffffea80, 0x6791, 0x555555559350, 0]);
    assert_eq!(memory(s, "*(void **)$r13", 0).words, [0x4, 0x7fffffffeb40, 0, 0]);
    assert_eq!(memory(s, "*(void **)($r13 + 16)", 0).words, [0, 0x6a09e667f3bcc908, 0x7ffff7fbf000, 0]);
    assert_eq!(memory(s, "$r13 - 120", 0).words, [0xb0, 0]);
    assert_eq!(memory(s, "$r13", 2).address.0, THUNK);
    assert_eq!(current_insn(s, 0).address.0, 0x555555555587);
    let exit = &p.trace.stops[1];
    assert_eq!((exit.reason.kind, exit.reason.number), (StopKind::Exited, Some(0)));
}

#[test]
fn c_r13_plain() {
    let (_, p) = parse_sample("c-r13-plain");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0));
    let t = crashed(&p);
    assert_eq!(functions(t), ["histogram_add", "tally", "main"]);
    assert_eq!(t.frames[0].args.as_deref(), Some("h=h@entry=0x7fffffffeb20, value=value@entry=19"));
    // info all-registers: general, x87, SSE control, AVX-512 mask and vector registers.
    let all = &t.registers[&0];
    assert_eq!(all.regs.len(), 81);
    assert_eq!(reg(t, 0, "r13"), 0x7fffffffec40);
    assert_eq!(reg(t, 0, "rax"), 0);
    assert_eq!(reg(t, 0, "mxcsr"), 0x1f80);
    assert_eq!(reg(t, 0, "k7"), 0);
    assert!(
        all.reg("zmm31")
            .is_some_and(|r| r.value.is_none() && r.natural.as_deref().is_some_and(|n| n.starts_with("{v32_bfloat16")))
    );
    assert!(all.reg("st0").is_some());
    // `f 1` + `i r`, then `x/4gx $r13` and `info frame` in frame 1.
    assert_eq!(reg(t, 1, "r13"), 0x7fffffffec40);
    assert_eq!(reg(t, 1, "rip"), 0x5555555552e2);
    assert_eq!(memory(s, "$r13", 1).words, [0x7fffffffed68, 1, 0, 0x7ffff7dfc24a]);
    let fi = &s.frame_info[0];
    assert_eq!((fi.level, fi.function.as_deref()), (Some(1), Some("tally")));
    assert!(fi.saved_registers.iter().any(|(n, a)| &**n == "r13" && a.0 == 0x7fffffffeb10));
    assert_eq!(frame(t, 1).locals().map(|l| l.0).collect::<Vec<_>>(), ["s", "i", "acc", "mx", "mn", "odd"]);
    assert_eq!(current_insn(s, 0).text.as_ref(), "movdqu (%rax),%xmm2");
    assert_eq!(p.trace.mappings.len(), 24);
}

#[test]
fn misaligned_sse() {
    let (_, p) = parse_sample("misaligned-sse");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(128), Some(0));
    assert_eq!(s.reason.code_name(), Some("SI_KERNEL"));
    let t = crashed(&p);
    assert_eq!(functions(t), ["vec_accumulate", "call_misaligned", "main"]);
    assert_eq!(t.frames[0].pc, None);
    assert_eq!(t.frames[1].file, None);
    assert_eq!(reg(t, 0, "rbp"), 0x7fffffffec08);
    assert!(t.registers[&0].reg("sp").is_none(), "p/x $sp is rsp");
    assert_eq!(reg(t, 1, "rsp"), 0x7fffffffec18);
    assert_eq!(reg(t, 1, "rsp") % 16, 8);
    let m = memory(s, "$sp", 0);
    assert_eq!((m.unit, m.words.len(), m.words[4]), (4, 16, 0x555552e1));
    assert_eq!(current_insn(s, 0).text.as_ref(), "movaps %xmm0,-0x10(%rbp)");
    let leave = current_insn(s, 1);
    assert_eq!((leave.address.0, leave.text.as_ref()), (0x5555555552e1, "leave"));
    assert_eq!(s.disassembly.iter().filter(|i| i.frame == 1).count(), 9);
    assert_eq!(current_insn(s, 2).address.0, 0x5555555552a2);
}

#[test]
fn noncanonical() {
    let (_, p) = parse_sample("noncanonical");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(128), Some(0));
    let t = crashed(&p);
    assert_eq!(functions(t), ["list_find", "main"]);
    assert_eq!(t.frames[0].args.as_deref(), Some("head=0x555555558040 <a>, key=4"));
    assert_eq!(reg(t, 0, "rax"), 0xdead000000000000);
    let m = memory(s, "$sp", 0);
    assert_eq!((m.unit, m.words.len(), m.words[0], m.words[8]), (1, 32, 0x50, 0xd6));
    assert_eq!(current_insn(s, 0).text.as_ref(), "mov    0x8(%rax),%rax");
    assert_eq!(frame(t, 0).locals().collect::<Vec<_>>(), [("n", "0xdead000000000000")]);
}

#[test]
fn write_rodata() {
    let (_, p) = parse_sample("write-rodata");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(2), Some(0x555555556004));
    assert_eq!(s.reason.code_name(), Some("SEGV_ACCERR"));
    let t = crashed(&p);
    assert_eq!(functions(t), ["upcase", "main"]);
    assert_eq!(t.frames[0].args.as_deref(), Some("s=0x555555556004 \"hello, world\""));
    assert_eq!(reg(t, 0, "rax"), 0x555555556004);
    let m = p.trace.mapping_for(0x555555556004).expect("mapping");
    assert_eq!((m.perms.as_deref(), m.writable()), (Some("r--p"), Some(false)));
    assert_eq!(s.symbols[0].symbol, None);
    assert_eq!(memory(s, "s", 0).words.len(), 32);
    assert_eq!(current_insn(s, 0).text.as_ref(), "mov    %dl,(%rax)");
}

#[test]
fn smashed_stack() {
    let (_, p) = parse_sample("smashed-stack");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(128), Some(0));
    let t = crashed(&p);
    assert_eq!(t.frames.len(), 14);
    assert_eq!(t.frames[0].function_name(), "copy_name");
    assert!(t.frames[1..10].iter().all(|f| f.pc == Some(Address(0x4141414141414141)) && f.function.is_none()));
    assert_eq!(t.frames[10].pc, Some(Address(1)));
    assert_eq!(functions(t)[11..], ["__libc_start_call_main", "__libc_start_main_impl", "_start"]);
    assert_eq!(t.backtrace_stopped, None);
    assert_eq!(reg(t, 0, "rbp"), 0x4141414141414141);
    assert!(memory(s, "$sp", 0).words.iter().all(|&w| w == 0x4141414141414141));
    assert_eq!(current_insn(s, 0).text.as_ref(), "ret");
    let fi = &s.frame_info[0];
    assert_eq!((fi.saved_pc, fi.arglist_at), (Some(Address(0x4141414141414141)), Some(Address(0x4141414141414141))));
}

#[test]
fn stack_chk() {
    let (_, p) = parse_sample("stack-chk");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGABRT", Some(-6), None);
    assert_eq!(s.messages[0].text.as_ref(), "*** stack smashing detected ***: terminated");
    let t = crashed(&p);
    assert_eq!(functions(t)[4..], ["__libc_message", "__GI___fortify_fail", "__stack_chk_fail", "copy_name", "main"]);
    assert_eq!(t.backtrace_stopped.as_deref(), Some("Cannot access memory at address 0x4141414141414149"));
    assert_eq!(t.registers[&6].regs.len(), 3);
    assert_eq!(tracecheck::analyze::crash_line(s).as_deref(), Some("src/smashed-stack.c:13"));
}

#[test]
fn poison() {
    let (_, p) = parse_sample("poison");
    clean(&p);
    assert_eq!(p.trace.environment, [("MALLOC_PERTURB_".into(), "165".into())]);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(128), Some(0));
    let t = crashed(&p);
    assert_eq!(functions(t), ["peer_port", "main"]);
    assert_eq!(reg(t, 0, "rax"), 0xa5a5a5a5a5a5a5a5);
    assert_eq!(memory(s, "c", 0).words, [0x7ffff7fa8cc0, 0x7ffff7fa8cc0, 0, 0]);
    assert_eq!(
        memory(s, "&c->peer", 0).words,
        [
            0xa5a5a5a5a5a5a5a5,
            0xa5a5a5a5a5a5a5a5,
            0x600,
            0x50,
            0x5a5a5a5a5a5a5a5a,
            0x5a5a5a5a5a5a5a5a,
            0x5a5a5a5a5a5a5a5a,
            0x5a5a5a5a5a5a5a5a
        ]
    );
    assert_eq!(current_insn(s, 0).text.as_ref(), "mov    0x8(%rax),%eax");
    assert_eq!(frame(t, 1).locals().map(|l| l.0).collect::<Vec<_>>(), ["p", "c", "guard"]);
}

#[test]
fn model_helpers_find_per_frame_facts() {
    let (_, p) = parse_sample("julia-trampoline-bad-r13");
    let s = main_stop(&p);
    assert_eq!(s.current_instruction(0).map(|i| i.address.0), Some(0x555555555549));
    assert_eq!(s.current_instruction(1).map(|i| i.address.0), Some(0x555555555535));
    assert_eq!(s.current_instruction(3), None);
    assert_eq!(s.memory_dump("$r13", 0).map(|m| m.address.0), Some(THUNK));
    assert_eq!(s.memory_dump("$r13", 4).map(|m| m.address.0), Some(PGCSTACK));
    assert_eq!(s.read_u64(PGCSTACK + 8), Some(0x6791));
    let (_, p) = parse_sample("threads-crash");
    let s = main_stop(&p);
    assert_eq!(s.current_instruction(0).map(|i| i.text.as_ref()), Some("mov    %rdx,(%rax)"));
}

/// `gdb -batch` without command echo: `bt` and `info registers` before `info threads` (whose
/// header must not be read as `bt full` locals). Whole, the stop line names thread 3; pasted
/// from the `bt` on (no stop line), only `info threads`' `* 3` says whose output it was.
#[test]
fn threads_current() {
    let text = std::fs::read_to_string(common::samples_dir().join("threads-current.gdb.txt")).expect("sample");
    let from_bt = &text[text.find("#0  record").expect("bt")..];
    for (whole, t) in [(true, text.as_str()), (false, from_bt)] {
        let p = tracecheck::input::parse(t);
        clean(&p);
        let s = main_stop(&p);
        assert_eq!(s.threads.len(), 4);
        let t3 = s.crashed_thread().expect("thread");
        assert_eq!((&*t3.id, t3.name.as_deref()), ("3", Some("tally-b")), "whole: {whole}");
        // Without the stop line, `p $_siginfo` still says a signal stopped the current thread.
        assert!(t3.crashed, "whole: {whole}");
        assert!(t3.current);
        assert_eq!(functions(t3), ["record", "worker", "start_thread", "clone3"]);
        assert_eq!(reg(t3, 0, "rip"), 0x5555555551d1);
        assert_eq!(reg(t3, 0, "rax"), 0);
        assert_eq!(s.threads.iter().filter(|t| !t.registers.is_empty()).count(), 1);
        let t1 = s.threads.iter().find(|t| &*t.id == "1").expect("thread 1");
        assert_eq!(functions(t1), ["__futex_abstimed_wait_common64"]);
        for id in ["2", "4"] {
            let w = s.threads.iter().find(|t| &*t.id == id).expect("worker");
            assert_eq!(functions(w), ["__libc_pause"]);
            assert_eq!(w.frames[0].pc, Some(Address(0x7ffff7ea7df2)));
        }
        if whole {
            signal(s, "SIGSEGV", Some(1), Some(0));
            assert_eq!(current_insn(s, 0).text.as_ref(), "mov    (%rax),%rcx");
        }
    }
}

/// A core written by gdb at the same crash, opened with gdb: the crashed worker is thread 1
/// there; `thread 3` selects a parked worker, whose frames, registers and `$_siginfo` (the
/// SIGSTOP gdb stopped it with) are its own, not the crash's.
#[test]
fn threads_current_core() {
    let (_, p) = parse_sample("threads-current-core");
    clean(&p);
    let s = main_stop(&p);
    signal(s, "SIGSEGV", Some(1), Some(0));
    let t = crashed(&p);
    assert_eq!(&*t.id, "1");
    assert_eq!(functions(t), ["record", "worker", "start_thread", "clone3"]);
    assert_eq!(reg(t, 0, "rip"), 0x5555555551d1);
    let t3 = s.threads.iter().find(|t| &*t.id == "3").expect("thread 3");
    assert!(!t3.crashed);
    assert_eq!(functions(t3), ["__libc_pause", "worker", "start_thread", "clone3"]);
    assert_eq!(reg(t3, 0, "rip"), 0x7ffff7ea7df2);
    // The crashed thread's faulting instruction, not thread 3's `x/6i $pc`.
    assert_eq!(s.current_instruction(0).expect("=>").text.as_ref(), "mov    (%rax),%rcx");
}
