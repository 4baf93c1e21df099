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
    /// Set when the backtrace does not reach the culprit and the program's own message names
    /// it (musl's `Assertion failed: x (file.c: func: 7)`, whose backtrace stops in `raise`):
    /// the culprit is that function, not a frame; `position`/`index` are then frame #0's
    /// and no frame is marked.
    pub named_by_message: Option<MessageSite>,
}

/// A function a message names (an assertion's `func`, file and line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageSite {
    pub function: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    /// What named it: `the assertion message`.
    pub source: &'static str,
}

impl Culprit {
    /// A culprit that is a frame of the backtrace.
    pub fn frame(thread: String, position: usize, index: u32) -> Self {
        Culprit { thread, position, index, named_by_message: None }
    }
    /// Its frame in the backtrace: `None` when a message names a function the backtrace does
    /// not reach.
    pub fn frame_position(&self) -> Option<usize> {
        self.named_by_message.is_none().then_some(self.position)
    }
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
