//! `tracecheck diff A B`: two dumps of (probably) the same crash side by side. Crash stops
//! are matched in order, threads by the crashed one, then id, then name; the crashed
//! threads' frames are aligned by normalized function (a longest common subsequence, not
//! by index); registers of frame #0 whose class changed (a heap pointer that became a small
//! integer) are listed; findings are compared by rule and function.

use super::record::is_crash;
use super::signature::normalize_function;
use crate::classify::Classifier;
use crate::model::{Frame, InputReport, Stop, Thread};
use crate::report::markdown::{code, escape};
use crate::report::safe_line;
use std::io::{self, Write};

#[derive(Clone, Debug, serde::Serialize)]
pub struct FrameRow {
    /// `=` same function and location, `~` same function, other location, `-` only in A,
    /// `+` only in B.
    pub mark: char,
    pub a: Option<String>,
    pub b: Option<String>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct RegisterChange {
    pub register: String,
    pub a: String,
    pub a_class: String,
    pub b: String,
    pub b_class: String,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct StopDiff {
    /// 1-based stop numbers in A and B.
    pub a_stop: Option<usize>,
    pub b_stop: Option<usize>,
    pub a_reason: Option<String>,
    pub b_reason: Option<String>,
    /// Thread pairs (A id, B id); `None` on one side when unmatched.
    pub threads: Vec<(Option<String>, Option<String>)>,
    /// Crashed thread frames aligned by function.
    pub frames: Vec<FrameRow>,
    pub registers: Vec<RegisterChange>,
    pub findings_removed: Vec<String>,
    pub findings_added: Vec<String>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Diff {
    pub a: String,
    pub b: String,
    pub stops: Vec<StopDiff>,
}

fn frame_text(f: &Frame) -> String {
    let mut s = safe_line(f.function_name()).into_owned();
    if let Some(file) = &f.file {
        s.push_str(&format!(" at {}", safe_line(super::signature::normalize_file(file))));
        if let Some(l) = f.line {
            s.push_str(&format!(":{l}"));
        }
    }
    s
}

/// Aligns two frame lists by normalized function name (LCS); bounded to 512 frames a side.
pub fn align(a: &[Frame], b: &[Frame]) -> Vec<FrameRow> {
    let a = &a[..a.len().min(512)];
    let b = &b[..b.len().min(512)];
    let ka: Vec<String> = a.iter().map(|f| normalize_function(f.function_name())).collect();
    let kb: Vec<String> = b.iter().map(|f| normalize_function(f.function_name())).collect();
    let (n, m) = (a.len(), b.len());
    let mut l = vec![0u16; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            l[i * (m + 1) + j] = if ka[i] == kb[j] && ka[i] != "??" {
                l[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                l[(i + 1) * (m + 1) + j].max(l[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n || j < m {
        if i < n && j < m && ka[i] == kb[j] && ka[i] != "??" {
            let same = a[i].file.as_deref().map(super::signature::normalize_file)
                == b[j].file.as_deref().map(super::signature::normalize_file)
                && a[i].line == b[j].line;
            out.push(FrameRow {
                mark: if same { '=' } else { '~' },
                a: Some(frame_text(&a[i])),
                b: Some(frame_text(&b[j])),
            });
            i += 1;
            j += 1;
        } else if j >= m || (i < n && l[(i + 1) * (m + 1) + j] >= l[i * (m + 1) + j + 1]) {
            out.push(FrameRow { mark: '-', a: Some(frame_text(&a[i])), b: None });
            i += 1;
        } else {
            out.push(FrameRow { mark: '+', a: None, b: Some(frame_text(&b[j])) });
            j += 1;
        }
    }
    out
}

fn match_threads(a: &Stop, b: &Stop) -> Vec<(Option<String>, Option<String>)> {
    let mut out = Vec::new();
    let mut used = vec![false; b.threads.len()];
    let ca = a.crashed_thread_index();
    let cb = b.crashed_thread_index();
    if let (Some(x), Some(y)) = (ca, cb) {
        out.push((Some(a.threads[x].id.to_string()), Some(b.threads[y].id.to_string())));
        used[y] = true;
    }
    for (i, t) in a.threads.iter().enumerate() {
        if Some(i) == ca {
            continue;
        }
        let found = b
            .threads
            .iter()
            .enumerate()
            .find(|(j, u)| !used[*j] && u.id == t.id)
            .or_else(|| b.threads.iter().enumerate().find(|(j, u)| !used[*j] && u.name.is_some() && u.name == t.name))
            .map(|(j, _)| j);
        match found {
            Some(j) => {
                used[j] = true;
                out.push((Some(t.id.to_string()), Some(b.threads[j].id.to_string())));
            }
            None => out.push((Some(t.id.to_string()), None)),
        }
    }
    for (j, u) in b.threads.iter().enumerate() {
        if !used[j] {
            out.push((None, Some(u.id.to_string())));
        }
    }
    out.into_iter()
        .map(|(x, y)| (x.map(|s| safe_line(&s).into_owned()), y.map(|s| safe_line(&s).into_owned())))
        .collect()
}

fn registers(ra: &InputReport, sa: &Stop, rb: &InputReport, sb: &Stop) -> Vec<RegisterChange> {
    let (Some(xa), Some(xb)) = (sa.registers(), sb.registers()) else { return Vec::new() };
    let (ca, cb) = (Classifier::new(&ra.parsed.trace), Classifier::new(&rb.parsed.trace));
    let arch = ra.parsed.trace.arch;
    let mut out = Vec::new();
    for r in &xa.regs {
        let name: &str = &r.name;
        if crate::report::is_non_pointer_register(name, arch) {
            continue;
        }
        let (Some(va), Some(vb)) = (r.value, xb.get(name)) else { continue };
        let (ka, kb) = (ca.classify(va), cb.classify(vb));
        if ka.kind != kb.kind {
            out.push(RegisterChange {
                register: safe_line(name).into_owned(),
                a: format!("{va:#x}"),
                a_class: ka.kind.name().to_string(),
                b: format!("{vb:#x}"),
                b_class: kb.kind.name().to_string(),
            });
        }
    }
    out
}

fn finding_keys(r: &InputReport, stop: usize) -> Vec<(String, String)> {
    r.findings
        .iter()
        .filter(|f| f.stop == Some(stop))
        .map(|f| {
            let func = f
                .frame
                .and_then(|i| r.parsed.trace.stops[stop].crashed_thread()?.frames.iter().find(|x| x.index == i))
                .map(|x| normalize_function(x.function_name()))
                .unwrap_or_default();
            (format!("{}@{func}", f.rule), safe_line(&format!("{}: {}", f.rule, f.message)).into_owned())
        })
        .collect()
}

fn reason(s: &Stop) -> String {
    safe_line(&crate::report::describe_reason(&s.reason)).into_owned()
}

/// Compares two analyzed inputs.
pub fn diff(a: &InputReport, b: &InputReport) -> Diff {
    let crashes = |r: &InputReport| -> Vec<usize> {
        let v: Vec<usize> = (0..r.parsed.trace.stops.len()).filter(|&i| is_crash(&r.parsed.trace.stops[i])).collect();
        if v.is_empty() && !r.parsed.trace.stops.is_empty() { vec![r.parsed.trace.stops.len() - 1] } else { v }
    };
    let (xa, xb) = (crashes(a), crashes(b));
    let mut stops = Vec::new();
    for k in 0..xa.len().max(xb.len()) {
        let (ia, ib) = (xa.get(k).copied(), xb.get(k).copied());
        let sa = ia.map(|i| &a.parsed.trace.stops[i]);
        let sb = ib.map(|i| &b.parsed.trace.stops[i]);
        let empty: &[Frame] = &[];
        let fa = sa.and_then(Stop::crashed_thread).map_or(empty, |t: &Thread| t.frames.as_slice());
        let fb = sb.and_then(Stop::crashed_thread).map_or(empty, |t: &Thread| t.frames.as_slice());
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        let ka = ia.map(|i| finding_keys(a, i)).unwrap_or_default();
        let kb = ib.map(|i| finding_keys(b, i)).unwrap_or_default();
        for (k, text) in &ka {
            if !kb.iter().any(|(x, _)| x == k) {
                removed.push(text.clone());
            }
        }
        for (k, text) in &kb {
            if !ka.iter().any(|(x, _)| x == k) {
                added.push(text.clone());
            }
        }
        stops.push(StopDiff {
            a_stop: ia.map(|i| i + 1),
            b_stop: ib.map(|i| i + 1),
            a_reason: sa.map(reason),
            b_reason: sb.map(reason),
            threads: match (sa, sb) {
                (Some(x), Some(y)) => match_threads(x, y),
                (Some(x), None) => x.threads.iter().map(|t| (Some(safe_line(&t.id).into_owned()), None)).collect(),
                (None, Some(y)) => y.threads.iter().map(|t| (None, Some(safe_line(&t.id).into_owned()))).collect(),
                _ => Vec::new(),
            },
            frames: align(fa, fb),
            registers: match (sa, sb) {
                (Some(x), Some(y)) => registers(a, x, b, y),
                _ => Vec::new(),
            },
            findings_removed: removed,
            findings_added: added,
        });
    }
    Diff { a: safe_line(&a.path).into_owned(), b: safe_line(&b.path).into_owned(), stops }
}

pub fn write(d: &Diff, fmt: super::query::OutFormat, out: &mut dyn Write) -> io::Result<()> {
    use super::query::OutFormat;
    if fmt == OutFormat::Json {
        let doc = serde_json::json!({ "schema": "tracecheck-diff/1", "diff": d });
        serde_json::to_writer(&mut *out, &doc)?;
        return writeln!(out);
    }
    let md = fmt == OutFormat::Markdown;
    let c = |s: &str| if md { code(s) } else { s.to_string() };
    if md {
        writeln!(out, "## {} vs {}\n", code(&d.a), code(&d.b))?;
    } else {
        writeln!(out, "A: {}\nB: {}", d.a, d.b)?;
    }
    for s in &d.stops {
        let n = |x: Option<usize>| x.map_or("-".to_string(), |v| v.to_string());
        writeln!(
            out,
            "{}stop A#{} / B#{}: {} | {}",
            if md { "\n### " } else { "\n" },
            n(s.a_stop),
            n(s.b_stop),
            s.a_reason.as_deref().map_or("(none)".to_string(), |r| if md { escape(r) } else { r.to_string() }),
            s.b_reason.as_deref().map_or("(none)".to_string(), |r| if md { escape(r) } else { r.to_string() }),
        )?;
        let th: Vec<String> = s
            .threads
            .iter()
            .map(|(x, y)| format!("{}↔{}", x.as_deref().unwrap_or("-"), y.as_deref().unwrap_or("-")))
            .collect();
        writeln!(
            out,
            "{}threads: {}",
            if md { "\n" } else { "  " },
            if md { escape(&th.join(" ")) } else { th.join(" ") }
        )?;
        if md {
            writeln!(out, "\n| | A | B |\n|---|---|---|")?;
            for r in &s.frames {
                writeln!(
                    out,
                    "| {} | {} | {} |",
                    r.mark,
                    r.a.as_deref().map(|x| c(x).replace('|', "\\|")).unwrap_or_default(),
                    r.b.as_deref().map(|x| c(x).replace('|', "\\|")).unwrap_or_default()
                )?;
            }
        } else {
            writeln!(out, "  frames (crashed thread, aligned by function):")?;
            let w = s.frames.iter().filter_map(|r| r.a.as_ref()).map(|x| x.chars().count()).max().unwrap_or(1).min(60);
            for r in &s.frames {
                let a: String = r.a.as_deref().unwrap_or("").chars().take(60).collect();
                writeln!(out, "  {} {a:<w$}  {}", r.mark, r.b.as_deref().unwrap_or(""))?;
            }
        }
        if !s.registers.is_empty() {
            writeln!(out, "{}registers whose class changed (frame #0):", if md { "\n" } else { "  " })?;
            for r in &s.registers {
                writeln!(
                    out,
                    "{}{}: {} ({}) -> {} ({})",
                    if md { "- " } else { "    " },
                    r.register,
                    r.a,
                    r.a_class,
                    r.b,
                    r.b_class
                )?;
            }
        }
        for (label, list) in [("findings only in A", &s.findings_removed), ("findings only in B", &s.findings_added)] {
            if !list.is_empty() {
                writeln!(out, "{}{label}:", if md { "\n" } else { "  " })?;
                for f in list.iter() {
                    writeln!(out, "{}{}", if md { "- " } else { "    " }, if md { escape(f) } else { f.clone() })?;
                }
            }
        }
    }
    Ok(())
}

/// Loads both inputs through the library pipeline and compares them.
pub fn load_diff(a: &str, b: &str) -> Result<Diff, String> {
    let opts = crate::pipeline::LoadOptions::default();
    let load = |p: &str| crate::pipeline::load(crate::pipeline::Source::Path(p), &opts);
    match (load(a), load(b)) {
        (Ok(x), Ok(y)) => Ok(diff(&x, &y)),
        (Err(e), _) | (_, Err(e)) => Err(safe_line(&e.to_string()).into_owned()),
    }
}

/// The `tracecheck diff` command: loads both inputs through the library pipeline.
pub fn run(a: &str, b: &str, fmt: super::query::OutFormat) -> u8 {
    let d = match load_diff(a, b) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("tracecheck: {e}");
            return 2;
        }
    };
    let stdout = io::stdout();
    match write(&d, fmt, &mut stdout.lock()) {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("tracecheck: writing output: {e}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, line: u32) -> Frame {
        Frame { function: Some(name.into()), file: Some("x.c".into()), line: Some(line), ..Default::default() }
    }

    #[test]
    fn frames_align_by_function() {
        let a = vec![f("julia_parse_12", 3), f("load_config", 10), f("main", 20)];
        let b = vec![f("julia_parse_99", 3), f("helper", 5), f("load_config", 11), f("main", 20)];
        let rows = align(&a, &b);
        let marks: String = rows.iter().map(|r| r.mark).collect();
        assert_eq!(marks, "=+~=");
        assert_eq!(rows[1].b.as_deref(), Some("helper at x.c:5"));
    }
}
