//! Small helpers every pane shares: the bordered block, the visible window of a long list,
//! and turning dump text into something safe and cell-aligned for the terminal.

use super::theme::Theme;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};
use std::cell::Cell;

/// A pane's frame with its title; the focused pane gets the bright border.
pub fn block<'a>(title: impl Into<Line<'a>>, focused: bool, theme: &Theme) -> Block<'a> {
    Block::default().borders(Borders::ALL).border_style(theme.border(focused)).title(title.into().style(theme.title()))
}

/// Text from a dump made fit for a terminal cell grid: escape sequences and control
/// characters removed (via [`crate::report::safe`]), tabs expanded to 8-column stops.
pub fn clean(s: &str) -> String {
    let s = crate::report::safe(s);
    if !s.contains('\t') {
        return s.into_owned();
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut col = 0usize;
    for c in s.chars() {
        if c == '\t' {
            let n = 8 - col % 8;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out
}

/// Adjusts `offset` so that `selected` is inside a window of `height` rows and returns the
/// first row to draw. Only the rows in the window are ever built.
pub fn window(selected: usize, len: usize, height: usize, offset: &Cell<usize>) -> usize {
    if height == 0 || len == 0 {
        offset.set(0);
        return 0;
    }
    let mut off = offset.get().min(len.saturating_sub(1));
    if selected < off {
        off = selected;
    } else if selected >= off + height {
        off = selected + 1 - height;
    }
    // Do not leave blank rows at the bottom when the list could fill them.
    if len <= height {
        off = 0;
    } else if off + height > len {
        off = len - height;
    }
    offset.set(off);
    off
}

/// The area inside a bordered block.
pub fn inner(area: Rect) -> Rect {
    Block::default().borders(Borders::ALL).inner(area)
}

/// A row of spans cut to `width` columns (the buffer clips too; this keeps wide rows cheap).
pub fn fit(mut spans: Vec<Span<'static>>, width: usize) -> Line<'static> {
    let mut used = 0usize;
    let mut out = Vec::with_capacity(spans.len());
    for s in spans.drain(..) {
        if used >= width {
            break;
        }
        let n = s.content.chars().count();
        if used + n <= width {
            used += n;
            out.push(s);
        } else {
            let cut: String = s.content.chars().take(width - used).collect();
            used = width;
            out.push(Span::styled(cut, s.style));
        }
    }
    Line::from(out)
}

/// Pads a row to `width` so a selection style covers the whole row.
pub fn pad_style(line: Line<'static>, width: usize, style: Style) -> Line<'static> {
    let n: usize = line.spans.iter().map(|s| s.content.chars().count()).sum();
    let mut line = line;
    if n < width {
        line.spans.push(Span::raw(" ".repeat(width - n)));
    }
    line.style(style)
}

/// Smart-case match, as in vim's `smartcase` and less's `-i`: a query without capitals
/// matches case-insensitively.
pub fn matches(hay: &str, query: &str) -> bool {
    if query.is_empty() {
        return false;
    }
    if query.chars().any(|c| c.is_uppercase()) { hay.contains(query) } else { hay.to_lowercase().contains(query) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_strips_escapes_and_expands_tabs() {
        assert_eq!(clean("a\tb"), "a       b");
        assert_eq!(clean("\u{1b}[2J\u{1b}]52;c;QUFB\u{7}x"), "x");
    }

    #[test]
    fn window_follows_selection() {
        let off = Cell::new(0);
        assert_eq!(window(0, 100, 10, &off), 0);
        assert_eq!(window(15, 100, 10, &off), 6);
        assert_eq!(window(7, 100, 10, &off), 6);
        assert_eq!(window(2, 100, 10, &off), 2);
        assert_eq!(window(99, 100, 10, &off), 90);
        assert_eq!(window(3, 5, 10, &off), 0);
    }
}
