//! The header line (file, follow state, counts, stop and rr event, stop reason) and the footer
//! line (new-stop notice, prompt, status message or key hints). Also the "terminal too small"
//! screen.

use super::app::{App, MIN, Mode, Pane, PromptKind};
use super::common::{clean, fit};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

pub fn header(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let name = app.ir.path.rsplit('/').next().unwrap_or(&app.ir.path);
    let mut spans = vec![Span::styled("tracecheck ", t.title()), Span::styled(clean(name), t.bold())];
    if let Some(f) = &app.follow {
        let state = if f.missing {
            " [following: waiting for the file]"
        } else if f.over_limit {
            " [following stopped: over --max-input-bytes]"
        } else {
            " [following]"
        };
        spans.push(Span::styled(state, t.key()));
    }
    if let Some(l) = app.loading_label() {
        spans.push(Span::styled(format!(" [{l}]"), t.key()));
    }
    let nf = app.ir.findings.len();
    let sev = app.ir.findings.first().map(|f| t.severity(f.severity)).unwrap_or(t.dim());
    spans.push(Span::styled(format!(" · {nf} finding{}", if nf == 1 { "" } else { "s" }), sev));
    let nn = app.notes.len();
    if nn > 0 {
        spans.push(Span::styled(format!(" · {nn} note{}", if nn == 1 { "" } else { "s" }), t.note()));
    }
    if let Some(s) = app.current_stop() {
        let n = app.trace().stops.len();
        let stop =
            if n > 1 || s.rr_event.is_some() { format!(" · {}", app.stop_label(app.stop)) } else { String::new() };
        spans.push(Span::raw(format!("{stop} · {}", clean(&crate::report::describe_reason(&s.reason)))));
    } else if app.follow.is_some() {
        spans.push(Span::styled(" · no stop yet", t.dim()));
    }
    fit(spans, area.width as usize).render(area, buf);
}

/// Key hints, shortest first so that narrow terminals keep the important ones.
const HINTS: &[(&str, &str)] = &[
    ("?", "help"),
    ("q", "quit"),
    ("Tab", "pane"),
    ("Enter", "open"),
    ("/", "search"),
    ("a", "note"),
    ("m", "notes"),
    ("e", "export"),
    ("t", "threads"),
];

/// The footer: a follow-mode notice, then the prompt, a status message, or the key hints
/// after the names of the panes this terminal size hides (`hidden: memory, raw — widen or
/// press Tab`).
pub fn footer(app: &App, area: Rect, hidden: &[Pane], buf: &mut Buffer) {
    let t = &app.theme;
    // Follow mode: a stop arrived while the user was looking at an earlier one.
    let notice: Vec<Span<'static>> = match app.new_stop {
        Some(s) if !matches!(app.mode, Mode::Prompt { .. }) => {
            let ev = app
                .trace()
                .stops
                .get(s)
                .and_then(|x| x.rr_event)
                .map(|e| format!(" · rr event {e}"))
                .unwrap_or_default();
            vec![Span::styled(format!("new stop {}{ev} (press ] / End)", s + 1), t.title()), Span::raw("  ")]
        }
        _ => Vec::new(),
    };
    let line = match &app.mode {
        Mode::Prompt { kind, text, cursor } => {
            let label = match kind {
                PromptKind::Search => "/".to_string(),
                PromptKind::Note(target) => {
                    format!("note on {} (Enter saves, Esc cancels): ", clean(&target.to_string()))
                }
                PromptKind::EditNote { target, .. } => {
                    format!("edit note on {} (Enter saves, Esc keeps the old text): ", clean(&target.to_string()))
                }
            };
            // On a narrow terminal the label gives way to the text being typed.
            // (at least 20 columns of it): the key hint goes first, then the target.
            let fits = |l: &str| l.chars().count() + 20 <= area.width as usize;
            let label = match kind {
                _ if fits(&label) => label,
                PromptKind::Search => label,
                PromptKind::Note(target) | PromptKind::EditNote { target, .. } => {
                    let verb = if matches!(kind, PromptKind::Note(_)) { "note" } else { "edit note" };
                    let short = format!("{verb} on {}: ", clean(&target.to_string()));
                    if fits(&short) { short } else { format!("{verb}: ") }
                }
            };
            // A window of the input around the cursor (the end of long input at first).
            let room = (area.width as usize).saturating_sub(label.chars().count() + 1).max(1);
            let chars: Vec<char> = clean(text).chars().collect();
            let cursor = (*cursor).min(chars.len());
            let start = (cursor + 1).saturating_sub(room);
            let end = (start + room).min(chars.len());
            let before: String = chars[start..cursor].iter().collect();
            // At the end, a block; on a character, that character in reverse video.
            let at: String = chars.get(cursor).map(|c| c.to_string()).unwrap_or_else(|| "█".into());
            let after: String =
                chars.get(cursor + 1..end.max(cursor + 1)).map(|c| c.iter().collect()).unwrap_or_default();
            Line::from(vec![
                Span::styled(label, t.key()),
                Span::raw(before),
                Span::styled(at, if cursor < chars.len() { t.selected() } else { t.text() }),
                Span::raw(after),
            ])
        }
        _ => match &app.status {
            Some((msg, err)) => Line::styled(clean(msg), if *err { t.status_error() } else { t.text() }),
            None => {
                let mut v = Vec::new();
                for (i, (k, d)) in HINTS.iter().enumerate() {
                    v.push(Span::styled(k.to_string(), t.key()));
                    v.push(Span::raw(format!(" {d}  ")));
                    // After `? help`, so a narrow terminal still says what it does not show.
                    if i == 0 && !hidden.is_empty() {
                        let names: Vec<&str> = hidden.iter().map(|p| p.name()).collect();
                        v.push(Span::styled(format!("hidden: {} — widen or press Tab", names.join(", ")), t.dim()));
                        v.push(Span::raw("  "));
                    }
                }
                fit(v, area.width as usize)
            }
        },
    };
    let mut spans = notice;
    spans.extend(line.spans);
    fit(spans, area.width as usize).render(area, buf);
}

pub fn too_small(app: &App, area: Rect, buf: &mut Buffer) {
    let msg = format!(
        "terminal too small ({}x{}); tracecheck needs at least {}x{} — resize, or q to quit",
        area.width, area.height, MIN.0, MIN.1
    );
    Paragraph::new(msg).style(app.theme.bold()).wrap(Wrap { trim: true }).render(area, buf);
}
