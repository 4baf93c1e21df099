//! ABI-anomaly rules. Each rule is one file with its [`RuleInfo`] and a `check` function
//! that reads the trace through a [`RuleContext`] and pushes [`Finding`]s.
//!
//! Rules only read the model; they never parse text. To add a rule: create
//! `rules/<id_with_underscores>.rs`, list it once in [`RULES`], and add `docs/rules/<id>.md`
//! (the registry tests check all three).

use crate::classify::Classifier;
use crate::input::Parsed;
use crate::model::*;
use serde::Serialize;

pub mod null_dereference;

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

/// What a rule sees: the trace plus shared helpers (address classification).
pub struct RuleContext<'a> {
    pub trace: &'a Trace,
    pub classifier: Classifier<'a>,
}

impl<'a> RuleContext<'a> {
    pub fn new(parsed: &'a Parsed) -> Self {
        RuleContext { trace: &parsed.trace, classifier: Classifier::new(&parsed.trace) }
    }
    pub fn from_trace(trace: &'a Trace) -> Self {
        RuleContext { trace, classifier: Classifier::new(trace) }
    }
    /// Stops worth checking, with their index.
    pub fn stops(&self) -> impl Iterator<Item = (usize, &'a Stop)> {
        self.trace.stops.iter().enumerate()
    }

    /// The pc of the crashed thread's innermost frame (from registers, else the frame).
    pub fn pc(&self, stop: &Stop) -> Option<u64> {
        let th = stop.crashed_thread()?;
        th.registers
            .get(&0)
            .and_then(|r| r.get(self.trace.arch.pc_register()).or_else(|| r.get("pc")))
            .or_else(|| th.frames.first().and_then(|f| f.pc).map(|a| a.0))
    }

    /// The instruction at pc: the `=>` line of a disassembly, else the one at pc.
    pub fn fault_insn(&self, stop: &'a Stop) -> Option<&'a Instruction> {
        let pc = self.pc(stop);
        if let Some(pc) = pc {
            if let Some(i) = stop.disassembly.iter().find(|i| i.address.0 == pc) {
                return Some(i);
            }
        }
        stop.disassembly.iter().find(|i| i.current).filter(|i| pc.is_none() || Some(i.address.0) == pc)
    }

    /// An 8-byte little-endian word at `addr`: from the stop's `x/` dumps, else from the
    /// trace's process memory (a core). `None` when neither holds all 8 bytes.
    pub fn read_u64(&self, stop: &Stop, addr: u64) -> Option<u64> {
        stop.read_u64(addr).or_else(|| self.trace.read_u64(addr))
    }

    /// A register of the crashed thread's frame 0.
    pub fn reg0(&self, stop: &'a Stop, name: &str) -> Option<&'a Register> {
        stop.crashed_thread()?.registers.get(&0)?.reg(name)
    }
}

pub type CheckFn = fn(&RuleContext<'_>, &mut Vec<Finding>);

pub struct Rule {
    pub info: &'static RuleInfo,
    pub check: CheckFn,
}

/// Every rule, once.
pub static RULES: &[Rule] = &[Rule { info: &null_dereference::RULE, check: null_dereference::check }];

/// The page `docs/rules/<id>.md` holds (written by `tracecheck rules --write-docs docs/rules`).
pub fn doc_page(info: &RuleInfo) -> String {
    format!(
        "# `{}`\n\n{}\n\n- Default severity: {}\n- Maturity: {}\n\n{}\n\n_This page is generated from the rule's source by `tracecheck rules --write-docs docs/rules`; `tracecheck explain {}` prints the same text._\n",
        info.id,
        info.title,
        info.default_severity.name(),
        match info.maturity {
            Maturity::Stable => "stable (on by default)",
            Maturity::Experimental => "experimental (enable with `--rule`)",
        },
        info.explanation,
        info.id
    )
}

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.info.id == id)
}

/// Which rules to run.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only these (when non-empty). Selecting an experimental rule enables it.
    pub only: Vec<String>,
    pub skip: Vec<String>,
}

impl Selection {
    pub fn enabled(&self, info: &RuleInfo) -> bool {
        if self.skip.iter().any(|s| s == info.id) {
            return false;
        }
        if !self.only.is_empty() {
            return self.only.iter().any(|s| s == info.id);
        }
        info.maturity == Maturity::Stable
    }
}

/// Runs the selected rules and ranks the findings (most likely root cause first).
pub fn run(trace: &Trace, sel: &Selection) -> Vec<Finding> {
    let cx = RuleContext::from_trace(trace);
    let mut out = Vec::new();
    for r in RULES {
        if sel.enabled(r.info) {
            (r.check)(&cx, &mut out);
        }
    }
    out.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(b.rank.cmp(&a.rank))
            .then(a.stop.cmp(&b.stop))
            .then(a.frame.cmp(&b.frame))
    });
    out
}

#[cfg(test)]
pub(crate) mod testutil {
    use super::*;
    /// Runs one rule over a transcript.
    pub fn run_rule(rule: &RuleInfo, text: &str) -> Vec<Finding> {
        let parsed = crate::input::parse(text);
        let sel = Selection { only: vec![rule.id.to_string()], skip: vec![] };
        run(&parsed.trace, &sel)
    }
    /// Runs one rule over a bundled sample trace (read at test time).
    pub fn run_rule_on_sample(rule: &RuleInfo, name: &str) -> Vec<Finding> {
        let path = format!("{}/sample-traces/{}", env!("CARGO_MANIFEST_DIR"), name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let parsed = crate::input::parse_bytes(&bytes);
        let sel = Selection { only: vec![rule.id.to_string()], skip: vec![] };
        run(&parsed.trace, &sel)
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn every_rule_file_is_registered_and_documented() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/rules");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rs") && n != "mod.rs")
            .map(|n| n.trim_end_matches(".rs").replace('_', "-"))
            .collect();
        files.sort();
        let mut ids: Vec<String> = RULES.iter().map(|r| r.info.id.to_string()).collect();
        ids.sort();
        assert_eq!(files, ids, "rule files and RULES differ");
        let mut dedup = ids.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), ids.len(), "duplicate rule ids");
        for id in &ids {
            let doc = format!("{}/docs/rules/{}.md", env!("CARGO_MANIFEST_DIR"), id);
            let text = std::fs::read_to_string(&doc).unwrap_or_default();
            assert_eq!(text, doc_page(find(id).unwrap().info), "{doc} is stale: run `cargo run -- rules --write-docs docs/rules`");
        }
    }

    #[test]
    fn titles_and_explanations_are_well_formed() {
        for r in RULES {
            let i = r.info;
            assert!(i.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", i.id);
            assert!(!i.title.ends_with('.'), "{} title ends with a period", i.id);
            assert!(i.title.chars().next().unwrap().is_lowercase(), "{} title starts uppercase", i.id);
            for h in ["**What it flags**", "**Why it matters**", "**Known false positives**"] {
                assert!(i.explanation.contains(h), "{} explanation lacks {h}", i.id);
            }
        }
    }
}
