//! The classes of error the third pass over public crash reports found (docs/corpus.md,
//! "Third pass"), each with a look-alike negative control: text in the same shape where the
//! old behaviour was right and must stay. The inputs are short pieces in the shapes of
//! `tests/wild/posted/` (RECONSTRUCTED there, values our own); the full inputs are checked by
//! `tests/wild_corpus.rs`.

use tracecheck::model::StopKind;

#[path = "common/wild_read.rs"]
mod wild_read;
use wild_read::{read, unread};

const WILD_RSP: &str = "\
Process 51207 stopped
* thread #1, stop reason = EXC_BAD_ACCESS (code=1, address=0x27)
    frame #0: 0x00000000004011a3 tool.com
->  0x4011a3: movl   (%rsp), %ebx
    0x4011a6: leaq   0x8(%rsp), %rsi
(lldb) register read
General Purpose Registers:
       rax = 0x00000000c1d2e3f4
       rbx = 0x00000000004b2290
       rbp = 0x0000000000000030
       rsp = 0x0000000000000027
       rip = 0x00000000004011a3  tool.com
";

#[test]
fn an_access_through_a_wild_stack_pointer_is_no_null_dereference() {
    let r = read(WILD_RSP);
    assert!(r.rules.contains(&"stack-pointer-wild"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // lldb's disassembly of code without a symbol is lldb's, not gdb's.
    assert_eq!(r.report.parsed.trace.formats, vec![tracecheck::model::Format::Lldb]);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
}

#[test]
fn the_same_shape_through_a_null_register_is_still_one() {
    // Look-alike: the same stop, the load through rbx = 0 with a sane rsp.
    let t = WILD_RSP
        .replace("address=0x27", "address=0x8")
        .replace("movl   (%rsp), %ebx", "movl   0x8(%rbx), %ebx")
        .replace("rbx = 0x00000000004b2290", "rbx = 0x0000000000000000")
        .replace("rsp = 0x0000000000000027", "rsp = 0x00007ff7bfeff6a0");
    let r = read(&t);
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"stack-pointer-wild"), "{:?}", r.rules);
}

#[test]
fn a_wild_stack_pointer_does_not_make_values_near_it_stack() {
    let r = read(WILD_RSP);
    let c = tracecheck::classify::Classifier::new(&r.report.parsed.trace);
    // rip and rbx are 4 MiB from rsp = 0x27: no stack is there.
    assert_ne!(c.classify(0x4011a3).kind, tracecheck::classify::RegionKind::Stack);
    assert_ne!(c.classify(0x4b2290).kind, tracecheck::classify::RegionKind::Stack);
    // Look-alike: a plausible sp still makes its neighbourhood the stack.
    let sane = read(&WILD_RSP.replace("rsp = 0x0000000000000027", "rsp = 0x00007ff7bfeff6a0"));
    let c = tracecheck::classify::Classifier::new(&sane.report.parsed.trace);
    assert_eq!(c.classify(0x7ff7bfeff7a0).kind, tracecheck::classify::RegionKind::Stack);
}

const COMPILETEST: &str = "\
error: test run failed!
status: signal: 6 (SIGABRT) (core dumped)
--- stdout -------------------------------
testing: quiet-thread
------------------------------------------
--- stderr -------------------------------
thread 'main' panicked at 'assertion failed: `(left == right)`
  left: `Some(11)`,
 right: `Some(6)`', src/test/ui/runtime/out-of-stack.rs:47:5
stack backtrace:
   0: rust_begin_unwind
             at /rustc/x/library/std/src/panicking.rs:575:5
   1: core::panicking::assert_failed
             at /rustc/x/library/core/src/panicking.rs:201:5
   2: a::check_status
             at src/test/ui/runtime/out-of-stack.rs:47:5
";

#[test]
fn another_tools_dashed_heading_does_not_swallow_a_panic() {
    let r = read(COMPILETEST);
    assert!(r.rules.contains(&"panic"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("a::check_status"));
    // The payload's three lines are the panic's, up to the line closing its quote.
    let msgs: Vec<&str> = r.report.parsed.trace.stops[0].messages.iter().map(|m| m.text.as_ref()).collect::<Vec<_>>();
    assert!(msgs.iter().any(|m| m.starts_with("right: `Some(6)`'")), "{msgs:?}");
}

#[test]
fn a_one_line_old_panic_does_not_take_the_next_line() {
    // Look-alike: the payload closes on the header line; the cargo line after it is cargo's.
    let t = "thread 'main' panicked at 'boom', src/main.rs:3:5\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
    let r = read(t);
    assert!(r.rules.contains(&"panic"));
    let msgs = &r.report.parsed.trace.stops[0].messages;
    assert!(msgs.iter().all(|m| !m.text.contains("RUST_BACKTRACE=1") || m.text.starts_with("note: ")));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
}

#[test]
fn gdb_extension_panes_are_still_panes() {
    // Look-alike of the dashed heading: PEDA's register pane is read as registers.
    let t = "\
Program received signal SIGSEGV, Segmentation fault.
[----------------------------------registers-----------------------------------]
RAX: 0x0 
RSP: 0x7fffffffe3a8 --> 0x0 
RIP: 0x401136 (<main+4>:\tmov    eax,DWORD PTR [rax])
[------------------------------------------------------------------------------]
";
    let r = read(t);
    let st = &r.report.parsed.trace.stops[0];
    let regs = st.threads.iter().flat_map(|t| t.registers.values()).next().expect("registers");
    assert_eq!(regs.get("rax"), Some(0));
}

#[test]
fn lldb_mach_exceptions_are_their_signals() {
    let stop = |reason: &str| {
        format!(
            "* thread #2, name = 'w', stop reason = {reason}\n    frame #0: 0x000000010001f3c2 play`check + 18 at main.rs:17\n    frame #1: 0x0000000100002b62 play`main + 50 at main.rs:9\n"
        )
    };
    let r = read(&stop("EXC_BAD_INSTRUCTION (code=EXC_I386_INVOP, subcode=0x0)"));
    let reason = &r.report.parsed.trace.stops[0].reason;
    assert_eq!((reason.kind, reason.signo), (StopKind::Signal, Some(4)));
    assert_eq!(r.culprit.as_deref(), Some("check"));
    let r = read(&stop("EXC_ARITHMETIC (code=EXC_I386_DIV, subcode=0x0)"));
    assert_eq!(r.report.parsed.trace.stops[0].reason.signo, Some(8));
    // arm64's `brk` (Swift's and Rust's traps): the program's own trap, a crash.
    let r = read(&stop("EXC_BREAKPOINT (code=1, subcode=0x10001f3c2)"));
    assert_eq!(r.report.parsed.trace.stops[0].reason.signo, Some(5));
    assert_eq!(r.culprit.as_deref(), Some("check"));
    // Look-alike: lldb's own breakpoint stays a debugger stop without a culprit.
    let r = read(&stop("breakpoint 1.1"));
    assert_eq!(r.culprit, None);
}

#[test]
fn lldb_legacy_rust_names_and_opt_marks() {
    let t = "\
* thread #2, name = 'rustc', stop reason = EXC_BAD_ACCESS (code=1, address=0x108c2a1f0)
  * frame #0: 0x0000000108a47c13 librustc_driver.dylib`core::ptr::drop_in_place::h5e0c7b2d1a9f3e44 [inlined] core::ptr::drop_in_place::h1b2c3d4e5f607182 at ptr.rs:59 [opt]
    frame #1: 0x0000000108a47c13 librustc_driver.dylib`core::ptr::drop_in_place::h5e0c7b2d1a9f3e44 [inlined] _$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$::drop::h9a8b7c6d5e4f3021 at vec.rs:2085 [opt]
    frame #2: 0x0000000108a47c0e librustc_driver.dylib`core::ptr::drop_in_place::h5e0c7b2d1a9f3e44 at ptr.rs:59 [opt]
    frame #3: 0x0000000108a51d90 librustc_driver.dylib`rustc_driver::driver::compile_input::h2d3e4f5a6b7c8d90 at driver.rs:264 [opt]
";
    let r = read(t);
    let f = &r.report.parsed.trace.stops[0].threads[0].frames;
    assert_eq!(f[1].function_name(), "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop");
    assert_eq!((f[1].file.as_deref(), f[1].line), (Some("vec.rs"), Some(2085)));
    assert_eq!(r.culprit.as_deref(), Some("rustc_driver::driver::compile_input"));
    // Look-alike: the program's own Drop impl is the culprit.
    let own = t.replace("alloc..vec..Vec$LT$T$GT$", "app..cache..Cache");
    assert_eq!(read(&own).culprit.as_deref(), Some("<app::cache::Cache as core::ops::drop::Drop>::drop"));
}

#[test]
fn julias_logging_box_is_peeled() {
    let t = "\
┌ Error: worker 3 exited
│ [52410] signal 6 (-6): Aborted
│ in expression starting at /src/test/rules.jl:88
│ __assert_fail at ./assert/assert.c:105
│ emit_invoke at /src/julia/src/codegen.cpp:4921
└ Allocations: 410227193 (Pool: 410222901; Big: 4292); GC: 133
";
    let r = read(t);
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert_eq!(r.culprit.as_deref(), Some("emit_invoke"));
    assert_eq!(unread(&r), vec!["┌ Error: worker 3 exited".to_string()]);
}

const PAGER: &str = "\
Thread 1 \"ship\" received signal SIGSEGV, Segmentation fault.
0x0000555555a31c7e in Gfx::Cache::Lookup (this=0x0, key=42) at src/gfx/cache.cpp:88
(gdb) bt
#0  0x0000555555a31c7e in Gfx::Cache::Lookup (this=0x0, key=42) at src/gfx/cache.cpp:88
#1  0x0000555555a2f0b1 in Gfx::Renderer::DrawSprite (this=0x555556e0a800, id=42) at src/gfx/ren--Type <RET> for more, q to quit, c to continue without paging--
derer.cpp:214
#2  0x0000555555a10d3e in Game::Frame (this=0x555556d00000) at src/game.cpp:77
";

#[test]
fn gdbs_pager_prompt_inside_a_line_is_taken_out() {
    let r = read(PAGER);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let f = &r.report.parsed.trace.stops[0].threads[0].frames;
    assert_eq!(f.len(), 3);
    assert_eq!((f[1].file.as_deref(), f[1].line), (Some("src/gfx/renderer.cpp"), Some(214)));
}

#[test]
fn a_pager_prompt_after_a_whole_line_joins_nothing() {
    // Look-alike: the prompt came after a complete frame line; the next line is a frame of
    // its own and must not be glued to it.
    let t = PAGER.replace(
        "src/gfx/ren--Type <RET> for more, q to quit, c to continue without paging--\nderer.cpp:214",
        "src/gfx/renderer.cpp:214--Type <RET> for more, q to quit, c to continue without paging--",
    );
    let r = read(&t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let f = &r.report.parsed.trace.stops[0].threads[0].frames;
    assert_eq!(f.len(), 3);
    assert_eq!((f[1].file.as_deref(), f[1].line), (Some("src/gfx/renderer.cpp"), Some(214)));
    assert_eq!(f[2].function_name(), "Game::Frame");
}

#[test]
fn sanitizer_notes_register_values_and_shell_verdicts() {
    let ubsan = "\
src/uid.h:181:10: runtime error: load of misaligned address 0x00016fd2ec7e for type 'const uint64_t', which requires 8 byte alignment
0x00016fd2ec7e: note: pointer points here
 41 07 00 60 00 00  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  70 6c 75 67 00 00 00 00  2c 9e
             ^ 
SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior src/uid.h:181:10 in 
";
    let r = read(ubsan);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"undefined-behavior"));
    let asan = "\
ASAN:DEADLYSIGNAL
=================================================================
==28841==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000460 (pc 0x000104a1e582 bp 0x7ffeeb5f99b0 sp 0x7ffeeb5f8640 T0)
==28841==The signal is caused by a WRITE memory access.
    #0 0x104a1e581 in vm_setup vm.c:412
    #1 0x104a1c0d2 in main main.c:88

==28841==Register values:
rax = 0x0000000000000000  rbx = 0x0000000000000340  rcx = 0x0000000000000001  rdx = 0x0000100000000000  
 r8 = 0x0000000000000000   r9 = 0x000000000000001b  r10 = 0x000000000000002e  r11 = 0x00007fff7116b498  
AddressSanitizer can not provide additional info.
SUMMARY: AddressSanitizer: SEGV vm.c:412 in vm_setup
==28841==ABORTING
Abort trap: 6
";
    let r = read(asan);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    let th = st.threads.iter().find(|t| t.crashed).expect("crashed thread");
    let regs = th.registers.get(&0).expect("frame 0 registers");
    assert_eq!((regs.get("rbx"), regs.get("r9")), (Some(0x340), Some(0x1b)));
    // Look-alike: a program's own `name = 0x…` line outside a register block is not read.
    let plain = asan.replace("==28841==Register values:\n", "");
    let r = read(&plain);
    assert!(unread(&r).iter().any(|u| u.starts_with("rax = ")), "{:?}", unread(&r));
}
