//! The rules that fired on a short input, its culprit's function and the lines not read: what
//! the wild-corpus pass tests (`wild_pass3.rs`, `wild_pass4.rs`) ask of each piece.

use tracecheck::analyze::analyze;

pub struct Read {
    pub rules: Vec<&'static str>,
    pub culprit: Option<String>,
    pub report: tracecheck::model::InputReport,
}

pub fn read(text: &str) -> Read {
    let parsed = tracecheck::input::parse(text);
    let r = analyze("t", parsed, &Default::default());
    let rules = r.findings.iter().map(|f| f.rule).collect();
    let culprit = r.culprits.iter().flatten().next().cloned().and_then(|c| {
        let st = r.parsed.trace.stops.iter().find(|s| s.threads.iter().any(|t| *t.id == *c.thread))?;
        let th = st.threads.iter().find(|t| *t.id == *c.thread)?;
        Some(th.frames.get(c.frame_position()?)?.function_name().to_string())
    });
    Read { rules, culprit, report: r }
}

pub fn unread(r: &Read) -> Vec<String> {
    r.report.parsed.diagnostics.unrecognized.iter().map(|u| u.text.clone()).collect()
}
