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

/// A row of spans cut to `width` columns. A cut row ends with `…`, and never in the middle
/// of a number: a value (`0x000055555555552e`) is shown whole or not at all.
pub fn fit(spans: Vec<Span<'static>>, width: usize) -> Line<'static> {
    let total: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if total <= width {
        return Line::from(spans);
    }
    if width == 0 {
        return Line::default();
    }
    // Room for the text before the ellipsis.
    let room = width - 1;
    let mut used = 0usize;
    let mut out: Vec<Span<'static>> = Vec::with_capacity(spans.len());
    let mut last_style = Style::default();
    for s in spans {
        let n = s.content.chars().count();
        if used + n <= room {
            used += n;
            last_style = s.style;
            out.push(s);
            continue;
        }
        // Cut this span at the last word boundary that fits.
        let take = room - used;
        let chars: Vec<char> = s.content.chars().collect();
        let mut cut = take;
        // A number (`0x000055555555552e`, `4212`, also inside `(M=0x5555…`) is never cut: it
        // goes whole. A name may be cut, and the `…` says so.
        if chars.get(cut).is_some_and(|c| c.is_ascii_hexdigit() || *c == 'x') {
            let mut k = cut;
            while k > 0 && (chars[k - 1].is_ascii_hexdigit() || chars[k - 1] == 'x') {
                k -= 1;
            }
            let run = &chars[k..];
            let starts_number = run.first().is_some_and(|c| c.is_ascii_digit())
                && (k == 0 || !(chars[k - 1].is_alphanumeric() || chars[k - 1] == '_'));
            if starts_number && k < cut {
                cut = k;
            }
        }
        // A span cut at its start leaves the word before it (in an earlier span) whole.
        let kept: String = chars[..cut].iter().collect();
        if !kept.trim().is_empty() {
            out.push(Span::styled(kept.trim_end().to_string(), s.style));
        }
        last_style = s.style;
        break;
    }
    while let Some(last) = out.last_mut() {
        let t = last.content.trim_end();
        if t.is_empty() {
            out.pop();
            continue;
        }
        if t.len() != last.content.len() {
            *last = Span::styled(t.to_string(), last.style);
        }
        break;
    }
    out.push(Span::styled("…", last_style));
    Line::from(out)
}

/// Whether a character belongs to a word or number that must not be cut at the left edge.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A row scrolled `skip` columns sideways: the first `frozen` spans (marks, a register's name
/// and value) stay, the rest is shifted left. A word or number that the left edge would cut
/// is left out whole and `…` stands in front. Returns the row (not yet cut to a width; use
/// [`fit`]) and how far this row could scroll before its end is in view at `width`.
pub fn scroll_row(spans: Vec<Span<'static>>, frozen: usize, skip: usize, width: usize) -> (Vec<Span<'static>>, usize) {
    let frozen = frozen.min(spans.len());
    let fixed: usize = spans[..frozen].iter().map(|s| s.content.chars().count()).sum();
    let rest_len: usize = spans[frozen..].iter().map(|s| s.content.chars().count()).sum();
    // The room after the frozen part, one column kept for the `…` of a cut row.
    let room = width.saturating_sub(fixed + 1);
    let overflow = rest_len.saturating_sub(room.max(1));
    if skip == 0 {
        return (spans, overflow);
    }
    let mut it = spans.into_iter();
    let mut out: Vec<Span<'static>> = it.by_ref().take(frozen).collect();
    let chars: Vec<(char, Style)> =
        it.flat_map(|s| s.content.chars().map(move |c| (c, s.style)).collect::<Vec<_>>()).collect();
    let mut i = skip.min(chars.len());
    while i > 0 && i < chars.len() && is_word(chars[i - 1].0) && is_word(chars[i].0) {
        i += 1;
    }
    let style = chars.get(i).or(chars.last()).map(|c| c.1).unwrap_or_default();
    out.push(Span::styled("…", style));
    let mut cur = String::new();
    let mut cur_style = style;
    for &(c, st) in &chars[i..] {
        if st != cur_style && !cur.is_empty() {
            out.push(Span::styled(std::mem::take(&mut cur), cur_style));
        }
        cur_style = st;
        cur.push(c);
    }
    if !cur.is_empty() {
        out.push(Span::styled(cur, cur_style));
    }
    (out, overflow)
}

/// Records how far a pane can scroll sideways (the widest row's overflow) and marks its
/// bottom border: `◂` when scrolled (more to the left, ← h), `▸` when a row goes on to the
/// right (→ l). Returns the columns the marker takes at the border's right end (0: none).
pub fn side_marker(
    area: Rect,
    buf: &mut ratatui::buffer::Buffer,
    max: &Cell<[usize; 7]>,
    pane: usize,
    skip: usize,
    overflow: usize,
    theme: &Theme,
) -> u16 {
    let mut m = max.get();
    m[pane] = overflow;
    max.set(m);
    let text = match (skip > 0, overflow > skip) {
        (true, true) => " ◂ h l ▸ ",
        (true, false) => " ◂ h ",
        (false, true) => " l ▸ ",
        (false, false) => return 0,
    };
    let n = text.chars().count() as u16;
    if area.height < 2 || area.width < n + 4 {
        return 0;
    }
    let x = area.x + area.width - n - 2;
    ratatui::widgets::Widget::render(
        Line::styled(text, theme.key()),
        Rect::new(x, area.y + area.height - 1, n, 1),
        buf,
    );
    n + 2
}

/// Words of `text` in rows of at most `width` columns (a word longer than a row gets a row of
/// its own, to be cut whole by [`fit`]).
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut cur = String::new();
    for w in text.split(' ').filter(|w| !w.is_empty()) {
        let n = cur.chars().count();
        if n > 0 && n + 1 + w.chars().count() > width {
            rows.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        rows.push(cur);
    }
    rows
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

    fn text(l: &Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn fit_never_cuts_a_word_and_ends_with_an_ellipsis() {
        let row = || vec![Span::raw("r13    "), Span::raw("0x000055555555552e"), Span::raw(" heap")];
        assert_eq!(text(&fit(row(), 40)), "r13    0x000055555555552e heap");
        // 24 columns: the value does not fit whole, so it is left out, not cut.
        assert_eq!(text(&fit(row(), 24)), "r13…");
        assert_eq!(text(&fit(row(), 26)), "r13    0x000055555555552e…");
        assert_eq!(
            text(&fit(vec![Span::raw("the faulting instruction is not in the dump")], 20)),
            "the faulting instru…"
        );
        assert_eq!(text(&fit(vec![Span::raw("x = 0x2a 0x000055555555552e")], 20)), "x = 0x2a…");
        assert_eq!(text(&fit(row(), 1)), "…");
        assert_eq!(text(&fit(row(), 0)), "");
        for w in 0..40 {
            assert!(text(&fit(row(), w)).chars().count() <= w);
        }
    }

    #[test]
    fn scrolled_rows_never_start_inside_a_word_or_value() {
        let row = || vec![Span::raw("r13    "), Span::raw("0x000055555555552e heap —▸ 0x555555557dd0")];
        // 20 columns: 7 frozen, room 12 for a 41-column rest.
        let (_, over) = scroll_row(row(), 1, 0, 20);
        assert_eq!(over, 41 - 12);
        // Skipping 4 columns lands inside the value: it is left out whole.
        assert_eq!(text(&Line::from(scroll_row(row(), 1, 4, 20).0)), "r13    … heap —▸ 0x555555557dd0");
        assert_eq!(text(&Line::from(scroll_row(row(), 1, 19, 20).0)), "r13    …heap —▸ 0x555555557dd0");
        assert_eq!(
            text(&Line::from(scroll_row(row(), 1, 0, 20).0)),
            "r13    0x000055555555552e heap —▸ 0x555555557dd0"
        );
        assert_eq!(wrap_words("a bb ccc 0x0000555555555549 d", 8), vec!["a bb ccc", "0x0000555555555549", "d"]);
    }

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
