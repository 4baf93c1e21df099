//! `stack-overflow`: the fault is at or just below the end of a stack (its guard page or gap),
//! or the backtrace shows runaway recursion.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::RegionKind;
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "stack-overflow",
    title: "stack exhausted: fault below the stack or runaway recursion",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A SIGSEGV or SIGBUS whose fault address lies in the guard page
(`---p`) directly below a thread stack, or at most 1 MiB (the kernel's default
`stack_guard_gap`) below the mapping that holds the crashed thread's stack, such as `[stack]`.
Without `info proc mappings`, a page fault within 64 KiB of sp is reported as a heuristic
finding, and so is a fault or an x86-64 sp at most 64 KiB below `0x7fffff7ff000`, where an
8 MiB main-thread stack ends when ASLR is off (gdb's and lldb's default run); not when the frame
pointer or the nearest outer frame's sp is over 1 GiB above sp, nor (with mappings) when
another mapping lies between sp and the stack: a stack grows into free address space next to
it, so such an sp was loaded (a stack pivot, a corrupted saved sp: `stack-pointer-wild`), not
grown into. Runaway recursion (a backtrace over 1000 frames deep, mostly one function) is added
as evidence, and is reported on its own as a heuristic finding when the fault address is
unknown. Rust's `thread '…' has overflowed its stack`, AddressSanitizer's `stack-overflow on
address …`, valgrind's `Stack overflow in thread #1: can't grow stack to …` and Go's
`runtime: goroutine stack exceeds 1000000000-byte limit` / `fatal error: stack overflow` (no
signal at all), rustc's own SIGSEGV handler's `note: rustc unexpectedly overflowed its stack!`
(also in programs that copied it), and a macOS crash report whose `VM Region Info` table marks
the fault's region (`--->`) as a thread's `STACK GUARD` are reported as such (exact: the tool
says so). memcheck's `Warning: client
switching stacks?  SP change: FROM --> TO` with a change of a MiB or more, followed by a fault
at or just below TO, is one frame larger than the stack (a huge local array, alloca or VLA). When the program's
own handler (or Rust's) caught the fault and aborted, the fault below `<signal handler called>`
is checked (its address from the handler's report or, in a core, the kernel's signal frame).
In a core written by gdb's `generate-core-file`, a guard page shows as a readable anonymous
page directly below a mapping that holds a stack pointer; it is still a guard page.

**Why it matters** A stack overflow faults on whatever instruction first touches the next page:
often a prologue store or a `call`, far from the real cause (unbounded recursion, a huge
`alloca` or VLA, a large local array, or a small thread stack). The fault address and sp next
to the stack's lower end identify it; the repeating frames name the recursion.

**Example** `si_addr = 0x7fffff7fe108`, `rsp = 0x7fffff7fe100`, `[stack]` at
`0x7fffff7ff000-0x7ffffffff000` and `bt -3` ending at `#2073 main`: `fault address
0x7fffff7fe108 is 0xef8 bytes below the stack 0x7fffff7ff000-0x7ffffffff000 ([stack]); walk
recurses 2074 frames deep`.

**Known false positives** Stacks of green threads, coroutines and language runtimes (Go,
Julia tasks) are anonymous mappings; they are recognised only when a thread's sp is printed
inside them. A wild pointer that happens to land just below a stack looks the same; the sp
distance in the message helps tell them apart. A SIGSEGV or SIGBUS that `$_siginfo` shows
was sent (`si_code` <= 0: `kill`, `tgkill`, `raise`) is no fault and never a stack overflow,
however deep the legal recursion it interrupted; without `$_siginfo` a deep backtrace is
still read as runaway recursion (heuristic), unless the instruction at pc cannot have faulted
(no memory access, or, with the memory map, only to mapped memory it may touch)."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/stack-overflow.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/assert-fail.gdb.txt"),
    ],
};

/// The kernel's default `stack_guard_gap` (256 pages): how far below a stack a fault still
/// counts as running off its end.
const GAP: u64 = 1 << 20;
/// How far below the end of a non-randomized main stack a fault or sp still counts.
const NOASLR_SLACK: u64 = 64 << 10;

/// Where an 8 MiB main-thread stack ends when ASLR is off: x86-64's stack top is
/// 0x7ffffffff000 then (the 47-bit user space's last page), so the default `ulimit -s` of
/// 8 MiB ends at 0x7fffff7ff000.
fn noaslr_main_stack_end(arch: Arch) -> Option<u64> {
    match arch {
        Arch::X86_64 => Some(0x7fff_ffff_f000 - (8 << 20)),
        _ => None,
    }
}

/// A backtrace at least this deep, mostly one function, is runaway recursion.
const DEEP: u32 = 1000;

/// The stack mapping of a thread: the one that holds one of its printed sps, or `[stack]`
/// just above an sp that has run off its end.
fn stack_mapping<'a>(cx: &RuleContext<'a>, th: &Thread, sp: u64) -> Option<&'a Mapping> {
    let sp_name = cx.trace.arch.sp_register();
    let sps: Vec<u64> = th.registers.values().filter_map(|r| r.get(sp_name)).collect();
    let is_stack = |m: &Mapping| {
        let p = m.path.as_deref().unwrap_or("");
        // A guard page is below a stack, never the stack itself.
        if cx.is_guard_page(m) {
            return false;
        }
        p == "[stack]"
            || p.starts_with("[stack:")
            || sps.iter().any(|s| m.contains(*s))
            || cx.classifier.classify(m.start.0).kind == RegionKind::Stack
    };
    if let Some(m) = cx.trace.mapping_for(sp).filter(|m| is_stack(m)) {
        return Some(m);
    }
    // sp inside a guard page (no frame outer to the fault was unwound to show where the stack
    // is: musl's libc has no CFI): the stack is the writable mapping the guard page is below.
    if let Some(g) = cx.trace.mapping_for(sp).filter(|g| cx.is_guard_page(g)) {
        let above = cx.trace.mappings.iter().find(|m| {
            m.start.0 == g.end.0
                && m.writable() == Some(true)
                && m.path.as_deref().is_none_or(|p| p.is_empty() || p.starts_with("[stack"))
        });
        if above.is_some() {
            return above;
        }
    }
    // sp below every mapping of the stack: the nearest stack mapping above it.
    cx.trace.mappings.iter().filter(|m| m.start.0 > sp && m.start.0 - sp <= GAP).find(|m| is_stack(m))
}

/// A frame #0 this large is no ordinary frame: a stack is 8 MiB by default, a thread's less.
const HUGE_FRAME: u64 = 1 << 20;

/// The nearest value above frame #0's sp that still belongs to the frames' stack (the sp of
/// an outer frame, or frame #0's frame pointer), when it is more than `HUGE_FRAME` above sp:
/// the value and the register it is.
fn frame0_span(cx: &RuleContext<'_>, th: &Thread, sp: u64) -> Option<(u64, String)> {
    let fp = match cx.trace.arch {
        Arch::X86_64 => "rbp",
        Arch::X86 => "ebp",
        Arch::Aarch64 => "x29",
        _ => return None,
    };
    let outer = th.registers.keys().filter(|&&n| n > 0).min().and_then(|&n| cx.sp_at(th, n).map(|v| (v, n)));
    let (anchor, what) = match outer {
        Some((v, n)) => (v, format!("{} at frame #{n}", cx.trace.arch.sp_register())),
        None => (cx.reg_at(th, 0, fp).and_then(|r| r.value)?, fp.to_string()),
    };
    (anchor > sp && anchor - sp > HUGE_FRAME && anchor - sp < 1 << 40).then_some((anchor, what))
}

/// `walk` repeats in 32 of 33 printed frames; the deepest frame number is #2073.
struct Recursion {
    function: String,
    count: usize,
    printed: usize,
    depth: u32,
    span: Span,
}

fn recursion(th: &Thread) -> Option<Recursion> {
    let depth = th.frames.iter().map(|f| f.index).max()? + 1;
    // Counts in first-seen order (a map for the lookup: a scan per frame was quadratic).
    let mut counts: Vec<(&str, usize)> = Vec::new();
    let mut at: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for f in th.frames.iter().filter(|f| f.function.is_some()) {
        let n = f.function_name();
        match at.get(n) {
            Some(&i) => counts[i].1 += 1,
            None => {
                at.insert(n, counts.len());
                counts.push((n, 1));
            }
        }
    }
    let (name, count) = counts.into_iter().max_by_key(|c| c.1)?;
    let printed = th.frames.len();
    // Deep, and the printed frames are mostly the same function.
    if depth >= DEEP && count * 2 >= printed && count >= 8 {
        let span = Span { first: th.frames.first()?.span.first, last: th.frames.last()?.span.last };
        return Some(Recursion { function: name.to_string(), count, printed, depth, span });
    }
    None
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let sp_name = cx.trace.arch.sp_register();
    for (si, stop) in cx.stops() {
        // A checker that says so: ASan's `stack-overflow on address …` (a runtime-error stop
        // without a signal number), valgrind's `Stack overflow in thread #1: can't grow stack`.
        let checker_says = stop.checker.as_ref().filter(|c| c.kind == Some("stack-overflow"));
        // A runtime that says so: Rust's guard-page handler (`thread 'main' has overflowed its
        // stack`), valgrind (`Stack overflow in thread #1: can't grow stack to 0x1ffe801000`),
        // Go (`runtime: goroutine stack exceeds 1000000000-byte limit`, no signal at all).
        let said = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::StackOverflow));
        if !matches!(cx.signo(stop), Some(11) | Some(7)) && checker_says.is_none() && said.is_none() {
            continue;
        }
        // A SIGSEGV/SIGBUS some process sent (kill, tgkill: si_code <= 0) stops the thread
        // wherever it was, deep in a legal recursion too: no fault, so no stack ran out.
        if stop.reason.is_sent() && checker_says.is_none() && said.is_none() {
            continue;
        }
        // Nor when the instruction at pc could not have faulted (no memory access, or only
        // to mapped memory it may touch) and the mappings show room on the stack below sp:
        // nothing says the signal was sent, but it was not raised there, so no stack ran out.
        if cx.classifier.has_mappings() && cx.signal_not_from_insn(stop) && checker_says.is_none() && said.is_none() {
            continue;
        }
        let Some(th) = stop.crashed_thread() else {
            // The runtime's own words are all there is (`fatal: morestack on gsignal` and
            // `go run`'s verdict): the finding stands on them.
            if let Some(m) = said {
                out.push(
                    Finding::new(&RULE, format!("the runtime says `{}`", m.text.trim()))
                        .at(si, None, None)
                        .rank(90)
                        .evidence(format!("stderr: {}", m.text.trim()), Some(m.span)),
                );
            }
            continue;
        };
        let sp = cx.sp_at(th, 0);
        let fault = cx.fault_address(stop);
        let rec = recursion(th);
        let mut heuristic = false;
        let mut msg: Option<String> = None;
        let mut map_ev: Option<(String, Span)> = None;
        if let Some(sp) = sp {
            if let Some(stack) = stack_mapping(cx, th, sp) {
                let lo = stack.start.0;
                let name = stack.path.as_deref().unwrap_or("anonymous");
                let range = format!("{:#x}-{:#x} ({name})", lo, stack.end.0);
                map_ev = Some((format!("stack mapping {range}"), stack.span));
                if let Some(a) = fault {
                    let guard = cx.trace.mapping_for(a).filter(|g| g.end.0 == lo && cx.is_guard_page(g));
                    if a < lo && (lo - a <= GAP || guard.is_some()) {
                        msg = Some(if guard.is_some() {
                            format!("fault address {a:#x} is in the guard page below the stack {range}")
                        } else {
                            format!("fault address {a:#x} is {:#x} bytes below the stack {range}", lo - a)
                        });
                    }
                } else if sp < lo {
                    msg = Some(format!("{sp_name} = {sp:#x} is {:#x} bytes below the stack {range}", lo - sp));
                }
            } else if let Some((a, sp)) = cx.fault_near_sp(stop) {
                {
                    heuristic = true;
                    let mut m = format!(
                        "fault address {a:#x} is {:#x} bytes {} {sp_name} = {sp:#x}: the stack ran out (no mappings printed)",
                        a.abs_diff(sp),
                        if a < sp { "below" } else { "above" }
                    );
                    // Not a recursion, and frame #0's own frame spans megabytes up to its
                    // frame pointer or its caller's sp: that one frame took the stack.
                    if rec.is_none()
                        && let Some((anchor, what)) = frame0_span(cx, th, sp)
                    {
                        let f0 = th.frames.first().map(|f| f.function_name()).unwrap_or("frame #0");
                        m.push_str(&format!(
                            "; {what} = {anchor:#x} is {:#x} bytes above it: {f0} allocated a frame larger than a stack can grow (a huge alloca, VLA or local array)",
                            anchor - sp
                        ));
                    }
                    msg = Some(m);
                }
            }
        }
        // One frame larger than the stack can grow (a huge alloca, VLA or local array).
        if msg.is_none()
            && let Some((sp, stack)) = cx.oversized_frame(stop, th)
        {
            let lo = stack.start.0;
            map_ev = Some((
                format!(
                    "stack mapping {:#x}-{:#x} ({})",
                    lo,
                    stack.end.0,
                    stack.path.as_deref().unwrap_or("anonymous")
                ),
                stack.span,
            ));
            let f0 = th.frames.first().map(|f| f.function_name()).unwrap_or("frame #0");
            msg = Some(format!(
                "{sp_name} = {sp:#x} is {:#x} bytes below the stack {:#x}-{:#x}, which its frame pointer or caller is still in: {f0} allocated a frame larger than the stack can grow (a huge alloca, VLA or local array)",
                lo - sp,
                lo,
                stack.end.0
            ));
        }
        let valgrind = cx.trace.formats.contains(&Format::Valgrind);
        let go = cx.trace.formats.contains(&Format::Go);
        let (rust_msg, vg_msg) = if valgrind || go { (None, said) } else { (said, None) };
        if msg.is_none()
            && let Some(m) = rust_msg
        {
            // Rust's guard-page handler reports the fault it caught (a typed fault report);
            // other runtimes (Android's debuggerd, Windows) only say what happened.
            msg = Some(if m.fault.is_some() {
                format!("{}: Rust's guard-page handler caught the fault in the stack guard and aborted", m.text.trim())
            } else {
                format!("the runtime says `{}`", m.text.trim())
            });
        }
        if msg.is_none()
            && let Some(m) = vg_msg
        {
            msg = Some(if valgrind {
                format!("valgrind: {}", m.text.trim())
            } else {
                format!("the Go runtime says `{}`", m.text.trim())
            });
        }
        if msg.is_none()
            && let Some(c) = checker_says
        {
            msg = Some(format!("AddressSanitizer: {}", c.text.trim()));
        }
        // valgrind's `Warning: client switching stacks?  SP change: 0x1fff0009a0 --> 0x1ffe85f7a0`
        // is a frame of several MiB taken at once (a huge local array, alloca or VLA); a fault
        // at or just below the new sp is that frame running past the end of the stack.
        let mut switch_ev: Option<(String, Span)> = None;
        if msg.is_none()
            && valgrind
            && let Some(a) = fault
            && let Some((from, to, span)) = stop.sp_switch.map(|(f, t, s)| (f.0, t.0, s))
            && from > to
            && from - to >= 1 << 20
            && a < from
            && a.saturating_add(0x10000) >= to
        {
            let f0 = th.frames.first().map(|f| f.function_name()).unwrap_or("frame #0");
            msg = Some(format!(
                "valgrind saw {f0} move the stack pointer down {:#x} bytes at once ({from:#x} --> {to:#x}); the fault at {a:#x} is in that frame: a frame larger than the stack can grow (a huge local array, alloca or VLA)",
                from - to
            ));
            switch_ev = Some((format!("valgrind: client switching stacks? SP change: {from:#x} --> {to:#x}"), span));
        }
        // No mappings, but the run had ASLR off (gdb's and lldb's default), so the main
        // thread's stack ends at a known address: the top is fixed and the default limit is
        // 8 MiB. A fault or an sp just below that end is the stack running out.
        if msg.is_none()
            && !cx.classifier.has_mappings()
            && let Some(end) = noaslr_main_stack_end(cx.trace.arch)
        {
            let pagefault =
                fault.filter(|_| matches!(stop.reason.si_code, Some(1) | Some(2)) || stop.reason.si_code.is_none());
            let hit = pagefault.map(|a| ("fault address", a)).or(sp.map(|s| (sp_name, s)));
            if let Some((what, v)) = hit.filter(|(_, v)| *v < end && end - *v <= NOASLR_SLACK) {
                heuristic = true;
                msg = Some(format!(
                    "{what} {v:#x} is {:#x} bytes below {end:#x}, where an 8 MiB main-thread stack ends when ASLR is off (gdb's and lldb's default): the stack ran out (no mappings printed)",
                    end - v
                ));
            }
        }
        // The debugger printed an address for the fault that is nowhere near the stack
        // pointer (lldb's `fault address: 0x0` whatever the si_code): the access that faulted
        // was not a push or a call into the guard page, so a deep backtrace is a legal
        // recursion that faulted for another reason.
        let printed_elsewhere = stop.reason.address.is_some_and(|a| sp.is_none_or(|s| a.0.abs_diff(s) > GAP));
        if msg.is_none()
            && fault.is_none()
            && !printed_elsewhere
            && let Some(r) = &rec
        {
            heuristic = true;
            msg = Some(format!(
                "runaway recursion: {} repeats in {} of {} printed frames, {} frames deep",
                r.function, r.count, r.printed, r.depth
            ));
        }
        let Some(mut msg) = msg else { continue };
        if let (Some(r), false) = (&rec, msg.starts_with("runaway")) {
            msg.push_str(&format!("; {} recurses {} frames deep", r.function, r.depth));
        }
        if !msg.contains(sp_name)
            && let Some(sp) = sp
        {
            msg.push_str(&format!(" ({sp_name} = {sp:#x})"));
        }
        let mut f = Finding::new(&RULE, msg).at(si, Some(th), Some(0)).rank(90).register(sp_name);
        if let Some(m) = rust_msg.or(vg_msg) {
            f = f.evidence(format!("stderr: {}", m.text.trim()), Some(m.span));
            heuristic = false;
        }
        if let Some(c) = checker_says {
            f = f.evidence(format!("AddressSanitizer: {}", c.text.trim()), Some(c.span));
            heuristic = false;
        }
        if let Some((t, s)) = switch_ev {
            f = f.evidence(t, Some(s));
        }
        if let Some(a) = fault {
            f = f.evidence(
                format!("si_addr = {a:#x} ({})", stop.reason.code_name().unwrap_or("?")),
                Some(stop.reason.span),
            );
        }
        if let (Some(sp), Some(r)) = (sp, cx.reg0(stop, sp_name)) {
            f = f.evidence(format!("{sp_name} = {sp:#x}"), Some(r.span));
        }
        if let Some((t, s)) = map_ev {
            f = f.evidence(t, Some(s));
        }
        if let Some(r) = &rec {
            f = f.evidence(
                format!(
                    "{} repeats in {} of {} printed frames; the deepest frame is #{}",
                    r.function,
                    r.count,
                    r.printed,
                    r.depth - 1
                ),
                Some(r.span),
            );
        }
        f = f
            .step("bt -10")
            .step("info frame")
            .step("p $_siginfo._sifields._sigfault.si_addr")
            .step("ulimit -s (in a shell) / pthread_attr_getstacksize for threads");
        if !cx.classifier.has_mappings() {
            f = f.step("info proc mappings");
        }
        if heuristic {
            f = f.heuristic();
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn checker_reports_of_a_stack_overflow() {
        let asan = "==21430==ERROR: AddressSanitizer: stack-overflow on address 0x7ffd3ffcaff8 (pc 0x7f147eebc016 bp 0x7ffd3ffcb870 sp 0x7ffd3ffcb000 T0)
    #0 0x55e8e7fcb271 in walk src/overflow.c:7
    #1 0x55e8e7fcb31c in walk src/overflow.c:10
SUMMARY: AddressSanitizer: stack-overflow src/overflow.c:7 in walk
";
        let f = run_rule(&RULE, asan);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("AddressSanitizer: stack-overflow on address 0x7ffd3ffcaff8"));
        assert!(!f[0].heuristic);
        let vg = "==4242== Stack overflow in thread #1: can't grow stack to 0x1ffe801000
==4242== 
==4242== Process terminating with default action of signal 11 (SIGSEGV)
==4242==  Access not within mapped region at address 0x1FFE801F08
==4242== Stack overflow in thread #1: can't grow stack to 0x1ffe801000
==4242==    at 0x109154: walk (overflow.c:5)
";
        let f = run_rule(&RULE, vg);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "valgrind: Stack overflow in thread #1: can't grow stack to 0x1ffe801000");
        // Another ASan class is not a stack overflow.
        let heap = asan.replace("stack-overflow", "heap-buffer-overflow");
        assert!(run_rule(&RULE, &heap).is_empty());
    }

    #[test]
    fn stack_overflow_sample() {
        let f = run_rule_on_sample(&RULE, "stack-overflow.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "fault address 0x7fffff7fe108 is 0xef8 bytes below the stack 0x7fffff7ff000-0x7ffffffff000 ([stack]); walk recurses 2074 frames deep (rsp = 0x7fffff7fe100)"
        );
        assert!(!f[0].heuristic);
    }

    #[test]
    fn one_frame_larger_than_the_stack() {
        // A 64 MiB alloca on an 8 MiB stack (issue #11, crashers/huge-alloca): rsp is far
        // below [stack] while rbp is still inside it, and the fault is next to rsp.
        let t = |rbp: &str, addr: &str| {
            format!(
                "\
Program received signal SIGSEGV, Segmentation fault.
0x00005555555551ac in render (pixels=16777216) at src/huge-alloca.c:10
(gdb) info registers
rbp            {rbp}      {rbp}
rsp            0x7ffffbffec10      0x7ffffbffec10
rip            0x5555555551ac      0x5555555551ac <render+99>
(gdb) p $_siginfo
$1 = {{si_signo = 11, si_errno = 0, si_code = 1, _sifields = {{_sigfault = {{si_addr = {addr}}}}}}}
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/p
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
"
            )
        };
        let f = run_rule(&RULE, &t("0x7fffffffec40", "0x7ffffbffec08"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("rsp = 0x7ffffbffec10 is 0x3fdf3f0 bytes below the stack"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("render allocated a frame larger than the stack can grow"), "{}", f[0].message);
        // stack-pointer-wild leaves it to this rule.
        assert!(run_rule(&crate::rules::stack_pointer_wild::RULE, &t("0x7fffffffec40", "0x7ffffbffec08")).is_empty());
        // No frame pointer or caller inside the stack: a wild sp, not this.
        assert!(run_rule(&RULE, &t("0x7ffffbffec40", "0x7ffffbffec08")).is_empty());
        // A fault far from sp is some other access.
        assert!(run_rule(&RULE, &t("0x7fffffffec40", "0x7ffff0000000")).is_empty());
    }

    #[test]
    fn sp_below_the_end_of_a_non_randomized_main_stack() {
        // PEDA's context after an unbounded recursion under gdb (marcobambini/gravity#134's
        // shape): no mappings, no siginfo, rsp 0x90 bytes below 0x7fffff7ff000.
        let t = "Program received signal SIGSEGV, Segmentation fault.
0x0000000000422b16 in value_load (vm=0x649110) at runtime/value.c:412
(gdb) info registers rsp rip
rsp            0x7fffff7fef70      0x7fffff7fef70
rip            0x422b16            0x422b16 <value_load+278>
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("0x90 bytes below 0x7fffff7ff000"), "{}", f[0].message);
        assert!(f[0].heuristic);
        // An ordinary main-thread sp under gdb: quiet.
        assert!(run_rule(&RULE, &t.replace("0x7fffff7fef70", "0x7fffffffd4e0")).is_empty());
        // Far below the end (a different stack): quiet.
        assert!(run_rule(&RULE, &t.replace("0x7fffff7fef70", "0x7ffff75fe000")).is_empty());
    }

    #[test]
    fn go_goroutine_stack_limit() {
        // Go refuses to grow a goroutine's stack: no signal, the runtime's word.
        let t = "runtime: goroutine stack exceeds 1000000000-byte limit\n\
                 runtime: sp=0xc0203a0390 stack=[0xc0203a0000, 0xc0403a0000]\n\
                 fatal error: stack overflow\n\n\
                 goroutine 1 [running]:\n\
                 main.walk(0x1)\n\t/x/main.go:9 +0x2a fp=0xc0203a03a0 sp=0xc0203a0398 pc=0x4a21c5\n";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.starts_with("the Go runtime says `runtime: goroutine stack exceeds"), "{}", f[0].message);
        // Another Go fatal error is not a stack overflow.
        let quiet = "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main()\n\t/x/main.go:3 +0x1\n";
        assert!(run_rule(&RULE, quiet).is_empty());
    }

    #[test]
    fn quiet_elsewhere() {
        for s in [
            "null-field.gdb.txt",
            "threads-crash.gdb.txt",
            "smashed-stack.gdb.txt",
            "write-rodata.gdb.txt",
            "julia-trampoline-bad-r13.gdb.txt",
            "c-r13-plain.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn thread_guard_page_and_heuristics() {
        let t = "\
Thread 2 \"w\" received signal SIGSEGV, Segmentation fault.
0x0000555555555154 in walk () at t.c:6
(gdb) info registers
rsp            0x7ffff55ce010      0x7ffff55ce010
rip            0x555555555154      0x555555555154 <walk+11>
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 2, _sifields = {_sigfault = {si_addr = 0x7ffff55cdff8}}}
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x7ffff55cd000     0x7ffff55ce000     0x1000        0x0  ---p   
      0x7ffff55ce000     0x7ffff5dce000   0x800000        0x0  rw-p   
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with("fault address 0x7ffff55cdff8 is in the guard page below the stack 0x7ffff55ce000-0x7ffff5dce000 (anonymous)"),
            "{}",
            f[0].message
        );
        // Without mappings: heuristic from the distance to sp.
        let no_maps = &t[..t.find("(gdb) info proc mappings").unwrap_or(t.len())];
        let f = run_rule(&RULE, no_maps);
        assert_eq!(f.len(), 1);
        assert!(f[0].heuristic);
        assert!(f[0].message.contains("0x18 bytes below rsp = 0x7ffff55ce010"), "{}", f[0].message);
        // A NULL dereference near nothing is quiet.
        assert!(run_rule(&RULE, &no_maps.replace("si_addr = 0x7ffff55cdff8", "si_addr = 0x18")).is_empty());
    }
}
