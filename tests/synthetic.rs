//! rr and Julia input. rr cannot record on the machine the samples come from and Julia is
//! not installed there, so these transcripts in `sample-traces/synthetic/` are hand-written
//! in the shapes of real rr and Julia output (real issue reports and the seeds in
//! `/work/shared/seeds`); each says so on its first line, which is the one line the parser
//! must leave unrecognized. Snapshots in `tests/snapshots/synthetic-<name>.txt`.

mod common;

use common::{assert_snapshot, parse_sample, render};
use tracecheck::input::Parsed;
use tracecheck::model::*;

const FILES: &[&str] = &[
    "julia-1.12-segfault.julia.txt",
    "julia-1.8-segfault.julia.txt",
    "julia-error-oneline.julia.txt",
    "julia-error-twoline.julia.txt",
    "julia-gc-error.julia.txt",
    "rr-assert.rr.txt",
    "rr-fatal.rr.txt",
    "rr-replay-watchpoint.rr.txt",
];

fn parse(name: &str) -> (String, Parsed) {
    let (text, p) = parse_sample(&format!("synthetic/{name}"));
    assert!(text.starts_with("# SYNTHETIC"), "{name}: the first line must mark it synthetic");
    // Only the SYNTHETIC header line is not tool output.
    let un: Vec<u32> = p.diagnostics.unrecognized.iter().map(|u| u.line).collect();
    assert_eq!(un, [1], "{name}: {:?}", p.diagnostics.unrecognized);
    (text, p)
}

#[test]
fn every_file_is_listed_and_snapshotted() {
    let mut found: Vec<String> = std::fs::read_dir(common::samples_dir().join("synthetic"))
        .expect("sample-traces/synthetic")
        .filter_map(|e| e.ok().and_then(|e| e.file_name().to_str().map(str::to_string)))
        .filter(|n| n.ends_with(".txt"))
        .collect();
    found.sort();
    assert_eq!(found, FILES);
    for f in FILES {
        let (_, p) = parse(f);
        let name = format!("synthetic-{}", f.trim_end_matches(".txt").replace('.', "-"));
        assert_snapshot(&name, &render(&p));
    }
}

fn functions(t: &Thread) -> Vec<&str> {
    t.frames.iter().map(|f| f.function_name()).collect()
}

#[test]
fn rr_replay_with_reverse_watchpoint() {
    let (_, p) = parse("rr-replay-watchpoint.rr.txt");
    assert_eq!(p.trace.formats, [Format::Gdb, Format::Rr]);
    // The exec stop (`_start`), the crash, and the watchpoint reached in reverse.
    assert_eq!(p.trace.stops.len(), 3);
    let crash = &p.trace.stops[1];
    assert_eq!(p.trace.main_stop(), Some(crash));
    assert_eq!((crash.reason.kind, crash.reason.signal.as_deref()), (StopKind::Signal, Some("SIGSEGV")));
    assert_eq!((crash.reason.si_code, crash.reason.address), (Some(1), Some(Address(0x8))));
    assert_eq!(crash.rr_event, Some(318));
    assert!(!crash.reverse);
    let t = crash.crashed_thread().expect("thread");
    assert_eq!(functions(t), ["consume", "main"]);
    assert_eq!((t.frames[0].file.as_deref(), t.frames[0].line), (Some("queue-drain.c"), Some(24)));

    let w = &p.trace.stops[2];
    assert_eq!((w.reason.kind, w.reason.number), (StopKind::Watchpoint, Some(1)));
    assert_eq!(w.reason.description.as_deref(), Some("-location q->head"));
    assert_eq!(w.reason.old_value.as_deref(), Some("(struct node *) 0x0"));
    assert_eq!(w.reason.new_value.as_deref(), Some("(struct node *) 0x55f3a9e7c2c0"));
    assert!(w.reverse);
    assert_eq!((w.rr_event, w.rr_ticks, w.rr_tid), (Some(301), Some(187342), Some(52114)));
    let t = w.crashed_thread().expect("thread");
    assert_eq!(functions(t), ["drain", "main"]);
    assert_eq!(t.frames[0].line, Some(16));
    assert_eq!(t.registers[&0].get("rip"), Some(0x55f3a81a119e));
    assert!(w.disassembly[0].current);
    // Setting the watchpoint is not a stop.
    assert!(p.trace.stops.iter().filter(|s| s.reason.kind == StopKind::Watchpoint).count() == 1);
}

#[test]
fn rr_fatal_report() {
    let (_, p) = parse("rr-fatal.rr.txt");
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.reason.kind, StopKind::RrFatal);
    assert!(
        s.reason
            .description
            .as_deref()
            .is_some_and(|d| d.starts_with("Assertion `false' failed to hold. Replay got unrecorded signal"))
    );
    assert_eq!(s.rr_event, Some(2417));
    assert!(s.messages[0].text.starts_with("[FATAL src/ReplaySession.cc:612:cont_syscall_boundary()]"));
    // rr's own backtrace is thread `rr`.
    let rr = s.threads.iter().find(|t| &*t.id == "rr").expect("rr thread");
    assert_eq!(rr.frames.len(), 9);
    // backtrace_symbols names are demangled, parameters kept as the frame's arguments.
    assert_eq!(rr.frames[3].function_name(), "rr::ReplaySession::cont_syscall_boundary");
    assert_eq!(rr.frames[3].args.as_deref(), Some("rr::ReplayTask*, rr::ReplaySession::StepConstraints const&"));
    assert_eq!(rr.frames[3].pc, Some(Address(0x55d6a8052b71)));
    assert_eq!(rr.frames[6].module.as_deref(), Some("/lib/x86_64-linux-gnu/libc.so.6"));
}

#[test]
fn rr_assertion_abort() {
    let (_, p) = parse("rr-assert.rr.txt");
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.reason.kind, StopKind::RrFatal);
    assert!(s.reason.description.as_deref().is_some_and(|d| d.contains("Assertion `data.rec_tid > 0' failed.")));
    assert_eq!(s.messages.last().map(|m| &*m.text), Some("Aborted (core dumped)"));
}

#[test]
fn julia_1_8_segfault() {
    let (_, p) = parse("julia-1.8-segfault.julia.txt");
    assert_eq!(p.trace.formats, [Format::Julia]);
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(
        (s.reason.kind, s.reason.signal.as_deref(), s.reason.signo, s.reason.si_code),
        (StopKind::Signal, Some("SIGSEGV"), Some(11), None)
    );
    let t = s.crashed_thread().expect("thread");
    assert_eq!(t.frames.len(), 23);
    let f0 = &t.frames[0];
    assert_eq!((f0.function_name(), f0.line, f0.inlined), ("jl_deserialize_value_singleton", Some(1941), true));
    assert!(f0.file.as_deref().is_some_and(|f| f.ends_with("src/dump.c")));
    assert_eq!(t.frames[13].module.as_deref(), Some("/home/dev/julia-1.8.5/lib/julia/sys.so"));
    let unknown = &t.frames[19];
    assert_eq!((unknown.function.as_ref(), unknown.pc), (None, Some(Address(0x7f3c9a1d6f2b))));
    assert_eq!(t.frames[21].function_name(), "top-level scope");
    // `_start at …/bin/julia (unknown line)`: the executable, not a source file.
    assert_eq!(t.frames[22].module.as_deref(), Some("/home/dev/julia-1.8.5/bin/julia"));
    // The crash line is the first frame outside the runtime with a line: Julia's own C code
    // is not machinery (a deserializer bug is a runtime bug), Base (`./loading.jl`) is.
    assert_eq!(
        tracecheck::analyze::crash_line(s).as_deref(),
        Some("/cache/build/default-amdci5-5/julialang/julia-release-1-dot-8/src/dump.c:1941")
    );
    assert_eq!(s.messages.last().map(|m| &*m.text), Some("Segmentation fault (core dumped)"));
}

#[test]
fn julia_1_12_segfault() {
    let (_, p) = parse("julia-1.12-segfault.julia.txt");
    let s = p.trace.main_stop().expect("stop");
    assert_eq!((s.reason.signal.as_deref(), s.reason.si_code), (Some("SIGSEGV"), Some(1)));
    assert_eq!(s.reason.code_name(), Some("SEGV_MAPERR"));
    let t = s.crashed_thread().expect("thread");
    assert_eq!(&*t.id, "1");
    assert_eq!(t.frames.len(), 15);
    assert_eq!(functions(t)[..2], ["julia_module_callback_4212", "jlcapi_module_callback_4213"]);
    // A Julia source file without a line stays a file; a library is a module.
    assert_eq!(
        (t.frames[1].file.as_deref(), t.frames[1].line),
        (Some("/home/dev/.julia/packages/LLVM/b3kFs/src/newpm.jl"), None)
    );
    assert!(t.frames[3].module.as_deref().is_some_and(|m| m.ends_with("libLLVM-18jl.so")));
    assert_eq!(t.frames[14].pc, Some(Address(0)));
    assert!(t.frames[4].inlined);
}

#[test]
fn julia_gc_error() {
    let (_, p) = parse("julia-gc-error.julia.txt");
    let s = p.trace.main_stop().expect("stop");
    assert_eq!((s.reason.signal.as_deref(), s.reason.si_code), (Some("SIGABRT"), Some(-6)));
    assert_eq!(s.messages[0].text.as_ref(), "GC error (probable corruption)");
    assert!(s.messages.iter().any(|m| m.text.contains("ptr queue top")));
    assert_eq!(tracecheck_classify(&s.messages[0].text), Some(tracecheck::messages::MessageKind::GcCorruption));
    let t = s.crashed_thread().expect("thread");
    assert_eq!(functions(t)[..4], ["pthread_kill", "raise", "abort", "gc_dump_queue_and_abort"]);
    assert_eq!(t.frames.len(), 14);
    // The culprit is the first frame outside libc, the GC and Base: the allocating caller.
    let c = tracecheck::analyze::culprit(s).expect("culprit");
    assert_eq!(t.frames[c.position].function_name(), "augmented_primal");
}

fn tracecheck_classify(t: &str) -> Option<tracecheck::messages::MessageKind> {
    tracecheck::messages::classify(t)
}

#[test]
fn julia_error_two_line_stacktrace() {
    let (_, p) = parse("julia-error-twoline.julia.txt");
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.reason.kind, StopKind::RuntimeError);
    assert!(
        s.reason
            .description
            .as_deref()
            .is_some_and(|d| d.starts_with("LoadError: AssertionError: Enzyme: could not find world"))
    );
    // The IR lines after `ERROR:` are part of the message.
    assert_eq!(s.messages.len(), 4);
    let t = s.crashed_thread().expect("thread");
    assert_eq!(t.frames.len(), 9);
    let f0 = &t.frames[0];
    assert_eq!((f0.function_name(), f0.args.as_deref()), ("enzyme_extract_world", Some("fn::LLVM.Function")));
    assert_eq!(
        (f0.module.as_deref(), f0.file.as_deref(), f0.line),
        (Some("Enzyme.Compiler"), Some("~/.julia/dev/Enzyme/src/compiler.jl"), Some(2494))
    );
    assert!(t.frames[2].inlined && t.frames[2].module.is_none());
    assert_eq!(t.frames[4].function_name(), "#compile#202");
    assert_eq!((t.frames[8].file.as_deref(), t.frames[8].line), (Some("REPL[2]"), Some(1)));
}

#[test]
fn julia_error_one_line_stacktrace() {
    let (_, p) = parse("julia-error-oneline.julia.txt");
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.reason.description.as_deref(), Some("type Array has no field layer_1"));
    let t = s.crashed_thread().expect("thread");
    assert_eq!(functions(t), ["getproperty", "applychain", "PrimalErrorThunk", "runtime_generic_augfwd", "rhs!"]);
    assert_eq!((t.frames[1].file.as_deref(), t.frames[1].line), (Some("Lux/src/layers/containers.jl"), Some(577)));
    assert_eq!(t.frames[3].module.as_deref(), Some("Enzyme.Compiler"));
    assert_eq!((t.frames[4].file.as_deref(), t.frames[4].line), (Some("/home/dev/mwe.jl"), Some(21)));
    // The `caused by:` exception's stack is a thread of its own.
    let cause = s.threads.iter().find(|t| t.name.as_deref() == Some("caused by")).expect("caused by");
    assert_eq!(functions(cause), ["getindex", "rhs!"]);
    assert!(s.messages.iter().any(|m| m.text.starts_with("caused by: BoundsError")));
}
