//! rr's own lines. rr replays through an embedded gdb, so a replay transcript is gdb output
//! (handled in `gdb.rs`) plus: the `(rr)` prompt, `when` / `when-ticks` / `when-tid`
//! answers, reverse-execution commands, watchpoint `Old value` / `New value` pairs, and rr's
//! own `[FATAL …]` and assertion reports.

use super::{Builder, Ctx};
use crate::model::*;

#[derive(Default)]
pub(crate) struct RrState {
    /// An event number seen before the stop it belongs to.
    pub pending_event: Option<u64>,
    /// The last command was a reverse-execution command.
    pub reverse: bool,
    /// The current stop is a watchpoint hit whose values follow.
    pub watch_values: bool,
    /// Inside an `[FATAL …]` report (its indented lines and rr backtrace follow).
    pub in_fatal: bool,
}

impl RrState {
    pub fn after_stop(&mut self, _stop: usize) {
        self.watch_values = false;
    }
}

/// Called for every echoed command (any prompt).
pub(crate) fn command(b: &mut Builder, verb: &str, _rest: &[&str], _n: u32) {
    b.rr.in_fatal = false;
    match verb {
        "reverse-continue" | "rc" | "reverse-step" | "rs" | "reverse-next" | "rn" | "reverse-finish" | "reverse-stepi" | "rsi" | "reverse-nexti" | "rni" => {
            b.saw(Format::Rr);
            b.rr.reverse = true;
        }
        "when" | "when-ticks" | "when-tid" | "checkpoint" | "restart" | "run" if b.formats_has_rr() => {
            b.rr.reverse = false;
        }
        "when" | "when-ticks" | "when-tid" => b.saw(Format::Rr),
        _ => b.rr.reverse = false,
    }
}

/// rr-specific lines. Returns whether the line was one.
pub(crate) fn line(b: &mut Builder, t: &str, n: u32) -> bool {
    let first = t.as_bytes()[0];
    if first == b'C' {
        if let Some(r) = t.strip_prefix("Current event: ") {
            if let Ok(ev) = r.trim().parse::<u64>() {
                b.saw(Format::Rr);
                match b.stop_index() {
                    Some(i) => b.trace.stops[i].rr_event = Some(ev),
                    None => b.rr.pending_event = Some(ev),
                }
                return true;
            }
        }
        if let Some(r) = t.strip_prefix("Current tick: ").or_else(|| t.strip_prefix("Current ticks: ")) {
            if let Ok(tk) = r.trim().parse::<u64>() {
                b.saw(Format::Rr);
                b.stop_mut().rr_ticks = Some(tk);
                return true;
            }
        }
        if let Some(r) = t.strip_prefix("Current tid: ") {
            if r.trim().parse::<u64>().is_ok() {
                b.saw(Format::Rr);
                return true;
            }
        }
    }
    if first == b'O' || first == b'N' {
        let (old, rest) = if let Some(r) = t.strip_prefix("Old value = ") {
            (true, r)
        } else if let Some(r) = t.strip_prefix("New value = ") {
            (false, r)
        } else {
            return false;
        };
        // After a reverse-continue rr prints the pair without a fresh watchpoint line when
        // the hit is reported before it; make sure the values land on a watchpoint stop.
        let si = b.ensure_stop();
        if b.trace.stops[si].reason.kind != StopKind::Watchpoint {
            let reason = StopReason { kind: StopKind::Watchpoint, span: Span::line(n), ..Default::default() };
            b.new_stop(reason, None);
        }
        let r = &mut b.stop_mut().reason;
        if old {
            r.old_value = Some(rest.into());
        } else {
            r.new_value = Some(rest.into());
        }
        r.span.extend_to(n);
        return true;
    }
    if first == b'[' {
        // `[FATAL src/ReplaySession.cc:1234:check_pending_sig()] …`, `[ERROR …]`
        for tag in ["[FATAL ", "[ERROR "] {
            if let Some(r) = t.strip_prefix(tag) {
                b.saw(Format::Rr);
                let fatal = tag == "[FATAL ";
                let reason = StopReason {
                    kind: if fatal { StopKind::RrFatal } else { StopKind::Unknown },
                    description: Some(r.trim().into()),
                    span: Span::line(n),
                    ..Default::default()
                };
                if fatal {
                    b.new_stop(reason, None);
                    b.rr.in_fatal = true;
                }
                let msg = Message { text: t.into(), span: Span::line(n) };
                b.stop_mut().messages.push(msg);
                return true;
            }
        }
        if t.starts_with("[rr ") || t.starts_with("[INFO ") || t.starts_with("[WARN ") {
            b.saw(Format::Rr);
            return true;
        }
    }
    if b.rr.in_fatal {
        // `(task 1234 (rec:1235) at time 5678)`, `-> Assertion `x' failed to hold. …`,
        // `=== Start rr backtrace:` … `=== End rr backtrace`, `Tail of trace dump:`.
        if t.starts_with("(task ") || t.starts_with("-> ") || t.starts_with("===") || t.starts_with("Tail of trace dump") || t.starts_with("{") || t.starts_with("}") || t.starts_with("Launch gdb") || t.starts_with("rr(") || t.starts_with("/") || t.starts_with("event:") {
            if let Some(r) = t.strip_prefix("(task ") {
                if let Some(p) = r.find("at time ") {
                    let d: String = r[p + 8..].chars().take_while(|c| c.is_ascii_digit()).collect();
                    if let Ok(ev) = d.parse() {
                        b.stop_mut().rr_event = Some(ev);
                    }
                }
            }
            let msg = Message { text: t.into(), span: Span::line(n) };
            b.stop_mut().messages.push(msg);
            return true;
        }
    }
    if t.starts_with("rr: Saving execution to trace directory") || t.starts_with("rr: ") && t.contains("trace") {
        b.saw(Format::Rr);
        return true;
    }
    if b.ctx == Ctx::None && t.starts_with("Program stopped.") && b.rr.reverse {
        return true;
    }
    false
}

impl Builder {
    pub(crate) fn stop_index(&self) -> Option<usize> {
        self.stop
    }
    pub(crate) fn formats_has_rr(&self) -> bool {
        self.formats & (1 << (Format::Rr as u8)) != 0
    }
}
