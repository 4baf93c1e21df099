//! The analyzed inputs every renderer reads.

use super::diagnostics::Parsed;
use super::findings::Finding;
use serde::Serialize;

/// A fact the rules needed but the dump does not hold, and the debugger command that would
/// supply it. Computed once per input (`analyze::missing_evidence`); every renderer shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MissingEvidence {
    /// What is missing, as a sentence start: `the faulting instruction is not in the dump`.
    pub what: String,
    /// The debugger command that prints it (in the transcript's debugger: gdb or lldb).
    pub command: String,
    /// Rules that could not decide (or decided only on a guess) without it.
    pub rules_waiting: Vec<&'static str>,
    /// Index of the stop it concerns; absent for the whole dump (mappings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<usize>,
}

/// The frame a reader should look at first for one stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Culprit {
    pub thread: String,
    /// Position in the thread's `frames`.
    pub position: usize,
    pub index: u32,
}

/// One analyzed input.
#[derive(Clone, Debug)]
pub struct InputReport {
    pub path: String,
    pub parsed: Parsed,
    pub findings: Vec<Finding>,
    /// Per stop (same order as `trace.stops`).
    pub culprits: Vec<Option<Culprit>>,
    /// The raw text, kept for the markdown export and the TUI.
    pub raw: Option<String>,
    /// Evidence the rules needed and the dump lacks, with the command that supplies it.
    pub missing_evidence: Vec<MissingEvidence>,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub inputs: Vec<InputReport>,
}
