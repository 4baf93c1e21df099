//! The Registers pane: the registers printed for the selected frame, each with what it points
//! to — mapping kind, module and symbol+offset (`classify::annotate_register`, coloured by
//! `classify::RegionKind`), then the words behind it when an `x/` dump covers them
//! (`Stop::read_u64`), or a string preview. `▶` marks registers the selected finding is about;
//! `*` marks values that differ from the next (outer) frame; `✎` marks notes.

use super::app::{App, Pane};
use super::common::{block, clean, fit, inner, pad_style, scroll_row, side_marker, window};
use crate::classify::{Classifier, RegionKind};
use crate::model::*;
use crate::report::is_non_pointer_register;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Widget;

/// Dereference links shown after a pointer (pwndbg's chain, capped).
const CHAIN_MAX: usize = 3;

/// The annotation after a register's value: `heap —▸ 0x555555557dd0 (read-only data) …`.
pub fn annotation(app: &App, r: &Register, c: &Classifier<'_>) -> Vec<Span<'static>> {
    let t = &app.theme;
    let arch = app.trace().arch;
    let mut spans = Vec::new();
    let Some(v) = r.value else {
        if let Some(n) = &r.natural {
            spans.push(Span::styled(clean(n), t.dim()));
        }
        return spans;
    };
    if is_non_pointer_register(&r.name, arch) {
        if let Some(n) = &r.natural
            && n.starts_with('[')
        {
            spans.push(Span::styled(clean(n), t.dim()));
        }
        return spans;
    }
    if let Some(a) = crate::classify::annotate_register(r, c, arch) {
        // `<sym+off> code (mod)`: the symbol matters most when cut.
        spans.push(Span::styled(clean(&a.symbol_first()), t.region(a.kind())));
    }
    if let Some(stop) = app.current_stop() {
        spans.extend(deref(app, stop, v, c));
    }
    spans
}

/// Words behind a pointer, from the stop's memory dumps, and a string preview.
pub fn deref(app: &App, stop: &Stop, v: u64, c: &Classifier<'_>) -> Vec<Span<'static>> {
    let t = &app.theme;
    let mut spans = Vec::new();
    if let Some(s) =
        stop.memory.iter().find(|m| m.address.0 == v && m.string.is_some()).and_then(|m| m.string.as_deref())
    {
        spans.push(Span::styled(format!(" {}", clean(s)), t.text()));
        return spans;
    }
    let mut cur = v;
    let mut seen = vec![v];
    for _ in 0..CHAIN_MAX {
        let Some(w) = stop.read_u64(cur) else { break };
        let k = c.classify(w).kind;
        spans.push(Span::styled(" —▸ ", t.dim()));
        spans.push(Span::styled(format!("{w:#x}"), t.region(k)));
        if let Some(s) = ascii_preview(w) {
            spans.push(Span::styled(format!(" '{s}'"), t.dim()));
            break;
        }
        if seen.contains(&w) || !k.is_pointer_like() {
            break;
        }
        seen.push(w);
        cur = w;
    }
    spans
}

/// Eight little-endian bytes that read as text (at least 4 printable, then NULs).
fn ascii_preview(w: u64) -> Option<String> {
    let b = w.to_le_bytes();
    let n = b.iter().position(|&x| x == 0).unwrap_or(8);
    if n < 4 || !b[n..].iter().all(|&x| x == 0) || !b[..n].iter().all(|x| x.is_ascii_graphic() || *x == b' ') {
        return None;
    }
    Some(String::from_utf8_lossy(&b[..n]).into_owned())
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Registers;
    let t = &app.theme;
    let frame_idx = app.current_frame().map(|f| f.index);
    let title = match frame_idx {
        Some(i) => format!(" Registers · frame #{i} "),
        None => " Registers ".to_string(),
    };
    block(title, focused, t).render(area, buf);
    let inner = inner(area);
    let Some(set) = app.frame_registers() else {
        let msg = match frame_idx {
            Some(i) => format!("no registers were printed for frame #{i} (gdb: frame {i}, info registers)"),
            None => "no frame selected".to_string(),
        };
        draw_legend(app, area, 0, buf);
        ratatui::widgets::Paragraph::new(msg)
            .style(t.dim())
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(inner, buf);
        return;
    };
    let c = app.classifier();
    let outer = app.outer_registers();
    let hl = app.highlighted_registers();
    let h = inner.height as usize;
    let w = inner.width as usize;
    let first = window(app.register, set.regs.len(), h, &app.registers_offset);
    // Full 16-digit values when there is room, else unpadded.
    let wide = w >= 60;
    let skip = app.hscroll[Pane::Registers.index()];
    let mut overflow = 0;
    for (row, i) in (first..set.regs.len().min(first + h)).enumerate() {
        let r = &set.regs[i];
        let highlighted = hl.contains(&&*r.name);
        let changed = match (outer.and_then(|o| o.get(&r.name)), r.value) {
            (Some(o), Some(v)) => o != v,
            _ => false,
        };
        let mut spans: Vec<Span<'static>> = Vec::new();
        spans.push(if highlighted { Span::styled("▶", t.highlight()) } else { Span::raw(" ") });
        spans.push(if changed { Span::styled("*", t.changed()) } else { Span::raw(" ") });
        let name_style = if highlighted {
            t.highlight()
        } else if changed {
            t.changed()
        } else {
            t.bold()
        };
        spans.push(Span::styled(format!("{:<6} ", clean(&r.name)), name_style));
        let value = match r.value {
            Some(v) if wide => format!("{v:#018x} "),
            Some(v) => format!("{v:#x} "),
            None => String::new(),
        };
        let vk = r.value.map(|v| if v == 0 { RegionKind::ZeroPage } else { c.classify(v).kind });
        let value_style = match vk {
            Some(k)
                if !is_non_pointer_register(&r.name, app.trace().arch)
                    && r.value.is_some_and(|v| v >= 0x10000 || v == 0) =>
            {
                t.region(k)
            }
            _ => t.text(),
        };
        spans.push(Span::styled(value, value_style));
        if app.register_notes(&r.name).next().is_some() {
            spans.push(Span::styled("✎ ", t.note()));
        }
        // Marks, name and value stay; what the value points to scrolls sideways.
        let frozen = spans.len();
        spans.extend(annotation(app, r, &c));
        let (spans, over) = scroll_row(spans, frozen, skip, w);
        overflow = overflow.max(over);
        let mut line = fit(spans, w);
        if i == app.register && (focused || app.item_pane == Pane::Registers) {
            line = pad_style(line, w, if focused { t.selected() } else { t.selected_unfocused() });
        }
        line.render(Rect::new(inner.x, inner.y + row as u16, inner.width, 1), buf);
    }
    let marker = side_marker(area, buf, &app.hscroll_max, Pane::Registers.index(), skip, overflow, t);
    draw_legend(app, area, marker, buf);
}

/// The region colour legend (as pwndbg shows it) on the pane's bottom border, so the colours
/// of the values above are always explained on screen.
/// `reserve` columns at the right end are kept for the sideways-scroll marker; when the
/// whole legend does not fit beside it, the word `legend:` goes first.
pub fn draw_legend(app: &App, area: Rect, reserve: u16, buf: &mut Buffer) {
    use crate::classify::RegionKind as K;
    if area.height < 3 || area.width < 12 {
        return;
    }
    let t = &app.theme;
    let mut spans: Vec<Span<'static>> = vec![Span::styled(" legend: ", t.dim())];
    let w = area.width.saturating_sub(4 + reserve) as usize;
    for (k, name) in [
        (K::Stack, "stack"),
        (K::Heap, "heap"),
        (K::Code, "code"),
        (K::WritableData, "data"),
        (K::ReadOnlyData, "rodata"),
    ] {
        spans.push(Span::styled(name, t.region(k)));
        spans.push(Span::raw(" "));
    }
    if spans.iter().map(|s| s.content.chars().count()).sum::<usize>() > w {
        spans[0] = Span::raw(" ");
    }
    let line = crate::tui::common::fit(spans, w);
    line.render(Rect::new(area.x + 2, area.y + area.height - 1, w as u16, 1), buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn ascii_words() {
        assert_eq!(ascii_preview(u64::from_le_bytes(*b"start\0\0\0")).as_deref(), Some("start"));
        assert_eq!(ascii_preview(0x0000555555557dd0), None);
        assert_eq!(ascii_preview(0), None);
    }
}
