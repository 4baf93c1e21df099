//! tracecheck: reads what a debugger saw at a crash and says what is wrong with the machine
//! state.
//!
//! The pipeline is **parse → (symbolize) → analyze → render**, around one model:
//!
//! ```text
//!  text / core ──► input::parse ──► model::Trace ──► rules::run ──► Report ──► report::{text,json,markdown}
//! ```
//!
//! ```
//! let parsed = tracecheck::input::parse("Program received signal SIGSEGV, Segmentation fault.\n\
//!     0x0000555555555139 in main () at t.c:2\n");
//! let stop = parsed.trace.main_stop().unwrap();
//! assert_eq!(stop.reason.signal.as_deref(), Some("SIGSEGV"));
//! assert_eq!(stop.crashed_thread().unwrap().frames[0].function_name(), "main");
//! ```

pub mod analyze;
pub mod arch;
pub mod classify;
pub mod fills;
pub mod fsutil;

pub mod handled_fault;
pub mod input;
pub mod insn;
pub mod julia;
pub mod messages;
pub mod model;
pub mod notes;
pub mod pipeline;
pub mod progress;
pub mod provenance;
pub mod provenance_a64;
pub mod provenance_mem;
pub mod provenance_text;
pub mod report;
pub mod roles;
pub mod rules;
pub mod runtime;
/// Signal names and numbers now live in the model; kept at the old path.
pub use model::signals;

pub mod triage;
pub mod tui;

// Binaries, DWARF and cores (the `core` branch).
pub mod core;
pub mod symbolize;
pub mod threads;
pub mod unwind;
