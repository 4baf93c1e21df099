//! The Raw dump pane: the input as it was, with line numbers. The lines the selected item
//! came from (a frame's, a register's, or a finding's evidence `Span`s) are marked `▌` and
//! highlighted; the cursor line is reverse video. Only the visible lines are sliced out of
//! the text and cleaned, so a 10 MB dump draws as fast as a small one.

use super::app::{App, Pane};
use super::common::{block, clean, inner, scroll_row, side_marker};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use std::borrow::Cow;

/// The text of raw line `i` (0-based), without its line end: a slice of `ir.raw`, or read
/// from the file (`App::raw_file`, bad bytes replaced).
pub fn line(app: &App, i: usize) -> Cow<'_, str> {
    let Some(&start) = app.raw_lines.get(i) else { return Cow::Borrowed("") };
    if let Some(f) = &app.raw_file {
        let end = app.raw_lines.get(i + 1).map_or(f.len(), |&e| e as u64);
        let b = f.bytes(start as u64, end);
        let text = String::from_utf8_lossy(&b);
        return Cow::Owned(text.trim_end_matches(['\n', '\r']).to_string());
    }
    let Some(raw) = app.ir.raw.as_deref() else { return Cow::Borrowed("") };
    let end = app.raw_lines.get(i + 1).copied().unwrap_or(raw.len());
    Cow::Borrowed(raw.get(start..end).unwrap_or("").trim_end_matches(['\n', '\r']))
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Raw;
    let t = &app.theme;
    let n = app.raw_lines.len();
    block(format!(" Raw dump · line {}/{n} ", app.raw_cursor + 1), focused, t).render(area, buf);
    let inner = inner(area);
    if n == 0 {
        Line::styled("the raw text is not available", t.dim()).render(inner, buf);
        return;
    }
    let h = inner.height as usize;
    let cursor = app.raw_cursor.min(n - 1);
    let mut top = app.raw_top.get();
    if top == usize::MAX {
        top = cursor.saturating_sub(h / 3);
    } else if cursor < top {
        top = cursor;
    } else if h > 0 && cursor >= top + h {
        top = cursor + 1 - h;
    }
    top = top.min(n.saturating_sub(h.max(1)));
    app.raw_top.set(top);
    let spans = app.highlight_spans();
    let gutter = format!("{}", n).len();
    let skip = app.hscroll[Pane::Raw.index()];
    let mut overflow = 0;
    for (y, i) in (top..n.min(top + h)).enumerate() {
        let lineno = i as u32 + 1;
        let hl = spans.iter().any(|s| s.first <= lineno && lineno <= s.last);
        let text = clean(&line(app, i));
        let v = vec![
            Span::styled(format!("{lineno:>gutter$}"), t.line_number()),
            if hl { Span::styled("▌", t.highlight()) } else { Span::raw(" ") },
            Span::styled(text, if hl { t.highlight() } else { t.text() }),
        ];
        let (v, over) = scroll_row(v, 2, skip, inner.width as usize);
        overflow = overflow.max(over);
        let mut l = super::common::fit(v, inner.width as usize);
        if i == cursor {
            l = super::common::pad_style(
                l,
                inner.width as usize,
                if focused { t.selected() } else { t.selected_unfocused() },
            );
        }
        l.render(Rect::new(inner.x, inner.y + y as u16, inner.width, 1), buf);
    }
    side_marker(area, buf, &app.hscroll_max, Pane::Raw.index(), skip, overflow, t);
}
