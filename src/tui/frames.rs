//! The Frames pane: the selected thread's backtrace. The crashing frame is marked `!` and
//! drawn in the crash colour, the culprit (first frame outside runtime/libc) `>`, inlined
//! frames are bracketed (┬ │ └) with the frame they were inlined into, `<signal handler called>` is
//! shown as its own row, and frames with notes carry `✎`.

use super::app::{App, Pane};
use super::common::{block, clean, fit, inner, pad_style, scroll_row, side_marker, window};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let focused = app.focus == Pane::Frames;
    let th = app.current_thread();
    let title = match (th, app.current_stop()) {
        (Some(t), Some(s)) => {
            let name = t.name.as_deref().map(|n| format!(" \"{}\"", clean(n))).unwrap_or_default();
            let crashed = if t.crashed { ", crashed" } else { "" };
            format!(" Frames · thread {}{name}{crashed} ({}/{}) ", clean(&t.id), app.thread + 1, s.threads.len())
        }
        _ => " Frames ".to_string(),
    };
    block(title, focused, &app.theme).render(area, buf);
    let inner = inner(area);
    let Some(th) = th else {
        Line::styled("no backtrace in this dump", app.theme.dim()).render(inner, buf);
        return;
    };
    if th.frames.is_empty() {
        Line::styled("this thread has no frames", app.theme.dim()).render(inner, buf);
        return;
    }
    let h = inner.height as usize;
    let w = inner.width as usize;
    let per = rows_per(app, inner.height);
    let first = window(app.frame, th.frames.len(), h / per, &app.frames_offset);
    let skip = app.hscroll[Pane::Frames.index()];
    let mut overflow = 0;
    let finding_frames: Vec<(u32, crate::model::Severity)> = app
        .ir
        .findings
        .iter()
        .filter(|f| f.stop.unwrap_or(app.stop) == app.stop && f.thread.as_deref().is_none_or(|id| id == &*th.id))
        .filter_map(|f| f.frame.map(|fr| (fr, f.severity)))
        .collect();
    for (row, pos) in (first..th.frames.len().min(first + h / per)).enumerate() {
        let f = &th.frames[pos];
        let t = &app.theme;
        let mut spans: Vec<Span<'static>> = Vec::new();
        let mark = if app.is_crash_frame(pos) {
            Span::styled("!", t.crash())
        } else if app.is_culprit(pos) {
            Span::styled(">", t.culprit())
        } else {
            Span::raw(" ")
        };
        spans.push(mark);
        // `inlined` marks a frame that was inlined into the next (outer) frame, which shares
        // its pc (gdb prints that host frame without an address). A group runs from the
        // innermost inlined frame (┬) to its host (└).
        let prev_inlined = pos > 0 && th.frames[pos - 1].inlined;
        let group = match (f.inlined, prev_inlined) {
            (true, false) => "┬",
            (true, true) => "│",
            (false, true) => "└",
            (false, false) => " ",
        };
        let host = if f.inlined { th.frames[pos + 1..].iter().find(|n| !n.inlined).map(|n| n.index) } else { None };
        spans.push(Span::styled(group, t.inlined()));
        let sev = finding_frames.iter().filter(|(i, _)| *i == f.index).map(|(_, s)| *s).max();
        let idx_style = match sev {
            Some(s) => t.severity(s),
            None if app.is_crash_frame(pos) => t.crash(),
            None => t.dim(),
        };
        spans.push(Span::styled(format!("#{:<3}", f.index), idx_style));
        // Before the name, so narrow panes still show it.
        if app.frame_notes(pos).next().is_some() {
            spans.push(Span::styled("✎ ", t.note()));
        }
        let frozen = spans.len();
        if f.signal_handler {
            spans.push(Span::styled("<signal handler called>", t.signal_frame()));
        } else {
            let name_style = if app.is_crash_frame(pos) {
                t.crash()
            } else if app.is_culprit(pos) {
                t.culprit()
            } else if host.is_some() {
                t.inlined()
            } else {
                t.text()
            };
            spans.push(Span::styled(clean(f.function_name()), name_style));
            if let Some(h) = host {
                spans.push(Span::styled(format!(" [inlined into #{h}]"), t.inlined()));
            }
            if per == 2 {
                // The second row has the full path or module.
            } else if let (Some(file), Some(line)) = (&f.file, f.line) {
                let base = file.rsplit('/').next().unwrap_or(file);
                spans.push(Span::styled(format!(" {}:{line}", clean(base)), t.dim()));
            } else if let Some(m) = &f.module {
                let base = m.rsplit('/').next().unwrap_or(m);
                spans.push(Span::styled(format!(" ({})", clean(base)), t.dim()));
            }
        }
        let (mut spans, over) = scroll_row(spans, frozen, skip, w);
        overflow = overflow.max(over);
        // Unscrolled, a long (generic, templated) name gives way first, so the inline marker
        // and the file:line after it stay visible; the name then ends with `…`.
        if !f.signal_handler && skip == 0 {
            shorten_name(&mut spans, w);
        }
        let mut line = fit(spans, w);
        let selected = pos == app.frame;
        let sel_style = if focused { t.selected() } else { t.selected_unfocused() };
        if selected {
            line = pad_style(line, w, sel_style);
        }
        let y = inner.y + (row * per) as u16;
        line.render(Rect::new(inner.x, y, inner.width, 1), buf);
        if per == 2 {
            // The second row: the full source path and the arguments, or the module and pc.
            let mut more: Vec<Span<'static>> = vec![Span::raw("      ")];
            let mut parts = Vec::new();
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                // The whole path when it fits, else its last component: the line stays seen.
                let full = format!("at {}:{line}", clean(file));
                if full.chars().count() + 6 <= w {
                    parts.push(full);
                } else {
                    parts.push(format!("at {}:{line}", clean(file.rsplit('/').next().unwrap_or(file))));
                }
            } else if let Some(m) = &f.module {
                parts.push(format!("from {}", clean(m)));
            }
            if let Some(a) = f.args.as_deref().filter(|a| !a.trim().is_empty()) {
                parts.push(format!("({})", clean(a)));
            }
            if let Some(pc) = f.pc {
                parts.push(format!("pc {pc}"));
            }
            more.push(Span::styled(parts.join(" "), t.dim()));
            let (more, over) = scroll_row(more, 1, skip, w);
            overflow = overflow.max(over);
            let mut line = fit(more, w);
            if selected {
                line = pad_style(line, w, sel_style);
            }
            line.render(Rect::new(inner.x, y + 1, inner.width, 1), buf);
        }
    }
    side_marker(area, buf, &app.hscroll_max, Pane::Frames.index(), skip, overflow, &app.theme);
}

/// Rows per frame: two (the frame, then its full path, arguments and pc) when every frame
/// fits twice over, else one.
pub fn rows_per(app: &App, inner_height: u16) -> usize {
    let n = app.current_thread().map(|t| t.frames.len()).unwrap_or(0);
    if n > 0 && n * 2 <= inner_height as usize { 2 } else { 1 }
}

/// Shortens the name span (the first one after `#N`, the longest) so the row fits `w`
/// columns, keeping at least 12 columns of it.
fn shorten_name(spans: &mut [Span<'static>], w: usize) {
    let total: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if total <= w {
        return;
    }
    let Some((i, _)) = spans.iter().enumerate().rev().max_by_key(|(_, s)| s.content.chars().count()) else { return };
    let n = spans[i].content.chars().count();
    let keep = n.saturating_sub(total - w).max(12);
    if keep + 1 >= n {
        return;
    }
    let cut: String = spans[i].content.chars().take(keep - 1).collect();
    spans[i] = Span::styled(format!("{}…", cut.trim_end()), spans[i].style);
}
