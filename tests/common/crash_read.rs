//! What the crash-shape tests (`shapes6.rs`, `shapes7.rs`, …) ask of one recording: the rules
//! that fired, their messages, the main stop's culprit and the crashed thread's frames.
#![allow(dead_code)]

use tracecheck::analyze::analyze;

pub struct Read {
    pub rules: Vec<&'static str>,
    pub messages: Vec<String>,
    /// The main stop's culprit: a frame's function, or the function a message names.
    pub culprit: Option<String>,
    /// Function names of the main stop's crashed thread.
    pub frames: Vec<String>,
}

pub fn read_text(text: &str) -> Read {
    let parsed = tracecheck::input::parse(text);
    let r = analyze("t", parsed, &Default::default());
    let rules = r.findings.iter().map(|f| f.rule).collect();
    let messages = r.findings.iter().map(|f| f.message.clone()).collect();
    let si = r.parsed.trace.main_stop().and_then(|m| r.parsed.trace.stops.iter().position(|s| std::ptr::eq(s, m)));
    let frames = si
        .and_then(|si| r.parsed.trace.stops[si].crashed_thread())
        .map(|th| th.frames.iter().map(|f| f.function_name().to_string()).collect())
        .unwrap_or_default();
    let culprit = si.and_then(|si| {
        let c = r.culprits.get(si)?.clone()?;
        if let Some(site) = &c.named_by_message {
            return Some(site.function.clone());
        }
        let th = r.parsed.trace.stops[si].threads.iter().find(|t| *t.id == *c.thread)?;
        Some(th.frames.get(c.frame_position()?)?.function_name().to_string())
    });
    Read { rules, messages, culprit, frames }
}

/// A crash-corpus recording's text (`sample-traces/crashers/<name>`).
pub fn text(name: &str) -> String {
    crate::common::parse_sample(&format!("crashers/{name}")).0
}

/// [`read_text`] of a crash-corpus recording.
pub fn read(name: &str) -> Read {
    read_text(&text(name))
}

/// The message of the first finding of `rule`; panics when the rule did not fire.
pub fn message<'r>(r: &'r Read, rule: &str) -> &'r str {
    let i = r.rules.iter().position(|&x| x == rule).unwrap_or_else(|| panic!("{rule} did not fire: {:?}", r.rules));
    &r.messages[i]
}
