//! The analyze stage: finds each stop's culprit frame once, runs the rules with it, and
//! produces the [`InputReport`] that every renderer (text, JSON, markdown, TUI) reads.

use crate::model::*;
use crate::rules::{self, Selection};

/// Re-exported from the model, where the report types live.
pub use crate::model::{Culprit, InputReport, Report};
/// Frame roles live in their own knowledge module; kept at their old paths.
pub use crate::roles::{crash_line, culprit, is_machinery, named_culprit};

pub fn analyze(path: &str, parsed: Parsed, sel: &Selection) -> InputReport {
    let culprits: Vec<Option<Culprit>> = parsed.trace.stops.iter().map(culprit).collect();
    let findings = rules::run_with_culprits(&parsed.trace, sel, &culprits);
    InputReport { path: path.to_string(), parsed, findings, culprits, raw: None }
}

/// `buffer_release at src/glibc-abort.c:10`, or just the name when there is no line.
pub fn frame_location(f: &Frame) -> String {
    f.location()
}

/// The C string gdb printed for argument `name` (parsed at input time).
pub fn frame_arg_string(f: &Frame, name: &str) -> Option<String> {
    f.arg_string(name).map(str::to_string)
}
