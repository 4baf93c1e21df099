//! The classes of error the seventh pass over public crash reports found (docs/corpus.md,
//! "Seventh pass"): runtimes and debuggers whose own report is all a user pastes (HotSpot,
//! WinDbg/kd/x64dbg, Zig, V8, GWP-ASan, Swift, Wasmtime, .NET), tombstones relayed by app
//! loggers, Julia's mangled frames, Go's g0 and collector reports, dyld's alignment trap. Each
//! with a look-alike control where the old behaviour was right and must stay. The inputs are
//! short pieces in the shapes of `tests/wild/posted/` (RECONSTRUCTED there, values our own);
//! the full inputs are checked by `tests/wild_corpus.rs`.

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

const HOTSPOT: &str = "\
#
# A fatal error has been detected by the Java Runtime Environment:
#
#  SIGSEGV (0xb) at pc=0x00007f90d6a4c3e1, pid=2231, tid=0x00007f9081bfa700
#
# Problematic frame:
# V  [libjvm.so+0x6d13e1]  jni_SetIntArrayRegion+0xd1
#

---------------  T H R E A D  ---------------

siginfo: si_signo: 11 (SIGSEGV), si_code: 1 (SEGV_MAPERR), si_addr: 0x0000000000000000

Registers:
RAX=0x0000000000000000, RBX=0x00007f90a0356000, RCX=0x0000000000000002, RDX=0x0000000000000010
RSP=0x00007f9081bf9b40, RBP=0x00007f9081bf9b90, RSI=0x0000000000000000, RDI=0x00007f90a0356000
RIP=0x00007f90d6a4c3e1, EFLAGS=0x0000000000010246, CSGSFS=0x002b000000000033, ERR=0x0000000000000004

Native frames: (J=compiled Java code, j=interpreted, Vv=VM code, C=native code)
V  [libjvm.so+0x6d13e1]  jni_SetIntArrayRegion+0xd1
C  [libserialport-jni.so+0x4b27]  Java_org_example_serial_NativePort_pollEvents+0x187
j  org.example.serial.NativePort.pollEvents(J)[[I+0
";

#[test]
fn hotspot_error_report_is_read() {
    let r = read(HOTSPOT);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0));
    assert_eq!(st.reason.si_code, Some(1));
    assert_eq!(r.report.parsed.trace.arch, tracecheck::model::Arch::X86_64);
    assert_eq!(
        frame_names(&r),
        vec![
            "jni_SetIntArrayRegion",
            "Java_org_example_serial_NativePort_pollEvents",
            "org.example.serial.NativePort.pollEvents"
        ]
    );
    assert_eq!(st.crashed_thread().unwrap().frames[0].pc.map(|a| a.0), Some(0x7f90d6a4c3e1));
    // The VM's JNI entry did what the native caller asked: the caller is the culprit.
    assert_eq!(r.culprit.as_deref(), Some("Java_org_example_serial_NativePort_pollEvents"));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: a `jni_` function that is the program's own (not in libjvm) is the culprit.
    let r =
        read(&HOTSPOT.replace("V  [libjvm.so+0x6d13e1]  jni_SetIntArrayRegion", "C  [libmine.so+0x13e1]  jni_helper"));
    assert_eq!(r.culprit.as_deref(), Some("jni_helper"));
}

#[test]
fn hotspot_header_printed_twice_is_one_stop_and_its_hashes_are_read() {
    let head = "\
#
# A fatal error has been detected by the Java Runtime Environment:
#
#  SIGSEGV (0xb) at pc=0x00007f52e8a09c41, pid=30417, tid=139993106888464
#
# Problematic frame:
# C  [ld-linux-x86-64.so.2+0x10c41]
#
";
    let r = read(&format!("{head}{head}Aborted\n"));
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
    // Look-alike: a bare `#` with no report after it stays unread.
    let r = read("#\nsome program output\n");
    assert_eq!(unread(&r), vec!["#".to_string(), "some program output".to_string()]);
}

const ANALYZE: &str = "\
0:014> !analyze -v
*******************************************************************************
*                        Exception Analysis                                   *
*******************************************************************************

CONTEXT:  (.ecxr)
rax=0000000000000000 rbx=0000021f4a3c1e80 rcx=0000021f4a3c1e80
rip=00007ff6a41c2b57 rsp=000000a3e19ff5c0 rbp=0000000000000000
iopl=0         nv up ei pl zr na po nc
cs=0033  ss=002b  ds=002b  es=002b  fs=0053  gs=002b             efl=00010246
tilemgr!TileCache::Lookup+0x27:
00007ff6`a41c2b57 488b4018        mov     rax,qword ptr [rax+18h] ds:00000000`00000018=????????????????
Resetting default scope

EXCEPTION_RECORD:  (.exr -1)
ExceptionAddress: 00007ff6a41c2b57 (tilemgr!TileCache::Lookup+0x0000000000000027)
   ExceptionCode: c0000005 (Access violation)
NumberParameters: 2
   Parameter[0]: 0000000000000000
   Parameter[1]: 0000000000000018
Attempt to read from address 0000000000000018

STACK_TEXT:  
000000a3`e19ff5c0 00007ff6`a41c31e4     : 0000021f`4a3c1e80 00000000`00000001 : tilemgr!TileCache::Lookup+0x27
000000a3`e19ff600 00007ffb`2a3c7374     : 0000021f`4b0d2200 00000000`00000000 : tilemgr!TileRenderer::DrawLayer+0x74
000000a3`e19ff6d0 00000000`00000000     : 00000000`00000000 00000000`00000000 : KERNEL32!BaseThreadInitThunk+0x14

SYMBOL_NAME:  tilemgr!TileCache::Lookup+27
---------
";

#[test]
fn windbg_analyze_is_one_stop_with_the_access_violation() {
    let r = read(ANALYZE);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0x18));
    assert_eq!(frame_names(&r), vec!["TileCache::Lookup", "TileRenderer::DrawLayer", "BaseThreadInitThunk"]);
    let th = st.crashed_thread().unwrap();
    assert_eq!(th.frames[0].module.as_deref(), Some("tilemgr"));
    assert_eq!(th.frames[0].pc.map(|a| a.0), Some(0x7ff6a41c2b57));
    // A row's pc is the return address of the row above it.
    assert_eq!(th.frames[1].pc.map(|a| a.0), Some(0x7ff6a41c31e4));
    assert_eq!(st.disassembly.len(), 1);
    assert!(st.disassembly[0].text.starts_with("mov"));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("TileCache::Lookup"));
}

#[test]
fn windbg_unreadable_operand_is_the_fault_address_and_a_readable_one_is_not() {
    let t = "\
(4d10.3a2c): Access violation - code c0000005 (first chance)
First chance exceptions are reported before any exception handling.
00007ffc`2a41ebfb 0fb708          movzx   ecx,word ptr [rax] ds:fffff960`0031a2f4=????
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0xfffff9600031a2f4));
    // Look-alike: an operand whose memory WinDbg could read is not where the fault was.
    let r = read(&t.replace("ds:fffff960`0031a2f4=????", "ds:00000051`8a57d0b0=0041"));
    assert_eq!(stop0(&r).reason.address, None);
}

#[test]
fn kd_stack_with_garbage_return_addresses_is_corrupt() {
    let t = "\
0: kd> K
 # Child-SP          RetAddr               Call Site
00 fffff803`2a1b3e28 02000000`00200000     nt!KiDispatchInterruptContinue+0x1b
01 fffff803`2a1b3e30 00000000`00000107     0x02000000`00200000
02 fffff803`2a1b3e38 00000000`00000000     0x107
0: kd> g
Access violation - code c0000005 (!!! second chance !!!)
nt!KiDispatchInterruptContinue+0x1b:
fffff803`28dc5cab c3              ret
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let th = stop0(&r).crashed_thread().unwrap();
    assert_eq!(th.frames.len(), 3);
    assert_eq!(th.frames[1].pc.map(|a| a.0), Some(0x0200_0000_0020_0000));
    assert!(r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
}

#[test]
fn windbg_break_instruction_is_a_crash_whose_culprit_is_past_the_fail_fast_machinery() {
    let t = "\
EXCEPTION_RECORD:  000000c3a21fb8c0 -- (.exr 0xc3a21fb8c0)
ExceptionAddress: 00007ffb1c4e5a12 (KERNELBASE!wil::details::DebugBreak+0x0000000000000002)
   ExceptionCode: 80000003 (Break instruction exception)
STACK_TEXT:  
000000c3`a21fbb18 00007ffb`0b91ecd1     : 00000000`00000000 : KERNELBASE!wil::details::DebugBreak+0x2
000000c3`a21fbb20 00007ffb`0b8e44c4     : 0000019e`7c9a1060 : Viewer_Host!wil::details::ReportFailure_Hr+0x47
000000c3`a21fbb90 00007ffb`0b8e2a77     : 00000000`00000000 : Viewer_Host!Host::ExtensionLoader::Load+0x2a1
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGTRAP"));
    assert_eq!(r.culprit.as_deref(), Some("Host::ExtensionLoader::Load"));
    // Look-alike: the same code as a first-chance debugger break in a live session stays a
    // crash only because the program executed it; an access violation is not a trap.
    let r = read(&t.replace("80000003 (Break instruction exception)", "c0000005 (Access violation)"));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
}

#[test]
fn x64dbg_exception_log_names_a_null_read() {
    let t = "\
EXCEPTION_DEBUG_INFO:
           dwFirstChance: 1
           ExceptionCode: C0000005 (EXCEPTION_ACCESS_VIOLATION)
        ExceptionAddress: annotator.6E41B2C8
        NumberParameters: 2
ExceptionInformation[00]: 00000000 Read
ExceptionInformation[01]: 00000000 Inaccessible Address
First chance exception on 6E41B2C8 (C0000005, EXCEPTION_ACCESS_VIOLATION)!
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn zig_segfault_frames_and_culprit_past_compiler_rt() {
    let t = "\
Segmentation fault at address 0x1d2c4f0
/usr/lib/zig/compiler_rt/memcpy.zig:19:21: 0x1d29a4f in memcpy (compiler_rt)
            d[0] = s[0];
                    ^
/home/kim/lisp/src/reader.zig:212:27: 0x10a61f3 in readList (lisp)
            node.token = tok;
                          ^
???:?:?: 0x0 in ??? (???)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0x1d2c4f0));
    let th = st.crashed_thread().unwrap();
    assert_eq!(th.frames[1].function_name(), "readList");
    assert_eq!(th.frames[1].line, Some(212));
    assert_eq!(th.frames[1].column, Some(27));
    assert_eq!(th.frames[1].module.as_deref(), Some("lisp"));
    assert_eq!(r.culprit.as_deref(), Some("readList"));
    // Look-alike: a program's own handler printing strsignal()'s words is not Zig's report.
    let r = read("crash handler: Segmentation fault at address 0x7ffff7fbc410\n");
    assert!(
        !r.report.parsed.trace.stops.iter().any(|s| s.reason.description.as_deref() == Some("Zig's segfault handler"))
    );
}

#[test]
fn zig_panics_are_panics_and_unreachable_is_an_assertion() {
    let t = "\
thread 3318042 panic: incorrect alignment
/opt/zig/lib/std/debug.zig:272:92: 0x10c2f85d1 in std.debug.panicExtra (test)
                    stderr.print(\"thread {d} panic: \", .{current_thread_id}) catch os.abort();
                                                                                           ^
/home/lee/pix/src/blit.zig:14:40: 0x10c2f5b39 in readWord (test)
    const words = std.mem.bytesAsSlice(u32, @alignCast(4, raw));
                                       ^
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"panic"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"assertion-failure"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("readWord"));
    let r = read(&t.replace("incorrect alignment", "reached unreachable code"));
    assert!(r.rules.contains(&"assertion-failure"), "{:?}", r.rules);
}

const V8: &str = "
#
# Fatal error in , line 0
# Check failed: result.second.
#
#
#
#FailureMessage Object: 0x7ffc9a31e4d0
----- Native stack trace -----

 1: 0x5611c2b4e1a5 node::NodePlatform::GetStackTracePrinter()::$_0::__invoke() [/usr/local/bin/node]
 2: 0x5611c39f8c17 V8_Fatal(char const*, ...) [/usr/local/bin/node]
 3: 0x5611c2f1a03d v8::internal::GlobalBackingStoreRegistry::Register(std::shared_ptr<v8::internal::BackingStore>) [/usr/local/bin/node]
 4: 0x5611c2c8d1ee v8::ArrayBuffer::GetBackingStore() [/usr/local/bin/node]
Illegal instruction (core dumped)
";

#[test]
fn v8_check_failure_trapped_is_an_assertion() {
    let r = read(V8);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGILL"));
    assert!(r.rules.contains(&"assertion-failure"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("v8::internal::GlobalBackingStoreRegistry::Register"));
    // Look-alike: a SIGILL with no check message (a CPU without the instruction) is no
    // assertion.
    let r = read(&V8.replace("# Check failed: result.second.\n", ""));
    assert!(!r.rules.contains(&"assertion-failure"), "{:?}", r.rules);
}

#[test]
fn gwp_asan_reports_are_use_after_free() {
    let t = "\
*** GWP-ASan detected a memory error ***
Use After Free at 0x7f3e21c4b000 (0 bytes into a 48-byte allocation at 0x7f3e21c4b000) by thread 90412 here:
  #0 ./ledger() [0x5c31af]
  #1 /lib/x86_64-linux-gnu/libc.so.6(fwrite+0xc1) [0x7f6a1b18e6a1]
0x7f3e21c4b000 was deallocated by thread 90412 here:
  #0 ./ledger() [0x5c0b9e]
*** End GWP-ASan report ***
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x7f3e21c4b000));
    // The deallocation stack is not the faulting thread's frames.
    assert_eq!(stop0(&r).crashed_thread().unwrap().frames.len(), 2);
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    // tcmalloc's, behind its log prefix.
    let t = "\
2201837 /src/tcmalloc/segv_handler.cc:168] *** GWP-ASan (https://google.github.io/tcmalloc/gwp-asan.html) has detected a memory error ***
2201837 /src/tcmalloc/segv_handler.cc:169] >>> Access at offset 8 into buffer of length 96
2201837 /src/tcmalloc/segv_handler.cc:186] Buffer Access: Use after free
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    // Look-alike: the same prefix on another line of the program's log is not read.
    let r = read("2201837 /src/app/server.cc:88] listening on :8080\n");
    assert_eq!(unread(&r).len(), 1);
}

#[test]
fn swift_backtracer_crashed_thread_and_culprit_past_the_runtime() {
    let t = "\
*** Signal 11: Backtracing from 0x7f2c91d3a784... done ***

*** Program crashed: Bad pointer dereference at 0x0000000000000008 ***

Thread 0 \"indexer\":
0  0x00007f2c909fccce <unknown> in libc.so.6

Thread 2 crashed:

0      0x00007f2c91d3a784 swift::RefCounts<swift::RefCountBitsT<(swift::RefCountInlinedness)1> >::incrementSlow(swift::RefCountBitsT<(swift::RefCountInlinedness)1>, unsigned int) + 84 in libswiftCore.so
1 [ra] 0x000055a0e1c81746 SourceGraph.hasReference(to:) + 37 in indexer
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.address.map(|a| a.0), Some(8));
    assert_eq!(st.crashed_thread().map(|t| &*t.id), Some("2"));
    assert_eq!(st.threads.len(), 2);
    assert_eq!(r.culprit.as_deref(), Some("SourceGraph.hasReference"));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn wasmtime_trap_and_dotnet_fatal_error() {
    let t = "\
io.github.kawamuray.wasmtime.TrapException: wasm trap: out of bounds memory access
wasm backtrace:
    0: 0x1f3c4 - <unknown>!dlmalloc::dlmalloc::Dlmalloc<A>::free::h2a0c5f91e3b7d4c2
    1: 0x2b17a - <unknown>!policy_store_insert
note: run with `WASMTIME_BACKTRACE_DETAILS=1` environment variable to display more information
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("policy_store_insert"));
    let t = "\
Fatal error. System.AccessViolationException: Attempted to read or write protected memory. This is often an indication that other memory is corrupt.
Repeat 2 times:
--------------------------------
   at Vision.Native.DetectorNative.ReleaseHandle(IntPtr)
--------------------------------
   at Vision.Detector.Dispose(Boolean)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(frame_names(&r), vec!["Vision.Native.DetectorNative.ReleaseHandle", "Vision.Detector.Dispose"]);
}

#[test]
fn tombstone_relayed_by_an_app_logger_without_its_header() {
    let p = "2025/02/11 08:41:07.512 20318 20377 Error CRASH ";
    let t = format!(
        "{p}signal 11 (SIGSEGV), code 2 (SEGV_ACCERR), fault addr 0x000000741c2f7ff0\n\
         {p}Cause: stack pointer is not in a rw map; likely due to stack overflow.\n\
         {p}    x28 000000741c409c70  x29 000000741c2f8010\n\
         {p}    lr  00000074a1b6ffbc  sp  000000741c2f7ff0  pc  00000074a1b73798  pst 0000000020001000\n\
         {p}backtrace:\n\
         {p}      #00 pc 0000000000273798  /data/app/lib/arm64/libhttpnative.so (lazy_init+188)\n"
    );
    let r = read(&t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x741c2f7ff0));
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    // Look-alike: the same prefix with a word that is no log level is not peeled.
    let r = read("2025/02/11 08:41:07.512 20318 20377 Hello CRASH backtrace:\n");
    assert_eq!(unread(&r).len(), 1);
}

#[test]
fn julia_mangled_frames_are_demangled() {
    let t = "\
signal (11): Segmentation fault: 11
in expression starting at REPL[7]:1
_ZN4llvm11Instruction15eraseFromParentEv at /Users/dev/julia/usr/lib/libLLVM.dylib (unknown line)
_ZN12_GLOBAL__N_18AllocOpt13runOnFunctionERN4llvm8FunctionE at /Users/dev/julia/usr/lib/libjulia-internal.1.dylib (unknown line)
jl_apply_generic at /Users/dev/julia/src/gf.c:2419
Segmentation fault: 11
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(
        frame_names(&r)[..2],
        [
            "llvm::Instruction::eraseFromParent".to_string(),
            "(anonymous namespace)::AllocOpt::runOnFunction".to_string()
        ]
    );
    // Look-alike: a Julia function whose name merely starts with `_Z` is not mangled.
    let r = read("signal (11): Segmentation fault\nin expression starting at a.jl:1\n_Zeta at ./a.jl:3\n");
    assert_eq!(frame_names(&r), vec!["_Zeta"]);
}

#[test]
fn go_morestack_on_g0_is_a_stack_overflow_blamed_on_the_running_goroutine() {
    let t = "\
fatal: morestack on g0
SIGTRAP: trace trap
PC=0x47c1a2 m=3 sigcode=128

goroutine 0 [idle]:
runtime.abort()
\t/usr/local/go/src/runtime/asm_amd64.s:1115 +0x2 fp=0x7f2d8bffcb08 sp=0x7f2d8bffcb00 pc=0x47c1a2
runtime.morestack()
\t/usr/local/go/src/runtime/asm_amd64.s:560 +0x25 fp=0x7f2d8bffcb10 sp=0x7f2d8bffcb08 pc=0x47a445

goroutine 21 [running, locked to thread]:
runtime.systemstack_switch()
\t/usr/local/go/src/runtime/asm_amd64.s:474 +0x8 fp=0xc000163b58 sp=0xc000163b48 pc=0x47a368
main.onFrame(0x7f2d6c001a20, 0x280)
\t/home/op/emu/core/callbacks.go:88 +0x4f fp=0xc000163c10 sp=0xc000163ba0 pc=0x5e2a0f
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("main.onFrame"));
    // `fatal: morestack on gsignal` and `go run`'s verdict alone.
    let r = read("fatal: morestack on gsignal\n\nsignal: trace/breakpoint trap (core dumped)\n");
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGTRAP"));
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    // Look-alike: a goroutine 0 with a frame of the program's own keeps it as the culprit.
    let r = read(&t.replace("runtime.morestack()", "main.spin()").replace("runtime/asm_amd64.s:560", "main.go:12"));
    assert_eq!(r.culprit.as_deref(), Some("main.spin"));
}

#[test]
fn go_collector_bad_pointer_is_heap_corruption() {
    let t = "\
runtime: pointer 0xc000e4b910 to unused region of span span.base()=0xc000c1a000 span.limit=0xc000c1bfe0 span.state=1
runtime: found in object at *(0xc00131c080+0x0)
object=0xc00131c080 s.base()=0xc00131c000 s.limit=0xc00131e000 s.spanclass=8 s.elemsize=32 s.state=mSpanInUse
 *(object+0) = 0xc000e4b910 <==
 *(object+8) = 0xc000f71000
fatal error: found bad pointer in Go heap (incorrect use of unsafe or cgo?)

runtime stack:
runtime.throw({0x78a44e?, 0x6?})
\t/usr/local/go/src/runtime/panic.go:1047 +0x5d fp=0x7fa21dffad00 sp=0x7fa21dffacd0 pc=0x43902d
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn dyld_alignment_trap_is_a_misaligned_stack() {
    let t = "\
* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=EXC_I386_GPFLT)
    frame #0: 0x00007fff7a211476 libdyld.dylib`stack_not_16_byte_aligned_error
libdyld.dylib`stack_not_16_byte_aligned_error:
->  0x7fff7a211476 <+0>: movdqa %xmm0, (%rsp)
    0x7fff7a21147b <+5>: int3
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"stack-misaligned"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: a general-protection fault in the program's own function is not dyld's trap.
    let t = "\
* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=EXC_I386_GPFLT)
    frame #0: 0x00000001002a4c1b libalign.dylib`backtrace_gap_open(wf=0x0000000131009a10, k=-21) at backtrace.c:201:22
";
    let r = read(t);
    assert!(!r.rules.contains(&"stack-misaligned"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn shell_job_notices_after_a_runtime_report() {
    let r = read(
        "[2/3] Linking toolchain [1/1] Segmentation fault at address 0x1093fa000\n[1]    48213 abort      zigup use 0.13.0\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
    // Look-alike: zsh's notice that a job started is no verdict.
    let r = read("[1] 48213\n");
    assert_eq!(unread(&r).len(), 1);
}
