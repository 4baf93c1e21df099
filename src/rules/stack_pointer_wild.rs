//! `stack-pointer-wild`: the stack pointer is outside every stack mapping.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::classify::RegionKind;
use crate::model::Thread;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "stack-pointer-wild",
    title: "stack pointer outside every stack",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A thread whose frame-#0 stack pointer is NULL, a small
integer, non-canonical, in no mapping, or in code or read-only data. With `info proc mappings`
it also flags sp in the heap or in a file's writable data (as a heuristic: coroutine and green
thread stacks may live there). Without mappings only the values that can never be a stack
pointer are reported. An sp just below a stack (within 1 MiB) is left to `stack-overflow`.

**Why it matters** Once sp is wild every push, call and return faults or reads garbage, and the
backtrace is meaningless. Causes: a corrupted saved sp restored by `longjmp`/`swapcontext` or a
coroutine switch, a stack pivot, an `rsp`-relative write that hit the saved frame pointer
followed by `leave`, or a signal delivered on a bad alternate stack.

**Example** `rsp = 0x4141414141414141` after `leave; ret` on a smashed frame, or
`rsp = 0x555555558010` (inside the binary's `.data`) after a bad context switch.

**Known false positives** Anonymous mappings that hold some thread's sp are treated as
stacks, so a pivot into a large `mmap`-ed heap block is not caught. A stack in the heap or in
`.bss` is legal when the backtrace shows how the program switched to it (a
`<signal handler called>` frame for an alternate signal stack, `__start_context`/`swapcontext`
or another coroutine switch) or when the outer frames' stack pointers climb through that same
mapping; otherwise it is reported at lower severity. A writable mapping of a file that is no
loaded module (no mapping of the same file is executable: a data file, a shared-memory object)
is memory the program mapped, as legal a place for a stack it made as anonymous memory. A
writable and executable anonymous mapping holding a thread's sp is that thread's stack (a
program linked with `-z execstack`, for GNU C nested functions' trampolines), not JIT code. gdb's
`info proc mappings` of a core lists the file mappings only (no Perms column): they are kept as
single regions, and an sp in none of them is not "in no mapping"."#,
};

/// Synthetic (no sample trace has a wild stack pointer): rsp points into the program's
/// read-only segment. The unit tests vary the value.
pub(crate) const SYNTHETIC_WILD_SP: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555188 in resume () at t.c:13
(gdb) info registers
rbp            0x4141414141414141  0x4141414141414141
rsp            0x555555554100      0x555555554100
rip            0x555555555188      0x555555555188 <resume+47>
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/t
      0x555555557000     0x555555559000     0x2000     0x2000  rw-p   /tmp/t
      0x555555559000     0x55555557a000    0x21000        0x0  rw-p   [heap]
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
";

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::Synthetic { name: "rsp in read-only data", text: SYNTHETIC_WILD_SP }],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// How far below a stack mapping sp may be before this rule (not `stack-overflow`) owns it.
const GAP: u64 = 1 << 20;

/// Functions that start code on a stack of the program's own making.
const STACK_SWITCHERS: &[&str] = &[
    "__start_context",
    "makecontext",
    "swapcontext",
    "setcontext",
    "make_fcontext",
    "jump_fcontext",
    "ontop_fcontext",
    "coro_transfer",
    "coro_init",
    "co_switch",
    "boost::context::",
];

/// The thread runs on a stack the program set up on purpose: the backtrace passes a signal
/// trampoline (sigaltstack) or a context-switch function, or the outer frames' stack pointers
/// climb through the same mapping as `sp` (a coherent stack lives there).
fn switched_stack(cx: &RuleContext<'_>, th: &Thread, sp: u64) -> bool {
    if th.frames.iter().any(|f| {
        f.signal_handler || f.function.as_deref().is_some_and(|n| STACK_SWITCHERS.iter().any(|s| n.starts_with(s)))
    }) {
        return true;
    }
    let Some(m) = cx.trace.mapping_for(sp) else { return false };
    let sp_name = cx.trace.arch.sp_register();
    let sps: Vec<u64> = th.registers.values().filter_map(|r| r.get(sp_name)).collect();
    sps.len() >= 2 && sps.iter().all(|s| m.contains(*s)) && sps.windows(2).all(|w| w[0] <= w[1])
}

/// Whether sp is in a writable file mapping of a file with no executable mapping (not the
/// executable, not a library: their code is mapped from the same file).
fn data_file_mapping(cx: &RuleContext<'_>, sp: u64) -> bool {
    let Some(m) = cx.trace.mapping_for(sp) else { return false };
    let Some(path) = m.path.as_deref().filter(|p| !p.is_empty() && !p.starts_with('[')) else { return false };
    m.writable() == Some(true)
        && !cx
            .trace
            .mappings
            .iter()
            .chain(cx.trace.regions.iter())
            .any(|o| o.path.as_deref() == Some(path) && o.executable() != Some(false))
        && !cx.trace.libraries.iter().any(|l| &*l.path == path)
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let sp_name = cx.trace.arch.sp_register();
    for (si, stop) in cx.stops() {
        for th in &stop.threads {
            let Some(r) = cx.reg_at(th, 0, sp_name) else { continue };
            let Some(sp) = r.value else { continue };
            let class = cx.classifier.classify(sp);
            let mut heuristic = false;
            let what = match class.kind {
                RegionKind::Stack | RegionKind::Anonymous | RegionKind::Unknown | RegionKind::Special => continue,
                RegionKind::ZeroPage if sp == 0 => "is NULL".to_string(),
                RegionKind::ZeroPage => "is in the zero page".to_string(),
                RegionKind::SmallInteger => "is a small integer".to_string(),
                RegionKind::NonCanonical => "is non-canonical".to_string(),
                RegionKind::Kernel => "is a kernel address".to_string(),
                RegionKind::Unmapped => {
                    // Just below a stack: stack-overflow's.
                    let below_stack = cx.trace.mappings.iter().any(|m| {
                        m.start.0 > sp
                            && m.start.0 - sp <= GAP
                            && (m.path.as_deref().is_some_and(|p| p.starts_with("[stack"))
                                || cx.classifier.classify(m.start.0).kind == RegionKind::Stack)
                    });
                    if below_stack || cx.oversized_frame(stop, th).is_some() {
                        continue;
                    }
                    "is in no mapping".to_string()
                }
                RegionKind::Code | RegionKind::Jit | RegionKind::ReadOnlyData => format!("points into {class}"),
                // A stack the program made: a coroutine's (makecontext, fibers) in the heap, an
                // alternate signal stack in .bss. Legal when the backtrace shows the switch.
                RegionKind::Heap | RegionKind::WritableData if switched_stack(cx, th, sp) => continue,
                // A writable mapping of a file that is no loaded module (no mapping of the same
                // file is executable): memory the program mapped from a data file or a shared
                // memory object, as it maps anonymous memory, and so as legal a place for a
                // stack it made (a coroutine's stack in a MAP_SHARED file).
                RegionKind::WritableData if data_file_mapping(cx, sp) => continue,
                RegionKind::Heap | RegionKind::WritableData => {
                    heuristic = true;
                    format!("points into {class}, not a stack")
                }
            };
            if class.heuristic {
                continue;
            }
            let where_ = th.frames.first().map(|f| format!(" in {}", f.function_name())).unwrap_or_default();
            let mut f = Finding::new(&RULE, format!("{sp_name} = {sp:#x} {what}{where_}"))
                .at(si, Some(th), Some(0))
                .rank(85)
                .register(sp_name)
                .evidence(format!("{sp_name} = {sp:#x}"), Some(r.span));
            if let Some(m) = cx.trace.mapping_for(sp) {
                f = f.evidence(
                    format!(
                        "mapping {:#x}-{:#x} {} {}",
                        m.start.0,
                        m.end.0,
                        m.perms.as_deref().unwrap_or("?"),
                        m.path.as_deref().unwrap_or("anonymous")
                    ),
                    Some(m.span),
                );
            }
            if let Some(rbp) = cx.reg_at(th, 0, "rbp").or_else(|| cx.reg_at(th, 0, "x29"))
                && let Some(v) = rbp.value
            {
                f = f.evidence(format!("{} = {v:#x} ({})", rbp.name, cx.classifier.classify(v)), Some(rbp.span));
            }
            f = f
                .step("info proc mappings")
                .step("x/4i $pc")
                .step("rr: reverse-stepi until sp is sane again, to find the instruction that loaded it");
            if heuristic {
                f = f.heuristic();
            }
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn quiet_on_every_sample_sp() {
        // stack-overflow's sp is just below [stack]: that rule's finding, not this one's.
        for s in [
            "stack-overflow.gdb.txt",
            "threads-crash.gdb.txt",
            "smashed-stack.gdb.txt",
            "julia-trampoline-bad-r13.gdb.txt",
            "null-fnptr.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    fn with_sp(sp: &str) -> String {
        format!(
            "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555188 in resume () at t.c:13
(gdb) info registers
rbp            0x4141414141414141  0x4141414141414141
rsp            {sp}      {sp}
rip            0x555555555188      0x555555555188 <resume+47>
(gdb) info proc mappings
          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/t
      0x555555557000     0x555555559000     0x2000     0x2000  rw-p   /tmp/t
      0x555555559000     0x55555557a000    0x21000        0x0  rw-p   [heap]
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
"
        )
    }

    #[test]
    fn fires_on_wild_sp() {
        assert_eq!(SYNTHETIC_WILD_SP, with_sp("0x555555554100"));
        let f = run_rule(&RULE, &with_sp("0x555555554100"));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].message, "rsp = 0x555555554100 points into read-only data (t) in resume");
        assert_eq!(f[0].severity, Severity::Error);
        let f = run_rule(&RULE, &with_sp("0x600000000000"));
        assert_eq!(f[0].message, "rsp = 0x600000000000 is in no mapping in resume");
        let f = run_rule(&RULE, &with_sp("0x5555555592a0"));
        assert!(f[0].heuristic, "heap stacks exist (coroutines)");
        assert!(run_rule(&RULE, &with_sp("0x7fffffffe000")).is_empty());
        // Just below [stack]: stack-overflow's business.
        assert!(run_rule(&RULE, &with_sp("0x7fffffffd000")).is_empty());
    }

    #[test]
    fn without_mappings_only_impossible_values() {
        let t = with_sp("0x4141414141414141");
        let t = &t[..t.find("(gdb) info proc mappings").unwrap_or(t.len())];
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.starts_with("rsp = 0x4141414141414141 is non-canonical"));
        let t2 = t.replace("0x4141414141414141      0x4141414141414141", "0x555555554100      0x555555554100");
        assert!(run_rule(&RULE, &t2).is_empty());
    }
}
