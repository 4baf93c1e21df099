//! The analyzed inputs every renderer reads.

use super::diagnostics::Parsed;
use super::findings::Finding;

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
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub inputs: Vec<InputReport>,
}
