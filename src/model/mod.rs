//! The trace model: one description of "what the debugger saw", shared by every stage.
//!
//! Parsers (`input/`) fill a [`Trace`]; the symbolizer adds names; the rules (`rules/`) read
//! it and produce findings; renderers (`report/`) and the TUI show it. Nothing in here knows
//! which textual dialect a fact came from, except the [`Span`] that points back at the
//! source lines so a viewer can jump to the raw text.

//!
//! The model also holds the types passed between stages ([`Parsed`], [`Diagnostics`],
//! [`Finding`], [`InputReport`], [`Report`]), so that no stage has to import another to
//! name them. It imports nothing else of this crate.

pub mod diagnostics;
pub mod findings;
pub mod registers;
pub mod report;
pub mod signals;
pub mod symbols;
pub mod trace;

pub use diagnostics::{Diagnostics, LIMIT_NOTE, Note, Parsed, UnrecognizedLine};
pub use findings::{Evidence, Finding, Maturity, RuleInfo, Severity};
pub use registers::{MAX_REGISTERS, Register, RegisterSet, UnwindMethod};
pub use report::{Culprit, InputReport, MessageSite, MissingEvidence, Report};
pub use symbols::{Location, Natural, SymbolRef};
pub use trace::*;
