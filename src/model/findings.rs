//! What the rules produce: findings with their evidence, and what a rule is.

use super::trace::{Span, Thread};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maturity {
    Stable,
    /// Opt-in with `--rule ID`.
    Experimental,
}

/// What a rule is, independent of any trace.
pub struct RuleInfo {
    pub id: &'static str,
    pub title: &'static str,
    pub maturity: Maturity,
    pub default_severity: Severity,
    /// Markdown: what it flags, why it matters, an example, known false positives.
    pub explanation: &'static str,
}

/// One fact a finding rests on, with the dump lines it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evidence {
    pub text: String,
    /// First and last line (1-based) in the input; absent for derived facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Span>,
}

impl Evidence {
    pub fn new(text: impl Into<String>, lines: Option<Span>) -> Self {
        Evidence { text: text.into(), lines: lines.filter(|s| s.first > 0) }
    }
}

/// A finding: what is wrong, where, on which evidence, and how to confirm it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: &'static str,
    pub severity: Severity,
    pub title: String,
    /// Short, lowercase, no trailing period, with real values.
    pub message: String,
    /// Index of the stop in `trace.stops`.
    pub stop: Option<usize>,
    /// Thread id as printed.
    pub thread: Option<String>,
    /// Frame index (gdb's `#N`).
    pub frame: Option<u32>,
    /// Registers the finding is about (to highlight).
    pub registers: Vec<String>,
    pub evidence: Vec<Evidence>,
    /// gdb / rr commands that would confirm or refute it.
    pub next_steps: Vec<String>,
    /// Holds only under a heuristic (for example no mappings were printed).
    pub heuristic: bool,
    /// Ranking score; higher is more likely the root cause. Not serialized.
    #[serde(skip)]
    pub rank: i32,
}

impl Finding {
    pub fn new(info: &RuleInfo, message: impl Into<String>) -> Self {
        Finding {
            rule: info.id,
            severity: info.default_severity,
            title: info.title.to_string(),
            message: message.into(),
            stop: None,
            thread: None,
            frame: None,
            registers: Vec::new(),
            evidence: Vec::new(),
            next_steps: Vec::new(),
            heuristic: false,
            rank: 0,
        }
    }
    pub fn at(mut self, stop: usize, thread: Option<&Thread>, frame: Option<u32>) -> Self {
        self.stop = Some(stop);
        self.thread = thread.map(|t| t.id.to_string());
        self.frame = frame;
        self
    }
    pub fn evidence(mut self, text: impl Into<String>, lines: Option<Span>) -> Self {
        self.evidence.push(Evidence::new(text, lines));
        self
    }
    pub fn step(mut self, cmd: impl Into<String>) -> Self {
        self.next_steps.push(cmd.into());
        self
    }
    pub fn register(mut self, r: &str) -> Self {
        self.registers.push(r.to_string());
        self
    }
    pub fn severity(mut self, s: Severity) -> Self {
        self.severity = s;
        self
    }
    pub fn rank(mut self, r: i32) -> Self {
        self.rank = r;
        self
    }
    /// Marks the finding as heuristic: it drops one severity level.
    pub fn heuristic(mut self) -> Self {
        self.heuristic = true;
        self.severity = match self.severity {
            Severity::Error => Severity::Warning,
            _ => Severity::Info,
        };
        self
    }
}
