//! The Source pane: the selected frame's source file around its line, `>` at the line, when
//! the file was found inside the source directories (`--source-dir`, else the current
//! directory; build paths are mapped, see `fsutil::find_source`). The file is read by the
//! event loop (`Effect::LoadSource`), never while drawing.

use super::app::{App, Pane, SourceState};
use super::common::{block, clean, fit, inner, scroll_row, side_marker};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The first line shown when the frame's line is centred in the pane.
pub fn centred_top(app: &App) -> usize {
    let h = app.areas(app.size).source.map(|r| r.height.saturating_sub(2)).unwrap_or(10) as usize;
    match app.current_source() {
        Some((_, line, SourceState::Read { lines, .. })) => {
            let line = (line as usize).saturating_sub(1);
            line.saturating_sub(h / 2).min(lines.len().saturating_sub(h))
        }
        _ => 0,
    }
}

fn dirs(app: &App) -> String {
    if app.source_dirs.is_empty() {
        "the current directory".to_string()
    } else {
        app.source_dirs.iter().map(|d| clean(&d.display().to_string())).collect::<Vec<_>>().join(", ")
    }
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Source;
    let t = &app.theme;
    let inner_area = inner(area);
    let message = |title: String, msg: String, buf: &mut Buffer| {
        block(title, focused, t).render(area, buf);
        Paragraph::new(msg).style(t.dim()).wrap(Wrap { trim: true }).render(inner_area, buf);
    };
    let Some(f) = app.current_frame() else {
        return message(" Source ".into(), "no frame selected".into(), buf);
    };
    let Some((file, line, state)) = app.current_source() else {
        let msg = match &f.file {
            Some(_) => "looking for the source file…".to_string(),
            None => format!("frame #{} has no source file and line in the dump (no debug info)", f.index),
        };
        return message(" Source ".into(), msg, buf);
    };
    let file = clean(file);
    let (shown, lines) = match state {
        SourceState::Pending => return message(" Source ".into(), format!("reading {file}…"), buf),
        SourceState::NotFound => {
            let msg = format!(
                "{file} is not in {}; tracecheck tui --source-dir DIR reads it from DIR (build paths such as /build/src/x.c are mapped to DIR/src/x.c)",
                dirs(app)
            );
            return message(" Source ".into(), msg, buf);
        }
        SourceState::Refused(why) => {
            return message(" Source ".into(), format!("{file} was not read: {why} ({})", dirs(app)), buf);
        }
        SourceState::Read { shown, lines } => (shown, lines),
    };
    block(format!(" Source · {}:{line} ", clean(shown)), focused, t).render(area, buf);
    let h = inner_area.height as usize;
    let w = inner_area.width as usize;
    let top = app.source_top.unwrap_or_else(|| centred_top(app)).min(lines.len().saturating_sub(1));
    let gutter = format!("{}", lines.len()).len().max(3);
    let skip = app.hscroll[Pane::Source.index()];
    let mut overflow = 0;
    for (y, i) in (top..lines.len().min(top + h)).enumerate() {
        let n = i + 1;
        let here = n == line as usize;
        let spans = vec![
            Span::styled(if here { ">" } else { " " }, if here { t.crash() } else { t.text() }),
            Span::styled(format!("{n:>gutter$} "), t.line_number()),
            Span::styled(clean(&lines[i]), if here { t.bold() } else { t.text() }),
        ];
        let (spans, over) = scroll_row(spans, 2, skip, w);
        overflow = overflow.max(over);
        let l: Line<'static> = fit(spans, w);
        l.render(Rect::new(inner_area.x, inner_area.y + y as u16, inner_area.width, 1), buf);
    }
    side_marker(area, buf, &app.hscroll_max, Pane::Source.index(), skip, overflow, t);
}
