//! What parsing produced besides the trace: the parse result and its diagnostics.

use super::trace::Trace;
use serde::Serialize;

/// What the parser could not use, for the user and for tests.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Diagnostics {
    pub lines_total: u32,
    pub lines_recognized: u32,
    pub lines_unrecognized: u32,
    /// The first `MAX_UNRECOGNIZED_KEPT` (50) unrecognized lines.
    pub unrecognized: Vec<UnrecognizedLine>,
    /// Other remarks: truncated lines, binary content, limits reached.
    pub notes: Vec<Note>,
    /// A streamed input whose raw text was kept only in part: `(bytes kept, bytes read)`.
    /// The markdown report's raw section says so (the same fact is also one of `notes`).
    #[serde(skip)]
    pub raw_cut: Option<(u64, u64)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnrecognizedLine {
    pub line: u32,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub line: Option<u32>,
    pub message: String,
}

/// The result of parsing one input.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub trace: Trace,
    pub diagnostics: Diagnostics,
}

/// Prefix of every diagnostics note about a limit (the CLI repeats these on stderr).
pub const LIMIT_NOTE: &str = "limit reached: ";
