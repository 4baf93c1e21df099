//! The classes of error the ninth pass over public crash reports found (docs/rules/
//! generalization.md, "Ninth public pass"), with emphasis on the anomaly the poster named:
//! rustc's own SIGSEGV handler (a stack overflow it says so), ASan's `stack-use-after-return`,
//! a member function called on a NULL `this`, a macOS crash report whose fault is in a stack
//! guard, winedbg's wrapped register rows, old ASan, a redacted Open MPI prefix, localized and
//! script-job verdicts, libstdc++'s terminate text glued to program output; and reports no pass
//! had read: DynamoRIO, AMReX's `Backtrace.N`, Envoy's handler, `addr2line -Cfpi` blocks,
//! radare2, an IDE's copied stack, LLVM's Windows stack dump, Go's BSD-numbered SIGBUS. Each
//! change has a look-alike that must stay as it was. The inputs are short pieces in the shapes
//! of `tests/wild/posted/` (RECONSTRUCTED there, values our own); the full inputs are checked by
//! `tests/wild_corpus.rs`.

#[path = "common/wild_read.rs"]
mod wild_read;
use wild_read::{read, unread};

fn stop0(r: &wild_read::Read) -> &tracecheck::model::Stop {
    &r.report.parsed.trace.stops[0]
}

fn frame_names(r: &wild_read::Read) -> Vec<String> {
    stop0(r)
        .crashed_thread()
        .map(|t| t.frames.iter().map(|f| f.function_name().to_string()).collect())
        .unwrap_or_default()
}

const RUSTC_OVERFLOW: &str = "\
error: rustc interrupted by SIGSEGV, printing backtrace

/usr/lib/librustc_driver-1a2b3c4d5e6f7a8b.so(+0x81a2c6)[0x7f4a1c41a2c6]
/lib/x86_64-linux-gnu/libc.so.6(+0x42520)[0x7f4a1b842520]
/usr/lib/librustc_driver-1a2b3c4d5e6f7a8b.so(+0x2b61d3a)[0x7f4a1e761d3a]

### cycle encountered after 3 frames with period 2
/usr/lib/librustc_driver-1a2b3c4d5e6f7a8b.so(+0x2b5a90e)[0x7f4a1e75a90e]
/usr/lib/librustc_driver-1a2b3c4d5e6f7a8b.so(+0x2b68b17)[0x7f4a1e768b17]
### recursed 40 times

note: rustc unexpectedly overflowed its stack! this is a bug
note: maximum backtrace depth reached, frames may have been lost
note: we would appreciate a report at https://github.com/rust-lang/rust
help: you can increase rustc's stack size by setting RUST_MIN_STACK=16777216
";

#[test]
fn rustc_signal_handler_overflow_note_is_a_stack_overflow() {
    let r = read(RUSTC_OVERFLOW);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    let th = st.crashed_thread().unwrap();
    assert_eq!(th.frames.len(), 5);
    // The unnamed libc row after the handler's own row is the kernel's return into it.
    assert!(th.frames[1].signal_handler);
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    assert!(r.report.parsed.trace.formats.contains(&tracecheck::model::Format::Rust));
    // Look-alike: the same handler on s390x without the overflow note (a fault in codegen):
    // the vDSO's `__kernel_sigreturn` is the trampoline, and nothing says the stack ran out.
    let t = "\
error: rustc interrupted by SIGSEGV, printing backtrace

/lib64/librustc_driver-4a7b19e2c05d3f88.so(+0xf51a40)[0x3ffa2e51a40]
linux-vdso64.so.1(__kernel_sigreturn+0x0)[0x3ffe1c824d8]
/lib64/librustc_driver-4a7b19e2c05d3f88.so(+0x31e4b1c)[0x3ffa50e4b1c]

note: we would appreciate a report at https://github.com/rust-lang/rust
note: backtrace dumped due to SIGSEGV! resuming signal
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(stop0(&r).crashed_thread().unwrap().frames[1].signal_handler);
    assert!(!r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    // Look-alike: a build tool's own `interrupted` line is no report (no signal, no rows).
    for l in ["error: build interrupted by user, printing backtrace", "error: rustc interrupted by SIGSEGV"] {
        let r = read(&format!("{l}\n"));
        assert!(r.report.parsed.trace.stops.is_empty(), "{l}");
    }
    // A program carrying the same handler, then zsh's job line with `(core dumped)`.
    let t = "\
error: nodectl interrupted by SIGSEGV, printing backtrace

target/debug/nodectl(+0x61a3c2b)[0x55d3b09a3c2b]
/usr/lib/libc.so.6(+0x3e710)[0x7fb21c43e710]
target/debug/nodectl(+0x2e81a4e)[0x55d3ad681a4e]

note: nodectl unexpectedly overflowed its stack! this is a bug
[1]    3318042 segmentation fault (core dumped)  cargo run --bin nodectl
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
}

#[test]
fn asan_stack_use_after_return_is_a_use_after_free() {
    let t = "\
==21877==ERROR: AddressSanitizer: stack-use-after-return on address 0x7f2c8e200030 at pc 0x00000049e1dc bp 0x7ffd1c93a070 sp 0x7ffd1c939820
READ of size 2 at 0x7f2c8e200030 thread T0
    #0 0x43a871 in fwrite
    #1 0x4f8a6f in main dangling_ref.cpp:11:15
    #2 0x7f2c90e40b96 in __libc_start_main
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x7f2c8e200030));
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"stack-buffer-overflow"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("main"));
    // `stack-use-after-scope` too; a stack-buffer-overflow stays one (look-alike).
    let r = read(&t.replace("stack-use-after-return", "stack-use-after-scope"));
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    let r = read(&t.replace("stack-use-after-return", "stack-buffer-overflow"));
    assert!(r.rules.contains(&"stack-buffer-overflow") && !r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    // ASan of 2012: a space after the pid, the registers on their own line, its own CHECK
    // failure with a stack, the allocator statistics.
    let t = "\
==18204== ERROR: AddressSanitizer: stack-use-after-return on address 0x7f1c2a742220
at pc 0x40a59d bp 0x7fffc19b7450 sp 0x7fffc19b7448
WRITE of size 4 at 0x7f1c2a742220 thread T0
    #0 0x40a59c (/tmp/uar+0x40a59c)
    #1 0x7f1c2af60c4c (/lib/libc-2.11.1.so+0x1ec4c)
==18204== AddressSanitizer CHECK failed: /src/asan_report.cc:151 \"((name_end)) != (0)\" (0x0, 0x0)
    #0 0x413b1f (/tmp/uar+0x413b1f)
Stats: 0M malloced (0M for red zones) by 0 calls
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x7f1c2a742220));
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    // The CHECK failure's stack is ASan's own: not the crashed thread's frames.
    let th = stop0(&r).crashed_thread().unwrap();
    assert_eq!(th.frames.len(), 2);
    // Look-alike: valgrind's `==PID== ` lines stay valgrind's.
    let r = read("==4242== Invalid read of size 4\n==4242==    at 0x109159: get (t.c:5)\n");
    assert!(r.report.parsed.trace.formats.contains(&tracecheck::model::Format::Valgrind));
    assert!(r.rules.contains(&"invalid-access"), "{:?}", r.rules);
}

const THIS_NULL: &str = "\
Thread 1 \"gamevm\" received signal SIGSEGV, Segmentation fault.
0x00005555556cef82 in Engine::GameState::getViewKind (this=0x0) at ./engines/engine/state.h:321
321             ViewKind getViewKind() { return static_cast<ViewKind>(_data.currentNodeKind); }
(gdb) bt
#0  0x00005555556cef82 in Engine::GameState::getViewKind (this=0x0) at ./engines/engine/state.h:321
#1  0x00005555556b91d4 in Engine::Engine::closeRenderer (this=0x555555f2c4a0) at ./engines/engine/engine.cpp:402
";

#[test]
fn member_function_on_a_null_this_is_a_null_dereference() {
    let r = read(THIS_NULL);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let f = r.report.findings.iter().find(|f| f.rule == "null-dereference").expect("null-dereference");
    assert!(f.heuristic);
    assert!(f.message.contains("`this` = 0x0 in Engine::GameState::getViewKind"), "{}", f.message);
    assert_eq!(r.culprit.as_deref(), Some("Engine::GameState::getViewKind"));
    // A member of a NULL object: `this` inside the zero page.
    let r = read(&THIS_NULL.replace("(this=0x0)", "(this=0xe80)"));
    let f = r.report.findings.iter().find(|f| f.rule == "null-dereference").expect("null-dereference");
    assert!(f.message.contains("0xe80"), "{}", f.message);
    // Look-alikes that stay quiet:
    // a `this` past the zero page;
    let r = read(&THIS_NULL.replace("(this=0x0)", "(this=0x1000)"));
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // a NULL `this` only in the caller's frame;
    let t = THIS_NULL
        .replace("(this=0x0)", "(this=0x555555f2d000)")
        .replace("closeRenderer (this=0x555555f2c4a0)", "closeRenderer (this=0x0)");
    let r = read(&t);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // a SIGABRT;
    let r = read(&THIS_NULL.replace("SIGSEGV, Segmentation fault", "SIGABRT, Aborted"));
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // a NULL argument that is not `this` (a function may take legal NULLs: kept as before);
    let r = read(&THIS_NULL.replace("this=0x0", "state=0x0"));
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // a fault address outside the zero page, from $_siginfo.
    let t = format!(
        "{THIS_NULL}(gdb) p $_siginfo._sifields._sigfault.si_addr\n$1 = (void *) 0x7ffd1c93a070\n(gdb) p $_siginfo.si_code\n$2 = 1\n"
    );
    let r = read(&t);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn macos_crash_report_fault_in_a_stack_guard_is_a_stack_overflow() {
    let t = "\
Exception Type:        EXC_BAD_ACCESS (SIGSEGV)
Exception Codes:       KERN_PROTECTION_FAILURE at 0x000000038a1bbff0

VM Region Info: 0x38a1bbff0 is in 0x38a1b8000-0x38a1bc000;  bytes after start: 16368  bytes before end: 15
      REGION TYPE                    START - END         [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL
      Stack                       38a9b0000-38b1b8000    [ 8224K] rw-/rwx SM=PRV  thread 7
--->  STACK GUARD                 38a1b8000-38a1bc000    [   16K] ---/rwx SM=NUL  stack guard for thread 8
      Stack                       38a1bc000-38a9c4000    [ 8224K] rw-/rwx SM=PRV  thread 8

Thread 8 Crashed:
0   LLDB                          \t       0x1155c1a20 lldb_private::ValueObject::GetSyntheticValue() + 12
1   LLDB                          \t       0x1155cd390 lldb_private::ValueObject::Dereference() + 264
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.address.map(|a| a.0), Some(0x38a1bbff0));
    assert_eq!(&*st.crashed_thread().unwrap().id, "8");
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("lldb_private::ValueObject::GetSyntheticValue()"));
    // Look-alike: the fault in a malloc region next to a thread's guard (the `--->` row is
    // not the guard): no stack overflow.
    let t = t
        .replace("--->  STACK GUARD ", "      STACK GUARD ")
        .replace("      Stack                       38a1bc000", "--->  MALLOC_TINY                 38a1bc000");
    let r = read(&t);
    assert!(!r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
}

#[test]
fn winedbg_wrapped_flags_row_and_pattern_pc() {
    let t = "\
Unhandled exception: page fault on read access to 0x42424242 in 32-bit code (0x0000000042424242).
Register dump:
 CS:0023 SS:002b DS:002b ES:002b FS:0063 GS:006b
 EIP:42424242 ESP:00c3ee60 EBP:41414141 EFLAGS:00010246(  R- --  I  Z- -
P- )
 EAX:00c3e680 EBX:0000e1a2 ECX:00c3e680 EDX:00000000
Backtrace:
=>0 0x42424242 (0x41414141)
0x42424242: -- no code accessible --
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).registers().and_then(|s| s.get("eax")), Some(0xc3e680));
    assert!(r.rules.contains(&"stack-buffer-overflow"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn redacted_open_mpi_prefix_and_its_null_address() {
    let t = "\
[<machine stuff>] *** Process received signal ***
[<machine stuff>] Signal: Segmentation fault: 11 (11)
[<machine stuff>] Signal code: Invalid permissions (2)
[<machine stuff>] Failing at address: 0x0
[<machine stuff>] [ 0] 0   libsystem_platform.dylib            0x000000018dcd3744 _sigtramp + 56
[<machine stuff>] [ 1] 0   libphold.so                         0x0000000107e64c10 _ZN3SST4Core13Serialization20ObjectMapFundamentalIcE3getEv + 36
[<machine stuff>] *** End of error message ***
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: a bracketed placeholder before other text opens nothing.
    let r = read("[<redacted>] connecting to db\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn verdicts_localized_in_a_job_script_and_glued_terminate_text() {
    // glued to the program's progress text, then bash's job-script verdict with a period.
    let t = "\
Reading in taxonomy DB...terminate called after throwing an instance of 'std::bad_alloc'
  what():  std::bad_alloc
/opt/gridengine/default/spool/node-2/job_scripts/381204: line 6: 61377 Aborted.
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGABRT"));
    assert!(r.rules.contains(&"uncaught-exception"), "{:?}", r.rules);
    // A French shell's verdict.
    let r = read(
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nAbandon (core dumped)\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGABRT"));
    // Look-alikes: a log line quoting the message is no message; a job line of an unknown
    // status is not read.
    for l in [
        "note: terminate called after throwing an instance of 'std::bad_alloc'",
        "grep -r 'terminate called after throwing an instance of 'X'",
        "./run.sh: line 6: 61377 Frobnicated.",
    ] {
        let r = read(&format!("{l}\n"));
        assert!(r.report.parsed.trace.stops.is_empty(), "{l}");
        assert!(!r.rules.contains(&"uncaught-exception"), "{l}");
    }
}

#[test]
fn go_numeric_signal_10_with_a_fault_code_is_bsd_sigbus() {
    let t = "\
[signal 0xa code=0x2 addr=0xc820a41f30 pc=0x40051c8]

goroutine 41 [syscall, locked to thread]:
runtime.cgocall(0x4002e10, 0xc8202a3700, 0xc800000000)
        /usr/local/go/src/runtime/cgocall.go:120 +0x11b fp=0xc8202a36b8 sp=0xc8202a3688
";
    let r = read(t);
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGBUS"));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0xc820a41f30));
    // Look-alikes: a signal 10 without a fault code stays Linux's SIGUSR1; 0xb stays SIGSEGV.
    let r = read(&t.replace("code=0x2", "code=0x0"));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGUSR1"));
    let r = read(&t.replace("signal 0xa", "signal 0xb"));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
}

#[test]
fn dynamorio_reports() {
    let t = "\
<Application /opt/t/common.flags (20114).  Application exception at PC 0x9a1d52f0.
Signal 11 delivered to application as default action.
Callstack:
        0x9a1d52f0   </usr/lib/system/libdyld.dylib+0x12f0>
        0x000e11c7   </opt/t/common.flags+0x11c7>
>
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    let th = st.crashed_thread().unwrap();
    assert_eq!(th.frames.iter().map(|f| f.pc.map(|a| a.0)).collect::<Vec<_>>(), vec![Some(0x9a1d52f0), Some(0xe11c7)]);
    assert_eq!(th.frames[0].module.as_deref(), Some("libdyld.dylib"));
    let t = "\
<Application /usr/bin/sar (7102).  Tracer internal crash at PC 0x00007f1b2cf1fc4f.  Please report this at http://dynamorio.org/issues.  Program aborted.
Received SIGSEGV at pc 0x00007f1b2cf1fc4f in thread 7102
Base: 0x00007f1b2ce4f000
Registers:eax=0x0000000000000000 ebx=0x0000000000000000 ecx=0x00007f1ae8cd8460 edx=0x00007f1ae8cd8458
\tr8 =0x0000000000000000 r9 =0x00007f1b2d1d5e80 r10=0x0000000000000000 r11=0x00007f1b2d1b5240
\teflags=0x0000000000010246
version 7.90.18019, custom build
0x00007f1ae8cd8460 0x0000000000000001>
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let regs = stop0(&r).registers().unwrap();
    assert_eq!(
        (regs.get("rax"), regs.get("r9"), regs.get("rip")),
        (Some(0), Some(0x7f1b2d1d5e80), Some(0x7f1b2cf1fc4f))
    );
    // Look-alike: DynamoRIO's announcement alone opens no stop.
    let r = read("<Starting application /opt/t/common.flags (20114)>\n");
    assert!(r.report.parsed.trace.stops.is_empty());
    assert!(unread(&r).is_empty());
}

#[test]
fn amrex_backtrace_file_blames_the_frame_below_the_handler() {
    let t = "\
Segfault
See Backtrace.0 file for details
=== If no file names and line numbers are shown below, one can run
            addr2line -Cpfie my_exefile my_line_address

 0: ./Flame2d.ex() [0x7812a6]
    amrex::BLBackTrace::print_backtrace_info(_IO_FILE*) at /src/amrex/AMReX_BLBackTrace.cpp:172

 1: ./Flame2d.ex() [0x783842]
    amrex::BLBackTrace::handler(int) at /src/amrex/AMReX_BLBackTrace.cpp:82

 2: /lib64/libpthread.so.0(+0xf5f0) [0x7f2c1a4d35f0]

 3: ./Flame2d.ex() [0x4b1c3e]
    Flame::advance_species(double, double) at /src/flame/Advance.cpp:241

";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(
        frame_names(&r),
        vec!["amrex::BLBackTrace::print_backtrace_info", "amrex::BLBackTrace::handler", "??", "Flame::advance_species"]
    );
    assert!(stop0(&r).crashed_thread().unwrap().frames[2].signal_handler);
    assert_eq!(r.culprit.as_deref(), Some("Flame::advance_species"));
    // Look-alike: a program's own `Segfault` line without the handler's pointer stays unread.
    let r = read("Segfault\n");
    assert!(r.report.parsed.trace.stops.is_empty());
    assert_eq!(unread(&r), vec!["Segfault".to_string()]);
}

#[test]
fn envoy_handler_and_addr2line_blocks() {
    let t = "\
pure virtual method called
terminate called without an active exception
[2018-11-26 20:24:56.347][000163][critical][backtrace] [source/server/backtrace.h:125] Caught Aborted, suspect faulting address 0xb1c20000001a
[2018-11-26 20:24:56.348][000163][critical][backtrace] [source/server/backtrace.h:104] thr<163> obj</usr/lib/x86_64-linux-gnu/libstdc++.so.6>
[2018-11-26 20:24:56.348][000163][critical][backtrace] [source/server/backtrace.h:117] thr<163> #0 0x7f51c30e184c (unknown)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGABRT"));
    // For a SIGABRT the "address" is the sender's pid and uid: no fault address.
    assert_eq!(st.reason.address, None);
    assert_eq!(st.crashed_thread().unwrap().frames[0].module.as_deref(), Some("libstdc++.so.6"));
    assert!(r.rules.contains(&"uncaught-exception"), "{:?}", r.rules);
    for rule in ["null-dereference", "wild-pointer", "noncanonical-address", "bad-pc"] {
        assert!(!r.rules.contains(&rule), "{:?}", r.rules);
    }
    // A fault: its address is the fault's.
    let r = read(&t.replace(
        "Caught Aborted, suspect faulting address 0xb1c20000001a",
        "Caught Segmentation fault, suspect faulting address 0x18",
    ));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x18));
    // Look-alike: another logger's line is not the handler's.
    let r = read(
        "[2018-11-26 20:24:56.347][000163][info][main] [source/server/server.cc:125] Caught Aborted, suspect faulting address 0x1\n",
    );
    assert!(r.report.parsed.trace.stops.is_empty());

    let t = "\
terminate called after throwing an instance of 'std::out_of_range'
  what():  _Map_base::at
addr: 0x000000000049c2c3
sigabrt_action at /src/core/reactor.cc:3102
 (inlined by) operator() at /src/core/reactor.cc:3074
#####################################################
addr: 0x00007f3a1a8203cf
?? ??:0
#####################################################
addr: 0x00000000011c2e4d
schema_registry::get_or_load(utils::UUID) at /src/schema_registry.cc:141
#####################################################
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(frame_names(&r), vec!["sigabrt_action", "operator()", "??", "schema_registry::get_or_load"]);
    let th = stop0(&r).crashed_thread().unwrap();
    assert!(th.frames[0].inlined && !th.frames[1].inlined);
    assert!(th.frames[2].signal_handler);
    assert_eq!(r.culprit.as_deref(), Some("schema_registry::get_or_load"));
    assert!(r.rules.contains(&"uncaught-exception"), "{:?}", r.rules);
    // Look-alike: an `addr:` line without an abort message before it is no backtrace.
    let r = read("addr: 0x000000000049c2c3\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn radare2_session_with_a_smashed_caller() {
    let t = "\
Process with PID 8122 started...
= attach 8122 8122
bin.baddr 0x00400000
asm.bits 64
[0x7f9a2c125cd0]> dc
[+] SIGNAL 11 errno=0 addr=(nil) code=1 ret=0
[+] signal 11 aka SIGSEGV received 0
[0x7f9a2be041fd]> dbt
0  0x7f9a2bd7ba40  0
1  0x41d5894955418f69  0
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    // `addr=(nil)` is no fault address: no NULL dereference on it.
    assert_eq!(st.reason.address, None);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    assert_eq!(st.crashed_thread().unwrap().frames[1].pc.map(|a| a.0), Some(0x41d5894955418f69));
    assert!(r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
}

#[test]
fn ide_copied_stack_after_an_abort() {
    let t = "\
pure virtual method called
terminate called without an active exception
__GI_raise 0x00007ffff4a33866
__GI_abort 0x00007ffff4a178b7
<unknown> 0x00007ffff4e95f06
__cxa_pure_virtual 0x00007ffff4ea8c05
Table::~Table table.cpp:1575
Player::Shutdown player.cpp:804
main main.cpp:1304
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGABRT"));
    let th = stop0(&r).crashed_thread().unwrap();
    assert_eq!(th.frames.len(), 7);
    assert_eq!((th.frames[4].file.as_deref(), th.frames[4].line), (Some("table.cpp"), Some(1575)));
    assert_eq!(r.culprit.as_deref(), Some("Table::~Table"));
    assert!(r.rules.contains(&"uncaught-exception"), "{:?}", r.rules);
    // Look-alike: the same shape of line without an abort message is no stack.
    let r = read("loaded plugin 0x00007ffff4a33866\nmain main.cpp:1304\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn llvm_windows_stack_dump_rows() {
    let t = "\
LLVM ERROR: out of memory
Allocation failed
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
Stack dump:
0.\tProgram arguments: lld.exe -flavor gnu
Exception Code: 0xC000001D
0x0000000004A9BF56, C:\\julia\\bin\\libLLVM-15jl.dll(0x0000000004A80000) + 0x1BF56 byte(s), HandleAbort() + 0x6 byte(s)
0x00007FFEC17CF8A9, C:\\WINDOWS\\System32\\msvcrt.dll(0x00007FFEC17A0000) + 0x2F8A9 byte(s), abort() + 0x39 byte(s)
0x0000000004AAE6D1, C:\\julia\\bin\\libLLVM-15jl.dll(0x0000000004A80000) + 0x2E6D1 byte(s), _ZN4llvm22report_bad_alloc_errorEPKcb() + 0x91 byte(s)
0x0000000004AB02F7, C:\\julia\\bin\\libLLVM-15jl.dll(0x0000000004A80000) + 0x302F7 byte(s), _ZN4llvm15SmallVectorBaseIjE8grow_podEPvmm() + 0x107 byte(s)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(
        frame_names(&r),
        vec!["HandleAbort", "abort", "llvm::report_bad_alloc_error", "llvm::SmallVectorBase<unsigned int>::grow_pod"]
    );
    assert_eq!(stop0(&r).crashed_thread().unwrap().frames[0].module.as_deref(), Some("libLLVM-15jl.dll"));
    // The handler and the reporter are LLVM's machinery: the culprit is the growing vector.
    assert_eq!(r.culprit.as_deref(), Some("llvm::SmallVectorBase<unsigned int>::grow_pod"));
    assert!(!r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
}

#[test]
fn culprits_past_parameter_lists_and_installed_headers() {
    // LLVM's fatal-error reporter printed with its parameters (no debug info) is machinery.
    let t = "\
(gdb) bt
#0  0x0000400000142bec in raise () from /lib64/libc.so.6
#1  0x000040000013096c in abort () from /lib64/libc.so.6
#2  0x00004000011a9c60 in llvm::report_fatal_error(llvm::Twine const&, bool) () from /opt/julia/lib/julia/libLLVM-12jl.so
#3  0x00004000019d2698 in llvm::SelectionDAGISel::CannotYetSelect(llvm::SDNode*) () from /opt/julia/lib/julia/libLLVM-12jl.so
";
    let r = read(t);
    assert_eq!(r.culprit.as_deref(), Some("llvm::SelectionDAGISel::CannotYetSelect(llvm::SDNode*)"));
    // LLVM's headers installed under a prefix's usr/include are library code (and a class's
    // own `operator new` stays the class's: roles.rs keeps it so, a pool allocator of the
    // program may be the bug).
    let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x00007ffff6e6bf73 in getContext (this=0x21be708) at /home/jb/julia/usr/include/llvm/ExecutionEngine/Orc/ThreadSafeModule.h:153
(gdb) bt
#0  0x00007ffff6e6bf73 in getContext (this=0x21be708) at /home/jb/julia/usr/include/llvm/ExecutionEngine/Orc/ThreadSafeModule.h:153
#1  0x00007ffff6e7b921 in jl_create_native_impl (methods=0x2be5d30) at /home/jb/julia/src/aotcompile.cpp:271
";
    let r = read(t);
    assert_eq!(r.culprit.as_deref(), Some("jl_create_native_impl"));
    // Look-alike: a project's own header (not under usr/include) stays the project's.
    let r = read(&t.replace(
        "/home/jb/julia/usr/include/llvm/ExecutionEngine/Orc/ThreadSafeModule.h",
        "/home/dev/proj/include/orc/ThreadSafeModule.h",
    ));
    assert_eq!(r.culprit.as_deref(), Some("getContext"));
    // The parameter list goes; the call operator's own `()` and an anonymous namespace stay.
    assert_eq!(tracecheck::roles::without_params("ns::Pool::operator()(int) const"), "ns::Pool::operator()");
    assert_eq!(tracecheck::roles::without_params("(anonymous namespace)::f"), "(anonymous namespace)::f");
    assert_eq!(tracecheck::roles::without_params("a::b(c (*)(int))"), "a::b");
}
