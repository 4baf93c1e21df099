//! The Findings pane: every finding, most likely root cause first, as severity, rule and
//! message. Selecting one selects its frame and highlights its registers (see `App`).

use super::app::{App, Pane};
use super::common::{block, clean, fit, inner, pad_style, window};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// The finding drawn on a row (one row per finding).
pub fn row_to_finding(app: &App, row: usize) -> Option<usize> {
    (row < app.ir.findings.len()).then_some(row)
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Findings;
    let t = &app.theme;
    let n = app.ir.findings.len();
    block(format!(" Findings ({n}) "), focused, t).render(area, buf);
    let inner = inner(area);
    if n == 0 {
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
    let first = window(app.finding, n, h, &app.findings_offset);
    for (row, i) in (first..n.min(first + h)).enumerate() {
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
        spans.push(Span::raw(format!(": {}", clean(&f.message))));
        let mut line = fit(spans, w);
        if i == app.finding {
            line = pad_style(line, w, if focused { t.selected() } else { t.selected_unfocused() });
        }
        line.render(Rect::new(inner.x, inner.y + row as u16, inner.width, 1), buf);
    }
    // Rows left under the list: what the dump lacks and the command that supplies it.
    let used = (n - first).min(h) as u16;
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
