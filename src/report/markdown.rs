//! `--format markdown`: a GitHub-ready bug report. Everything taken from the dump is
//! escaped, so a dump cannot inject markdown or HTML into a tracker.

use super::{annotate_register, describe_reason, frame_line, safe};
use crate::analyze::{InputReport, Report};
use crate::classify::Classifier;
use std::io::{self, Write};

#[derive(Clone, Debug, Default)]
pub struct MarkdownOptions {
    /// Fold the raw dump into `<details>` at the end.
    pub include_raw: bool,
}

/// Escapes text for a markdown paragraph or table cell.
pub fn escape(s: &str) -> String {
    let s = safe(s);
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '!' | '~' | '@' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Inline code that cannot be broken out of: picks a backtick run longer than any inside.
pub fn code(s: &str) -> String {
    let s = safe(s).replace(['\n', '\r'], " ");
    let longest = longest_backtick_run(&s);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut cur = 0;
    for c in s.chars() {
        if c == '`' {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// A fenced block whose fence is longer than any backtick run in the content.
pub fn fenced(s: &str, lang: &str) -> String {
    let s = safe(s);
    let fence = "`".repeat((longest_backtick_run(&s) + 1).max(3));
    // HTML inside a fenced block is inert on GitHub; `</details>` cannot close the fold.
    format!("{fence}{lang}\n{}\n{fence}\n", s.trim_end_matches('\n'))
}

pub fn write(report: &Report, opts: &MarkdownOptions, out: &mut dyn Write) -> io::Result<()> {
    for ir in &report.inputs {
        write_input(ir, opts, out)?;
    }
    Ok(())
}

fn write_input(ir: &InputReport, opts: &MarkdownOptions, out: &mut dyn Write) -> io::Result<()> {
    let t = &ir.parsed.trace;
    let c = Classifier::new(t);
    writeln!(out, "## Crash report: {}\n", code(&ir.path))?;
    let Some(stop) = t.main_stop() else {
        writeln!(out, "No stop was found in this input.\n")?;
        return Ok(());
    };
    let si = t.stops.iter().position(|s| std::ptr::eq(s, stop)).unwrap_or(0);
    // Summary paragraph.
    let mut summary = format!("The program stopped with {}", escape(&describe_reason(&stop.reason)));
    if let Some(a) = stop.reason.address {
        if stop.reason.signo.map(crate::signals::has_fault_address).unwrap_or(false) {
            summary.push_str(&format!("; the fault address {} is {}", code(&format!("{:#x}", a.0)), escape(&c.classify(a.0).to_string())));
        }
    }
    if let Some(th) = stop.crashed_thread() {
        summary.push_str(&format!(" in thread {}", escape(&th.id)));
        if let Some(n) = &th.name {
            summary.push_str(&format!(" ({})", code(n)));
        }
        if let Some(f) = th.frames.first() {
            summary.push_str(&format!(", frame #0 {}", code(f.function_name())));
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                summary.push_str(&format!(" at {}", code(&format!("{file}:{line}"))));
            }
        }
        if let Some(Some(cul)) = ir.culprits.get(si) {
            if cul.index != 0 {
                if let Some(f) = th.frames.get(cul.position) {
                    summary.push_str(&format!("; first frame outside runtime/libc: #{} {}", cul.index, code(f.function_name())));
                }
            }
        }
    }
    summary.push('.');
    if let Some(first) = ir.findings.first() {
        summary.push_str(&format!(" tracecheck's top finding: **{}** — {}.", escape(first.rule), escape(&first.message)));
    }
    writeln!(out, "{summary}\n")?;
    for m in stop.messages.iter().take(6) {
        writeln!(out, "> {}", escape(&m.text))?;
    }
    if !stop.messages.is_empty() {
        writeln!(out)?;
    }

    if !ir.findings.is_empty() {
        writeln!(out, "### Findings\n")?;
        for f in &ir.findings {
            let fr = f.frame.map(|n| format!(" (frame #{n})")).unwrap_or_default();
            writeln!(out, "- **{}** {}: {}{}", f.severity.name(), code(f.rule), escape(&f.message), fr)?;
            for e in &f.evidence {
                let at = e.lines.map(|l| format!(" — dump line {}", l.first)).unwrap_or_default();
                writeln!(out, "  - evidence: {}{}", code(&e.text), at)?;
            }
            if !f.next_steps.is_empty() {
                writeln!(out, "  - to confirm: {}", f.next_steps.iter().map(|s| code(s)).collect::<Vec<_>>().join(", "))?;
            }
        }
        writeln!(out)?;
    }

    if let Some(th) = stop.crashed_thread() {
        if let Some(set) = th.registers.get(&0) {
            writeln!(out, "### Registers (frame #0)\n")?;
            writeln!(out, "| register | value | points to |")?;
            writeln!(out, "|---|---|---|")?;
            for r in &set.regs {
                let Some(v) = r.value else { continue };
                let note = annotate_register(r, &c, t.arch).unwrap_or_default();
                writeln!(out, "| {} | {} | {} |", escape(&r.name), code(&format!("{v:#018x}")), escape(&note))?;
            }
            writeln!(out)?;
        }
        writeln!(out, "### Backtrace (thread {})\n", escape(&th.id))?;
        let bt: Vec<String> = th.frames.iter().take(100).map(frame_line).collect();
        let mut text = bt.join("\n");
        if th.frames.len() > 100 {
            text.push_str(&format!("\n… {} more frames", th.frames.len() - 100));
        }
        write!(out, "{}", fenced(&text, "text"))?;
        writeln!(out)?;
    }
    if opts.include_raw {
        if let Some(raw) = &ir.raw {
            writeln!(out, "<details><summary>Raw dump ({} lines)</summary>\n", raw.lines().count())?;
            write!(out, "{}", fenced(raw, "text"))?;
            writeln!(out, "\n</details>\n")?;
        }
    }
    writeln!(out, "<sub>Generated by tracecheck {}.</sub>\n", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn escaping() {
        assert_eq!(escape("<script>*x*"), "&lt;script&gt;\\*x\\*");
        assert_eq!(code("a`b"), "``a`b``");
        assert!(fenced("```\n</details>", "text").starts_with("````text\n"));
        assert_eq!(escape("\u{1b}]52;c;AAAA\u{7}ok"), "ok");
    }
}
