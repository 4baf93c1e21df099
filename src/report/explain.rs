//! Rule explanations are written in a small markdown subset (paragraphs, `- ` lists,
//! `**bold**`, `` `code` ``). This renders them for a terminal: `tracecheck explain` and the
//! TUI's detail pane show text, not markdown markers.

/// How a run of text is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Bold,
    Code,
}

/// One block: a paragraph or a list item, as styled runs (lines joined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub bullet: bool,
    pub runs: Vec<(String, Kind)>,
}

/// Parses the explanation into blocks.
pub fn blocks(md: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut cur: Option<(bool, String)> = None;
    let flush = |cur: &mut Option<(bool, String)>, out: &mut Vec<Block>| {
        if let Some((bullet, text)) = cur.take() {
            out.push(Block { bullet, runs: inline(text.trim()) });
        }
    };
    for line in md.lines() {
        let l = line.trim_end();
        if l.trim().is_empty() {
            flush(&mut cur, &mut out);
            continue;
        }
        if let Some(item) = l.strip_prefix("- ") {
            flush(&mut cur, &mut out);
            cur = Some((true, item.to_string()));
            continue;
        }
        match &mut cur {
            Some((_, text)) => {
                text.push(' ');
                text.push_str(l.trim());
            }
            None => cur = Some((false, l.trim().to_string())),
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// `**bold**` and `` `code` `` runs; unmatched markers stay as text.
fn inline(s: &str) -> Vec<(String, Kind)> {
    let mut runs: Vec<(String, Kind)> = Vec::new();
    let mut plain = String::new();
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("**")
            && let Some(end) = after.find("**")
        {
            if !plain.is_empty() {
                runs.push((std::mem::take(&mut plain), Kind::Plain));
            }
            runs.push((after[..end].to_string(), Kind::Bold));
            rest = &after[end + 2..];
            continue;
        }
        // `*emphasis*`: shown bold; a lone `*` (as in `jl_*`) stays text.
        if let Some(after) = rest.strip_prefix('*')
            && after.starts_with(|c: char| c.is_alphanumeric())
            && let Some(end) = after.find('*')
            && after[..end].ends_with(|c: char| c.is_alphanumeric())
        {
            if !plain.is_empty() {
                runs.push((std::mem::take(&mut plain), Kind::Plain));
            }
            runs.push((after[..end].to_string(), Kind::Bold));
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix('`')
            && let Some(end) = after.find('`')
        {
            if !plain.is_empty() {
                runs.push((std::mem::take(&mut plain), Kind::Plain));
            }
            runs.push((after[..end].to_string(), Kind::Code));
            rest = &after[end + 1..];
            continue;
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            plain.push(c);
        }
        rest = chars.as_str();
    }
    if !plain.is_empty() {
        runs.push((plain, Kind::Plain));
    }
    runs
}

/// The explanation as terminal text wrapped at `width` columns; bold and code in ANSI when
/// `color`, else bare.
pub fn render(md: &str, width: usize, color: bool) -> String {
    let mut out = String::new();
    for b in blocks(md) {
        let (first, indent) = if b.bullet { ("  • ", "    ") } else { ("", "") };
        let mut line = String::from(first);
        let mut col = first.chars().count();
        for (text, kind) in &b.runs {
            let (on, off) = match (color, kind) {
                (true, Kind::Bold) => ("\x1b[1m", "\x1b[0m"),
                (true, Kind::Code) => ("\x1b[36m", "\x1b[0m"),
                _ => ("", ""),
            };
            // Code runs are not broken across lines.
            let words: Vec<String> =
                if *kind == Kind::Code { vec![text.clone()] } else { text.split(' ').map(str::to_string).collect() };
            for (i, w) in words.iter().enumerate() {
                let glue = i > 0 || (text.starts_with(' ') && !line.trim().is_empty());
                let n = w.chars().count();
                if col + n + usize::from(glue) > width && col > indent.len() {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line = indent.to_string();
                    col = indent.len();
                } else if glue && i > 0 {
                    line.push(' ');
                    col += 1;
                }
                if !w.is_empty() {
                    line.push_str(on);
                    line.push_str(w);
                    line.push_str(off);
                    col += n;
                }
            }
        }
        out.push_str(line.trim_end());
        out.push_str("\n\n");
    }
    out.trim_end().to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_become_styles() {
        let b = blocks("**What it flags** A `julia_*` frame.\n\n- one\n  two\n- `x/4gx $r13`");
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].runs[0], ("What it flags".to_string(), Kind::Bold));
        assert_eq!(b[0].runs[2], ("julia_*".to_string(), Kind::Code));
        assert!(b[1].bullet && b[1].runs == [("one two".to_string(), Kind::Plain)]);
        assert_eq!(render("a NULL *function pointer* call", 80, false), "a NULL function pointer call\n");
        let t = render("**What it flags** A `julia_*` frame, `unclosed.", 80, false);
        assert_eq!(t, "What it flags A julia_* frame, `unclosed.\n");
    }

    #[test]
    fn wraps_without_markers() {
        for r in crate::rules::RULES {
            let t = render(r.info.explanation, 80, false);
            // No bold marker left outside code (code may quote `*** stack smashing ***`).
            for b in blocks(r.info.explanation) {
                for (text, k) in &b.runs {
                    assert!(*k == Kind::Code || !text.contains("**"), "{}: {text}", r.info.id);
                }
            }
            // A line runs past 80 columns only when one unbreakable code run does.
            let codes: Vec<String> = blocks(r.info.explanation)
                .into_iter()
                .flat_map(|b| b.runs)
                .filter(|(_, k)| *k == Kind::Code)
                .map(|(t, _)| t)
                .collect();
            for l in t.lines().filter(|l| l.chars().count() > 80) {
                let body = l.trim().trim_start_matches("• ");
                assert!(codes.iter().any(|c| c == body), "{}: {l}", r.info.id);
            }
        }
    }
}
