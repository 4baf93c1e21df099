//! Renderers: plain functions over the finished [`Report`](crate::model::Report) that write
//! to any `Write`. Text for people, JSON for scripts, markdown for bug trackers.
//!
//! Anything taken from a dump goes through [`safe`] before it reaches a terminal, so a dump
//! cannot move the cursor, set the title or write the clipboard.

pub mod explain;
pub mod json;
pub mod markdown;
pub mod text;

use crate::classify::Classifier;
use crate::model::*;

/// Text safety lives with the input cleaner (below the report layer, so progress messages
/// and notes use the same functions); re-exported at the paths renderers use.
pub use crate::input::clean::{is_invisible, safe, safe_line, show_invisible};

/// One-line annotation for a register value: what it points into, plus the symbol gdb
/// printed next to it ([`crate::classify::annotate_register`], formatted). `None` for
/// registers that are not addresses (flags, segments).
pub fn annotate_register(r: &Register, c: &Classifier<'_>, arch: Arch) -> Option<String> {
    crate::classify::annotate_register(r, c, arch).map(|a| a.to_string())
}

/// Flags, segment, system/control and vector registers: their values are not addresses
/// (from the register tables in [`crate::arch`]).
pub fn is_non_pointer_register(name: &str, arch: Arch) -> bool {
    crate::arch::never_address(name, arch)
}

/// `SIGSEGV (SEGV_MAPERR) at 0x18`, for summaries.
pub fn describe_reason(r: &StopReason) -> String {
    let mut s = String::new();
    match r.kind {
        StopKind::Snapshot => {
            s.push_str("snapshot of a process that had not crashed (no crashed thread); ");
            match &r.signal {
                Some(sig) => {
                    s.push_str("signal ");
                    s.push_str(sig);
                    if let Some(c) = r.code_name() {
                        s.push_str(&format!(" ({c})"));
                    } else if let Some(c) = r.si_code {
                        s.push_str(&format!(" (si_code {c})"));
                    }
                }
                None => s.push_str("no signal"),
            }
        }
        StopKind::Signal => {
            s.push_str(r.signal.as_deref().unwrap_or("signal"));
            if let Some(c) = r.code_name() {
                s.push_str(&format!(" ({c})"));
            } else if let Some(c) = r.si_code {
                s.push_str(&format!(" (si_code {c})"));
            }
            if let (Some(a), Some(no)) = (r.address, r.signo)
                && crate::model::signals::has_fault_address(no)
            {
                s.push_str(&format!(" at {:#x}", a.0));
            }
        }
        StopKind::Breakpoint => s.push_str(&format!("breakpoint {}", r.number.unwrap_or(0))),
        StopKind::Watchpoint => {
            s.push_str(format!("watchpoint {}", r.number.map(|n| n.to_string()).unwrap_or_default()).trim_end());
            if let (Some(o), Some(n)) = (&r.old_value, &r.new_value) {
                s.push_str(&format!(" ({} -> {})", safe(o), safe(n)));
            }
        }
        StopKind::Exited => s.push_str(&format!("exited with status {}", r.number.unwrap_or(0))),
        StopKind::RuntimeError => s.push_str("runtime error"),
        StopKind::RrFatal => s.push_str("rr fatal error"),
        StopKind::Unknown => s.push_str("stopped (reason not in the transcript)"),
    }
    if let Some(d) = &r.description
        && r.kind != StopKind::Breakpoint
    {
        s.push_str(&format!(": {}", safe(d)));
    }
    s
}

/// `#3  0x… in foo (a=1) at a.c:3 [inlined]` as a one-liner.
pub fn frame_line(f: &Frame) -> String {
    let mut s = format!("#{:<3}", f.index);
    match f.pc {
        Some(pc) => s.push_str(&format!("{pc} in ")),
        None => s.push_str(&" ".repeat(22)),
    }
    s.push_str(&safe(f.function_name()));
    if let Some(a) = &f.args {
        let a = safe(a);
        if a.chars().count() > 80 {
            let cut: String = a.chars().take(77).collect();
            s.push_str(&format!(" ({cut}...)"));
        } else {
            s.push_str(&format!(" ({a})"));
        }
    }
    if let (Some(file), Some(line)) = (&f.file, f.line) {
        s.push_str(&format!(" at {}:{line}", safe(file)));
    } else if let Some(m) = &f.module {
        s.push_str(&format!(" from {}", safe(m)));
    }
    if f.inlined {
        s.push_str(" [inlined]");
    }
    s
}

/// `the faulting instruction is not in the dump: run `x/i $pc` (null-dereference, … wait for it)`.
pub fn missing_sentence(m: &crate::model::MissingEvidence) -> String {
    format!(
        "{}: run `{}` ({} {} on it)",
        m.what,
        m.command,
        m.rules_waiting.join(", "),
        if m.rules_waiting.len() == 1 { "waits" } else { "wait" }
    )
}
