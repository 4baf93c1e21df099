//! The AArch64 (qemu + gdb-multiarch), Go and lldb sample transcripts parse into the model
//! with the values they show. Only the committed text is read; no tool runs here.
//! `sample-traces/regenerate-extra.sh` rewrites the files: values that change between runs
//! (pids, Go heap addresses) are not asserted, and the rest must be updated when the files
//! are regenerated on another machine.

use std::path::PathBuf;
use tracecheck::input::{self, Parsed};
use tracecheck::model::*;

fn load(rel: &str) -> Parsed {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-traces").join(rel);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    input::parse_bytes(&bytes)
}

fn unrecognized(p: &Parsed) -> Vec<&str> {
    p.diagnostics.unrecognized.iter().map(|u| u.text.as_str()).collect()
}

fn names(t: &Thread) -> Vec<&str> {
    t.frames.iter().map(|f| f.function_name()).collect()
}

/// The stop a reader means: the last one with a signal.
fn signal_stop(p: &Parsed) -> &Stop {
    p.trace.stops.iter().rev().find(|s| s.reason.kind == StopKind::Signal).expect("a signal stop")
}

fn reg(stop: &Stop, frame: u32, name: &str) -> Option<u64> {
    stop.crashed_thread()?.registers.get(&frame)?.get(name)
}

// ---- AArch64 ---------------------------------------------------------------------------

#[test]
fn aarch64_julia_trampoline_stale_x20() {
    let p = load("aarch64/julia-trampoline-bad-x20.gdb.txt");
    assert_eq!(p.trace.arch, Arch::Aarch64);
    // gdb's own lines it cannot place yet (`info symbol`) and the deliberate last error.
    assert!(p.diagnostics.lines_unrecognized <= 3, "{:?}", unrecognized(&p));
    let s = signal_stop(&p);
    assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
    // qemu's gdbstub has no siginfo: no si_code and no fault address.
    assert_eq!(s.reason.si_code, None);
    let th = s.crashed_thread().unwrap();
    assert_eq!(
        names(th)[..8],
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
    assert_eq!(th.frames[0].pc, Some(Address(0x5500000db8)));
    assert_eq!(reg(s, 0, "x20"), Some(0x55000213b0), "x20 holds the thunk, not pgcstack");
    assert_eq!(reg(s, 0, "x8"), Some(0x2a));
    assert_eq!(reg(s, 0, "sp"), Some(0x5502821ad0));
    assert_eq!(reg(s, 0, "pc"), Some(0x5500000db8));
    assert_eq!(reg(s, 0, "cpsr"), Some(0x20000000));
    // qemu's system registers are read as registers too.
    assert_eq!(reg(s, 0, "ID_AA64PFR0_EL1"), Some(0x1000100110011));
    // Frame 4 (julia_run_21) has a real pgcstack in x20.
    assert_eq!(reg(s, 4, "x20"), Some(0x5500021318));
    let m = s.memory.iter().find(|m| m.expr.as_deref() == Some("$x20")).expect("x/4gx $x20");
    assert_eq!(m.address, Address(0x55000213b0));
    assert_eq!(m.words, vec![0x550001fdc0, 0x5500000d88, 0x2a, u64::MAX]);
    assert!(s.disassembly.iter().any(|i| i.current && i.text.starts_with("ldr\tx8, [x8, #16]")));
}

#[test]
fn aarch64_julia_trampoline_control_exits() {
    let p = load("aarch64/julia-trampoline-good-x20.gdb.txt");
    assert_eq!(p.trace.arch, Arch::Aarch64);
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let bp = p.trace.stops.iter().find(|s| s.reason.kind == StopKind::Breakpoint).expect("breakpoint stop");
    assert_eq!(bp.reason.number, Some(1));
    assert_eq!(reg(bp, 0, "pc"), Some(0x5500000df4));
    assert_eq!(reg(bp, 0, "x20"), Some(0x5500021318), "a valid pgcstack");
    let m = bp.memory.iter().find(|m| m.expr.as_deref() == Some("$x20")).expect("x/4gx $x20");
    // gcstack (the GC frame just pushed on the stack), world_age 26513, ptls.
    assert_eq!(m.words[0], 0x5502821ae0);
    assert_eq!(m.words[1], 26513);
    assert_eq!(p.trace.stops.last().map(|s| s.reason.kind), Some(StopKind::Exited));
}

#[test]
fn aarch64_null_field() {
    let p = load("aarch64/null-field.gdb.txt");
    assert_eq!(p.trace.arch, Arch::Aarch64);
    let s = signal_stop(&p);
    assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
    let th = s.crashed_thread().unwrap();
    assert_eq!(names(th)[..4], ["session_bytes", "registry_total", "report", "main"]);
    assert_eq!(th.frames[0].args.as_deref(), Some("s=0x0"));
    assert_eq!(th.frames[0].line, Some(23));
    assert_eq!(reg(s, 0, "x0"), Some(0), "the NULL session pointer");
    assert_eq!(reg(s, 0, "sp"), Some(0x5502821bd0));
    assert_eq!(reg(s, 0, "pc"), Some(0x55000007e0));
    assert_eq!(reg(s, 0, "cpsr"), Some(0x60000000));
    assert!(s.disassembly.iter().any(|i| i.current && &*i.text == "ldr\tx0, [x0, #24]"));
}

#[test]
fn aarch64_companion_dump() {
    let p = load("aarch64/julia-trampoline-bad-x20.collect.txt");
    assert_eq!(p.trace.arch, Arch::Aarch64);
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    assert_eq!(p.trace.stops.len(), 1);
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.kind, StopKind::Signal);
    assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(reg(s, 0, "x20"), Some(0x55000213b0));
    assert!(s.crashed_thread().unwrap().registers.contains_key(&3), "registers for 4 frames");
    let m = s.memory.iter().find(|m| m.expr.as_deref() == Some("$x20")).expect("x/4gx $x20");
    assert_eq!(m.words[2], 0x2a);
}

// ---- Go --------------------------------------------------------------------------------

#[test]
fn go_nil_deref_panic() {
    for (file, args) in [("go/nil-deref.txt", "0xc000086f48, 0x2"), ("go/nil-deref-arm64.txt", "0x400008ef40, 0x2")] {
        let p = load(file);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{file}: {:?}", unrecognized(&p));
        assert_eq!(p.trace.formats, vec![Format::Go]);
        assert_eq!(p.trace.stops.len(), 1);
        let s = &p.trace.stops[0];
        assert_eq!(s.reason.kind, StopKind::Signal);
        assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
        assert_eq!(s.reason.si_code, Some(1));
        assert_eq!(s.reason.address, Some(Address(0x18)));
        assert_eq!(
            s.reason.description.as_deref(),
            Some("runtime error: invalid memory address or nil pointer dereference")
        );
        let th = s.crashed_thread().unwrap();
        assert_eq!(&*th.id, "goroutine 1");
        assert_eq!(th.name.as_deref(), Some("running"));
        assert_eq!(names(th), ["main.sessionBytes", "main.registryTotal", "main.main"]);
        assert!(th.frames[0].file.as_deref().unwrap_or("").ends_with("go/src/nil-deref.go"));
        assert_eq!(th.frames[0].line, Some(26));
        assert_eq!(th.frames[1].line, Some(33));
        assert_eq!(th.frames[1].args.as_deref(), Some(args));
    }
}

#[test]
fn go_traceback_crash_goroutines() {
    let p = load("go/traceback-crash.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    assert_eq!(p.trace.arch, Arch::X86_64, "from runtime/asm_amd64.s");
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.address, Some(Address(0x18)));
    let th = s.crashed_thread().unwrap();
    assert_eq!(&*th.id, "goroutine 1");
    assert_eq!(names(th)[..5], ["panic", "runtime.panicmem", "runtime.sigpanic", "main.sessionBytes", "main.main"]);
    assert_eq!(th.frames[3].pc, Some(Address(0x465b00)), "pc= on the location line");
    assert_eq!(th.frames[1].pc, None, "an inlined `(...)` frame has no pc");
    assert!(th.frames[1].inlined);
    let worker = s.threads.iter().find(|t| t.name.as_deref() == Some("chan receive")).expect("the parked worker");
    assert!(names(worker).contains(&"main.worker"));
    assert!(s.threads.len() >= 5);
    assert_eq!(s.threads.iter().filter(|t| t.crashed).count(), 1);
}

#[test]
fn go_fatal_error_unexpected_signal() {
    let p = load("go/cgo-segv.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.kind, StopKind::Signal);
    assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(s.reason.address, Some(Address(0)));
    assert_eq!(s.reason.description.as_deref(), Some("unexpected signal during runtime execution"));
    let rt = s.threads.iter().find(|t| &*t.id == "runtime stack").expect("runtime stack");
    assert_eq!(names(rt), ["runtime.throw", "runtime.sigpanic"]);
    let th = s.crashed_thread().unwrap();
    assert_eq!(&*th.id, "goroutine 1");
    assert_eq!(th.name.as_deref(), Some("syscall"));
    assert_eq!(names(th)[..4], ["runtime.cgocall", "main._Cfunc_count_request", "main.handle", "main.main"]);
}

#[test]
fn go_fatal_signal_register_block_amd64() {
    let p = load("go/cgo-abort.txt");
    // The C code's own stderr line before the runtime's output.
    assert_eq!(unrecognized(&p), ["table_check: len 9 > cap 4"]);
    assert_eq!(p.trace.arch, Arch::X86_64);
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.signal.as_deref(), Some("SIGABRT"));
    assert_eq!(s.reason.si_code, Some(-6), "sigcode=18446744073709551610 is SI_TKILL");
    assert!(s.messages.iter().any(|m| &*m.text == "signal arrived during cgo execution"));
    let th = s.crashed_thread().unwrap();
    assert_eq!(&*th.id, "goroutine 1");
    assert!(names(th).contains(&"main.fill"));
    let regs = th.registers.get(&0).expect("the register block is frame 0's");
    assert_eq!(regs.regs.len(), 21);
    assert_eq!(regs.get("rip"), Some(0x7fe1f7a97eec));
    assert_eq!(regs.get("rsp"), Some(0x7ffeda857f00));
    assert_eq!(regs.get("rdx"), Some(6), "the signal number raise() passed");
    assert_eq!(regs.get("r14"), Some(0xc0000061a0), "g, the current goroutine");
    assert_eq!(regs.get("rflags"), Some(0x246));
}

#[test]
fn go_sigquit_register_blocks() {
    let p = load("go/sigquit.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.signal.as_deref(), Some("SIGQUIT"));
    assert_eq!(s.reason.si_code, Some(0));
    assert_eq!(reg(s, 0, "rip"), Some(0x40268e));
    assert_eq!(reg(s, 0, "r14"), Some(0xc0000061a0));

    let p = load("go/sigquit-arm64.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    assert_eq!(p.trace.arch, Arch::Aarch64);
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.signal.as_deref(), Some("SIGQUIT"));
    let th = s.crashed_thread().unwrap();
    assert_eq!(&*th.id, "goroutine 0");
    assert_eq!(th.name.as_deref(), Some("idle"));
    let regs = th.registers.get(&0).unwrap();
    // Go's r0…r29 and lr are stored as x0…x30; sp, pc and fault keep their names.
    assert_eq!(regs.get("x28"), Some(0x104d40), "g (here the M's g0)");
    assert_eq!(regs.reg("x28").and_then(|r| r.natural.as_deref()), Some("r28"));
    assert_eq!(regs.get("x30"), Some(0x48660));
    assert_eq!(regs.get("sp"), Some(0x5500800d60));
    assert_eq!(regs.get("pc"), Some(0x48660));
    assert_eq!(regs.get("fault"), Some(0));
    assert_eq!(regs.get("r28"), None);
}

// ---- lldb ------------------------------------------------------------------------------

#[test]
fn lldb_null_field() {
    let p = load("lldb/null-field.lldb.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    assert_eq!(p.trace.formats, vec![Format::Lldb]);
    assert_eq!(p.trace.arch, Arch::X86_64);
    assert_eq!(p.trace.stops.len(), 1);
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(s.reason.address, Some(Address(0x18)));
    assert_eq!(s.reason.description.as_deref(), Some("invalid address"));
    let th = s.crashed_thread().unwrap();
    assert_eq!((&*th.id, th.name.as_deref()), ("1", Some("null-field")));
    assert_eq!(names(th)[..4], ["session_bytes", "registry_total", "report", "main"]);
    assert_eq!(th.frames[0].pc, Some(Address(0x555555555155)));
    assert_eq!(
        (th.frames[0].file.as_deref(), th.frames[0].line, th.frames[0].column),
        (Some("null-field.c"), Some(23), Some(13))
    );
    assert_eq!(th.frames[0].module.as_deref(), Some("null-field"));
    assert_eq!(reg(s, 0, "rax"), Some(0));
    assert_eq!(reg(s, 0, "rip"), Some(0x555555555155));
    assert_eq!(reg(s, 0, "rsp"), Some(0x7fffffffeb90));
    // `frame select 1` then `register read rip rsp rbp rdi`.
    assert_eq!(reg(s, 1, "rip"), Some(0x555555555191));
    assert!(th.frames[1].locals.as_deref().unwrap_or("").contains("upto = 2"));
    let words =
        s.memory.iter().find(|m| m.expr.as_deref() == Some("$rsp") && m.unit == 8).expect("memory read -s8 $rsp");
    assert_eq!(words.words.len(), 4);
    let bytes =
        s.memory.iter().find(|m| m.expr.as_deref() == Some("$rsp") && m.unit == 1).expect("memory read $rsp (bytes)");
    assert_eq!(bytes.words.len(), 32);
    assert_eq!(s.read_u64(0x7fffffffeb90), Some(words.words[0]), "bytes and words agree");
    assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("evaluation failed")));
}

#[test]
fn lldb_threads() {
    let p = load("lldb/threads-crash.lldb.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.address, Some(Address(0)));
    assert_eq!(s.threads.len(), 6);
    let th = s.crashed_thread().unwrap();
    assert_eq!((&*th.id, th.name.as_deref()), ("6", Some("crasher")));
    assert_eq!(names(th)[..2], ["store_result", "crasher"]);
    assert_eq!(reg(s, 0, "rdx"), Some(0x2a));
    assert_eq!(reg(s, 0, "rip"), Some(0x555555555266));
    let reader = s.threads.iter().find(|t| t.name.as_deref() == Some("io-reader")).unwrap();
    assert_eq!(&*reader.id, "2");
    assert!(reader.lwp.is_some(), "thread list gives the tid");
    assert!(names(reader).contains(&"park"));
    assert!(reader.registers.is_empty());
}

#[test]
fn lldb_julia_trampoline_registers_per_frame() {
    let p = load("lldb/julia-trampoline-bad-r13.lldb.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.address, Some(Address(0x3a)));
    let th = s.crashed_thread().unwrap();
    assert_eq!(names(th)[..3], ["julia_module_callback_4212", "jlcapi_module_callback_4213", "run_pass_manager"]);
    assert_eq!(reg(s, 0, "r13"), Some(0x5555555593b0));
    assert_eq!(reg(s, 2, "r13"), Some(0x5555555593b0));
    assert_eq!(reg(s, 4, "r13"), Some(0x555555559318));
    let m = s
        .memory
        .iter()
        .find(|m| m.expr.as_deref() == Some("$r13") && m.address == Address(0x5555555593b0))
        .expect("memory read $r13");
    assert_eq!(m.words, vec![0x555555557dd0, 0x555555555528, 0x2a, u64::MAX]);
    assert!(s.disassembly.iter().any(|i| i.current && i.location.as_deref() == Some("julia_module_callback_4212+15")));
}

#[test]
fn lldb_abort() {
    let p = load("lldb/glibc-abort.lldb.txt");
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let s = &p.trace.stops[0];
    assert_eq!(s.reason.signal.as_deref(), Some("SIGABRT"));
    assert_eq!(s.reason.description, None);
    assert!(s.messages.iter().any(|m| m.text.contains("double free detected in tcache 2")));
    let th = s.crashed_thread().unwrap();
    assert!(names(th).contains(&"buffer_release"));
}

#[test]
fn lldb_newer_stop_reason_wording() {
    let text = "(lldb) bt\n\
        * thread #1, name = 'null-field', stop reason = signal SIGSEGV: address not mapped to object (fault address: 0x18)\n  \
        * frame #0: 0x0000555555555155 null-field`session_bytes(s=0x0) at null-field.c:23:10\n    \
        frame #1: 0x0000555555555191 null-field`registry_total(r=0x00007fffffffeca0, upto=2) at null-field.c:30:18\n";
    let p = input::parse(text);
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", unrecognized(&p));
    let s = &p.trace.stops[0];
    assert_eq!((s.reason.signo, s.reason.si_code, s.reason.address), (Some(11), Some(1), Some(Address(0x18))));
    assert_eq!(names(s.crashed_thread().unwrap()), ["session_bytes", "registry_total"]);
}
