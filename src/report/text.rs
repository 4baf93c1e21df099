//! The default output: a readable summary for a terminal.

use super::{annotate_register, describe_reason, frame_line, safe};
use crate::classify::{Classifier, RegionKind};
use crate::model::Severity;
use crate::model::*;
use crate::model::{InputReport, Report};
use std::io::{self, Write};

/// How much of each list to print.
#[derive(Clone, Debug)]
pub struct TextOptions {
    pub color: bool,
    pub max_frames: usize,
    pub verbose: bool,
    /// Sidecar notes per input path, shown next to what they annotate.
    pub notes: std::collections::BTreeMap<String, Vec<crate::notes::Note>>,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions { color: false, max_frames: 30, verbose: false, notes: Default::default() }
    }
}

/// The ANSI colour of a region, the same as the TUI theme's (`tui::theme::Theme::region`).
fn region_sgr(k: RegionKind) -> &'static str {
    match k {
        RegionKind::Code | RegionKind::Jit => "31",
        RegionKind::Heap | RegionKind::Anonymous => "34",
        RegionKind::Stack => "33",
        RegionKind::WritableData => "35",
        RegionKind::ReadOnlyData | RegionKind::Special => "0",
        RegionKind::ZeroPage | RegionKind::NonCanonical | RegionKind::Unmapped | RegionKind::Kernel => "1;4;31",
        RegionKind::SmallInteger | RegionKind::Unknown => "2",
    }
}

/// A note as one terminal-safe line.
fn note_line(n: &crate::notes::Note) -> String {
    safe(n.text.trim()).replace(['\n', '\r'], " ")
}

struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.on { format!("\x1b[{code}m{s}\x1b[0m") } else { s.to_string() }
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn dim(&self, s: &str) -> String {
        self.wrap("2", s)
    }
    fn sev(&self, sev: Severity) -> String {
        match sev {
            Severity::Error => self.wrap("1;31", "error"),
            Severity::Warning => self.wrap("1;33", "warning"),
            Severity::Info => self.wrap("1;36", "info"),
        }
    }
}

pub fn write(report: &Report, opts: &TextOptions, out: &mut dyn Write) -> io::Result<()> {
    for (i, ir) in report.inputs.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write_input(ir, opts, out)?;
    }
    Ok(())
}

fn write_input(ir: &InputReport, opts: &TextOptions, out: &mut dyn Write) -> io::Result<()> {
    let p = Paint { on: opts.color };
    let t = &ir.parsed.trace;
    let c = Classifier::new(t);
    let formats: Vec<&str> = t.formats.iter().map(|f| f.name()).collect();
    writeln!(
        out,
        "{} ({}{})",
        p.bold(&super::safe_line(&ir.path)),
        if formats.is_empty() { "no debugger output recognized".to_string() } else { formats.join("+") },
        t.arch.name().map(|a| format!(", {a}")).unwrap_or_default()
    )?;
    if t.stops.is_empty() {
        writeln!(out, "  no stop found")?;
    }
    // Notes land next to what they annotate; the ones shown are ticked off, the rest are
    // listed at the end (never dropped).
    let empty = Vec::new();
    let placed: Vec<(crate::notes::Placement, &crate::notes::Note)> =
        opts.notes.get(&ir.path).unwrap_or(&empty).iter().map(|n| (crate::notes::resolve(n, ir), n)).collect();
    let mut shown = vec![false; placed.len()];
    use crate::notes::Placement as Pl;
    for (i, (pl, n)) in placed.iter().enumerate() {
        if matches!(pl, Pl::Trace) {
            writeln!(out, "  {} {}", p.wrap("1;35", "note:"), note_line(n))?;
            shown[i] = true;
        }
    }
    let main = t.main_stop().map(|s| s as *const Stop);
    for (si, s) in t.stops.iter().enumerate() {
        let is_main = main == Some(s as *const Stop);
        let mut head = format!("stop {}: {}", si + 1, describe_reason(&s.reason));
        if let Some(ev) = s.rr_event {
            head.push_str(&format!(" [rr event {ev}]"));
        }
        writeln!(out, "\n{}", p.bold(&head))?;
        // What was running, first: Julia's `in expression starting at FILE:LINE`.
        if let Some(e) = &s.expression {
            writeln!(out, "  in expression starting at {}", safe(e))?;
        }
        if let Some(k) = &s.checker {
            writeln!(out, "  {}: {}", safe(&k.tool), safe(&k.text))?;
        }
        if let Some(a) = s.reason.address
            && s.reason.signo.map(crate::model::signals::has_fault_address).unwrap_or(false)
        {
            writeln!(out, "  fault address {:#x}: {}", a.0, c.classify(a.0))?;
        }
        for m in s.messages.iter().take(6) {
            writeln!(out, "  {} {}", p.dim("|"), safe(&m.text))?;
        }
        let Some(th) = s.crashed_thread() else { continue };
        let label = if th.crashed { "crashed thread" } else { "thread" };
        writeln!(
            out,
            "  {label} {}{}{}",
            safe(&th.id),
            th.name.as_deref().map(|n| format!(" \"{}\"", safe(n))).unwrap_or_default(),
            if s.threads.len() > 1 { format!(" (of {} threads)", s.threads.len()) } else { String::new() }
        )?;
        if let Some(Some(cul)) = ir.culprits.get(si) {
            if let Some(site) = &cul.named_by_message {
                let at = match (&site.file, site.line) {
                    (Some(file), Some(line)) => format!(" at {}:{line}", safe(file)),
                    (Some(file), None) => format!(" at {}", safe(file)),
                    _ => String::new(),
                };
                writeln!(
                    out,
                    "  culprit: {} (named by {}; the backtrace does not reach it)",
                    p.bold(&format!("{}{at}", safe(&site.function))),
                    site.source
                )?;
            } else if let Some(f) = th.frames.get(cul.position) {
                writeln!(out, "  culprit: {}", p.bold(&frame_line(f)))?;
            }
        }
        if !is_main && !opts.verbose {
            continue;
        }
        let limit = opts.max_frames;
        let tp = s.crashed_thread_index().unwrap_or(0);
        for (pos, f) in th.frames.iter().enumerate().take(limit) {
            let mark = match ir.culprits.get(si) {
                Some(Some(c)) if c.index == f.index && !f.inlined && c.named_by_message.is_none() => ">",
                _ => " ",
            };
            writeln!(out, "  {mark} {}", frame_line(f))?;
            for (i, (pl, n)) in placed.iter().enumerate() {
                if let Pl::Frame(rf) = pl
                    && (rf.stop, rf.thread, rf.position) == (si, tp, pos)
                {
                    writeln!(out, "        {} {}", p.wrap("1;35", "^ note:"), note_line(n))?;
                    shown[i] = true;
                }
            }
        }
        if th.frames.len() > limit {
            writeln!(out, "    … {} more frames", th.frames.len() - limit)?;
        }
        if let Some(why) = &th.backtrace_stopped {
            writeln!(out, "    Backtrace stopped: {}", safe(why))?;
        }
        if let Some(set) = th.registers.get(&0) {
            let highlighted: Vec<&str> = ir
                .findings
                .iter()
                .filter(|f| f.stop == Some(si))
                .flat_map(|f| f.registers.iter().map(String::as_str))
                .collect();
            if p.on {
                // The same region colours as the TUI, with their legend.
                let legend: Vec<String> = [
                    (RegionKind::Stack, "stack"),
                    (RegionKind::Heap, "heap"),
                    (RegionKind::Code, "code"),
                    (RegionKind::WritableData, "data"),
                    (RegionKind::ReadOnlyData, "rodata"),
                ]
                .iter()
                .map(|(k, n)| p.wrap(region_sgr(*k), n))
                .collect();
                writeln!(out, "  registers (frame #0):  {}", legend.join(" "))?;
            } else {
                writeln!(out, "  registers (frame #0):")?;
            }
            for r in &set.regs {
                let Some(v) = r.value else { continue };
                if crate::report::is_non_pointer_register(&r.name, t.arch) && !matches!(&*r.name, "eflags" | "cpsr") {
                    continue;
                }
                let note = annotate_register(r, &c, t.arch).unwrap_or_default();
                let note = safe(&note);
                let name = format!("{:<6}", safe(&r.name));
                let name = if highlighted.contains(&&*r.name) { p.wrap("1;33", &name) } else { name };
                let kind = if v < 0x10000 { RegionKind::SmallInteger } else { c.classify(v).kind };
                writeln!(out, "    {name} {:#018x}  {}", v, p.wrap(region_sgr(kind), &note))?;
                for (i, (pl, n)) in placed.iter().enumerate() {
                    if let Pl::Register { register, frame: rf } = pl
                        && (rf.stop, rf.thread, rf.index) == (si, tp, 0)
                        && *register == *r.name
                    {
                        writeln!(out, "           {} {}", p.wrap("1;35", "^ note:"), note_line(n))?;
                        shown[i] = true;
                    }
                }
            }
        }
    }
    if !ir.findings.is_empty() {
        writeln!(out, "\n{}", p.bold("findings:"))?;
        for (fi, f) in ir.findings.iter().enumerate() {
            let loc = match (f.stop, f.frame) {
                (Some(s), Some(fr)) if t.stops.len() > 1 => format!(" [stop {} frame #{fr}]", s + 1),
                (_, Some(fr)) => format!(" [frame #{fr}]"),
                _ => String::new(),
            };
            writeln!(out, "  {} {}: {}{}", p.sev(f.severity), f.rule, safe(&f.message), loc)?;
            for e in &f.evidence {
                let at = e
                    .lines
                    .map(|l| {
                        if l.first == l.last {
                            format!(" (line {})", l.first)
                        } else {
                            format!(" (lines {}-{})", l.first, l.last)
                        }
                    })
                    .unwrap_or_default();
                writeln!(out, "      evidence: {}{}", safe(&e.text), p.dim(&at))?;
            }
            for (i, (pl, n)) in placed.iter().enumerate() {
                if matches!(pl, Pl::Finding(x) if *x == fi) {
                    writeln!(out, "      {} {}", p.wrap("1;35", "note:"), note_line(n))?;
                    shown[i] = true;
                }
            }
            if !f.next_steps.is_empty() {
                writeln!(
                    out,
                    "      next: {}",
                    f.next_steps.iter().map(|s| safe(s).into_owned()).collect::<Vec<_>>().join("; ")
                )?;
            }
        }
    } else if !t.stops.is_empty() {
        writeln!(out, "\nno findings")?;
    }
    let rest: Vec<usize> = (0..placed.len()).filter(|&i| !shown[i]).collect();
    if !rest.is_empty() {
        writeln!(out, "\n{}", p.bold("other notes:"))?;
        for i in rest {
            let (pl, n) = &placed[i];
            let what = if matches!(pl, Pl::Orphan) { " (no longer matches this dump)" } else { "" };
            writeln!(out, "  on {}{what}: {}", safe(&n.target.to_string()), note_line(n))?;
        }
    }
    if !ir.missing_evidence.is_empty() {
        writeln!(out, "\n{}", p.bold("missing evidence (add the command to the debugger run):"))?;
        for m in &ir.missing_evidence {
            writeln!(out, "  {}", crate::report::missing_sentence(m))?;
        }
    }
    let d = &ir.parsed.diagnostics;
    writeln!(
        out,
        "\n{}",
        p.dim(&format!(
            "{} lines, {} recognized, {} not understood",
            d.lines_total, d.lines_recognized, d.lines_unrecognized
        ))
    )?;
    for u in d.unrecognized.iter().take(if opts.verbose { 50 } else { 5 }) {
        writeln!(out, "{}", p.dim(&format!("  line {}: {}", u.line, safe(&u.text))))?;
    }
    if d.lines_unrecognized as usize > 5 && !opts.verbose {
        writeln!(out, "{}", p.dim("  (use --verbose to list more)"))?;
    }
    for n in &d.notes {
        let at = n.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        writeln!(out, "{}", p.dim(&format!("  note: {at}{}", safe(&n.message))))?;
    }
    Ok(())
}
