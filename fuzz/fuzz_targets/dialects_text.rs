//! The inputs of the later parsers, each seeded with its dialect's opening so the fuzzer
//! starts inside it: rr replays and rr's FATAL reports with a trace dump tail, sanitizer
//! reports (ASan, UBSan, TSan) in a gdb session, Go crash variants (fatal error, concurrent
//! map writes, cgo), lldb variants (`thread backtrace all`, `register read`, `image list`).
//! Parse, every rule, all three renderers. Must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

const PREFIXES: &[&str] = &[
    "[FATAL src/ReplaySession.cc:600:cont_syscall_boundary()]\n (task 37985 (rec:165304) at time 87)\n -> Assertion `false' failed to hold. Replay got unrecorded signal\nTail of trace dump:\n{\n  real_time:1.0 global_time:87, event:`SYSCALL: write' (state:ENTERING_SYSCALL) tid:37985, ticks:1234\n",
    "(rr) reverse-continue\nContinuing.\n\nHardware watchpoint 1: *0x7ffc\n\nOld value = 1\nNew value = 0\n",
    "=================================================================\n==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x55555555 bp 0x7ffc sp 0x7ffc\nREAD of size 4 at 0x602000000010 thread T0\n    #0 0x555555555189 in main /src/a.c:5:10\n",
    "src/a.c:5:10: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n",
    "==================\nWARNING: ThreadSanitizer: data race (pid=1)\n  Write of size 4 at 0x7b04 by thread T1:\n    #0 worker /src/a.c:3 (a+0x1234)\n",
    "fatal error: concurrent map writes\n\ngoroutine 18 [running]:\nmain.main.func1()\n\t/src/main.go:9 +0x45\n",
    "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:7 +0x1d\nexit status 2\n",
    "SIGSEGV: segmentation violation\nPC=0x7f0000 m=3 sigcode=1 addr=0x0\nsignal arrived during cgo execution\n\ngoroutine 1 gp=0xc000002380 m=0 mp=0x5a8ce0 [syscall]:\n",
    "(lldb) thread backtrace all\n* thread #1, name = 'a', stop reason = signal SIGSEGV: invalid address (fault address: 0x18)\n  * frame #0: 0x0000555555555155 a`f(s=0x0) at a.c:23:13\n",
    "(lldb) register read\nGeneral Purpose Registers:\n       rax = 0x0000000000000000\n       rip = 0x0000555555555155  a`f + 12 at a.c:23:13\n",
    "(lldb) image list\n[  0] 1234ABCD-0000-0000-0000-000000000000 0x0000555555554000 /src/a \n",
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let mut input = PREFIXES[sel as usize % PREFIXES.len()].as_bytes().to_vec();
    input.extend_from_slice(rest);
    let parsed = tracecheck::input::parse_bytes(&input);
    let ir = tracecheck::analyze::analyze("fuzz", parsed, &Default::default());
    let report = tracecheck::analyze::Report { inputs: vec![ir] };
    let mut sink = Vec::new();
    let _ = tracecheck::report::json::write(&report, &mut sink);
    sink.clear();
    let _ = tracecheck::report::text::write(&report, &Default::default(), &mut sink);
    sink.clear();
    let _ = tracecheck::report::markdown::write(&report, &Default::default(), &mut sink);
});
