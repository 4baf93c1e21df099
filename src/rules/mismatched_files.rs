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

/// One clause per kind of warning: "libA.so, libB.so are not the libraries the process had loaded".
fn clauses(ms: &[FileMismatch]) -> Vec<String> {
    let kinds = [
        MismatchKind::ExecMayNotMatch,
        MismatchKind::ExecNewer,
        MismatchKind::BuildId,
        MismatchKind::LibraryAddress,
        MismatchKind::DebugCrc,
    ];
    let mut out = Vec::new();
    for k in kinds {
        let mut names: Vec<&str> = Vec::new();
        let mut any = false;
        for m in ms.iter().filter(|m| m.kind == k) {
            any = true;
            if let Some(p) = m.path.as_deref().map(base)
                && !names.contains(&p)
            {
                names.push(p);
            }
        }
        if !any {
            continue;
        }
        let shown = names.iter().take(3).copied().collect::<Vec<_>>().join(", ");
        let more = if names.len() > 3 { format!(" and {} more", names.len() - 3) } else { String::new() };
        let one = names.len() <= 1;
        out.push(match k {
            MismatchKind::ExecNewer => "the executable is newer than the core".to_string(),
            MismatchKind::ExecMayNotMatch => "the executable may not match the core".to_string(),
            MismatchKind::BuildId if one => format!("{shown} has another build-id than the core records"),
            MismatchKind::BuildId => format!("{shown}{more} have other build-ids than the core records"),
            MismatchKind::LibraryAddress if one => format!("{shown} is not the library the process had loaded"),
            MismatchKind::LibraryAddress => format!("{shown}{more} are not the libraries the process had loaded"),
            MismatchKind::DebugCrc => format!("the debug information for {shown}{more} is from another build"),
        });
    }
    out
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
    // One finding per input: the files are the same for every stop.
    if let Some((si, stop)) = cx.stops().next() {
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
        let kinds = clauses(ms);
        let mut msg = format!("{}: frames and symbols through these files may be wrong", kinds.join("; "));
        if none_named {
            msg.push_str("; no frame of the crashed thread could be named");
        } else if !frames.is_empty() {
            let names: Vec<String> =
                frames.iter().take(4).map(|f| format!("#{} {}", f.index, f.function_name())).collect();
            let more = if frames.len() > 4 { format!(" and {} more", frames.len() - 4) } else { String::new() };
            msg.push_str(&format!("; resolved through them: {}{more}", names.join(", ")));
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn a_rebuilt_program_with_no_named_frame_is_a_warning() {
        let f = run_rule_on_sample(&RULE, "mismatch/exe-rebuilt.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "the executable is newer than the core: frames and symbols through these files may be wrong; no frame of the crashed thread could be named"
        );
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].evidence[0].text, "gdb: exec file is newer than core file");
        assert_eq!(f[0].evidence[0].lines, Some(crate::model::Span::line(2)));
    }

    #[test]
    fn a_newer_executable_with_named_frames_is_only_info() {
        let text = "warning: exec file is newer than core file.\n\
                    Program terminated with signal SIGSEGV, Segmentation fault.\n\
                    #0  0x0000555555555149 in walk (p=0x0) at walk.c:9\n\
                    #1  0x0000555555555180 in main () at walk.c:20\n";
        let f = run_rule(&RULE, text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].heuristic);
        assert!(f[0].message.contains("resolved through them: #0 walk, #1 main"), "{}", f[0].message);
    }

    #[test]
    fn libraries_named_by_warnings_are_grouped_and_their_frames_listed() {
        let text = "warning: .dynamic section for \"/lib64/libp.so.0\" is not at the expected address (wrong library or version mismatch?)\n\
                    warning: Build-id of /lib64/libq.so.3 does not match core file.\n\
                    warning: .dynamic section for \"/lib64/libr.so.1\" is not at the expected address (wrong library or version mismatch?)\n\
                    Program terminated with signal SIGSEGV, Segmentation fault.\n\
                    #0  0x00007f778873dbde in list_walk () from /lib64/libq.so.3\n\
                    #1  0x00007f77911c1500 in poll_loop () from /lib64/libp.so.0\n\
                    #2  0x0000000000423924 in main ()\n";
        let f = run_rule(&RULE, text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "libq.so.3 has another build-id than the core records; libp.so.0, libr.so.1 are not the libraries the process had loaded: frames and symbols through these files may be wrong; resolved through them: #0 list_walk, #1 poll_loop"
        );
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].frame, Some(0));
    }
}
