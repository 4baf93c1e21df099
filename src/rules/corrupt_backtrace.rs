//! `corrupt-backtrace`: the unwinder gave up, or walked into frames that cannot be real
//! (a pc made of a fill pattern, outside executable memory, or not an address at all).

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::RegionKind;
use crate::fills::{Allocator, Fit, allocator, fill_near, fill_of};
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "corrupt-backtrace",
    title: "the backtrace runs through frames that cannot be real",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** A thread whose backtrace is not trustworthy:

- caller frames (#1 and up) whose pc is a fill pattern such as `0x4141414141414141`: the
  return addresses were overwritten, so the stack was smashed and those frames are not real;
- caller frames whose pc is not an address (zero page, small integer, non-canonical) or, when
  `info proc mappings` was printed, lies outside every executable mapping; a trailing
  `0x0000000000000000 in ?? ()` counts only in the crashed thread of a crash and right below a
  program frame with a source line (a function compiled from source never returns to 0, so its
  saved return address was zeroed; gdb stops unwinding at a zero pc, so that frame is always the
  last one printed), never below thread-entry or library frames, where 0 ends the stack;
- `Backtrace stopped: Cannot access memory at address X`, where the unwinder followed a saved
  frame pointer or return address into nothing (X near a fill pattern, as in
  `0x4141414141414149` = `0x4141414141414141 + 8`, means that word was overwritten);
- `Backtrace stopped: previous frame identical to this frame (corrupt stack?)` and
  `… inner to this frame (corrupt stack?)`.
- a backtrace that ends at the function whose stack canary check failed (`__stack_chk_fail`
  right below it, no caller and no thread entry outer to it, as lldb prints it): the overflow
  that reached the canary went on into the saved frame pointer and return address above it,
  so the unwinder found no caller;
- Go's own traceback saying so: `runtime: g 20: unexpected return pc for F called from 0x…`
  (a saved return address outside every Go function; Go then dies with `fatal error: unknown
  caller pc`), reported as an error. Not for `runtime.sigpanic` (its "caller" is the faulting pc,
  which may be in C code) or the signal trampoline `runtime.sigtramp` (it returns into whatever
  code the signal interrupted): there the unwinder stops at non-Go code, nothing was overwritten.

The finding names the last good frame (the function whose frame was overrun) and the range of
frames to disregard.

**Why it matters** Frames past the damage are garbage: reading them as a call chain sends the
investigation the wrong way. A smashed stack is itself a root cause: a local buffer overran its
frame's saved registers and return address.

**Example** `smashed-stack.gdb.txt`: `#1`–`#9` are `0x4141414141414141 in ?? ()`, `#10` is
`0x0000000000000001`, then gdb resynchronises on `__libc_start_call_main`. `stack-chk.gdb.txt`:
the canary caught the same overflow, and `bt` ends with
`Backtrace stopped: Cannot access memory at address 0x4141414141414149`.

**Known false positives** gdb also says "corrupt stack?" for frames it cannot unwind for
benign reasons: JIT or hand-written code without unwind info, `sigaltstack` handlers, tail
calls at a thread's entry; those findings are heuristic, and in threads other than the crashed
one they are not reported. When a frame at or below the last real one is JIT code (no symbol,
in anonymous executable memory, in a memfd a JIT maps its code from (the BEAM), or in a file
image mapped writable and executable (SBCL's `sbcl.core`); without the memory map, outside
every library in a process running the JVM, V8/node, .NET, Mono, LuaJIT, SBCL, the BEAM or
Chez Scheme, told by its libraries, its program's name or its thread names) the finding is
`info`: the unwinder could only guess past it. So it is at a SIGTRAP the program raised itself
in such a runtime (SBCL's signal handler enters its trap routines by rewriting the interrupted
context, not by a call, so they have no caller to unwind to). So it is when the last real frame has no symbol at all (`?? ()`: a stripped
library or interpreter, libraries whose symbols gdb could not load under qemu-user): the
debugger had no unwind information for it either, unless fill patterns say the stack was
smashed. So it is when the last real frame's return address follows no call instruction in the
code a core or `--exe` gives (hand-written code that pushed a return address and jumped: the
unwinder takes the unwind rules of the instruction before that address, which belong to other
code); a transcript alone has no such bytes, and the warning stays. "Cannot access memory" also happens in core files that lack the
stack page. A final frame with pc 0 is the usual end-of-stack marker and is not flagged
(except right below a program frame with a source line in a crashed thread, as above).
Frames outer to the function a stack starts in (`__start_context` of makecontext, the
process's entry `_start` (argc and argv lie beyond it while the dynamic loader runs), a new
thread's `clone3`, `runtime.goexit`, Go's signal trampoline `runtime.sigtramp`, which runs on the signal stack;
gdb shows `__start_context` as a nameless libc frame followed by
the `uc_link` word and 0) are past the bottom of the stack and are not evidence; so are the
frames gdb prints past a Go stack switch (`runtime.asmcgocall` under a cgo call,
`runtime.systemstack`, `runtime.mcall`, `runtime.morestack`), which it cannot unwind back to
the goroutine's stack. A `Backtrace stopped: … (corrupt stack?)` right after such a frame is
the unwinder failing past the bottom of the stack and is not flagged.
`Backtrace stopped: frame did not save the PC` and `Not enough registers or memory available
to unwind further` are normal at thread entry points and in cores, and are not flagged. A
backtrace cut short on purpose (`bt 30`, `bt -3`) is not corruption. Frame #0's pc is checked
by `bad-pc`, not here."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/smashed-stack.gdb.txt"), Sample::File("sample-traces/stack-chk.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// Why one frame cannot be real.
enum Bad {
    Fill(String),
    NotAddress(RegionKind),
    NotExecutable(String),
    Unmapped,
}

/// A function a stack starts in: nothing outer to it was called from real code.
fn is_stack_bottom(f: &Frame) -> bool {
    matches!(
        f.function.as_deref(),
        Some(
            "__start_context"
                | "start_context"
                // Go's stack switches: `asmcgocall` runs C on the system stack (g0) and
                // `systemstack`/`mcall`/`morestack` switch to it; gdb cannot unwind from the
                // system stack back to the goroutine's, so the frames it prints past them are
                // whatever the system stack held, not corruption.
                | "runtime.asmcgocall"
                | "runtime.systemstack"
                | "runtime.mcall"
                | "runtime.morestack"
                | "runtime.goexit"
                // Go's signal handler runs on the signal stack (sigaltstack, `gsignal`); its
                // entry is assembly without unwind info, so gdb cannot unwind from it back to
                // the interrupted goroutine and says "previous frame identical".
                | "runtime.sigtramp"
                | "runtime.cgoSigtramp"
                | "runtime.sigreturn"
                | "runtime.sigreturn__sigaction"
                | "runtime.rt0_go"
                | "runtime.mstart"
                // A new thread's first frame: a core taken while a thread is still inside
                // clone/clone3 (before its CFI marks the return address undefined) shows the
                // thread's start argument above it.
                // The process's entry point (the program's or the dynamic loader's `_start`,
                // ld.so's `_dl_start_user`): nothing calls it, and [sp] there is argc, then
                // argv. A process stopped while the loader runs (a signal sent at start-up)
                // shows `_start` with argc and argv words beyond it.
                | "_start"
                | "_dl_start_user"
                | "clone"
                | "clone3"
                | "__clone"
                | "__clone3"
                | "__clone_internal"
        )
    )
}

/// gdb prints makecontext's `__start_context` as `?? () from …/libc.so.6` (a local symbol)
/// and then unwinds two words further (the `uc_link` pointer, then 0). So a nameless libc
/// frame followed by at most two frames and a final pc of 0 is the bottom of a coroutine
/// stack: the position past it.
fn unnamed_libc_bottom(th: &Thread) -> Option<usize> {
    let n = th.frames.len();
    if n < 3 || th.frames[n - 1].pc.map(|a| a.0) != Some(0) {
        return None;
    }
    let start = n.saturating_sub(4);
    let p = (start..n - 1).find(|&i| {
        let f = &th.frames[i];
        i > 0
            && f.function.is_none()
            && f.module.as_deref().is_some_and(|m| {
                m.rsplit('/').next().is_some_and(|b| b.starts_with("libc.so") || b.starts_with("libc-"))
            })
    })?;
    Some(p + 1)
}

/// A trailing zero pc at `pos` that is a zeroed return address rather than the end of the
/// stack: the crashed thread of a crash stop, and the frame above is a program frame with a
/// source line that is not machinery (thread entry, libc, runtimes).
fn zeroed_return(stop: &Stop, th: &Thread, pos: usize, is_crashed: bool) -> bool {
    if !is_crashed || stop.reason.is_non_crash() || stop.reason.kind != StopKind::Signal || pos == 0 {
        return false;
    }
    let Some(above) = th.frames.get(pos - 1) else { return false };
    above.file.is_some()
        && above.line.is_some()
        && !above.inlined
        && !above.signal_handler
        && !is_stack_bottom(above)
        && !crate::roles::is_machinery(above)
}

/// Go's `unexpected return pc for F called from X` where F is where a signal entered Go: the
/// runtime makes the faulting pc the "caller" of `runtime.sigpanic` it injects, and the
/// signal trampoline `runtime.sigtramp` returns into whatever code the signal interrupted. When
/// that code is not Go's (a C library, libSystem), the unwinder cannot go on: a fault outside
/// Go code, not a stack that was overwritten.
fn through_signal_frame(text: &str) -> bool {
    let Some((_, r)) = text.split_once("unexpected return pc for ") else { return false };
    let f = r.split(' ').next().unwrap_or("");
    matches!(
        f,
        "runtime.sigpanic" | "runtime.sigtramp" | "runtime.sigtrampgo" | "runtime.cgoSigtramp" | "runtime.sigreturn"
    ) || f.starts_with("runtime.sigreturn__")
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let arch = cx.trace.arch;
    let alloc = allocator(cx.trace);
    for (si, stop) in cx.stops() {
        // Go's traceback said so: a return address outside every Go function.
        if let Some(m) = stop
            .messages
            .iter()
            .find(|m| m.detail == Some(MessageDetail::UnexpectedReturnPc) && !through_signal_frame(&m.text))
        {
            let th = stop.crashed_thread();
            let f = Finding::new(
                &RULE,
                format!(
                    "the Go runtime's unwinder found a return address outside every function ({}): the goroutine's stack was overwritten, and the frames past it are not real",
                    m.text.trim()
                ),
            )
            .at(si, th, None)
            .severity(Severity::Error)
            .rank(65)
            .evidence(format!("stderr: {}", m.text.trim()), Some(m.span))
            .step("GODEBUG=gccheckmark=1 and the race detector (go test -race) for a write through unsafe or cgo")
            .step("look for unsafe.Pointer arithmetic, cgo callbacks and assembly that write to Go stack memory");
            out.push(f);
        }
        let crashed = stop.crashed_thread_index();
        for (ti, th) in stop.threads.iter().enumerate() {
            let is_crashed = Some(ti) == crashed;
            let mut bad: Vec<(usize, u64, Bad)> = Vec::new();
            // The bottom of a stack: gdb may keep unwinding past the function a stack starts
            // in (makecontext's __start_context, a thread's clone), into whatever lies beyond.
            // Those frames are not evidence of corruption.
            let bottom = th
                .frames
                .iter()
                .position(is_stack_bottom)
                .map_or_else(|| unnamed_libc_bottom(th).unwrap_or(th.frames.len()), |p| p + 1);
            for (pos, fr) in th.frames.iter().enumerate().take(bottom) {
                let Some(pc) = fr.pc.map(|a| a.0) else { continue };
                if fr.index == 0 || fr.inlined || fr.signal_handler {
                    continue;
                }
                // A trailing `0x0 in ?? ()` is usually where the unwinder found the end of the
                // stack (the outermost frame's return address is 0 by convention). Not when the
                // frame above it is the program's own code with a source line in the crashed
                // thread of a crash: a function compiled from source never returns to 0, so its
                // saved return address was zeroed (gdb stops unwinding at a zero pc, so the
                // damage is always the last frame it prints).
                if pc == 0 && pos + 1 == th.frames.len() && !zeroed_return(stop, th, pos, is_crashed) {
                    continue;
                }
                if let Some(f) = fill_of(pc, arch, alloc).filter(|f| f.fit == Fit::Exact) {
                    bad.push((pos, pc, Bad::Fill(f.name)));
                    continue;
                }
                let kind = cx.region_kind(pc);
                match kind {
                    RegionKind::ZeroPage | RegionKind::SmallInteger | RegionKind::NonCanonical => {
                        bad.push((pos, pc, Bad::NotAddress(kind)))
                    }
                    RegionKind::Unmapped | RegionKind::Kernel => bad.push((pos, pc, Bad::Unmapped)),
                    _ => {
                        if let Some(m) = cx.trace.mapping_for(pc)
                            && m.executable() == Some(false)
                        {
                            bad.push((pos, pc, Bad::NotExecutable(cx.classifier.classify(pc).to_string())));
                        }
                    }
                }
            }
            // gdb's "corrupt stack?" right after the function a stack starts in is the unwinder
            // failing past the bottom of that stack, not damage (a fill pattern still is).
            let past_bottom = th.frames.last().is_some_and(is_stack_bottom);
            // So is it after a frame whose caller the unwinder could only guess (code without
            // a symbol, a function that switches stacks).
            let guessed = th.frames.last().is_some_and(|f| guessed_caller(cx, th, f));
            let stopped = th
                .backtrace_stop
                .and_then(|r| stop_reason(r, th, arch, alloc))
                .filter(|s| !(past_bottom || guessed) || matches!(s, Stopped::Memory { near: Some(_), .. }));
            if bad.is_empty() && stopped.is_none() {
                if is_crashed && let Some(f) = canary_frame_last(si, stop, th) {
                    out.push(f);
                }
                continue;
            }
            // Outside the crashed thread only definite damage counts.
            if !is_crashed && bad.is_empty() && !matches!(stopped, Some(Stopped::Memory { near: Some(_), .. })) {
                continue;
            }
            if let Some(f) = finding(cx, si, th, &bad, stopped.as_ref(), is_crashed) {
                out.push(f);
            }
        }
    }
}

/// The stack protector caught an overflow (`__stack_chk_fail` in the backtrace) and the
/// backtrace ends at the function whose canary failed, with nothing outer to it: no thread
/// entry, no caller. The canary sits just below that function's saved frame pointer and return
/// address, so the overflow that reached it went on into them, and the unwinder could not find
/// a caller (lldb stops there; gdb walks on into the overwritten words and prints garbage,
/// which the checks above catch). A backtrace that reaches a caller or a thread's entry is
/// not this (the overflow stopped at the canary).
fn canary_frame_last(si: usize, stop: &Stop, th: &Thread) -> Option<Finding> {
    let chk = th.frames.iter().position(|f| {
        f.function.as_deref().is_some_and(|n| matches!(n, "__stack_chk_fail" | "__stack_chk_fail_local"))
    })?;
    // The function that called it is the last frame printed, a program frame with a pc.
    if chk + 2 != th.frames.len() {
        return None;
    }
    let victim = th.frames.get(chk + 1)?;
    if victim.pc.is_none() || victim.function.is_none() || crate::roles::is_machinery(victim) || victim.inlined {
        return None;
    }
    let said = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::StackCanary));
    let name = victim.function_name();
    let mut f = Finding::new(
        &RULE,
        format!(
            "backtrace ends at {}, the function whose stack canary check failed: no caller was unwound past it, so the overflow that reached the canary also overwrote its saved frame pointer and return address; its callers are unknown",
            frame_label(victim)
        ),
    )
    .at(si, Some(th), Some(victim.index))
    .rank(45)
    .evidence(format!("{} called __stack_chk_fail", frame_label(victim)), Some(th.frames[chk].span))
    .evidence(format!("last frame: {} (no thread entry below it)", frame_label(victim)), Some(victim.span));
    if let Some(m) = said {
        f = f.evidence(format!("stderr: {}", m.text.trim()), Some(m.span));
    }
    Some(
        f.step(format!("frame {}", victim.index))
            .step("info frame (where its saved frame pointer and return address are)")
            .step(format!("disassemble {name}")),
    )
}

/// The `Backtrace stopped:` reasons that mean corruption.
enum Stopped {
    /// `Cannot access memory at address X`, with X's nearby fill when there is one.
    Memory { addr: u64, near: Option<(String, i64)> },
    /// `… (corrupt stack?)`
    Corrupt(String),
}

fn stop_reason(r: BacktraceStop, th: &Thread, arch: Arch, alloc: Allocator) -> Option<Stopped> {
    match r {
        BacktraceStop::Memory(Address(addr)) => {
            let near = fill_near(addr, arch, alloc).filter(|(f, _)| f.fit == Fit::Exact).map(|(f, off)| (f.name, off));
            Some(Stopped::Memory { addr, near })
        }
        BacktraceStop::CorruptStack => {
            Some(Stopped::Corrupt(th.backtrace_stopped.as_deref().unwrap_or("").trim().to_string()))
        }
        BacktraceStop::Other => None,
    }
}

/// The unwinder could only guess `f`'s caller: `f` has no symbol (`?? ()`) while its pc is
/// plausible code (a stripped library or interpreter, a library whose symbols the debugger
/// could not load), or `f` switches stacks (`swapcontext`, `longjmp`: past their switch the
/// return address read is the other context's).
fn guessed_caller(cx: &RuleContext<'_>, th: &Thread, f: &Frame) -> bool {
    if f.signal_handler {
        return false;
    }
    // A caller frame whose return address follows no call instruction (hand-written code that
    // pushed its return address and jumped, `push $ret; jmp f`): the unwinder looked up the
    // unwind rules of the instruction before that address (pc - 1), which belong to other code,
    // so its caller is a guess. Judged from the code bytes (a core, or `--exe`).
    if return_without_call(cx, th, f) {
        return true;
    }
    if runtime_trap(cx, th, f).is_some() {
        return true;
    }
    if let Some(n) = f.function.as_deref() {
        let n = n.trim_start_matches("__GI_").trim_start_matches("__libc_").trim_start_matches('_');
        return matches!(
            n,
            "swapcontext" | "setcontext" | "longjmp" | "siglongjmp" | "longjmp_chk" | "_longjmp_chk" | "start_context"
        );
    }
    let Some(pc) = f.pc.map(|a| a.0).filter(|&pc| plausible_code(cx, pc)) else { return false };
    // A symbol-less function of a file the debugger read has unwind information (`.eh_frame`
    // survives stripping): garbage above it is damage, unless the debugger did not read that
    // file (its symbols not loaded), nothing tells which file it is in (no mappings, no
    // module), or the backtrace comes back to real frames (a function at a source line) past
    // the garbage: the one-off misstep of an unwinder without CFI for that pc.
    let unread = cx
        .trace
        .libraries
        .iter()
        .any(|l| !l.syms_read && l.from.is_some_and(|a| a.0 <= pc) && l.to.is_some_and(|a| pc < a.0));
    let unknown_file = f.module.is_none() && !cx.classifier.has_mappings();
    let recovers = th
        .frames
        .iter()
        .skip_while(|g| g.index <= f.index)
        .any(|g| g.function.is_some() && g.file.is_some() && g.line.is_some() && !g.inlined);
    unread || unknown_file || recovers
}

/// Frame #0 of a thread stopped by a SIGTRAP the program raised itself (an `int3` it ran, the
/// kernel's SI_KERNEL; not a debugger's breakpoint, which gdb reports as `Breakpoint N`) in a
/// process running a runtime that traps on purpose (SBCL enters `memory_fault_emulation_trap`
/// and its error traps by rewriting the interrupted context in its signal handler, not by a
/// call): the trap routine has no caller frame to unwind to, so what gdb printed above it is a
/// guess. The runtime's name.
fn runtime_trap(cx: &RuleContext<'_>, th: &Thread, f: &Frame) -> Option<&'static str> {
    if f.index != 0 {
        return None;
    }
    let stop = cx.trace.stops.iter().find(|s| s.threads.iter().any(|t| std::ptr::eq(t, th)))?;
    if !std::ptr::eq(stop.crashed_thread()?, th) {
        return None;
    }
    let trap = stop.reason.signal.as_deref() == Some("SIGTRAP")
        && stop.reason.si_code.is_none_or(|c| c == 0x80)
        && !stop.reason.is_sent();
    if !trap {
        return None;
    }
    cx.jit_runtime()
}

/// `f` is a caller frame (not above a signal frame, not inlined) whose return address follows
/// no call instruction in the code bytes the trace holds (a core, or `--exe`): x86-64 only.
fn return_without_call(cx: &RuleContext<'_>, th: &Thread, f: &Frame) -> bool {
    f.index >= 1
        && !f.inlined
        && !th.frames.iter().any(|g| g.index + 1 == f.index && g.signal_handler)
        && matches!(cx.trace.arch, crate::model::Arch::X86_64)
        && f.pc.is_some_and(|pc| crate::provenance::follows_call_x86(cx.trace, pc.0) == Some(false))
}

/// `pc` may be code: not a fill, not a small integer, zero page, non-canonical or kernel
/// address, inside a mapping when the mappings are known, and that mapping executable.
fn plausible_code(cx: &RuleContext<'_>, pc: u64) -> bool {
    if fill_of(pc, cx.trace.arch, allocator(cx.trace)).is_some_and(|f| f.fit == Fit::Exact) {
        return false;
    }
    let c = cx.classifier.classify(pc);
    // With the mappings, code is what an executable mapping holds; without them the region is
    // a guess from the address (qemu-user's guest libraries sit right by its stack), so only
    // what cannot be code at all is ruled out (a pc in a real stack is bad-pc's).
    let code = if cx.classifier.has_mappings() {
        matches!(c.kind, RegionKind::Code | RegionKind::Jit | RegionKind::Anonymous | RegionKind::Unknown)
    } else {
        !matches!(
            c.kind,
            RegionKind::ZeroPage | RegionKind::SmallInteger | RegionKind::NonCanonical | RegionKind::Kernel
        )
    };
    if !code {
        return false;
    }
    match cx.trace.mapping_for(pc) {
        Some(m) => m.executable() != Some(false),
        None => !cx.classifier.has_mappings(),
    }
}

fn frame_label(f: &Frame) -> String {
    format!("#{} {}", f.index, f.function_name())
}

fn range(a: u32, b: u32) -> String {
    if a == b { format!("#{a}") } else { format!("#{a}–#{b}") }
}

fn finding(
    cx: &RuleContext<'_>,
    si: usize,
    th: &Thread,
    bad: &[(usize, u64, Bad)],
    stopped: Option<&Stopped>,
    is_crashed: bool,
) -> Option<Finding> {
    let frames = &th.frames;
    let thread_note = if is_crashed { String::new() } else { format!(" in thread {}", th.id) };
    let mut f;
    if let Some(&(first_pos, _, _)) = bad.first() {
        let last_pos = bad.last().map(|b| b.0).unwrap_or(first_pos);
        let first = frames.get(first_pos)?.index;
        let last = frames.get(last_pos)?.index;
        let above = first_pos.checked_sub(1).and_then(|p| frames.get(p));
        let fills: Vec<&(usize, u64, Bad)> = bad.iter().filter(|b| matches!(b.2, Bad::Fill(_))).collect();
        let where_ = above.map(|a| format!(" above {}", frame_label(a))).unwrap_or_default();
        // The last real frame is code without a symbol in anonymous executable memory (a JIT's
        // code: V8, the JVM, LuaJIT): it has no unwind information, so gdb could only guess
        // its caller. The guess failing says nothing about the stack.
        // The innermost JIT frame at or below the last real one: past it every frame gdb
        // printed was a guess (V8 frames above JIT code look like addresses, but are not).
        let jit_frame = frames[..first_pos].iter().find(|a| cx.is_jit_frame(a));
        let jit = jit_frame.and_then(|a| cx.trace.mapping_for(a.pc?.0)).filter(|m| m.path.is_none());
        // Without the mappings: JIT code told by the runtime the process runs.
        let jit_guess = jit_frame.filter(|_| jit.is_none()).and_then(|_| cx.jit_runtime());
        // The last real frame has no symbol (`?? ()`: a stripped library, one whose symbols
        // gdb could not load, a stripped interpreter): the debugger had neither its symbol nor,
        // most likely, its unwind information, so the caller it printed was a guess, and a
        // guess that fails says nothing about the stack.
        // Only when that frame's own pc is plausible code: a pc in the zero page, outside every
        // mapping or in data (a jump through a smashed pointer) is damage, not missing symbols.
        let unsymbolized = above.filter(|a| jit.is_none() && jit_guess.is_none() && guessed_caller(cx, th, a));
        let mut msg;
        if let Some(&&(fp, pc, Bad::Fill(ref name))) = fills.first() {
            let same: Vec<u32> =
                fills.iter().filter(|b| b.1 == pc).filter_map(|b| frames.get(b.0).map(|f| f.index)).collect();
            let lo = frames.get(fp).map(|f| f.index).unwrap_or(first);
            let hi = same.last().copied().unwrap_or(lo);
            let article = if name.starts_with('\'') { "an" } else { "a" };
            let have = if same.len() == 1 { "has" } else { "have" };
            msg = format!(
                "stack smashed{where_}{thread_note}: {} ({}) {have} pc {pc:#x}, {article} {name}",
                plural(same.len(), "frame", "frames"),
                range(lo, hi)
            );
            let rest: Vec<String> = bad
                .iter()
                .filter(|b| b.1 != pc)
                .filter_map(|b| frames.get(b.0).map(|f| format!("#{} has pc {:#x}", f.index, b.1)))
                .collect();
            if !rest.is_empty() {
                msg.push_str(&format!(", {}", rest.join(", ")));
            }
        } else {
            let (pos, pc, why) = &bad[0];
            let idx = frames.get(*pos).map(|f| f.index).unwrap_or(first);
            let why = match why {
                Bad::NotAddress(k) => format!("not an address ({})", k.name()),
                Bad::NotExecutable(c) => format!("in non-executable memory ({c})"),
                Bad::Unmapped => "outside every mapping".to_string(),
                Bad::Fill(_) => String::new(),
            };
            msg = match jit {
                None if jit_guess.is_some() => format!(
                    "frame #{idx}{thread_note} has pc {pc:#x}, {why}: the unwinder could only guess the caller of {} ({} in a process running {}: JIT-generated code has no unwind information)",
                    jit_frame.map(frame_label).unwrap_or_default(),
                    if jit_frame.is_some_and(|f| f.function.is_some()) {
                        "generated code linked into the runtime (a V8 builtin)"
                    } else {
                        "code without a symbol"
                    },
                    jit_guess.unwrap_or_default()
                ),
                Some(m) => format!(
                    "frame #{idx}{thread_note} has pc {pc:#x}, {why}: the unwinder could only guess the caller of {} (code without a symbol in anonymous executable memory {:#x}-{:#x}: JIT-generated code has no unwind information)",
                    jit_frame.map(frame_label).unwrap_or_default(),
                    m.start.0,
                    m.end.0
                ),
                None if unsymbolized.is_some() => format!(
                    "frame #{idx}{thread_note} has pc {pc:#x}, {why}: the unwinder could only guess the caller of {} ({})",
                    unsymbolized.map(frame_label).unwrap_or_default(),
                    match unsymbolized {
                        Some(a) if runtime_trap(cx, th, a).is_some() => format!(
                            "a trap the program raised itself in a process running {}, whose signal handler enters its trap routines by rewriting the interrupted context, not by a call",
                            runtime_trap(cx, th, a).unwrap_or_default()
                        ),
                        Some(a) if return_without_call(cx, th, a) =>
                            "its return address follows no call instruction (the code pushed it and jumped): the unwinder took the unwind rules of the instruction before that address, which belong to other code"
                                .to_string(),
                        Some(a) if a.function.is_some() =>
                            "it switches stacks: past the switch the return address read is the other context's"
                                .to_string(),
                        Some(a) => format!(
                            "code without a symbol{}: the debugger had no symbol and likely no unwind information for it",
                            a.module.as_deref().map(|m| format!(" in {m}")).unwrap_or_default()
                        ),
                        None => String::new(),
                    }
                ),
                None => format!(
                    "frame #{idx}{thread_note} has pc {pc:#x}, {why}: the unwinder followed a corrupt return address{where_}"
                ),
            };
            if bad.len() > 1 {
                msg.push_str(&format!(" ({} such frames)", bad.len()));
            }
        }
        msg.push_str(&if first == last {
            format!("; frame #{first} is not real")
        } else {
            format!("; frames {} are not real", range(first, last))
        });
        if (jit.is_some() || jit_guess.is_some() || unsymbolized.is_some()) && fills.is_empty() {
            msg.push_str("; this alone is no evidence of a corrupt stack");
        }
        f = Finding::new(&RULE, msg).at(si, Some(th), above.map(|a| a.index));
        if !fills.is_empty() {
            f = f.severity(Severity::Error).rank(65);
        } else if let Some(rt) = jit_guess {
            f = f.severity(Severity::Info).rank(20).heuristic().evidence(format!("{rt} runs in this process"), None);
        } else if let Some(a) = unsymbolized {
            f = f
                .severity(Severity::Info)
                .rank(20)
                .heuristic()
                .evidence(format!("#{} has no symbol (`?? ()`): its caller was guessed", a.index), Some(a.span));
        } else if let Some(m) = jit {
            f = f.severity(Severity::Info).rank(20).heuristic().evidence(
                format!("mapping {:#x}-{:#x} {} (anonymous)", m.start.0, m.end.0, m.perms.as_deref().unwrap_or("")),
                Some(m.span),
            );
        } else {
            f = f.rank(40);
            if !cx.classifier.has_mappings() && bad.iter().all(|b| matches!(b.2, Bad::Unmapped | Bad::NotExecutable(_)))
            {
                f = f.heuristic();
            }
        }
        if let Some(a) = above {
            let loc = match (&a.file, a.line) {
                (Some(file), Some(line)) => format!(" at {file}:{line}"),
                _ => String::new(),
            };
            f = f.evidence(format!("last real frame: {}{loc}", frame_label(a)), Some(a.span));
        }
        let shown: Vec<&(usize, u64, Bad)> =
            if bad.len() > 3 { vec![&bad[0], &bad[1], &bad[bad.len() - 1]] } else { bad.iter().collect() };
        for (pos, pc, _) in shown {
            if let Some(fr) = frames.get(*pos) {
                f = f.evidence(format!("#{} {pc:#x} in {}", fr.index, fr.function_name()), Some(fr.span));
            }
        }
        if stopped.is_some() {
            f = f.evidence(format!("Backtrace stopped: {}", th.backtrace_stopped.as_deref().unwrap_or("")), None);
        }
    } else {
        let s = stopped?;
        let last = frames.last();
        let after = last.map(|l| format!(" after {}", frame_label(l))).unwrap_or_default();
        let (msg, sev, heuristic, rank) = match s {
            Stopped::Memory { addr, near: Some((name, off)) } => {
                let base = addr.wrapping_sub(*off as u64);
                let sign = if *off < 0 { '-' } else { '+' };
                let article = if name.starts_with('\'') { "an" } else { "a" };
                (
                    format!(
                        "backtrace{thread_note} stopped{after}: cannot access memory at address {addr:#x} ({base:#x} {sign} {:#x}, {article} {name}): a saved frame pointer or return address was overwritten",
                        off.unsigned_abs()
                    ),
                    Severity::Error,
                    false,
                    60,
                )
            }
            Stopped::Memory { addr, near: None } => (
                format!(
                    "backtrace{thread_note} stopped{after}: cannot access memory at address {addr:#x}, read as a saved frame pointer or return address"
                ),
                Severity::Warning,
                true,
                30,
            ),
            Stopped::Corrupt(r) => (format!("backtrace{thread_note} stopped{after}: {r}"), Severity::Warning, true, 30),
        };
        // gdb's frame-id check ("inner to this frame", "identical to this frame") stops the
        // walk where a code-generating runtime's own code was called from generated code it
        // has no unwind information for (HotSpot's libjvm.so below compiled Java frames): in
        // such a process, with the last frame in the runtime's code or in generated code, that
        // stop alone is no evidence of a corrupt stack.
        let runtime = match (s, last) {
            (Stopped::Corrupt(_), Some(l)) if in_runtime_code(cx, l) => cx.jit_runtime(),
            _ => None,
        };
        let (msg, sev, rank) = match runtime {
            Some(_) => (format!("{msg}; this alone is no evidence of a corrupt stack"), Severity::Info, 20),
            None => (msg, sev, rank),
        };
        f = Finding::new(&RULE, msg).at(si, Some(th), last.map(|l| l.index)).severity(sev).rank(rank);
        f.heuristic = heuristic;
        if let Some(rt) = runtime {
            f = f.evidence(format!("{rt} runs in this process; its callers are generated code"), None);
        }
        if let Some(l) = last {
            f = f.evidence(format!("last frame: {}", frame_label(l)), Some(l.span));
        }
        f = f.evidence(format!("Backtrace stopped: {}", th.backtrace_stopped.as_deref().unwrap_or("")), None);
    }
    // With files from another build, gdb unwinds with the wrong unwind tables: the frames look
    // corrupt although the stack may be fine. `mismatched-files` says so first. A fill pattern
    // (an error) is damage whatever the files.
    if let Some(m) = cx.trace.file_mismatches.first()
        && f.severity != Severity::Error
    {
        f = f
            .evidence(
                "gdb warned that files do not match the core: it may have unwound with another build's unwind information, not through a corrupt stack",
                Some(m.span),
            )
            .severity(Severity::Info);
        f.heuristic = true;
    }
    f = f.step("info frame").step("x/16gx $sp");
    if cx.trace.mappings.is_empty() {
        f = f.step("info proc mappings");
    }
    Some(f)
}

/// A frame in a code-generating runtime's own library (HotSpot's `libjvm.so`, .NET's
/// `libcoreclr.so`, Mono, node, V8, the BEAM, LuaJIT) or in generated code.
fn in_runtime_code(cx: &RuleContext<'_>, f: &Frame) -> bool {
    const LIBS: &[&str] =
        &["libjvm.so", "libcoreclr.so", "libmonosgen-2.0.so", "libnode.so", "libv8.so", "beam.smp", "libluajit"];
    cx.is_jit_frame(f)
        || f.module.as_deref().is_some_and(|m| {
            let file = m.rsplit('/').next().unwrap_or(m);
            LIBS.iter().any(|l| file.starts_with(l))
        })
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn go_unexpected_return_pc() {
        // The Go runtime's own word (golang/go#54306's shape): one error finding, quoting it.
        let t = "runtime: g 20: unexpected return pc for testing.tRunner called from 0x7f3b1e02c4d1\n\
                 stack: frame={sp:0xc00005a770, fp:0xc00005a7c0} stack=[0xc00005a000,0xc00005a800)\n\
                 fatal error: unknown caller pc\n\n\
                 goroutine 20 [running]:\n\
                 testing.tRunner(0xc000102b60, 0x5eb418)\n\
                 \t/usr/local/go/src/testing/testing.go:1446 +0x10b fp=0xc00005a7c0 sp=0xc00005a770 pc=0x4d7e2b\n";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("unexpected return pc for testing.tRunner"), "{}", f[0].message);
        assert_eq!(f[0].severity, Severity::Error);
        // A plain Go panic says nothing of the kind.
        let quiet = "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:3 +0x1\n";
        assert!(run_rule(&RULE, quiet).is_empty());
    }

    #[test]
    fn fires_on_smashed_stack_sample() {
        let f = run_rule_on_sample(&RULE, "smashed-stack.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "stack smashed above #0 copy_name: 9 frames (#1–#9) have pc 0x4141414141414141, an 'AAAA…' (0x41) fill, #10 has pc 0x1; frames #1–#10 are not real"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].frame, Some(0));
        assert!(
            f[0].evidence.iter().any(|e| e.text == "#1 0x4141414141414141 in ??" && e.lines == Some(Span::line(10))),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn fires_on_stack_chk_sample() {
        let f = run_rule_on_sample(&RULE, "stack-chk.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "backtrace stopped after #8 main: cannot access memory at address 0x4141414141414149 (0x4141414141414141 + 0x8, an 'AAAA…' (0x41) fill): a saved frame pointer or return address was overwritten"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].frame, Some(8));
    }

    #[test]
    fn files_from_another_build_make_odd_frames_info() {
        // A pc of 0x2 above a library frame, first alone, then after gdb's warning that the
        // library is not the one the process had loaded.
        let bt = "Program terminated with signal SIGSEGV, Segmentation fault.\n\
                  #0  0x00007f778873dbde in list_walk () from /lib64/libq.so.3\n\
                  #1  0x00007f77911c1500 in poll_loop () from /lib64/libp.so.0\n\
                  #2  0x0000000000000002 in  ()\n\
                  #3  0x00007f77911b1e20 in run () from /lib64/libp.so.0\n\
                  #4  0x0000000000423924 in main ()\n";
        let plain = run_rule(&RULE, bt);
        assert_eq!(plain.len(), 1, "{plain:#?}");
        assert_eq!(plain[0].severity, Severity::Warning);
        let warned = format!(
            "warning: .dynamic section for \"/lib64/libp.so.0\" is not at the expected address (wrong library or version mismatch?)\n{bt}"
        );
        let f = run_rule(&RULE, &warned);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].heuristic);
        assert!(f[0].evidence.iter().any(|e| e.text.starts_with("gdb warned that files do not match the core")));
    }

    #[test]
    fn quiet_on_truncated_and_normal_backtraces() {
        for s in [
            "stack-overflow.gdb.txt",
            "threads-crash.gdb.txt",
            "null-fnptr.gdb.txt",
            "julia-trampoline-bad-r13.gdb.txt",
            "rust-panic.gdb.txt",
            "poison.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    const CORRUPT: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x00007ffff7e5a1c2 in memcpy () from /lib/x86_64-linux-gnu/libc.so.6
(gdb) bt
#0  0x00007ffff7e5a1c2 in memcpy () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x0000555555555199 in fill (p=0x7fffffffe0a0) at t.c:9
#2  0x0000555555555199 in fill (p=0x7fffffffe0a0) at t.c:9
Backtrace stopped: previous frame identical to this frame (corrupt stack?)
";

    /// Shape of a live HotSpot state sampled by tests/legal_states6.rs (the JVM in its exception
    /// handling, called from compiled Java code): gdb stops above libjvm.so's frame.
    const JVM_INNER: &str = "\
Thread 12 \"java\" received signal SIGSEGV, Segmentation fault.
0x00007ffff7a2c5d1 in CompiledMethod::handler_for_exception_and_pc(Handle, unsigned char*) () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
(gdb) bt
#0  0x00007ffff7a2c5d1 in CompiledMethod::handler_for_exception_and_pc(Handle, unsigned char*) () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
Backtrace stopped: previous frame inner to this frame (corrupt stack?)
";

    #[test]
    fn runtime_code_below_generated_code_is_no_corrupt_stack() {
        let f = run_rule(&RULE, JVM_INNER);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info, "{f:#?}");
        assert!(f[0].message.ends_with("this alone is no evidence of a corrupt stack"), "{}", f[0].message);
        assert!(f[0].evidence.iter().any(|e| e.text.contains("the JVM")), "{f:#?}");
        // Look-alikes: the JVM in the process but the last frame in another library; and the
        // same frame's library without any JVM (renamed): a warning as before.
        let t = JVM_INNER.replace(
            "CompiledMethod::handler_for_exception_and_pc(Handle, unsigned char*) () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so\n(gdb)",
            "parse_record () from /usr/lib/libparse.so\n(gdb)",
        );
        let t = t.replacen(
            "#0  0x00007ffff7a2c5d1 in CompiledMethod::handler_for_exception_and_pc(Handle, unsigned char*) () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so",
            "#0  0x00007ffff7a2c5d1 in parse_record () from /usr/lib/libparse.so\n#1  0x00007ffff7a2c5d1 in JVM_Foo () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so\n#2  0x00007ffff7b00000 in parse_record () from /usr/lib/libparse.so",
            1,
        );
        let f = run_rule(&RULE, &t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning, "{f:#?}");
        let t = JVM_INNER.replace("libjvm.so", "libfoo.so").replace("\"java\"", "\"tool\"");
        let f = run_rule(&RULE, &t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning, "{f:#?}");
    }

    #[test]
    fn corrupt_stack_reason_is_heuristic() {
        let f = run_rule(&RULE, CORRUPT);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "backtrace stopped after #2 fill: previous frame identical to this frame (corrupt stack?)"
        );
        assert!(f[0].heuristic);
        assert_eq!(f[0].severity, Severity::Warning);
        // "frame did not save the PC" is a normal end of a thread's stack.
        let benign =
            CORRUPT.replace("previous frame identical to this frame (corrupt stack?)", "frame did not save the PC");
        assert!(run_rule(&RULE, &benign).is_empty());
    }

    #[test]
    fn trailing_zero_pc_is_end_of_stack() {
        let t = "\
Thread 2 (Thread 0x7ffff7d8a6c0 (LWP 11)):
#0  0x00007ffff7e5a1c2 in __futex_abstimed_wait_common () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x00007ffff7e5e1f5 in start_thread () from /lib/x86_64-linux-gnu/libc.so.6
#2  0x00007ffff7ede8ec in clone () from /lib/x86_64-linux-gnu/libc.so.6
#3  0x0000000000000000 in ?? ()
";
        assert!(run_rule(&RULE, t).is_empty());
        // In the middle of a backtrace it is garbage.
        let mid = "\
Thread 2 (Thread 0x7ffff7d8a6c0 (LWP 11)):
#0  0x00007ffff7e5a1c2 in __futex_abstimed_wait_common () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x0000000000000000 in ?? ()
#2  0x00007ffff7e5e1f5 in start_thread () from /lib/x86_64-linux-gnu/libc.so.6
#3  0x00007ffff7ede8ec in clone () from /lib/x86_64-linux-gnu/libc.so.6
";
        let f = run_rule(&RULE, mid);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "frame #1 has pc 0x0, not an address (zero page): the unwinder followed a corrupt return address above #0 __futex_abstimed_wait_common; frame #1 is not real"
        );
        // Past a thread's clone nothing is real: a core taken while the thread was still in
        // clone3 shows its start argument there.
        let past = t.replace("#3  0x0000000000000000 in ?? ()", "#3  0x00005555555592b0 in ?? ()");
        assert!(run_rule(&RULE, &past).is_empty());
    }

    #[test]
    fn pc_in_data_mapping() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in get (s=0x0) at t.c:4
(gdb) bt
#0  0x0000555555555139 in get (s=0x0) at t.c:4
#1  0x0000555555558010 in ?? ()
#2  0x00005555555551a0 in main () at t.c:12
(gdb) info proc mappings
process 1
Mapped address spaces:

          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/t
      0x555555555000     0x555555556000     0x1000     0x1000  r-xp   /tmp/t
      0x555555558000     0x555555559000     0x1000     0x3000  rw-p   /tmp/t
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "frame #1 has pc 0x555555558010, in non-executable memory (writable data (t)): the unwinder followed a corrupt return address above #0 get; frame #1 is not real"
        );
        assert!(!f[0].heuristic);
    }
}
