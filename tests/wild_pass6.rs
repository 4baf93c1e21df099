//! The classes of error the sixth pass over public crash reports found (docs/corpus.md, "Sixth
//! pass"), each with a look-alike control where the old behaviour was right and must stay. The
//! inputs are short pieces in the shapes of `tests/wild/posted/` (RECONSTRUCTED there, values
//! our own); the full inputs are checked by `tests/wild_corpus.rs`.

#[path = "common/wild_read.rs"]
mod wild_read;
use wild_read::{read, unread};

fn frame_names(r: &wild_read::Read) -> Vec<String> {
    r.report.parsed.trace.stops[0].threads[0].frames.iter().map(|f| f.function_name().to_string()).collect()
}

#[test]
fn zero_width_entities_from_a_tracker_migration_are_dropped() {
    let t = "\
Stack dump:
0.\tProgram arguments: clang-10 -cc1 bad.cpp
#&#8203;0 0x0000000003f1a52b llvm::sys::PrintStackTrace(llvm::raw_ostream&) /l/Signals.inc:564:11
#&#8203;1 0x0000000003f1ab1f SignalHandler(int) /l/Signals.inc:406:1
#&#8203;2 0x00007f21b4a2bf80 __restore_rt (/lib64/libpthread.so.0+0x12f80)
#&#8203;3 0x00000000064b1e2a clang::Sema::CheckTemplateDeclScope(clang::Scope*) /c/SemaTemplate.cpp:7581:17
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.culprit.as_deref(), Some("clang::Sema::CheckTemplateDeclScope"));
    // Look-alike: other entities are text and stay as written.
    let r = read("#0  0x000055555555513d in cmp<int> (a=\"&lt;\") at t.cc:3\n");
    assert_eq!(r.report.parsed.trace.stops[0].threads[0].frames[0].args.as_deref(), Some("a=\"&lt;\""));
}

const UNREACHABLE: &str = "\
Unreachable reached at 0x7f61d03a2c15

[90417] signal (4.2): Illegal instruction
in expression starting at /home/kb/gfx/bufsize.jl:52
payload_bytes at /home/kb/gfx/bufsize.jl:44
unknown function (ip: 0x7f61d03a2c42)
_jl_invoke at /cache/build/builder-amdci4-1/julialang/julia-release-1-dot-10/src/gf.c:2895 [inlined]
ijl_apply_generic at /cache/build/builder-amdci4-1/julialang/julia-release-1-dot-10/src/gf.c:3077
";

#[test]
fn julias_unreachable_trap_is_undefined_behaviour() {
    let r = read(UNREACHABLE);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGILL"));
    assert!(st.messages.iter().any(|m| m.text.starts_with("Unreachable reached at 0x7f61d03a2c15")));
    assert!(r.rules.contains(&"undefined-behavior"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("payload_bytes"));
    // Look-alike: a SIGILL without the trap's line (a CPU without the instruction) is not.
    let r = read(&UNREACHABLE.replace("Unreachable reached at 0x7f61d03a2c15\n", ""));
    assert!(!r.rules.contains(&"undefined-behavior"), "{:?}", r.rules);
}

#[test]
fn versioninfo_before_a_julia_crash_is_read() {
    let t = format!(
        "julia> versioninfo()\nJulia Version 1.11.0-DEV.905\nCommit 3a1c7e2b4d0 (2023-11-14 09:41 UTC)\nPlatform Info:\n  OS: Linux (x86_64-linux-gnu)\n  WORD_SIZE: 64\nEnvironment:\n  JULIA_PKG_PRECOMPILE_AUTO = 0\n\n{UNREACHABLE}"
    );
    let r = read(&t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    // Look-alike: an indented line after the block is not the block's.
    let r = read("Julia Version 1.10.4\nCommit 48d4fd4843 (2024-06-04 10:41 UTC)\n\n  some indented program output\n");
    assert_eq!(unread(&r), vec!["  some indented program output".to_string()]);
}

#[test]
fn lldb_abbreviated_continue_and_an_indented_session() {
    let t = "\
    (lldb) cont
    Process 1622 resuming
    Process 1622 stopped
    * thread #1, name = 'lldb', stop reason = signal SIGABRT
        frame #0: 0x00007f1a22a4a18b libc.so.6`raise + 203
    libc.so.6`raise:
    ->  0x7f1a22a4a18b <+203>: movq   0x108(%rsp), %rax
        0x7f1a22a4a193 <+211>: xorq   %fs:0x28, %rax
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let d = &r.report.parsed.trace.stops[0].disassembly;
    assert_eq!(d.len(), 2);
    assert!(d[0].current && d[0].text.starts_with("movq"));
}

#[test]
fn rustc_ice_lines_are_read_and_the_culprit_skips_the_hook() {
    let t = "\
thread 'rustc' panicked at compiler/rustc_hir_typeck/src/method/probe.rs:1571:36:
called `Option::unwrap()` on a `None` value
stack backtrace:
   0:        0x10a1c8f16 - std::backtrace_rs::backtrace::libunwind::trace::h5d0e4b2f66bb6a21
   1:        0x1133a20f0 - rustc_driver_impl[b0a33fcb345deabb]::install_ice_hook::{closure#0}
   2:        0x10a1cc3b8 - std::panicking::rust_panic_with_hook::h3c2d1e0f9a8b7c65
   3:        0x10a1cbe84 - _rust_begin_unwind
   4:        0x10a244fb5 - core::panicking::panic_fmt::h9e8d7c6b5a4f3e21
   5:        0x10d3d51e9 - <rustc_hir_typeck[7a1c0e9d2b3f4a55]::method::probe::ProbeContext>::pick_method

error: the compiler unexpectedly panicked. this is a bug.

note: rustc 1.73.0 (cc66ad468 2023-10-03) running on aarch64-apple-darwin

query stack during panic:
#0 [typeck] type-checking `parse_args`
end of query stack
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"panic"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("<rustc_hir_typeck::method::probe::ProbeContext>::pick_method"));
    // rustc's own `bug!` machinery is not the code that found the bug.
    let t = "\
thread '<unnamed>' panicked at 'worker thread panicked', compiler/rustc_middle/src/util/bug.rs:36:26
stack backtrace:
   0: std::panicking::begin_panic::<alloc::string::String>
   1: rustc_middle::util::bug::opt_span_bug_fmt::<rustc_span::span_encoding::Span>::{closure#0}
   2: rustc_middle::ty::context::tls::with_opt::<rustc_middle::util::bug::opt_span_bug_fmt<rustc_span::span_encoding::Span>::{closure#0}, !>::{closure#0}
   3: rustc_middle::util::bug::bug_fmt
   4: rustc_codegen_ssa::back::write::finish
";
    assert_eq!(read(t).culprit.as_deref(), Some("rustc_codegen_ssa::back::write::finish"));
    // Look-alike: a program's ordinary panic keeps its own frame as the culprit.
    let t = "\
thread 'main' panicked at src/main.rs:4:5:
boom
stack backtrace:
   0: std::panicking::begin_panic::<&str>
   1: app::run
   2: app::main
";
    assert_eq!(read(t).culprit.as_deref(), Some("app::run"));
}

#[test]
fn miris_report_is_a_checker_stop_with_its_frames() {
    let t = "\
error: Undefined Behavior: pointer to alloc1377 was dereferenced after this allocation got freed
   --> src/boxed.rs:431:23
    |
431 |             ptr.set_pointer(boxed.as_ptr() as *mut T);
    |                             ^^^^^ pointer to alloc1377 was dereferenced after this allocation got freed
    |
    = help: this indicates a bug in the program: it performed an invalid operation, and caused Undefined Behavior
    = note: inside `bits::BitBox::with_box` at src/boxed.rs:431:23
    = note: inside `bits::BitBox::drop` at src/boxed/ops.rs:152:3
note: inside `main` at src/main.rs:3:56
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    assert_eq!(frame_names(&r), ["bits::BitBox::with_box", "bits::BitBox::drop", "main"]);
    assert_eq!(r.culprit.as_deref(), Some("bits::BitBox::with_box"));
    let f = &r.report.parsed.trace.stops[0].threads[0].frames[1];
    assert_eq!((f.file.as_deref(), f.line), (Some("src/boxed/ops.rs"), Some(152)));
    // Glued to `cargo miri test`'s test line; a class Miri names otherwise is undefined-behavior.
    let r = read(
        "running 1 test\ntest t::max ... error: Undefined Behavior: null pointer is not a valid pointer for this operation\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"undefined-behavior"), "{:?}", r.rules);
    // Look-alike: an ordinary compile error is no stop.
    let r = read("error[E0308]: mismatched types\n --> src/main.rs:2:18\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn a_compose_service_name_needs_a_letter() {
    // `431 | code` is a diagnostic's source excerpt, not service `431`'s log line.
    let r = read("error: internal compiler error: broken MIR\n  |\n431 |     let x = y;\n");
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    // Look-alike: a compose prefix is still peeled.
    let r = read(
        "app-1  | fatal error: unexpected signal during runtime execution\napp-1  | [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x45ac90]\n",
    );
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGSEGV"));
}

#[test]
fn a_handlers_signal_argument_names_the_signal_and_points_below() {
    let t = "\
#0  0x00007f3b9a14a2eb in kill () at ../sysdeps/unix/syscall-template.S:120
#1  0x0000562e0c29341d in crash (sig=6, siginfo=0x7ffc1a238b70, context=<optimized out>) at ../src/core/main.c:264
#2  <signal handler called>
#3  __pthread_kill_implementation (threadid=<optimized out>, signo=6, no_tid=no_tid@entry=0) at pthread_kill.c:44
#4  0x00007f3b9a14a006 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26
#5  0x00007f3b9a1354f7 in __GI_abort () at abort.c:79
#6  0x00007f3b9a5a1c27 in greedy_realloc (p=0x7ffc1a239188, need=1024) at ../src/basic/alloc-util.c:54
";
    let r = read(t);
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGABRT"));
    assert_eq!(r.culprit.as_deref(), Some("greedy_realloc"));
    // CPython's handler called for a SIGSEGV, stopped in its own code.
    let t = "\
#0  signal_handler (sig_num=11) at ./Modules/signalmodule.c:348
#1  <signal handler called>
#2  0x0000ffffb1a41b68 in Py_INCREF (op=<unknown at remote 0x2>) at ./Include/object.h:642
#3  0x0000ffffb1a41c00 in PyDict_SetItem (value=<unknown at remote 0x2>) at Objects/dictobject.c:1884
";
    let r = read(t);
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(r.culprit.as_deref(), Some("Py_INCREF"));
    // Look-alike: a handler of a signal that is no fault (SIGUSR1) says nothing of why the
    // process stopped there.
    let own = "\
#0  0x00007f3b9a14a2eb in dump_state (sig=10) at dump.c:12
#1  <signal handler called>
#2  0x00007f3b9a1a4782 in wait_loop () at main.c:40
";
    assert_eq!(read(own).report.parsed.trace.stops[0].reason.signal, None);
}

#[test]
fn valgrinds_stack_switch_before_a_fault_in_that_frame_is_stack_overflow() {
    let t = "\
==4012== Warning: client switching stacks?  SP change: 0x1ffefffa10 --> 0x1ffe85e810
==4012==          to suppress, use: --max-stackframe=8000000 or greater
==4012== Invalid write of size 8
==4012==    at 0x10A4C5: main (updates.c:20)
==4012==  Address 0x1ffe85e808 is on thread 1's stack
==4012== 
==4012== Process terminating with default action of signal 11 (SIGSEGV)
==4012==  Access not within mapped region at address 0x1FFE85E808
==4012==    at 0x10A4C5: main (updates.c:20)
";
    let r = read(t);
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    let st = &r.report.parsed.trace.stops[1];
    assert_eq!(st.reason.si_code, Some(1), "SEGV_MAPERR");
    // Look-alike: a small switch (a coroutine's stack) says nothing about the fault.
    let r = read(&t.replace("0x1ffefffa10 --> 0x1ffe85e810", "0x1ffe86e810 --> 0x1ffe85e810"));
    assert!(!r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
}

#[test]
fn a_syscall_param_reports_culprit_is_the_wrappers_caller() {
    let t = "\
==150211== Syscall param write(buf) points to uninitialised byte(s)
==150211==    at 0x4AF49D0: write (write.c:26)
==150211==    by 0x491571B: dt_write (dt_subr.c:497)
==150211==    by 0x10A1F7: main (dtrace.c:1419)
==150211==  Address 0x93a1b34 is 260 bytes inside a block of size 683 alloc'd
";
    let r = read(t);
    assert!(r.rules.contains(&"uninitialized-read"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("dt_write"));
    // Look-alike: a conditional jump's culprit is its frame #0.
    let t = "\
==4242== Conditional jump or move depends on uninitialised value(s)
==4242==    at 0x109418: check (san.c:60)
==4242==    by 0x10940F: main (san.c:59)
";
    assert_eq!(read(t).culprit.as_deref(), Some("check"));
}

#[test]
fn go_shapes_of_the_sixth_pass() {
    // Go 1.6's numeric signal.
    let r = read(
        "fatal error: unexpected signal during runtime execution\n[signal 0xb code=0x1 addr=0x3c1e70a8 pc=0xa41f3]\n",
    );
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!((st.reason.signal.as_deref(), st.reason.address.map(|a| a.0)), (Some("SIGSEGV"), Some(0x3c1e70a8)));
    // A goroutine dump without its header, stack words without `0x`, the `<` sp marker.
    let t = "\
goroutine 0 [idle]:
runtime: unexpected return pc for runtime.sigtramp called from 0x7f21c3b20540
stack: frame={sp:0xc0004c1968, fp:0xc0004c19c0} stack=[0xc0004ba000,0xc0004c2000)
000000c0004c18a8:  000000c0004c1958  0000000000477a20 <runtime.sigtrampgo+496> 
000000c0004c1968: <000000000000001b  000000c0004c1af0 
runtime.sigtramp(0x1b, 0xc0004c1af0, 0xc0004c19c0)
\t/usr/local/go/src/runtime/sys_linux_amd64.s:357 +0x33 fp=0xc0004c19b0 sp=0xc0004c1968 pc=0x494763
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(frame_names(&r), ["runtime.sigtramp"]);
    // The signal trampoline returning into non-Go code is no corruption ...
    assert!(!r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
    // ... nor is sigpanic's "caller" being the faulting pc in a C library.
    let r = read(
        "fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x7fff2051ac9e]\n\nruntime stack:\nruntime: unexpected return pc for runtime.sigpanic called from 0x7fff2051ac9e\n",
    );
    assert!(!r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
    // Look-alike: a Go function's garbage return address still is corruption.
    let r = read(
        "runtime: g 20: unexpected return pc for testing.tRunner called from 0x7f3b1e02c4d1\nfatal error: unknown caller pc\n",
    );
    assert!(r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
    // SIGILL's instruction bytes; a report inside a go test log.
    let t = "\
--- FAIL: TestSegv (0.00s)
        crash_cgo_test.go:611: SIGILL: illegal instruction
            PC=0x3fa81c2d1a m=3 sigcode=2
            instruction bytes: 0x0 0x0 0x0 0x0
            
            goroutine 1 [running]:
            main.f()
            \t/x/main.go:7 +0x4 fp=0xc000010f50 sp=0xc000010f48 pc=0x3fa81c2d1a
";
    let r = read(t);
    assert_eq!(unread(&r), vec!["--- FAIL: TestSegv (0.00s)".to_string()]);
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGILL"));
    assert_eq!(r.culprit.as_deref(), Some("main.f"));
}

#[test]
fn bashs_script_job_report_names_the_signal() {
    let t = "\
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
Stack dump:
0.      Program arguments: dyn-opt in.mlir
#0 0x000055d17a13c277 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (dyn-opt+0xc6277)
#1 0x00007fa2c3a56520 (/lib/x86_64-linux-gnu/libc.so.6+0x42520)
./in.mlir.script: line 1:  2391 Segmentation fault      (core dumped) dyn-opt in.mlir
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGSEGV"));
    // Look-alike: the same words in prose are no report.
    let r = read("Stack dump:\n0.\tProgram arguments: x\nnote: see line 4: this is not a job report\n");
    assert!(r.report.parsed.trace.stops[0].reason.signal.is_none());
}

#[test]
fn syslogs_escaped_newlines_split_a_coredump_report() {
    let t = "Apr 03 18:41:07 tw1 systemd-coredump[22102]: Process 21988 (kwin_x11) of user 1000 dumped core.#012#012Stack trace of thread 21988:#012#0  0x00007f52a1a8fc3c __pthread_kill_implementation (libc.so.6 + 0x8ec3c)#012#1  0x00007f52a1a268d7 abort (libc.so.6 + 0x258d7)#012#2  0x00007f52a22d4f2e _ZNK14QMessageLogger5fatalEPKcz (libQt5Core.so.5 + 0xd4f2e)#012#3  0x00007f52a34a91b2 _ZN4KWin9X11Output13updateEnabledEv (libkwin.so.5 + 0x2a91b2)\n";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(
        frame_names(&r),
        ["__pthread_kill_implementation", "abort", "QMessageLogger::fatal", "KWin::X11Output::updateEnabled"]
    );
    assert_eq!(r.culprit.as_deref(), Some("KWin::X11Output::updateEnabled"));
    // Look-alike: `#012` in a line that is no syslog line stays as written.
    let r = read("channel #012 opened#012twice\n");
    assert_eq!(unread(&r), vec!["channel #012 opened#012twice".to_string()]);
}

#[test]
fn old_systemd_coredump_frames_without_offsets() {
    let t = "\
Nov 28 16:52:16 xen1 systemd-coredump[14211]: Process 12594 (systemd-resolve) of user 195 dumped core.
                                              Stack trace of thread 12594:
                                              #0  0x00007f3a1e26b84a n/a (libsystemd-shared-235.so)
                                              #1  0x00007f3a1e26bce2 internal_hashmap_iterate (libsystemd-shared-235.so)
";
    let r = read(t);
    let fr = &r.report.parsed.trace.stops[0].threads[0].frames;
    assert!(fr[0].function.is_none());
    assert_eq!(fr[0].module.as_deref(), Some("libsystemd-shared-235.so"));
    assert_eq!(fr[1].function.as_deref(), Some("internal_hashmap_iterate"));
}

#[test]
fn glibc_rows_without_a_heading_are_a_handlers_report() {
    let t = "\
/lib/aarch64-linux-gnu/librustc_driver-fe2d3f0c4114cdf4.so(+0x6c4430)[0x7f8a1c4430]
linux-vdso.so.1(__kernel_rt_sigreturn+0x0)[0x7f8d4207b0]
/lib/aarch64-linux-gnu/libLLVM-14.so.1(+0x132a9f0)[0x7f84b0a9f0]
/lib/aarch64-linux-gnu/libLLVM-14.so.1(_ZN4llvm11raw_ostream5writeEPKcm+0x164)[0x7f8465b49c]
error: could not compile `textwrap` (lib)

Caused by:
  process didn't exit successfully: `rustc --crate-name textwrap` (signal: 11, SIGSEGV: invalid memory reference)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let p = &r.report.parsed;
    assert_eq!(p.trace.arch, tracecheck::model::Arch::Aarch64);
    assert_eq!(p.trace.stops.len(), 1);
    let st = &p.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert!(st.threads[0].frames[1].signal_handler);
    assert_eq!(r.culprit.as_deref(), Some("llvm::raw_ostream::write"));
    // Look-alike: a row of a relative path alone (a program's own log) opens nothing.
    let r = read("./prog[0x43a1bf]\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn the_backtrace_crates_rows_after_received_signal() {
    let t = "\
Received signal: SIGSEGV

0: backtrace::capture::Backtrace::new

1: codelldb::hook_crashes::handler

2: __sigtramp

3: __ZN5swift8importer24shouldSuppressDeclImportEPKN5clang4DeclE
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.report.parsed.trace.stops[0].threads[0].frames[2].signal_handler);
    assert_eq!(r.culprit.as_deref(), Some("swift::importer::shouldSuppressDeclImport"));
    // Look-alike: `Received signal` in a program's log line is no report.
    let r = read("Received signal: reload requested\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn lldbs_interrupted_expression_notice() {
    let t = "\
error: Execution was interrupted, reason: EXC_BAD_ACCESS (code=1, address=0x15a3e).
The process has been left at the point where it was interrupted, use \"thread return -x\" to return to the state before expression evaluation.
* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x15a3e)
  * frame #0: 0x0000000000015a3e
    frame #1: 0x00000001253d14b2 PlaygroundLogger`playground_logger_initialize + 18
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"bad-pc"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("playground_logger_initialize"));
}

#[test]
fn the_architecture_from_a_multiarch_or_sysdeps_path() {
    let t = "\
Thread 9 \"python2\" received signal SIGSEGV, Segmentation fault.
#0  0xf61a402f in ?? () from /usr/lib/libopenblas_pthreads.so.0
#1  0xf7c97276 in clone () at ../sysdeps/unix/sysv/linux/i386/clone.S:108
";
    assert_eq!(read(t).report.parsed.trace.arch, tracecheck::model::Arch::X86);
    // Look-alike: no path that names one, no guess from 32-bit addresses.
    let t = "Thread 9 \"w\" received signal SIGSEGV, Segmentation fault.\n#0  0xf61a402f in ?? () from /usr/lib/libw.so.0\n";
    assert_eq!(read(t).report.parsed.trace.arch, tracecheck::model::Arch::Unknown);
}
