//! The analyze stage: finds each stop's culprit frame once, runs the rules with it, and
//! produces the [`InputReport`] that every renderer (text, JSON, markdown, TUI) reads.

use crate::model::*;
use crate::rules::{self, Selection};

/// Re-exported from the model, where the report types live.
pub use crate::model::{Culprit, InputReport, Report};
/// Frame roles live in their own knowledge module; kept at their old paths.
pub use crate::roles::{crash_line, culprit, is_machinery, named_culprit};

pub fn analyze(path: &str, parsed: Parsed, sel: &Selection) -> InputReport {
    let mut culprits: Vec<Option<Culprit>> = parsed.trace.stops.iter().map(culprit).collect();
    go_runtime_abort_culprits(&parsed.trace, &mut culprits);
    let findings = rules::run_with_culprits(&parsed.trace, sel, &culprits);
    let missing_evidence = missing_evidence(&parsed.trace, &findings, sel);
    InputReport { path: path.to_string(), parsed, findings, culprits, raw: None, missing_evidence }
}

/// Go's runtime dies by raising SIGABRT on itself after printing its report
/// (`GOTRACEBACK=crash`, the setting that makes Go programs leave cores, or `fatal error: …`
/// under a debugger): the debugger's stop is then in the runtime's own frames
/// (`runtime.raise` ← `runtime.dieFromSignal` ← `runtime.crash` ← `runtime.fatalthrow` ← … on
/// the system stack, where unwinding ends), and the goroutine that failed is in the report the
/// runtime printed just before, an earlier stop of the same input. That report's culprit is
/// the abort's culprit, named by the report (the backtrace does not reach it).
fn go_runtime_abort_culprits(trace: &Trace, culprits: &mut [Option<Culprit>]) {
    const DYING: &[&str] = &["raise", "raiseproc", "dieFromSignal", "crash", "fatalthrow", "fatalpanic", "abort"];
    let go_runtime = |f: &Frame| f.function.as_deref().is_none_or(|n| n.starts_with("runtime."));
    for i in 0..trace.stops.len() {
        let stop = &trace.stops[i];
        if stop.reason.kind != StopKind::Signal || stop.reason.signo != Some(6) {
            continue;
        }
        let Some(th) = stop.crashed_thread() else { continue };
        let dying = th.frames.iter().any(|f| {
            f.function
                .as_deref()
                .and_then(|n| n.strip_prefix("runtime."))
                .is_some_and(|n| DYING.contains(&n.trim_end_matches(".abi0")))
        });
        // The runtime ran on the system stack: the frames outer to its switch
        // (`runtime.morestack`, `runtime.systemstack`, `runtime.mcall`) are not the goroutine's,
        // and what a debugger unwinds past it is garbage (`runtime.newproc`, the data symbol
        // `runtime[scavenger]`, a `??`).
        const SWITCH: &[&str] = &["morestack", "systemstack", "mcall"];
        let end = th
            .frames
            .iter()
            .position(|f| {
                f.function
                    .as_deref()
                    .and_then(|n| n.strip_prefix("runtime."))
                    .is_some_and(|n| SWITCH.contains(&n.trim_end_matches(".abi0")))
            })
            .map_or(th.frames.len(), |p| p + 1);
        if th.frames.is_empty() || !dying || !th.frames[..end].iter().all(go_runtime) {
            continue;
        }
        // The latest earlier stop that is the Go runtime's report (goroutine threads) with a
        // culprit that is a named frame outside the runtime.
        let report = (0..i).rev().find_map(|j| {
            let s = &trace.stops[j];
            let c = culprits[j].as_ref()?;
            let (rt, f) = crate::roles::named_culprit(s)?;
            (rt.id.starts_with("goroutine") && c.named_by_message.is_none() && !go_runtime(f)).then_some(f)
        });
        let Some(f) = report else { continue };
        let Some(function) = f.function.as_deref() else { continue };
        culprits[i] = Some(Culprit {
            thread: th.id.to_string(),
            position: 0,
            index: th.frames[0].index,
            named_by_message: Some(MessageSite {
                function: function.to_string(),
                file: f.file.as_deref().map(str::to_string),
                line: f.line,
                source: "the Go runtime's report before the abort",
            }),
        });
    }
}

/// Rules that read the faulting instruction.
const NEED_INSN: &[&str] =
    &["null-dereference", "wild-pointer", "write-to-readonly", "noncanonical-address", "stack-misaligned"];
/// Rules that read the fault address (`si_addr`).
const NEED_SIGINFO: &[&str] = &["null-dereference", "wild-pointer", "write-to-readonly", "stack-overflow"];
/// Rules that read registers.
const NEED_REGS: &[&str] = &[
    "null-dereference",
    "wild-pointer",
    "noncanonical-address",
    "stack-misaligned",
    "stack-pointer-wild",
    "pinned-register",
    "bad-pc",
    "poison-value",
];
/// Rules whose verdicts rest on what a value points into (the mappings).
const NEED_MAPPINGS: &[&str] = &["wild-pointer", "write-to-readonly", "bad-pc", "stack-pointer-wild"];

/// What the rules needed and the dump does not hold, with the command that supplies it
/// (gdb's, or lldb's when the transcript is an lldb session). Only for debugger transcripts:
/// runtime output alone (Go, Julia) and cores have no command to add.
pub fn missing_evidence(trace: &Trace, findings: &[Finding], sel: &Selection) -> Vec<MissingEvidence> {
    let lldb = trace.formats.contains(&Format::Lldb) && !trace.formats.contains(&Format::Gdb);
    let debugger = lldb || trace.formats.iter().any(|f| matches!(f, Format::Gdb | Format::Rr));
    let mut out = Vec::new();
    if trace.formats.contains(&Format::Core) {
        return out;
    }
    let enabled = |ids: &[&'static str]| -> Vec<&'static str> {
        ids.iter().copied().filter(|id| rules::RULES.iter().any(|r| r.info.id == *id && sel.enabled(r.info))).collect()
    };
    let cmd = |gdb: &str, lldb_cmd: &str| if lldb { lldb_cmd.to_string() } else { gdb.to_string() };
    let main = trace.main_stop().map(|s| s as *const Stop);
    for (si, s) in trace.stops.iter().enumerate() {
        // The stop a reader means by "the crash", when it is a fault and a debugger printed it
        // (runtime output alone has no command to add, except a debugger run for the mappings).
        if !debugger || main != Some(s as *const Stop) || s.reason.kind != StopKind::Signal {
            continue;
        }
        let Some(signo) = s.reason.signo.filter(|&n| crate::model::signals::has_fault_address(n)) else { continue };
        let _ = signo;
        let Some(th) = s.crashed_thread() else { continue };
        let regs = th.registers.get(&0);
        if regs.is_none_or(|r| r.regs.is_empty()) {
            out.push(MissingEvidence {
                what: "the registers are not in the dump".into(),
                command: cmd("info registers", "register read"),
                rules_waiting: enabled(NEED_REGS),
                stop: Some(si),
            });
        }
        let pc = regs
            .and_then(|r| r.get(trace.arch.pc_register()).or_else(|| r.get("pc")))
            .or_else(|| th.frames.first().and_then(|f| f.pc).map(|a| a.0));
        let has_insn = s.disassembly.iter().any(|i| Some(i.address.0) == pc || (i.current && pc.is_none()));
        if !has_insn {
            out.push(MissingEvidence {
                what: "the faulting instruction is not in the dump".into(),
                command: cmd("x/i $pc", "disassemble --pc"),
                rules_waiting: enabled(NEED_INSN),
                stop: Some(si),
            });
        }
        // Julia-compiled code in frame #0 (by its name: this only suggests a command) without
        // its code from the entry, and no binary to read it from: pinned-register judges r13 as
        // pgcstack only where that code shows r13 unchanged since the entry (unless the crash
        // itself shows r13 used as the pgcstack, when it has fired already).
        let julia_name = |n: &str| ["julia_", "jfptr_", "japi1_", "jlcapi_"].iter().any(|p| n.starts_with(p));
        if trace.memory.is_none()
            && !findings.iter().any(|f| f.rule == "pinned-register")
            && !th.frames.is_empty()
            // The function by the ELF symbol table (`info symbol $pc`, a core's symbols) when
            // gdb named frame #0 from a DWARF that does not describe the code (docs/julia.md).
            && let Some(f0) = Some(crate::julia::physical_name(trace, s, th, 0))
                .filter(|n| julia_name(n))
                .or_else(|| th.frames.first().and_then(|f| f.function.as_deref()).filter(|n| julia_name(n)))
            // (After the name: a walk over every frame, which a big transcript without Julia
            // code need not take.)
            && crate::rules::pinned_register::julia_runtime_present(trace)
            && !s.disassembly.iter().any(|i| {
                i.location
                    .as_ref()
                    // `<f+0>`, or gdb's `<f>` (a symbol without an offset: its first byte)
                    .is_some_and(|l| match l.symbol() {
                        Some(sy) => sy.at_start() && &*sy.name == f0,
                        None => l.offset() == Some(0),
                    })
            })
        {
            // gdb's `disassemble` follows the debug info: where that names another function,
            // list from the entry the ELF symbol gives (`info symbol $pc`: f0 + off).
            let listing = match crate::julia::elf_symbol(s, th, 0) {
                Some((n, off)) if th.frames.first().is_some_and(|f| f.function_name() != n) => {
                    format!("x/{}i $pc - {off}", (off / 2).clamp(16, 400))
                }
                _ => "disassemble".to_string(),
            };
            out.push(MissingEvidence {
                what: format!("the code of {f0} from its entry is not in the dump (pinned-register judges r13 as pgcstack only where that code shows it unchanged since the entry; or give the library with --exe)"),
                command: cmd(&listing, "disassemble --frame"),
                rules_waiting: enabled(&["pinned-register"]),
                stop: Some(si),
            });
        }
        // lldb prints the fault address with the stop reason; it has no `$_siginfo` to add. A
        // signal sent with kill/raise (si_code <= 0, known) has no fault address to print.
        let sent = s.reason.si_code.is_some_and(|c| c <= 0);
        if s.reason.address.is_none() && !lldb && !sent {
            out.push(MissingEvidence {
                what: "the fault address is not in the dump".into(),
                command: cmd("p $_siginfo", "thread siginfo"),
                rules_waiting: enabled(NEED_SIGINFO),
                stop: Some(si),
            });
        }
    }
    let guessed = findings.iter().any(|f| f.heuristic)
        || trace.main_stop().and_then(|s| s.registers()).is_some_and(|r| !r.regs.is_empty());
    if trace.mappings.is_empty() && guessed {
        let mut waiting = enabled(NEED_MAPPINGS);
        for f in findings.iter().filter(|f| f.heuristic) {
            if !waiting.contains(&f.rule) {
                waiting.push(f.rule);
            }
        }
        out.push(MissingEvidence {
            what: if !debugger {
                "the memory mappings are not in the dump (runtime output has none; a gdb session or a core has them), so regions marked ? are guessed from the address".into()
            } else if lldb {
                "the memory mappings are not in the dump (lldb prints none that tracecheck reads; gdb does), so regions marked ? are guessed from the address".into()
            } else {
                "the memory mappings are not in the dump, so regions marked ? are guessed from the address".into()
            },
            command: "info proc mappings".into(),
            rules_waiting: waiting,
            stop: None,
        });
    }
    out.retain(|m| !m.rules_waiting.is_empty());
    out
}

/// `buffer_release at src/glibc-abort.c:10`, or just the name when there is no line.
pub fn frame_location(f: &Frame) -> String {
    f.location()
}

/// The C string gdb printed for argument `name` (parsed at input time).
pub fn frame_arg_string(f: &Frame, name: &str) -> Option<String> {
    f.arg_string(name).map(str::to_string)
}
