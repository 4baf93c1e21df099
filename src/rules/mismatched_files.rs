//! `mismatched-files`: the debugger read the core with files from another build.

use super::{Finding, Maturity, RuleContext, RuleInfo, Sample, Severity};
use crate::model::{FileMismatch, MismatchKind, Stop, Thread};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "mismatched-files",
    title: "the debugger used files that do not match the core",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** gdb's own warnings that a file it loaded is not the one the crashed process ran:
`Build-id of PATH does not match core file`, `.dynamic section for "PATH" is not at the expected
address (wrong library or version mismatch?)`, `the debug information found in … does not match …
(CRC mismatch)`, `core file may not match specified executable file`, and `exec file is newer than
core file`.

**Why it matters** A library upgraded or a program rebuilt between the crash and the debugging
session moves every address: gdb then names functions that were not running (or data objects, as
in `0x7f…0f9 in shape_table ()`), and every other finding built on those frames inherits the
error. Fix the files first.

**Example** `warning: exec file is newer than core file.` followed by a backtrace of `?? ()`
frames (`sample-traces/mismatch/exe-rebuilt.gdb.txt`).

**Known false positives** `exec file is newer than core file` compares timestamps only: a copy
or `touch` of the same build triggers it. Alone, with frames that resolve, it is reported as
info."#,
};

pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[Sample::File("sample-traces/mismatch/exe-rebuilt.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/mismatch/same-build.gdb.txt"),
        Sample::File("sample-traces/null-field.gdb.txt"),
    ],
};

fn base(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Frames of `th` resolved through the file a warning names (or, for the executable, frames
/// outside any shared library).
fn affected<'t>(th: &'t Thread, m: &FileMismatch) -> Vec<&'t crate::model::Frame> {
    th.frames
        .iter()
        .filter(|f| !f.signal_handler)
        .filter(|f| match (&m.path, &f.module) {
            (Some(p), Some(module)) => base(p) == base(module),
            (Some(_), None) => false,
            (None, module) => module.is_none() && f.function.is_some(),
        })
        .collect()
}

fn unnamed(th: &Thread) -> usize {
    th.frames.iter().filter(|f| !f.signal_handler && f.function.is_none()).count()
}

fn what(m: &FileMismatch) -> String {
    let p = m.path.as_deref().map(base).unwrap_or("the executable");
    match m.kind {
        MismatchKind::ExecNewer => "the executable is newer than the core".to_string(),
        MismatchKind::ExecMayNotMatch => "the executable may not match the core".to_string(),
        MismatchKind::BuildId => format!("{p} has another build-id than the one in the core"),
        MismatchKind::LibraryAddress => format!("{p} is not the library the process had loaded"),
        MismatchKind::DebugCrc => format!("the debug information for {p} is from another build"),
    }
}

fn crashed(stop: &Stop) -> Option<&Thread> {
    stop.crashed_thread_index().and_then(|i| stop.threads.get(i))
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let ms = &cx.trace.file_mismatches;
    if ms.is_empty() {
        return;
    }
    let strong = ms.iter().any(|m| m.kind != MismatchKind::ExecNewer);
    for (si, stop) in cx.stops() {
        let th = crashed(stop).or_else(|| stop.threads.first());
        let mut frames: Vec<&crate::model::Frame> = Vec::new();
        if let Some(th) = th {
            for m in ms {
                for f in affected(th, m) {
                    if !frames.iter().any(|g| g.index == f.index) {
                        frames.push(f);
                    }
                }
            }
            frames.sort_by_key(|f| f.index);
        }
        let none_named = th.is_some_and(|t| !t.frames.is_empty() && unnamed(t) == t.frames.len());
        let mut kinds: Vec<String> = Vec::new();
        for m in ms {
            let w = what(m);
            if !kinds.contains(&w) {
                kinds.push(w);
            }
        }
        let mut msg = format!("{}: frames and symbols through these files may be wrong", kinds.join("; "));
        if none_named {
            msg.push_str("; no frame of the crashed thread could be named");
        } else if let Some(first) = frames.first() {
            let names: Vec<String> =
                frames.iter().take(4).map(|f| format!("#{} {}", f.index, f.function_name())).collect();
            let more = if frames.len() > 4 { format!(" and {} more", frames.len() - 4) } else { String::new() };
            msg.push_str(&format!("; resolved through them: {}{more}", names.join(", ")));
            let _ = first;
        }
        let severity = if strong || none_named { Severity::Warning } else { Severity::Info };
        let mut f = Finding::new(&RULE, msg).at(si, th, frames.first().map(|f| f.index)).severity(severity).rank(97);
        f.heuristic = !strong;
        for m in ms.iter().take(6) {
            let line = match m.kind {
                MismatchKind::ExecNewer => "gdb: exec file is newer than core file".to_string(),
                MismatchKind::ExecMayNotMatch => "gdb: core file may not match specified executable file".to_string(),
                MismatchKind::BuildId => {
                    format!("gdb: Build-id of {} does not match core file", m.path.as_deref().unwrap_or("?"))
                }
                MismatchKind::LibraryAddress => format!(
                    "gdb: .dynamic section for {} is not at the expected address (wrong library or version mismatch?)",
                    m.path.as_deref().unwrap_or("?")
                ),
                MismatchKind::DebugCrc => {
                    format!(
                        "gdb: the debug information for {} does not match it (CRC mismatch)",
                        m.path.as_deref().unwrap_or("?")
                    )
                }
            };
            f = f.evidence(line, Some(m.span));
        }
        if ms.len() > 6 {
            f = f.evidence(format!("and {} more such warnings", ms.len() - 6), None);
        }
        if none_named && let Some(t) = th {
            f = f.evidence(
                format!("all {} frames of thread {} are ?? ()", t.frames.len(), t.id),
                t.frames.first().map(|f| f.span),
            );
        }
        if !strong {
            f = f.evidence(
                "exec file is newer than core file compares timestamps: a copy of the same build also triggers it",
                None,
            );
        }
        f = f
            .step("info sharedlibrary")
            .step("set sysroot DIR (the files from the crashing machine)")
            .step("eu-unstrip -n --core=CORE (the build-ids the process had)");
        out.push(f);
        // One finding per input: the files are the same for every stop.
        break;
    }
}
