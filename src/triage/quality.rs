//! Backtrace quality, after satyr's `sr_gdb_stacktrace_quality_complex`:
//! `0.25 · q(all frames) + 0.35 · q(crashed thread) + 0.4 · q(top five of the crashed thread)`,
//! where `q` is the mean frame score. A frame scores 1 with a function name and a source
//! file, 0.5 with a name only, 0 for `??`. The reasons say what lowered the score; the best
//! example of a cluster is its crash with the highest score.

use crate::model::{Frame, Stop};

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Quality {
    /// 0.0 ..= 1.0
    pub score: f64,
    pub reasons: Vec<String>,
}

fn frame_score(f: &Frame) -> f64 {
    let named = f.function.as_deref().is_some_and(|n| {
        let n = n.trim();
        !n.is_empty() && n != "??" && !n.starts_with("<unknown") && !n.starts_with("unknown function")
    });
    match (named, f.file.is_some()) {
        (true, true) => 1.0,
        (true, false) => 0.5,
        (false, true) => 0.5,
        (false, false) => 0.0,
    }
}

fn mean<'a>(frames: impl Iterator<Item = &'a Frame>) -> Option<f64> {
    let (mut n, mut sum) = (0usize, 0.0);
    for f in frames {
        n += 1;
        sum += frame_score(f);
    }
    (n > 0).then(|| sum / n as f64)
}

/// The quality of one stop's backtraces.
pub fn quality(stop: &Stop) -> Quality {
    let mut reasons = Vec::new();
    let crashed = stop.crashed_thread();
    let all = mean(stop.threads.iter().flat_map(|t| t.frames.iter()));
    let (thread_q, top_q) = match crashed {
        Some(t) => (mean(t.frames.iter()), mean(t.frames.iter().take(5))),
        None => (None, None),
    };
    let frames: Vec<&Frame> = crashed.map(|t| t.frames.iter().collect()).unwrap_or_default();
    if frames.is_empty() {
        reasons.push("the crashed thread has no backtrace".to_string());
    } else {
        let unknown = frames.iter().filter(|f| frame_score(f) == 0.0).count();
        if unknown > 0 {
            reasons.push(format!("{unknown} of {} frames are ?? (no symbol)", frames.len()));
        }
        let no_source = frames.iter().filter(|f| f.file.is_none()).count();
        if no_source == frames.len() {
            reasons.push("no source lines (no debug info)".to_string());
        } else if no_source > 0 {
            reasons.push(format!("{no_source} of {} frames have no source line", frames.len()));
        }
        if frames.len() == 1 {
            reasons.push("only one frame".to_string());
        }
    }
    if let Some(t) = crashed
        && let Some(why) = &t.backtrace_stopped
    {
        reasons.push(format!("truncated unwind: {}", crate::report::safe_line(why)));
    }
    let score = 0.25 * all.unwrap_or(0.0) + 0.35 * thread_q.unwrap_or(0.0) + 0.4 * top_q.unwrap_or(0.0);
    // A truncated unwind loses the callers: at most 0.9.
    let score = if crashed.is_some_and(|t| t.backtrace_stopped.is_some()) { score.min(0.9) } else { score };
    Quality { score: (score * 1000.0).round() / 1000.0, reasons }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Thread;

    fn fr(name: Option<&str>, file: Option<&str>) -> Frame {
        Frame { function: name.map(Into::into), file: file.map(Into::into), ..Default::default() }
    }

    #[test]
    fn satyr_weights() {
        let t = Thread {
            id: "1".into(),
            crashed: true,
            frames: vec![fr(Some("a"), Some("a.c")), fr(None, None), fr(Some("c"), None), fr(Some("d"), Some("d.c"))],
            ..Default::default()
        };
        let stop = Stop { threads: vec![t], ..Default::default() };
        let q = quality(&stop);
        // mean = (1 + 0 + 0.5 + 1) / 4 = 0.625 for all three terms.
        assert_eq!(q.score, 0.625);
        assert!(q.reasons.iter().any(|r| r == "1 of 4 frames are ?? (no symbol)"), "{:?}", q.reasons);
        assert!(q.reasons.iter().any(|r| r == "2 of 4 frames have no source line"), "{:?}", q.reasons);
    }

    #[test]
    fn empty_and_truncated() {
        let stop = Stop::default();
        let q = quality(&stop);
        assert_eq!(q.score, 0.0);
        assert_eq!(q.reasons, vec!["the crashed thread has no backtrace".to_string()]);
        let t = Thread {
            id: "1".into(),
            crashed: true,
            frames: vec![fr(Some("a"), Some("a.c"))],
            backtrace_stopped: Some("previous frame identical to this frame (corrupt stack?)".into()),
            ..Default::default()
        };
        let q = quality(&Stop { threads: vec![t], ..Default::default() });
        assert_eq!(q.score, 0.9);
        assert!(q.reasons.iter().any(|r| r.starts_with("truncated unwind: previous frame identical")));
    }
}
