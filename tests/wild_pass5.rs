//! The classes of error the fifth pass over public crash reports found (docs/corpus.md, "Fifth
//! pass"), each with a look-alike control where the old behaviour was right and must stay. The
//! inputs are short pieces in the shapes of `tests/wild/posted/` (RECONSTRUCTED there, values
//! our own); the full inputs are checked by `tests/wild_corpus.rs`.

#[path = "common/wild_read.rs"]
mod wild_read;
use wild_read::{read, unread};

const JULIA_INTERP: &str = "\
signal (11): Segmentation fault
in expression starting at /home/u/src/M.jl:19
jl_method_def at /buildworker/worker/package_linux64/build/src/method.c:787
eval_body at /buildworker/worker/package_linux64/build/src/interpreter.c:656
jl_interpret_toplevel_thunk_callback at /buildworker/worker/package_linux64/build/src/interpreter.c:796
unknown function (ip: 0xfffffffffffffffe)
unknown function (ip: 0x7f31c4a2d94f)
unknown function (ip: 0x13)
jl_interpret_toplevel_thunk at /buildworker/worker/package_linux64/build/src/interpreter.c:805
jl_toplevel_eval_flex at /buildworker/worker/package_linux64/build/src/toplevel.c:784
";

#[test]
fn julias_interpreter_markers_are_no_frames() {
    let r = read(JULIA_INTERP);
    assert!(!r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
    let frames = &r.report.parsed.trace.stops[0].threads[0].frames;
    assert_eq!(frames.len(), 5);
    assert!(frames.iter().all(|f| f.function.is_some()));
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
}

#[test]
fn a_small_integer_return_address_without_the_marker_still_is_corruption() {
    let t =
        JULIA_INTERP.replace("unknown function (ip: 0xfffffffffffffffe)\nunknown function (ip: 0x7f31c4a2d94f)\n", "");
    let r = read(&t);
    assert!(r.rules.contains(&"corrupt-backtrace"), "{:?}", r.rules);
}

const A64_OOPS: &str = "\
[    5.118204] Unable to handle kernel paging request at virtual address ffffffc0122003a8
[    5.122487] Internal error: Oops: 0000000096000035 [#1] SMP
[    5.123301] CPU: 2 PID: 71 Comm: kworker/u12:3 Not tainted 6.1.68-edge #1
[    5.125623] pc : mutex_lock+0x24/0x64
[    5.125990] lr : mutex_lock+0x18/0x64
[    5.126352] sp : ffffffc00b2e3af0
[    5.126665] x29: ffffffc00b2e3af0 x28: ffffff8001a21500 x27: ffffff800052ec00
[    5.132727] x2 : 0000000000000000 x1 : ffffff8001a21500 x0 : ffffffc0122003a8
[    5.133399] Call trace:
[    5.133641]  mutex_lock+0x24/0x64
[    5.133977]  hw_attach+0x48/0x1b0
[    5.134356]  plat_probe+0x2c4/0x4e0
[    5.140618] ---[ end trace 0000000000000000 ]---
";

#[test]
fn an_aarch64_oops_is_read() {
    let r = read(A64_OOPS);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let p = &r.report.parsed;
    assert_eq!(p.trace.arch, tracecheck::model::Arch::Aarch64);
    let st = &p.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0xffffffc0122003a8));
    let names: Vec<_> = st.threads[0].frames.iter().map(|f| f.function_name().to_string()).collect();
    assert_eq!(names, ["mutex_lock", "hw_attach", "plat_probe"], "the trace's first row is the pc's frame again");
    assert_eq!(r.culprit.as_deref(), Some("mutex_lock"));
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

#[test]
fn an_x86_oops_trace_starting_with_the_same_function_keeps_both_frames() {
    // Look-alike: x86's Call Trace starts at RIP's caller, which may be the same function.
    let t = "\
[ 5123.448201] BUG: kernel NULL pointer dereference, address: 0000000000000008
[ 5123.448990] RIP: 0010:walk_tree+0x1c/0x90 [foo]
[ 5123.449063] Call Trace:
[ 5123.449070]  walk_tree+0x5a/0x90 [foo]
[ 5123.449077]  foo_ioctl+0x3a/0x70 [foo]
";
    let r = read(t);
    let names: Vec<_> =
        r.report.parsed.trace.stops[0].threads[0].frames.iter().map(|f| f.function_name().to_string()).collect();
    assert_eq!(names, ["walk_tree", "walk_tree", "foo_ioctl"]);
}

#[test]
fn macos_bus_error_10_is_sigbus() {
    let r = read("Stack dump:\n0.\tProgram arguments: clang -c a.c\nBus error: 10\n");
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGBUS"));
    let r = read("[4412] signal (10): Bus error: 10\nin expression starting at none:0\nf at /x/a.c:3\n");
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGBUS"));
    // Look-alike: Linux's signal 10 without a macOS description stays SIGUSR1.
    let r = read("[4412] signal (10): User defined signal 1\nin expression starting at none:0\nf at /x/a.c:3\n");
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGUSR1"));
}

#[test]
fn julias_culprit_is_the_function_a_macro_was_expanded_in() {
    let t = "\
[50211] signal (11.1): Segmentation fault
in expression starting at /home/u/t.jl:4
jl_object_id__cold at /cache/build/julia-release-1-dot-10/src/builtins.c:461
ijl_apply_generic at /cache/build/julia-release-1-dot-10/src/gf.c:3082
macro expansion at /home/u/pkg/src/run.jl:12 [inlined]
step! at /home/u/pkg/src/run.jl:10
top-level scope at /home/u/t.jl:4
";
    assert_eq!(read(t).culprit.as_deref(), Some("step!"));
    // The paste ends at the macro expansion: the function that faulted.
    let cut = t.replace("step! at /home/u/pkg/src/run.jl:10\ntop-level scope at /home/u/t.jl:4\n", "");
    assert_eq!(read(&cut).culprit.as_deref(), Some("jl_object_id__cold"));
    // Look-alike: a plain package function stays the culprit.
    let plain = t.replace("macro expansion at /home/u/pkg/src/run.jl:12 [inlined]\n", "");
    assert_eq!(read(&plain).culprit.as_deref(), Some("step!"));
}

#[test]
fn drkonqis_header_gives_the_signal() {
    let t = "\
Application: Notepad (notepad), signal: Segmentation fault
[Current thread is 1 (Thread 0x7f2a5b83d900 (LWP 3107))]

Thread 1 (Thread 0x7f2a5b83d900 (LWP 3107)):
[KCrash Handler]
#6  KFileTreeNode::rowIndex (this=0x0) at src/kfiletreemodel.cpp:171
#7  0x00007f2a5a1c40e2 in KFileTreeModel::indexForUrl (this=0x1, url=...) at src/kfiletreemodel.cpp:1104
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(r.culprit.as_deref(), Some("KFileTreeNode::rowIndex"));
    // Look-alike: an `Application:` line of a program's own log is not read.
    let r = read("Application: started in 3 ms\n");
    assert_eq!(unread(&r), vec!["Application: started in 3 ms".to_string()]);
}

#[test]
fn a_crash_handler_parked_in_waitpid_points_below_the_trampoline() {
    let t = "\
Thread 1 (Thread 0xb5d4a700 (LWP 31207)):
#0  0xb7fd9430 in __kernel_vsyscall ()
#1  0xb7f1a03b in waitpid () from /lib/libpthread.so.0
#2  0xb6e4b0e3 in KCrash::defaultCrashHandler () from /usr/lib/libkdeui.so.5
#3  <signal handler called>
#4  0x08152170 in ChatWindow::ownMessage ()
#5  0x08150010 in main ()
";
    assert_eq!(read(t).culprit.as_deref(), Some("ChatWindow::ownMessage"));
    // Look-alike: a fault inside a handler's own code (no wait, no abort) is the handler's.
    let own = t
        .replace("#1  0xb7f1a03b in waitpid () from /lib/libpthread.so.0\n", "")
        .replace("#0  0xb7fd9430 in __kernel_vsyscall ()", "#0  0xb6e4b000 in dump_frame ()");
    assert_eq!(read(&own).culprit.as_deref(), Some("dump_frame"));
}

#[test]
fn chromiums_handler_report_is_read_and_blames_below_it() {
    let t = "\
Received signal 11 SEGV_MAPERR 000000000000
#0 0x5581c1ef4c29 base::debug::CollectStackTrace()
#1 0x5581c1e59bd3 base::debug::StackTrace::StackTrace()
#2 0x5581c1ef47b1 base::debug::(anonymous namespace)::StackDumpSignalHandler()
#3 0x7f1e2a1c72e0 <unknown>
#4 0x5581c014b067 ui::SurfaceFactory::CreateCanvas()
#5 0x5581c328e18d viz::Display::Create()
  r8: 0000000000000000  r9: 0000000000000000 r10: 0000000000000000 r11: 0000000000000246
  ip: 00005581c014b067 efl: 0000000000010206 cgf: 002b000000000033 erf: 0000000000000004
 trp: 000000000000000e msk: 0000000000000000 cr2: 0000000000000000
[end of stack trace]
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0));
    assert!(st.threads[0].frames[3].signal_handler);
    assert_eq!(r.culprit.as_deref(), Some("ui::SurfaceFactory::CreateCanvas"));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: prose starting with the same words is not a report.
    let r = read("Received signal handlers from the config\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn a_macos_crash_report_is_read() {
    let t = "\
Process:         Jotter [41207]
Code Type:       X86-64 (Native)

Crashed Thread:  0  Dispatch queue: com.apple.main-thread

Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000000

Thread 0 Crashed:: Dispatch queue: com.apple.main-thread
0   org.example.Jotter            \t0x000000010a3114b8 -[JTKeyLogger start] + 280 (JTKeyLogger.m:42)
1   com.apple.AppKit              \t0x00007fff8c2c1b2e NSApplicationMain + 869

Thread 1:
0   libsystem_kernel.dylib        \t0x00007fff8d5a5d16 kevent + 10

Thread 0 crashed with X86 Thread State (64-bit):
  rax: 0x0000000000000000  rbx: 0x00007fa1c3e1b2a0
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0));
    assert_eq!(st.crashed_thread().map(|t| t.id.to_string()).as_deref(), Some("0"));
    assert_eq!(r.culprit.as_deref(), Some("-[JTKeyLogger start]"));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: a `Process:` line that is not a report's header stays unread.
    let r = read("Process: done\n");
    assert_eq!(unread(&r), vec!["Process: done".to_string()]);
}

#[test]
fn nodes_fatal_error_blames_the_binding_not_the_abort_path() {
    let t = "\
FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal.
 1: 0x95c1f8 node::Abort() [node]
 2: 0x95d043 node::OnFatalError(char const*, char const*) [node]
 3: 0xb17c7d v8::Utils::ReportApiFailure(char const*, char const*) [node]
 4: 0xa241c1 node::TTYWrap::Initialize(v8::Local<v8::Object>) [node]
 5: 0x2a1e5d94fc5d 
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGABRT"));
    assert_eq!(r.culprit.as_deref(), Some("node::TTYWrap::Initialize"));
}

#[test]
fn wines_debugger_report_is_read() {
    let t = "\
Unhandled exception: page fault on read access to 0x00000000 in 32-bit code (0x01fd9418).
Register dump:
 CS:0023 SS:002b DS:002b ES:002b FS:0063 GS:006b
 EIP:01fd9418 ESP:0022ed84 EBP:0022ee0c EFLAGS:00010246(  R- --  I  Z- -P- )
 EAX:0110f3a8 EBX:0005006c ECX:00000000 EDX:00000000
 ESI:0022ef98 EDI:00000000
Stack dump:
0x0022ed84:  00000000 68e9a44e 6ed9e538 86000000
Backtrace:
=>0 0x01fd9418 Sync+0x305af() in syncsvc (0x0022ee0c)
  1 0x6ed9e6f3 call_window_proc+0x63(hwnd=0005006C, msg=0x1) [Z:\\src\\dlls\\user32\\winproc.c:246] in user32 (0x0022ef18)
0x01fd9418 Sync+0x305af in syncsvc: movl\t0x0(%edi),%eax
Modules:
Module\tAddress\t\t\tDebug info\tName (2 modules)
PE\t00400000-00553000\tDeferred        syncsvc
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let p = &r.report.parsed;
    assert_eq!(p.trace.arch, tracecheck::model::Arch::X86);
    let st = &p.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0));
    let f1 = &st.threads[0].frames[1];
    assert_eq!((f1.function_name(), f1.line), ("call_window_proc", Some(246)));
    assert_eq!(st.disassembly[0].text.as_ref(), "movl\t0x0(%edi),%eax");
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: Wine's one-line notice alone is a message, not a crash of its own.
    let r = read(
        "wine: Unhandled page fault on read access to 00000000 at address 01fd9418 (thread 0031), starting debugger...\n",
    );
    assert!(unread(&r).is_empty());
    assert!(r.report.parsed.trace.stops.iter().all(|s| s.reason.signal.is_none()));
}

#[test]
fn cpythons_faulthandler_report_is_read_also_after_a_runners_dots() {
    let t = "\
test_embed.py .Fatal Python error: Segmentation fault

Current thread 0x00007f3c2d91e740 (most recent call first):
  File \"/home/e/venv/site-packages/embedkit/model.py\", line 131 in train
  File \"/home/e/src/tests/test_embed.py\", line 64 in test_training

Thread 0x00007f3c1a1fe640 (most recent call first):
  File \"/usr/lib/python3.10/threading.py\", line 320 in wait
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.crashed_thread().map(|t| t.id.to_string()).as_deref(), Some("0x00007f3c2d91e740"));
    assert_eq!(r.culprit.as_deref(), Some("train"));
    // Look-alike: the same thread heading without the report is not read.
    let r = read("Current thread 0x00007f3c2d91e740 (most recent call first):\n");
    assert_eq!(unread(&r).len(), 1);
}

#[test]
fn gccgos_decimal_fault_address_is_read() {
    let t = "\
fatal error: unexpected signal during runtime execution
[signal SIGSEGV: segmentation violation code=1 addr=8 pc=52314617]

goroutine 877 [syscall, locked to thread]:
runtime.sigpanic
        ../../../src/libgo/go/runtime/signal_unix.go:311

        :0
kv._Cfunc_ReleaseLock
        /tmp/go-build/kv/_obj/_cgo_gotypes.go:412
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops[0].reason.address.map(|a| a.0), Some(8));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: gc's hex form is still hex.
    let r = read(&t.replace("addr=8 pc=52314617", "addr=0x18 pc=0x45ac90"));
    assert_eq!(r.report.parsed.trace.stops[0].reason.address.map(|a| a.0), Some(0x18));
}

#[test]
fn a_postmasters_log_line_names_the_backends_signal() {
    let t = "\
Mar  3 10:41:07 dbhost postgres[51022]: [2-1] LOG:  server process (PID 87311) was terminated by signal 11: Segmentation fault
(gdb) bt
#0  0x0000000000728e4d in pg_detoast_datum_copy ()
#1  0x00000000005f6905 in inline_set_returning_function ()
";
    let r = read(t);
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(r.culprit.as_deref(), Some("pg_detoast_datum_copy"));
    // Look-alike: a signal a breakpoint stop already has is not overwritten.
    let t2 = "\
Breakpoint 1, main () at a.c:3
Mar  3 10:41:07 dbhost postgres[51022]: [2-1] LOG:  server process (PID 87311) was terminated by signal 11: Segmentation fault
";
    let r = read(t2);
    assert!(r.report.parsed.trace.stops.iter().all(|s| s.reason.signal.as_deref() != Some("SIGSEGV")));
}

#[test]
fn a_macos_sigbus_in_a_threads_stack_guard_is_a_stack_overflow() {
    let t = "\
Process:               Builder [61180]
Crashed Thread:        4  Dispatch queue: q

Exception Type:        EXC_BAD_ACCESS (SIGBUS)
Exception Codes:       KERN_PROTECTION_FAILURE at 0x00007000051d3ff8

Thread 4 Crashed:: Dispatch queue: q
0   Builder                       \t0x000000010e31c9f4 -[BLDProject tree] + 148
1   Builder                       \t0x000000010e31ca21 -[BLDProject tree] + 193
2   Builder                       \t0x000000010e31ca21 -[BLDProject tree] + 193

Thread 4 crashed with X86 Thread State (64-bit):
  rbp: 0x00007000051d4010  rsp: 0x00007000051d4000
  rip: 0x000000010e31c9f4  rfl: 0x0000000000010202
";
    let r = read(t);
    assert_eq!(r.report.parsed.trace.stops[0].reason.signal.as_deref(), Some("SIGBUS"));
    assert!(r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
    // Look-alike: the same fault far from the stack pointer is not one.
    let r = read(&t.replace("0x00007000051d3ff8", "0x00000001200d3ff8"));
    assert!(!r.rules.contains(&"stack-overflow"), "{:?}", r.rules);
}

const BARE: &str = "\
/usr/bin/vpp[20471]: received signal SIGBUS, PC 0x7f3ac41d58ba
/usr/bin/vpp[20471]: #0  0x00007f3ac4c6697d 0x7f3ac4c6697d
/usr/bin/vpp[20471]: #1  0x00007f3ac47bc890 0x7f3ac47bc890
/usr/bin/vpp[20471]: #2  0x00007f3ac41d58ba 0x7f3ac41d58ba
/usr/bin/vpp[20471]: #3  0x00007f3ac454f673 arena_create + 0x213
";

#[test]
fn a_daemons_report_behind_a_bare_prefix_is_read() {
    let r = read(BARE);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGBUS"));
    assert!(st.threads[0].frames[1].signal_handler, "the row before the named pc is the trampoline");
    assert_eq!(r.culprit.as_deref(), Some("arena_create"));
}

#[test]
fn a_programs_own_bracketed_output_is_not_peeled() {
    let r = read("worker[3]: loaded 12 rules\nworker[3]: #0 is the first rule\n");
    assert_eq!(unread(&r).len(), 2, "{:?}", unread(&r));
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn an_addons_segfault_handler_has_its_trampoline() {
    let t = "\
Error: signal 11:
/app/node_modules/kv/build/Release/kv.node(+0x2c1a7)[0x7f3a1c80e1a7]
/lib/x86_64-linux-gnu/libc.so.6(+0x37840)[0x7f3a1f07d840]
/app/node_modules/kv/build/Release/kv.node(+0x481e0)[0x7f3a1c82a1e0]
/home/dev/.n/bin/node[0xbe37ab]
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = &r.report.parsed.trace.stops[0];
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert!(st.threads[0].frames[1].signal_handler);
    assert!(!st.threads[0].frames[3].signal_handler);
}
