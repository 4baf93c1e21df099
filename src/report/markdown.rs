//! `--format markdown`: a GitHub-ready bug report. Everything taken from the dump (and from
//! the user's notes) is escaped, so a dump cannot inject markdown or HTML into a tracker.
//!
//! Notes from the sidecar ([`crate::notes`]) sit next to what they annotate: trace notes under
//! the summary, finding notes under the finding, register notes in the registers table, frame
//! notes under their frame in the backtrace. Notes whose anchor no longer matches the dump
//! are listed at the end, never dropped. Source snippets appear only with `with_source`.

use super::{annotate_register, describe_reason, frame_line, safe};
use crate::classify::Classifier;
use crate::model::{InputReport, Report};
use crate::notes::{self, Note, Placement};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(Clone, Debug, Default)]
pub struct MarkdownOptions {
    /// Fold the raw dump into `<details>` at the end.
    pub include_raw: bool,
    /// Notes per input path (as in `InputReport::path`).
    pub notes: BTreeMap<String, Vec<Note>>,
    /// Add source lines around each frame's `file:line` when the file is in a source directory.
    pub with_source: bool,
    /// The only directories source lines are read from (`--source-dir`); empty means the
    /// current directory. Paths are resolved (symlinks, `..`) before the check.
    pub source_dirs: Vec<PathBuf>,
}

/// A zero-width joiner: put after `@`, `#` (tracecheck's own `frame #3` too, which GitHub
/// would link to issue 3), inside `GH-`, `://` and `www.` so that GitHub
/// does not turn text from a dump into a mention, an issue link or a live link.
const ZWJ: char = '\u{200d}';

/// Escapes text for a markdown paragraph or table cell. Besides markdown and HTML syntax,
/// what GitHub would make live is made inert: `@user` and `@org/team` mentions, `#123`,
/// `owner/repo#123` and `GH-123` references, and bare `https://…`/`www.…` links and e-mail
/// addresses (a zero-width joiner after `@`, `#`, `:` before `//`, `www` and `GH`; backslash
/// escapes do not stop GitHub's mentions and references).
pub fn escape(s: &str) -> String {
    let s = safe(s);
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' | '#' => {
                out.push('\\');
                out.push(c);
                out.push(ZWJ);
            }
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            ':' if chars.peek() == Some(&'/') => {
                out.push(c);
                out.push(ZWJ);
            }
            '-' if ends_with_ignore_case(&out, b"gh") => {
                out.push(ZWJ);
                out.push(c);
            }
            '.' if ends_with_ignore_case(&out, b"www") => {
                out.push(ZWJ);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

fn ends_with_ignore_case(s: &str, tail: &[u8]) -> bool {
    let b = s.as_bytes();
    b.len() >= tail.len() && b[b.len() - tail.len()..].eq_ignore_ascii_case(tail)
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

/// Notes of one input, sorted by where they land.
#[derive(Default)]
struct Placed<'a> {
    trace: Vec<&'a Note>,
    /// (stop, thread position, frame position) → notes.
    frames: BTreeMap<(usize, usize, usize), Vec<&'a Note>>,
    /// (stop, thread position, frame position, register) → notes.
    registers: BTreeMap<(usize, usize, usize, String), Vec<&'a Note>>,
    findings: BTreeMap<usize, Vec<&'a Note>>,
    orphans: Vec<&'a Note>,
    /// Notes placed somewhere the report shows (so the rest go to "other notes").
    shown: Vec<&'a Note>,
}

fn place<'a>(ir: &InputReport, list: &'a [Note]) -> Placed<'a> {
    let mut p = Placed::default();
    for (n, placement) in list.iter().zip(notes::resolve_all(list, ir)) {
        match placement {
            Placement::Trace => p.trace.push(n),
            Placement::Frame(f) => p.frames.entry((f.stop, f.thread, f.position)).or_default().push(n),
            Placement::Register { register, frame: f } => {
                p.registers.entry((f.stop, f.thread, f.position, register)).or_default().push(n)
            }
            Placement::Finding(i) => p.findings.entry(i).or_default().push(n),
            Placement::Orphan => p.orphans.push(n),
        }
    }
    p
}

/// A note as a markdown paragraph fragment: escaped, one line.
fn note_text(n: &Note) -> String {
    escape(n.text.trim())
}

fn write_input(ir: &InputReport, opts: &MarkdownOptions, out: &mut dyn Write) -> io::Result<()> {
    let t = &ir.parsed.trace;
    let c = Classifier::new(t);
    let empty = Vec::new();
    let mut placed = place(ir, opts.notes.get(&ir.path).unwrap_or(&empty));
    writeln!(out, "## Crash report: {}\n", code(&ir.path))?;
    for n in &placed.trace {
        writeln!(out, "> **Note:** {}\n", note_text(n))?;
    }
    let Some(stop) = t.main_stop() else {
        writeln!(out, "No stop was found in this input.\n")?;
        write_other_notes(&placed, opts, out)?;
        return Ok(());
    };
    let si = t.stops.iter().position(|s| std::ptr::eq(s, stop)).unwrap_or(0);
    let crashed_pos = stop.crashed_thread_index();
    // Sections are rendered apart, then assembled in order under GitHub's size limit.
    let mut head_buf: Vec<u8> = Vec::new();
    let mut findings_buf: Vec<u8> = Vec::new();
    let mut missing_buf: Vec<u8> = Vec::new();
    let mut regs_buf: Vec<u8> = Vec::new();
    let mut bt_buf: Vec<u8> = Vec::new();
    let mut src_buf: Vec<u8> = Vec::new();
    let mut notes_buf: Vec<u8> = Vec::new();
    let title_out = out;
    let out = &mut head_buf;
    // Summary paragraph.
    let mut summary = format!("The program stopped with {}", escape(&describe_reason(&stop.reason)));
    if let Some(a) = stop.reason.address
        && stop.reason.signo.map(crate::model::signals::has_fault_address).unwrap_or(false)
    {
        summary.push_str(&format!(
            "; fault address {} ({})",
            code(&format!("{:#x}", a.0)),
            escape(&c.classify(a.0).to_string())
        ));
    }
    if let Some(th) = stop.crashed_thread() {
        summary.push_str(&format!(" in thread {}", escape(&th.id)));
        if let Some(n) = &th.name {
            summary.push_str(&format!(" ({})", code(n)));
        }
        if let Some(f) = th.frames.first() {
            summary.push_str(&format!(", frame #\u{200d}0 {}", code(f.function_name())));
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                summary.push_str(&format!(" at {}", code(&format!("{file}:{line}"))));
            }
        }
        if let Some(Some(cul)) = ir.culprits.get(si)
            && let Some(site) = &cul.named_by_message
        {
            summary.push_str(&format!("; culprit, named by {}: {}", site.source, code(&site.function)));
            if let (Some(file), Some(line)) = (&site.file, site.line) {
                summary.push_str(&format!(" at {}", code(&format!("{file}:{line}"))));
            }
        } else if let Some(Some(cul)) = ir.culprits.get(si)
            && cul.index != 0
            && let Some(f) = th.frames.get(cul.position)
        {
            summary.push_str(&format!(
                "; first frame outside runtime/libc: #\u{200d}{} {}",
                cul.index,
                code(f.function_name())
            ));
        }
    }
    summary.push('.');
    if let Some(first) = ir.findings.first() {
        summary.push_str(&format!(
            " tracecheck's top finding: **{}** — {}.",
            escape(first.rule),
            escape(&first.message)
        ));
    }
    writeln!(out, "{summary}\n")?;
    for m in stop.messages.iter().take(6) {
        writeln!(out, "> {}", escape(&m.text))?;
    }
    if !stop.messages.is_empty() {
        writeln!(out)?;
    }

    let out = &mut findings_buf;
    if !ir.findings.is_empty() {
        writeln!(out, "### Findings\n")?;
        for (i, f) in ir.findings.iter().enumerate() {
            let fr = f.frame.map(|n| format!(" (frame #\u{200d}{n})")).unwrap_or_default();
            writeln!(out, "- **{}** {}: {}{}", f.severity.name(), code(f.rule), escape(&f.message), fr)?;
            for e in &f.evidence {
                let at = e.lines.map(|l| format!(" — dump line {}", l.first)).unwrap_or_default();
                writeln!(out, "  - evidence: {}{}", prose(&e.text), at)?;
            }
            if !f.next_steps.is_empty() {
                writeln!(
                    out,
                    "  - to confirm: {}",
                    f.next_steps.iter().map(|s| code(s)).collect::<Vec<_>>().join(", ")
                )?;
            }
            for n in placed.findings.get(&i).into_iter().flatten() {
                writeln!(out, "  - **note:** {}", note_text(n))?;
            }
        }
        writeln!(out)?;
    }

    let out = &mut missing_buf;
    if !ir.missing_evidence.is_empty() {
        writeln!(out, "### Missing evidence\n")?;
        for m in &ir.missing_evidence {
            writeln!(
                out,
                "- {}: run {} ({} {} on it)",
                escape(&m.what),
                code(&m.command),
                m.rules_waiting.iter().map(|r| code(r)).collect::<Vec<_>>().join(", "),
                if m.rules_waiting.len() == 1 { "waits" } else { "wait" }
            )?;
        }
        writeln!(out)?;
    }

    if let (Some(th), Some(tp)) = (stop.crashed_thread(), crashed_pos) {
        let out = &mut regs_buf;
        if let Some(set) = th.registers.get(&0) {
            let f0 = th.frames.iter().position(|f| f.index == 0).unwrap_or(0);
            let reg_notes = |name: &str| placed.registers.get(&(si, tp, f0, name.to_string()));
            let any_note = set.regs.iter().any(|r| reg_notes(&r.name).is_some());
            // Registers a finding cites, and the ones that matter; AArch64 system registers
            // and unannotated segment/mask registers only when cited.
            let cited = |name: &str| {
                ir.findings.iter().filter(|f| f.stop == Some(si)).any(|f| f.registers.iter().any(|r| r == name))
            };
            let mut left_out = 0usize;
            writeln!(out, "### Registers (frame #\u{200d}0)\n")?;
            if any_note {
                writeln!(out, "| register | value | points to | note |")?;
                writeln!(out, "|---|---|---|---|")?;
            } else {
                writeln!(out, "| register | value | points to |")?;
                writeln!(out, "|---|---|---|")?;
            }
            for r in &set.regs {
                let Some(v) = r.value else { continue };
                let ann = annotate_register(r, &c, t.arch);
                if !cited(&r.name) && reg_notes(&r.name).is_none() && !register_matters(&r.name, ann.is_some(), t.arch)
                {
                    left_out += 1;
                    continue;
                }
                let note = ann.unwrap_or_default();
                write!(out, "| {} | {} | {} |", escape(&r.name), code(&format!("{v:#018x}")), escape(&note))?;
                if any_note {
                    let text: Vec<String> = reg_notes(&r.name).into_iter().flatten().map(|n| note_text(n)).collect();
                    write!(out, " {} |", text.join(" / "))?;
                }
                writeln!(out)?;
            }
            if left_out > 0 {
                writeln!(
                    out,
                    "\n{left_out} system, segment or mask registers left out (no finding cites them; `--format json` has all)."
                )?;
            }
            // Register notes on this thread's other frames, right under the table.
            let mut extra = false;
            for ((s, ti, fp, reg), list) in &placed.registers {
                if (*s, *ti) != (si, tp) || *fp == f0 {
                    continue;
                }
                let idx = th.frames.get(*fp).map(|f| f.index).unwrap_or(0);
                for n in list {
                    if !extra {
                        writeln!(out)?;
                        extra = true;
                    }
                    writeln!(out, "- **note on {} at frame #\u{200d}{idx}:** {}", escape(reg), note_text(n))?;
                }
            }
            writeln!(out)?;
        }
        let out = &mut bt_buf;
        writeln!(out, "### Backtrace (thread {})\n", escape(&th.id))?;
        let mut lines: Vec<String> = Vec::new();
        for (p, f) in th.frames.iter().enumerate().take(100) {
            lines.push(frame_line(f));
            for n in placed.frames.get(&(si, tp, p)).into_iter().flatten() {
                lines.push(format!("      ^ note: {}", n.text.trim().replace(['\n', '\r'], " ")));
            }
        }
        let mut text = lines.join("\n");
        if th.frames.len() > 100 {
            text.push_str(&format!("\n… {} more frames", th.frames.len() - 100));
        }
        write!(out, "{}", fenced(&text, "text"))?;
        writeln!(out)?;
        placed.shown.extend(
            placed
                .frames
                .iter()
                .filter(|((s, t2, p), _)| (*s, *t2) == (si, tp) && *p < 100)
                .flat_map(|(_, v)| v.iter().copied()),
        );
        placed.shown.extend(
            placed
                .registers
                .iter()
                .filter(|((s, t2, _, _), _)| (*s, *t2) == (si, tp))
                .flat_map(|(_, v)| v.iter().copied()),
        );
        if opts.with_source {
            write_sources(ir, th, opts, &mut src_buf)?;
        }
    }
    write_other_notes(&placed, opts, &mut notes_buf)?;
    let env = environment(ir);
    let footer = format!("<sub>Generated by tracecheck {}.</sub>\n\n", env!("CARGO_PKG_VERSION"));
    // Budget: summary first, then findings, missing evidence, frames, source, registers,
    // notes, environment; the raw dump gets what is left.
    let mut doc = String::new();
    let mut room = BUDGET.saturating_sub(footer.len() + RAW_RESERVE);
    for sec in [head_buf, findings_buf, missing_buf, bt_buf, src_buf, regs_buf, notes_buf, env.into_bytes()] {
        let sec = String::from_utf8_lossy(&sec).into_owned();
        let kept = fit_section(&sec, room);
        room = room.saturating_sub(kept.len());
        doc.push_str(&kept);
    }
    if opts.include_raw
        && let Some(raw) = &ir.raw
    {
        // A streamed input keeps only the start of its text: the summary says so.
        let cut =
            ir.parsed.diagnostics.raw_cut.map(|(kept, total)| format!("first {} MiB of {total} bytes", kept >> 20));
        let room = BUDGET.saturating_sub(doc.len() + footer.len());
        doc.push_str(&raw_fold(raw, &ir.path, room, cut.as_deref()));
    }
    doc.push_str(&footer);
    title_out.write_all(doc.as_bytes())
}

/// GitHub refuses issue bodies over 65,536 characters; the report stays under this many bytes
/// (bytes >= characters), with room to spare for a line the user adds.
pub const BUDGET: usize = 64_000;
/// Kept for the raw dump's fold and its trimming note even when the sections are long.
const RAW_RESERVE: usize = 4_000;

/// A section, whole when it fits in `room` bytes, else cut at a line with a note saying so
/// (an open code fence is closed first).
fn fit_section(sec: &str, room: usize) -> String {
    if sec.len() <= room {
        return sec.to_string();
    }
    const NOTE: usize = 200;
    let mut kept = String::new();
    let mut fence: Option<String> = None;
    for line in sec.split_inclusive('\n') {
        if kept.len() + line.len() + NOTE + fence.as_ref().map_or(0, |f| f.len() + 1) > room {
            break;
        }
        let tick = line.trim_end().chars().take_while(|c| *c == '`').count();
        if tick >= 3 {
            match &fence {
                Some(f) if line.trim_end() == f => fence = None,
                None => fence = Some("`".repeat(tick)),
                _ => {}
            }
        }
        kept.push_str(line);
    }
    if room < NOTE {
        return String::new();
    }
    if let Some(f) = fence {
        kept.push_str(&f);
        kept.push('\n');
    }
    kept.push_str(&format!(
        "\n*({} characters of this section left out to fit GitHub's 65,536-character limit; `--format json` has everything.)*\n\n",
        sec.len() - kept.len()
    ));
    kept
}

/// The raw dump folded in `<details>`, each line numbered so that "dump line N" can be
/// followed; trimmed to `room` bytes (the head and the tail kept) with a note saying how
/// much was left out and how to attach the full file.
fn raw_fold(raw: &str, path: &str, room: usize, streamed: Option<&str>) -> String {
    /// A line longer than this is cut (a dump may hold one enormous line).
    const LINE_MAX: usize = 400;
    let numbered: Vec<String> = raw
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let l = safe(l);
            let l = if l.len() > LINE_MAX {
                let mut end = LINE_MAX;
                while !l.is_char_boundary(end) {
                    end -= 1;
                }
                format!("{}… ({} more characters)", &l[..end], l.len() - end)
            } else {
                l.into_owned()
            };
            format!("{:>5}  {l}", i + 1)
        })
        .collect();
    let total = numbered.len();
    let full: usize = numbered.iter().map(|l| l.len() + 1).sum();
    let overhead = 1_000;
    let avail = room.saturating_sub(overhead);
    let mut out = String::new();
    let (text, trimmed) = if full <= avail {
        (numbered.join("\n"), None)
    } else {
        // Two thirds for the head (the crash and the commands), one third for the tail.
        let mut head = Vec::new();
        let mut used = 0;
        for l in &numbered {
            if used + l.len() + 1 > avail * 2 / 3 {
                break;
            }
            used += l.len() + 1;
            head.push(l.as_str());
        }
        let mut tail = Vec::new();
        let mut tused = 0;
        for l in numbered[head.len()..].iter().rev() {
            if used + tused + l.len() + 1 > avail {
                break;
            }
            tused += l.len() + 1;
            tail.push(l.as_str());
        }
        tail.reverse();
        let first_cut = head.len() + 1;
        let last_cut = total - tail.len();
        let left = last_cut + 1 - first_cut;
        let left_bytes = full - used - tused;
        let mut t = head.join("\n");
        t.push_str(&format!("\n  …  lines {first_cut}-{last_cut} left out\n"));
        t.push_str(&tail.join("\n"));
        (t, Some((left, first_cut, last_cut, left_bytes)))
    };
    match streamed {
        Some(what) => out.push_str(&format!(
            "<details><summary>Raw dump ({}; {total} lines shown, numbered)</summary>\n\n",
            escape(what)
        )),
        None => out.push_str(&format!("<details><summary>Raw dump ({total} lines, numbered)</summary>\n\n")),
    }
    out.push_str(&fenced(&text, "text"));
    out.push_str("\n</details>\n\n");
    if let Some((left, a, b, bytes)) = trimmed {
        out.push_str(&format!(
            "The raw dump is trimmed to fit GitHub's 65,536-character limit: lines {a}-{b} ({left} lines, {bytes} characters) are left out. Attach the full file {} to the issue (drag it into the comment box) or link a gist (`gh gist create FILE`).\n\n",
            code(path.rsplit('/').next().unwrap_or(path))
        ));
    }
    out
}

/// Registers worth a row without a finding citing them: not AArch64 system registers, not
/// segment or mask registers unless something annotates them.
fn register_matters(name: &str, annotated: bool, arch: crate::model::Arch) -> bool {
    use crate::model::Arch;
    match arch {
        Arch::Aarch64 => {
            matches!(name, "sp" | "pc" | "fp" | "lr" | "cpsr" | "pstate")
                || name
                    .strip_prefix('x')
                    .is_some_and(|n| !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()))
        }
        Arch::X86_64 | Arch::X86 => {
            let segment_or_mask = matches!(name, "cs" | "ss" | "ds" | "es" | "fs" | "gs" | "fs_base" | "gs_base")
                || name.strip_prefix('k').is_some_and(|n| n.len() == 1 && n.bytes().all(|b| b.is_ascii_digit()));
            !segment_or_mask || annotated
        }
        _ => true,
    }
}

/// Debugger (and version when printed), OS, architecture and runtime version, as far as the
/// dump names them.
fn environment(ir: &InputReport) -> String {
    let t = &ir.parsed.trace;
    let mut rows: Vec<String> = Vec::new();
    let head = ir.raw.as_deref().map(|r| &r[..floor_boundary(r, 64 << 10)]).unwrap_or("");
    let banner = head.lines().map(str::trim).find(|l| {
        l.starts_with("GNU gdb ")
            || l.starts_with("lldb version ")
            || l.starts_with("lldb-")
            || l.starts_with("rr version")
    });
    let formats: Vec<&str> = t.formats.iter().map(|f| f.name()).collect();
    if !formats.is_empty() {
        let mut d = format!("- input: {}", escape(&formats.join(" + ")));
        if let Some(b) = banner {
            d.push_str(&format!(" ({})", code(b)));
        }
        rows.push(d);
    }
    let paths = t.mappings.iter().filter_map(|m| m.path.as_deref()).chain(t.libraries.iter().map(|l| &*l.path));
    let mut os = None;
    for p in paths {
        if p.contains("linux") {
            os = Some("Linux");
            break;
        }
        if p.contains("/usr/lib/dyld") || p.ends_with(".dylib") {
            os = Some("macOS");
            break;
        }
    }
    if os.is_none() && (head.contains("-linux-gnu") || head.contains("ld-linux")) {
        os = Some("Linux");
    }
    if let Some(os) = os {
        rows.push(format!("- OS: {os} (from the library paths)"));
    }
    if let Some(a) = t.arch.name() {
        rows.push(format!("- architecture: {a}"));
    }
    if let Some((v, from)) = crate::julia::version_from_trace(t) {
        rows.push(format!("- runtime: Julia {} (from {})", code(&v), escape(&from)));
    } else if let Some(v) = runtime_version(head) {
        rows.push(format!("- runtime: {}", code(&v)));
    }
    if rows.is_empty() {
        return String::new();
    }
    format!("### Environment\n\n{}\n\n", rows.join("\n"))
}

/// `go version go1.22.1`, `rustc 1.80.0` named in the text (Julia is read from the trace).
fn runtime_version(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    for (marker, label) in [("go version go", "go "), ("rustc ", "rustc ")] {
        if let Some(i) = lower.find(marker) {
            let v: String = text[i + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
                .take(32)
                .collect();
            if v.starts_with(|c: char| c.is_ascii_digit()) {
                return Some(format!("{label}{v}"));
            }
        }
    }
    None
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Evidence as a sentence: prose escaped, values in inline code (hex numbers, `[r13+0]`,
/// `$reg`, `file.c:12`, identifiers with `_` or `::`); spans the text already quotes in
/// backticks stay code.
pub fn prose(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len().is_multiple_of(2) {
        // Unbalanced backticks: no quoted spans.
        return words(text);
    }
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str(&code(p));
        } else {
            out.push_str(&words(p));
        }
    }
    out
}

fn words(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let tok = &rest[..end];
        rest = &rest[end..];
        let lead = tok.len() - tok.trim_start_matches('(').len();
        let body = &tok[lead..];
        let core = body.trim_end_matches([',', ';', ':', ')', '.', '?']);
        // Keep `0x2a)` whole when the bracket is part of the value, e.g. `[r13+0]`.
        let trail = &body[core.len()..];
        if is_value(core) {
            out.push_str(&escape(&tok[..lead]));
            out.push_str(&code(core));
            out.push_str(&escape(trail));
        } else {
            out.push_str(&escape(tok));
        }
    }
    out
}

fn is_value(w: &str) -> bool {
    if w.is_empty() {
        return false;
    }
    let hex = w.contains("0x");
    let bracket = w.starts_with('[') && w.ends_with(']');
    let dollar = w.starts_with('$') && w.len() > 1;
    let ident = w.contains('_') && w.chars().all(|c| c.is_ascii_alphanumeric() || "_:.<>@$".contains(c));
    let path_line = w.contains('.')
        && w.rsplit_once(':').is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    hex || bracket || dollar || ident || w.contains("::") || path_line
}

/// Frame and register notes outside the crashed thread's backtrace, and notes whose anchor no
/// longer matches: listed so that no note is silently dropped.
fn write_other_notes(p: &Placed<'_>, _opts: &MarkdownOptions, out: &mut dyn Write) -> io::Result<()> {
    let shown: std::collections::HashSet<*const Note> = p.shown.iter().map(|n| *n as *const Note).collect();
    let shown = |n: &Note| shown.contains(&(n as *const Note));
    let others: Vec<&Note> =
        p.frames.values().chain(p.registers.values()).flatten().copied().filter(|n| !shown(n)).collect();
    if !others.is_empty() {
        writeln!(out, "### Other notes\n")?;
        for n in others {
            writeln!(out, "- on {}: {}", escape(&n.target.to_string()), note_text(n))?;
        }
        writeln!(out)?;
    }
    if !p.orphans.is_empty() {
        writeln!(out, "### Notes that no longer match this dump\n")?;
        for n in &p.orphans {
            writeln!(out, "- on {}: {}", escape(&n.target.to_string()), note_text(n))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// How many lines of source to show on each side of a frame's line.
const SOURCE_CONTEXT: u32 = 3;
/// Frames with source shown at most.
const SOURCE_FRAMES: usize = 8;

use crate::fsutil::{SourceFile, find_source};

/// The source directories, canonical: `opts.source_dirs`, or the current directory.
fn source_roots(opts: &MarkdownOptions) -> Vec<PathBuf> {
    crate::fsutil::source_roots(&opts.source_dirs)
}

fn write_sources(
    _ir: &InputReport,
    th: &crate::model::Thread,
    opts: &MarkdownOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let roots = source_roots(opts);
    let mut shown = 0;
    let mut missing: Vec<String> = Vec::new();
    let mut refused: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut read: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut body = String::new();
    for f in &th.frames {
        if shown >= SOURCE_FRAMES {
            break;
        }
        let (Some(file), Some(line)) = (&f.file, f.line) else { continue };
        let (path, text) = match find_source(file, &roots) {
            SourceFile::Read(p, t) => (p, t),
            SourceFile::Refused(why) => {
                if seen.insert(file.to_string()) {
                    refused.entry(why).or_default().push(file.to_string());
                }
                continue;
            }
            SourceFile::NotFound => {
                if seen.insert(file.to_string()) {
                    missing.push(file.to_string());
                }
                continue;
            }
        };
        let shown_path = roots
            .iter()
            .find_map(|r| path.strip_prefix(r).ok())
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| path.display().to_string());
        if !read.contains(&shown_path) {
            read.push(shown_path.clone());
        }
        let first = line.saturating_sub(SOURCE_CONTEXT).max(1);
        let last = line.saturating_add(SOURCE_CONTEXT);
        let mut snippet = String::new();
        for (n, l) in text.lines().enumerate() {
            let n = n as u32 + 1;
            if n < first {
                continue;
            }
            if n > last {
                break;
            }
            snippet.push_str(&format!("{}{n:>5} | {l}\n", if n == line { ">" } else { " " }));
        }
        if snippet.is_empty() {
            continue;
        }
        body.push_str(&format!(
            "#\u{200d}{} {} — {}\n\n",
            f.index,
            code(f.function_name()),
            code(&format!("{shown_path}:{line}"))
        ));
        body.push_str(&fenced(&snippet, ""));
        body.push('\n');
        shown += 1;
    }
    let list = |v: &[String]| v.iter().map(|m| code(m)).collect::<Vec<_>>().join(", ");
    writeln!(out, "### Source (read from local files because `--with-source` was given)\n")?;
    if body.is_empty() {
        writeln!(out, "No source file of the backtrace was read.\n")?;
    } else {
        write!(out, "{body}")?;
    }
    if !read.is_empty() {
        writeln!(out, "Files read: {}\n", list(&read))?;
    }
    for (why, files) in &refused {
        writeln!(out, "Not read: {why}: {}\n", list(files))?;
    }
    if !missing.is_empty() {
        writeln!(out, "Not found in the source directories: {}\n", list(&missing))?;
    }
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
