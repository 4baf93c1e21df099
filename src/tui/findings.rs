//! The Findings pane: every finding, most likely root cause first, as severity, rule and
//! message. Selecting one selects its frame and highlights its registers (see `App`).

use super::app::{App, Pane};
use super::common::{block, clean, fit, inner, pad_style, scroll_row, side_marker, window};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// Rows one finding may take (its message wrapped).
pub const MAX_ROWS: usize = 6;

/// Rows per finding in a pane `inner_height` rows high: the message wraps over up to six
/// rows when every finding and the missing-evidence lines still fit, else one row each.
pub fn rows_per(app: &App, inner_height: u16) -> usize {
    let n = app.ir.findings.len();
    if n == 0 {
        return 1;
    }
    let room = (inner_height as usize).saturating_sub(app.ir.missing_evidence.len());
    (room / n).clamp(1, MAX_ROWS)
}

/// The finding drawn on a row of the pane (counted from its first inner row), as the last
/// draw laid them out.
pub fn row_to_finding(app: &App, row: usize) -> Option<usize> {
    app.findings_rows.borrow().get(row).copied()
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Findings;
    let t = &app.theme;
    let n = app.ir.findings.len();
    block(format!(" Findings ({n}) "), focused, t).render(area, buf);
    let inner = inner(area);
    if n == 0 {
        app.findings_rows.borrow_mut().clear();
        let msg =
            if app.trace().stops.is_empty() { "no stop found in this dump" } else { "no findings: no rule fired" };
        Line::styled(msg, t.dim()).render(inner, buf);
        draw_missing(
            app,
            Rect::new(inner.x, inner.y.saturating_add(1), inner.width, inner.height.saturating_sub(1)),
            buf,
        );
        return;
    }
    let h = inner.height as usize;
    let w = inner.width as usize;
    let per = rows_per(app, inner.height);
    let first = window(app.finding, n, h / per, &app.findings_offset);
    let skip = app.hscroll[Pane::Findings.index()];
    let mut overflow = 0;
    let mut y = inner.y;
    let mut drawn = Vec::new();
    for i in first..n.min(first + h / per) {
        let f = &app.ir.findings[i];
        let mut spans: Vec<Span<'static>> = vec![
            Span::styled(format!("{:<5} ", f.severity.name().to_uppercase()), t.severity(f.severity)),
            Span::styled(f.rule.to_string(), t.bold()),
        ];
        if let Some(fr) = f.frame {
            spans.push(Span::styled(format!(" #{fr}"), t.dim()));
        }
        if app.finding_notes(i).next().is_some() {
            spans.push(Span::styled(" ✎", t.note()));
        }
        let sel = if focused { t.selected() } else { t.selected_unfocused() };
        let mut rows: Vec<Vec<Span<'static>>> = Vec::new();
        let message = clean(&f.message);
        if per == 1 {
            spans.push(Span::raw(format!(": {message}")));
            rows.push(spans);
        } else {
            // The message wraps under the rule, indented; the last row is cut with `…`.
            let head: usize = spans.iter().map(|s| s.content.chars().count()).sum();
            let words = crate::tui::common::wrap_words(&message, w.saturating_sub(2).max(8));
            let first_fits = words.first().is_some_and(|r| head + 2 + r.chars().count() <= w);
            let mut words = words.into_iter();
            if first_fits {
                spans.push(Span::raw(format!(": {}", words.next().unwrap_or_default())));
            } else {
                spans.push(Span::raw(":"));
            }
            rows.push(spans);
            let rest: Vec<String> = words.collect();
            for (k, r) in rest.iter().enumerate() {
                if rows.len() == per {
                    break;
                }
                let mut text = r.clone();
                if rows.len() == per - 1 && k + 1 < rest.len() {
                    // More than fits: let `fit` end this row with `…`.
                    text = rest[k..].join(" ");
                }
                rows.push(vec![Span::raw("  "), Span::raw(text)]);
            }
        }
        for (k, row) in rows.into_iter().enumerate() {
            let (row, over) = scroll_row(row, 1, skip, w);
            overflow = overflow.max(over);
            let mut line = fit(row, w);
            if i == app.finding {
                line = pad_style(line, w, sel);
            }
            if y < inner.y + inner.height {
                line.render(Rect::new(inner.x, y, inner.width, 1), buf);
                drawn.push(i);
            }
            y += 1;
            let _ = k;
        }
    }
    *app.findings_rows.borrow_mut() = drawn;
    side_marker(area, buf, &app.hscroll_max, Pane::Findings.index(), skip, overflow, t);
    // Rows left under the list: what the dump lacks and the command that supplies it.
    let used = y.saturating_sub(inner.y).min(inner.height);
    if used < inner.height {
        draw_missing(app, Rect::new(inner.x, inner.y + used, inner.width, inner.height - used), buf);
    }
}

/// `run x/i $pc: the faulting instruction is not in the dump`, one row each, the command
/// first so a narrow pane still shows it.
fn draw_missing(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let w = area.width as usize;
    for (row, m) in app.ir.missing_evidence.iter().take(area.height as usize).enumerate() {
        let spans = vec![
            Span::styled("run ".to_string(), t.note()),
            Span::styled(clean(&m.command).to_string(), t.bold()),
            Span::styled(format!(": {}", clean(&m.what)), t.dim()),
        ];
        fit(spans, w).render(Rect::new(area.x, area.y + row as u16, area.width, 1), buf);
    }
}
