//! Popups drawn over the panes: the key help (text from `assets/help.txt`), the thread list,
//! the stop list and the export choice.

use super::app::App;
use super::common::{block, clean, fit, inner, pad_style, window};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

/// The help text shown by `?`, also checked against the key map in tests.
pub const HELP: &str = include_str!("../../assets/help.txt");

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

pub fn help(app: &App, area: Rect, scroll: u16, buf: &mut Buffer) {
    let lines = HELP.lines().count() as u16;
    let width = HELP.lines().map(|l| l.chars().count()).max().unwrap_or(40) as u16 + 4;
    let r = centered(area, width, lines + 2);
    Clear.render(r, buf);
    block(" Help · Esc closes · j/k scroll ", true, &app.theme).render(r, buf);
    // A line wider than a narrow terminal ends with `…`, as in the panes.
    let inner = inner(r);
    let lines: Vec<Line<'static>> = HELP
        .lines()
        .skip(scroll as usize)
        .take(inner.height as usize)
        .map(|l| fit(vec![Span::raw(l.to_string())], inner.width as usize))
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

pub fn threads(app: &App, area: Rect, selected: usize, buf: &mut Buffer) {
    let Some(stop) = app.current_stop() else { return };
    let t = &app.theme;
    let r = centered(area, area.width.saturating_sub(8).max(30), area.height.saturating_sub(4).max(6));
    Clear.render(r, buf);
    block(format!(" Threads ({}) · Enter selects · Esc closes ", stop.threads.len()), true, t).render(r, buf);
    let inner = inner(r);
    let h = inner.height as usize;
    let w = inner.width as usize;
    let first = window(selected, stop.threads.len(), h, &app.threads_offset);
    for (y, i) in (first..stop.threads.len().min(first + h)).enumerate() {
        let th = &stop.threads[i];
        let mut v: Vec<Span<'static>> = vec![
            Span::styled(
                if th.crashed {
                    "! "
                } else if th.current {
                    "* "
                } else {
                    "  "
                },
                t.crash(),
            ),
            Span::styled(format!("{:<5}", clean(&th.id)), t.bold()),
        ];
        if let Some(n) = &th.name {
            v.push(Span::raw(format!("\"{}\" ", clean(n))));
        }
        if let Some(f) = th.frames.first() {
            v.push(Span::styled(clean(f.function_name()), t.text()));
        }
        v.push(Span::styled(format!("  ({} frames)", th.frames.len()), t.dim()));
        let mut l = fit(v, w);
        if i == selected {
            l = pad_style(l, w, t.selected());
        }
        l.render(Rect::new(inner.x, inner.y + y as u16, inner.width, 1), buf);
    }
}

/// The stops in the order the transcript shows them (for an rr session that went back and
/// forth in time, the order they were reached), each with its rr event number when known.
pub fn stops(app: &App, area: Rect, selected: usize, buf: &mut Buffer) {
    let stops = &app.trace().stops;
    let t = &app.theme;
    let r = centered(area, area.width.saturating_sub(8).max(30), area.height.saturating_sub(4).max(6));
    Clear.render(r, buf);
    block(format!(" Stops ({}) · Enter selects · Esc closes ", stops.len()), true, t).render(r, buf);
    let inner = inner(r);
    let h = inner.height as usize;
    let w = inner.width as usize;
    let first = window(selected, stops.len(), h, &app.stops_offset);
    for (y, i) in (first..stops.len().min(first + h)).enumerate() {
        let s = &stops[i];
        let mut v: Vec<Span<'static>> = vec![
            Span::styled(if i == app.stop { "* " } else { "  " }, t.bold()),
            Span::styled(format!("{:<4}", i + 1), t.bold()),
        ];
        match s.rr_event {
            Some(ev) => v.push(Span::styled(format!("rr event {ev:<8} "), t.key())),
            None if stops.iter().any(|s| s.rr_event.is_some()) => v.push(Span::raw(" ".repeat(18))),
            None => {}
        }
        v.push(Span::styled(clean(&crate::report::describe_reason(&s.reason)), t.text()));
        if let Some(f) = s.crashed_thread().and_then(|th| th.frames.first()) {
            v.push(Span::styled(format!(" · {}", clean(f.function_name())), t.dim()));
        }
        let nf = app.ir.findings.iter().filter(|f| f.stop == Some(i)).count();
        if nf > 0 {
            let sev =
                app.ir.findings.iter().find(|f| f.stop == Some(i)).map(|f| t.severity(f.severity)).unwrap_or(t.dim());
            v.push(Span::styled(format!(" · {nf} finding{}", if nf == 1 { "" } else { "s" }), sev));
        }
        if s.span.first > 0 {
            v.push(Span::styled(format!("  (line {})", s.span.first), t.dim()));
        }
        let mut l = fit(v, w);
        if i == selected {
            l = pad_style(l, w, t.selected());
        }
        l.render(Rect::new(inner.x, inner.y + y as u16, inner.width, 1), buf);
    }
}

pub fn export(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let path = app.export_path();
    let r = centered(area, 70, 8);
    Clear.render(r, buf);
    block(" Export bug report (markdown) ", true, t).render(r, buf);
    let lines = vec![
        Line::from(vec![Span::styled("Enter / f", t.key()), Span::raw("  write to a file:")]),
        Line::raw(format!("           {}", clean(&path.display().to_string()))),
        Line::from(vec![Span::styled("c", t.key()), Span::raw("          copy to the clipboard (OSC 52)")]),
        Line::from(vec![Span::styled("Esc", t.key()), Span::raw("        cancel")]),
        Line::styled("Notes are included next to what they annotate.", t.dim()),
    ];
    Paragraph::new(lines).render(inner(r), buf);
}

/// The notes list (`m`): the selected item's notes first, each with its short id and what it
/// is on. Enter or `e` edits the selected note, `d` twice deletes it.
pub fn notes(app: &App, area: Rect, selected: usize, confirm: bool, buf: &mut Buffer) {
    let t = &app.theme;
    let list = app.notes_list();
    let r = centered(area, area.width.saturating_sub(8).max(30), area.height.saturating_sub(4).max(6));
    Clear.render(r, buf);
    let title = if confirm {
        " Notes · d again deletes · any other key keeps it ".to_string()
    } else {
        format!(" Notes ({}) · Enter/e edit · d delete · Esc closes ", list.len())
    };
    block(title, true, t).render(r, buf);
    let inner = inner(r);
    let h = inner.height as usize;
    let w = inner.width as usize;
    let file = crate::notes::NotesFile { notes: app.notes.clone(), ..Default::default() };
    let short = crate::notes::short_ids(&file);
    let first = window(selected, list.len(), h, &app.threads_offset);
    for (y, k) in (first..list.len().min(first + h)).enumerate() {
        let i = list[k];
        let n = &app.notes[i];
        let here = app.placements.get(i) == Some(&crate::notes::Placement::Orphan);
        let v: Vec<Span<'static>> = vec![
            Span::styled("✎ ", t.note()),
            Span::styled(format!("{:<6} ", short.get(i).map(String::as_str).unwrap_or("")), t.dim()),
            Span::styled(format!("{}: ", clean(&n.target.to_string())), if here { t.dim() } else { t.bold() }),
            Span::raw(clean(n.text.trim())),
        ];
        let mut l = fit(v, w);
        if k == selected {
            l = pad_style(l, w, if confirm { t.status_error() } else { t.selected() });
        }
        l.render(Rect::new(inner.x, inner.y + y as u16, inner.width, 1), buf);
    }
}
