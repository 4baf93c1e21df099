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
use std::path::{Path, PathBuf};

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

    if !ir.findings.is_empty() {
        writeln!(out, "### Findings\n")?;
        for (i, f) in ir.findings.iter().enumerate() {
            let fr = f.frame.map(|n| format!(" (frame #\u{200d}{n})")).unwrap_or_default();
            writeln!(out, "- **{}** {}: {}{}", f.severity.name(), code(f.rule), escape(&f.message), fr)?;
            for e in &f.evidence {
                let at = e.lines.map(|l| format!(" — dump line {}", l.first)).unwrap_or_default();
                writeln!(out, "  - evidence: {}{}", code(&e.text), at)?;
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

    if let (Some(th), Some(tp)) = (stop.crashed_thread(), crashed_pos) {
        if let Some(set) = th.registers.get(&0) {
            let f0 = th.frames.iter().position(|f| f.index == 0).unwrap_or(0);
            let reg_notes = |name: &str| placed.registers.get(&(si, tp, f0, name.to_string()));
            let any_note = set.regs.iter().any(|r| reg_notes(&r.name).is_some());
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
                let note = annotate_register(r, &c, t.arch).unwrap_or_default();
                write!(out, "| {} | {} | {} |", escape(&r.name), code(&format!("{v:#018x}")), escape(&note))?;
                if any_note {
                    let text: Vec<String> = reg_notes(&r.name).into_iter().flatten().map(|n| note_text(n)).collect();
                    write!(out, " {} |", text.join(" / "))?;
                }
                writeln!(out)?;
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
            write_sources(ir, th, opts, out)?;
        }
    }
    write_other_notes(&placed, opts, out)?;
    if opts.include_raw
        && let Some(raw) = &ir.raw
    {
        // A streamed input keeps only the start of its text: the summary says so.
        let cut = ir.parsed.diagnostics.notes.iter().find_map(|n| {
            n.message.strip_prefix("the raw transcript in the markdown report holds the ").map(|m| m.to_string())
        });
        match cut {
            Some(what) => writeln!(
                out,
                "<details><summary>Raw dump ({}; {} lines shown)</summary>\n",
                escape(&what),
                raw.lines().count()
            )?,
            None => writeln!(out, "<details><summary>Raw dump ({} lines)</summary>\n", raw.lines().count())?,
        }
        write!(out, "{}", fenced(raw, "text"))?;
        writeln!(out, "\n</details>\n")?;
    }
    writeln!(out, "<sub>Generated by tracecheck {}.</sub>\n", env!("CARGO_PKG_VERSION"))?;
    Ok(())
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

/// What became of one source file a frame names.
enum SourceFile {
    /// Readable, inside a source directory: the canonical path and its text.
    Read(PathBuf, String),
    /// Exists but was not read: outside every source directory, under /proc, /sys or /dev,
    /// not a regular file, or too big.
    Refused(&'static str),
    NotFound,
}

/// Source files bigger than this are not read.
const SOURCE_MAX_BYTES: u64 = 16 << 20;

/// The source directories, canonical: `opts.source_dirs`, or the current directory.
fn source_roots(opts: &MarkdownOptions) -> Vec<PathBuf> {
    let dirs = if opts.source_dirs.is_empty() { vec![PathBuf::from(".")] } else { opts.source_dirs.clone() };
    dirs.iter().filter_map(|d| d.canonicalize().ok()).collect()
}

/// Reads a frame's source file only from inside a source directory: the path (joined to each
/// root when relative) is canonicalized, symlinks and `..` resolved, and must still be inside
/// a root; /proc, /sys and /dev are refused whatever the roots; only a regular file is read,
/// opened without blocking (a FIFO named like a source file cannot hang the report).
fn find_source(file: &str, roots: &[PathBuf]) -> SourceFile {
    let p = Path::new(file);
    let candidates: Vec<PathBuf> =
        if p.is_absolute() { vec![p.to_path_buf()] } else { roots.iter().map(|r| r.join(p)).collect() };
    let mut refused = None;
    for c in candidates {
        let Ok(real) = c.canonicalize() else { continue };
        if ["/proc", "/sys", "/dev"].iter().any(|d| real.starts_with(d)) {
            refused = Some("a system file (/proc, /sys, /dev)");
            continue;
        }
        if !roots.iter().any(|r| real.starts_with(r)) {
            refused.get_or_insert("outside the source directories");
            continue;
        }
        match read_regular(&real) {
            Ok(text) => return SourceFile::Read(real, text),
            Err(why) => refused = Some(why),
        }
    }
    refused.map(SourceFile::Refused).unwrap_or(SourceFile::NotFound)
}

fn read_regular(path: &Path) -> Result<String, &'static str> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
        .open(path)
        .map_err(|_| "not readable")?;
    let m = f.metadata().map_err(|_| "not readable")?;
    if !m.is_file() {
        return Err("not a regular file");
    }
    if m.len() >= SOURCE_MAX_BYTES {
        return Err("over 16 MiB");
    }
    let mut bytes = Vec::new();
    f.take(SOURCE_MAX_BYTES).read_to_end(&mut bytes).map_err(|_| "not readable")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
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
