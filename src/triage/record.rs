//! One record per crash: the stops of an analyzed input that are crashes, with their
//! signature, quality, cluster key and findings.

use super::cluster::{ClusterKey, MAX_KEY_FRAMES};
use super::quality::{Quality, quality};
use super::signature::{self, Signature};
use crate::model::InputReport;
use crate::model::{Stop, StopKind};
use crate::report::safe_line;
use crate::rules::Severity;

/// Frames of the crashed thread kept per crash in the index.
pub const MAX_STORED_FRAMES: usize = 64;

#[derive(Clone, Debug, serde::Serialize)]
pub struct FrameRecord {
    pub position: u32,
    pub function: Option<String>,
    pub normalized: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub module: Option<String>,
    pub meaningful: bool,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct FindingRecord {
    pub rule: String,
    pub severity: String,
    pub message: String,
    /// Normalized function of the frame the finding is about.
    pub function: Option<String>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct CrashRecord {
    /// Index of the stop in the input's trace.
    pub stop: usize,
    pub crash_type: String,
    /// Normalized culprit function.
    pub culprit: Option<String>,
    pub signature: Signature,
    pub quality: Quality,
    pub frames: Vec<FrameRecord>,
    /// Meaningful normalized frames (at most [`MAX_KEY_FRAMES`]) compared by clustering.
    pub key_frames: Vec<String>,
    /// `rule@function` keys of error and warning findings.
    pub finding_keys: Vec<String>,
    pub findings: Vec<FindingRecord>,
    /// Runtime version named in the input (`Julia Version 1.12.6`, `go1.22.1`), if any.
    pub version: Option<String>,
}

impl CrashRecord {
    pub fn cluster_key(&self) -> ClusterKey {
        ClusterKey {
            crash_type: self.crash_type.clone(),
            frames: self.key_frames.clone(),
            findings: self.finding_keys.clone(),
            signature: self.signature.id.clone(),
        }
    }
}

/// Whether a stop is a crash (not a breakpoint, a watchpoint, a normal exit or a stop for a
/// harmless signal).
pub fn is_crash(stop: &Stop) -> bool {
    match stop.reason.kind {
        StopKind::Signal if stop.reason.is_trap_instruction() => true,
        StopKind::Signal => !matches!(
            stop.reason.signal.as_deref(),
            Some(
                "SIGTRAP"
                    | "SIGINT"
                    | "SIGCHLD"
                    | "SIGSTOP"
                    | "SIGCONT"
                    | "SIGWINCH"
                    | "SIGPROF"
                    | "SIGALRM"
                    | "SIGTSTP"
            )
        ),
        StopKind::RuntimeError | StopKind::RrFatal => true,
        StopKind::Unknown => stop.crashed_thread().is_some_and(|t| !t.frames.is_empty()),
        StopKind::Breakpoint | StopKind::Watchpoint | StopKind::Exited | StopKind::Snapshot => false,
    }
}

/// The crash records of one analyzed input; `n` is the number of meaningful frames in a
/// signature.
pub fn records(report: &InputReport, n: usize, version: Option<&str>) -> Vec<CrashRecord> {
    let trace = &report.parsed.trace;
    let mut out = Vec::new();
    // A stop with no stated reason (only `bt` pasted) is a crash only when nothing else is.
    let any_stated = trace.stops.iter().any(|s| s.reason.kind != StopKind::Unknown && is_crash(s));
    for (si, stop) in trace.stops.iter().enumerate() {
        if !is_crash(stop) || (stop.reason.kind == StopKind::Unknown && any_stated) {
            continue;
        }
        let mut crash_type = signature::crash_type(stop);
        if !crash_type.contains('/') {
            // No fault address printed: the findings may still say what kind of access it was.
            let class = report.findings.iter().filter(|f| f.stop == Some(si)).find_map(|f| match f.rule {
                "null-dereference" => Some("null"),
                "noncanonical-address" => Some("noncanonical"),
                "heap-corruption" => Some("heap"),
                "assertion-failure" => Some("assert"),
                _ => None,
            });
            if let Some(c) = class {
                crash_type = format!("{crash_type}/{c}");
            }
        }
        let thread = stop.crashed_thread();
        let frames_src = thread.map(|t| t.frames.as_slice()).unwrap_or(&[]);
        // The meaningful frames start at the culprit (frames above it are machinery).
        let culprit_pos = report.culprits.get(si).and_then(|c| c.as_ref()).and_then(|c| c.frame_position());
        let mut key_frames = Vec::new();
        // A culprit the backtrace does not reach, named by a message (musl's assert): it is
        // the first key frame.
        if let Some(site) = report.culprits.get(si).and_then(|c| c.as_ref()).and_then(|c| c.named_by_message.as_ref()) {
            key_frames.push(signature::normalize_function(&site.function));
        }
        let mut frames = Vec::new();
        for (pos, f) in frames_src.iter().enumerate() {
            let meaningful = signature::is_meaningful(f) && culprit_pos.is_none_or(|c| pos >= c);
            let normalized = f.function.as_deref().map(signature::normalize_function);
            if meaningful
                && key_frames.len() < MAX_KEY_FRAMES
                && let Some(nm) = &normalized
            {
                // Recursion and inlined duplicates say nothing new.
                if key_frames.last() != Some(nm) {
                    key_frames.push(nm.clone());
                }
            }
            if frames.len() < MAX_STORED_FRAMES {
                frames.push(FrameRecord {
                    position: pos as u32,
                    function: f.function.as_deref().map(|s| safe_line(s).into_owned()),
                    normalized: normalized.map(|s| safe_line(&s).into_owned()),
                    file: f.file.as_deref().map(|s| safe_line(signature::normalize_file(s)).into_owned()),
                    line: f.line,
                    module: f.module.as_deref().map(|s| safe_line(signature::normalize_file(s)).into_owned()),
                    meaningful,
                });
            }
        }
        let culprit = key_frames.first().cloned().or_else(|| {
            culprit_pos
                .and_then(|p| frames_src.get(p))
                .and_then(|f| f.function.as_deref())
                .map(signature::normalize_function)
        });
        let sig_frames: Vec<String> = key_frames.iter().take(n.max(1)).map(|s| safe_line(s).into_owned()).collect();
        let signature = Signature::new(&safe_line(&crash_type), &sig_frames);
        let mut findings = Vec::new();
        let mut finding_keys = Vec::new();
        for f in report.findings.iter().filter(|f| f.stop == Some(si)) {
            let function = f.frame.and_then(|idx| {
                let th = match &f.thread {
                    Some(id) => stop.threads.iter().find(|t| *t.id == **id),
                    None => thread,
                }?;
                th.frames.iter().find(|fr| fr.index == idx)?.function.as_deref().map(signature::normalize_function)
            });
            let function = function.or_else(|| culprit.clone());
            if f.severity >= Severity::Warning
                && let Some(func) = &function
            {
                let k = format!("{}@{}", f.rule, safe_line(func));
                if !finding_keys.contains(&k) {
                    finding_keys.push(k);
                }
            }
            findings.push(FindingRecord {
                rule: f.rule.to_string(),
                severity: f.severity.name().to_string(),
                message: safe_line(&f.message).into_owned(),
                function: function.map(|s| safe_line(&s).into_owned()),
            });
        }
        out.push(CrashRecord {
            stop: si,
            crash_type: safe_line(&crash_type).into_owned(),
            culprit: culprit.map(|s| safe_line(&s).into_owned()),
            signature,
            quality: quality(stop),
            frames,
            key_frames: key_frames.iter().map(|s| safe_line(s).into_owned()).collect(),
            finding_keys,
            findings,
            version: version.map(str::to_string),
        });
    }
    out
}

/// A runtime version named in the text: `Julia Version 1.12.6`, `julia version 1.10.11`,
/// `go version go1.22.1`, `rustc 1.80.0`. Only the first 64 KB are searched.
pub fn find_version(text: &[u8]) -> Option<String> {
    let head = &text[..text.len().min(64 << 10)];
    let s = String::from_utf8_lossy(head);
    let lower = s.to_ascii_lowercase();
    for (marker, label) in [("julia version ", "julia "), ("go version go", "go "), ("rustc ", "rustc ")] {
        if let Some(i) = lower.find(marker) {
            let rest = &s[i + marker.len()..];
            let v: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-' || *c == '+')
                .take(32)
                .collect();
            if v.starts_with(|c: char| c.is_ascii_digit()) {
                return Some(format!("{label}{v}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(find_version(b"x\nJulia Version 1.12.6\nCommit"), Some("julia 1.12.6".into()));
        assert_eq!(find_version(b"go version go1.22.1 linux/amd64"), Some("go 1.22.1".into()));
        assert_eq!(find_version(b"nothing here"), None);
        assert_eq!(find_version(b"julia version \x1b[31m"), None);
    }
}
