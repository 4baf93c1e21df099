//! `tracecheck diff --tui A B`: the diff of two dumps in the terminal. Two panes side by side
//! hold A's and B's crashed-thread frames, one row per row of the text diff's alignment (by
//! normalized function, `triage::diff::align`), with a blank row where one side has no
//! frame. The selection is linked: moving in one pane steps through that side's frames and
//! the other pane follows to the aligned row. The header shows each side's stop and the
//! findings only in A (`-`) and only in B (`+`).
//!
//! Same shape as the main TUI: [`DiffApp::update`] is the only place state changes,
//! [`DiffApp::draw`] paints from `&self`, styles come from `theme.rs`, and [`run`] owns the
//! terminal through the same guard (raw mode and alternate screen restored on exit and on
//! panic). Everything shown goes through `common::clean`.

use super::common::{block, clean, fit, inner, pad_style, window};
use super::theme::Theme;
use crate::triage::diff::{Diff, StopDiff};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use std::cell::Cell;

/// What can happen in the diff view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffAction {
    Down,
    Up,
    PageDown,
    PageUp,
    Top,
    Bottom,
    /// Keyboard focus to the other pane.
    SwitchPane,
    FocusA,
    FocusB,
    NextStop,
    PrevStop,
    Quit,
}

/// Which side has the keyboard focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

pub struct DiffApp {
    pub diff: Diff,
    pub theme: Theme,
    /// Index into `diff.stops`.
    pub stop: usize,
    /// The selected aligned row (shared by both panes: the linked selection).
    pub row: usize,
    pub focus: Side,
    pub quit: bool,
    /// Rows a page moves; set from the last drawn pane height.
    page: Cell<usize>,
    offset: Cell<usize>,
}

impl DiffApp {
    pub fn new(diff: Diff, theme: Theme) -> DiffApp {
        let mut app = DiffApp {
            diff,
            theme,
            stop: 0,
            row: 0,
            focus: Side::A,
            quit: false,
            page: Cell::new(10),
            offset: Cell::new(0),
        };
        app.row = app.first_row(Side::A).or_else(|| app.first_row(Side::B)).unwrap_or(0);
        if app.first_row(Side::A).is_none() && app.first_row(Side::B).is_some() {
            app.focus = Side::B;
        }
        app
    }

    pub fn current(&self) -> Option<&StopDiff> {
        self.diff.stops.get(self.stop)
    }

    fn has(&self, side: Side, row: usize) -> bool {
        self.current().and_then(|s| s.frames.get(row)).is_some_and(|r| match side {
            Side::A => r.a.is_some(),
            Side::B => r.b.is_some(),
        })
    }

    fn rows(&self) -> usize {
        self.current().map_or(0, |s| s.frames.len())
    }

    fn first_row(&self, side: Side) -> Option<usize> {
        (0..self.rows()).find(|&r| self.has(side, r))
    }

    /// The frame number (0-based, on that side) shown in `row`, if that side has a frame
    /// there.
    pub fn frame_at(&self, side: Side, row: usize) -> Option<usize> {
        if !self.has(side, row) {
            return None;
        }
        Some((0..row).filter(|&r| self.has(side, r)).count())
    }

    /// The selected frame of a side: the frame in the selected row, or `None` when that
    /// side has no frame aligned with it.
    pub fn selected_frame(&self, side: Side) -> Option<usize> {
        self.frame_at(side, self.row)
    }

    /// Moves `n` frames of the focused side forward (or back); the other side follows.
    fn step(&mut self, forward: bool, n: usize) {
        let mut r = self.row;
        for _ in 0..n {
            let next = if forward {
                (r + 1..self.rows()).find(|&x| self.has(self.focus, x))
            } else {
                (0..r).rev().find(|&x| self.has(self.focus, x))
            };
            match next {
                Some(x) => r = x,
                None => break,
            }
        }
        self.row = r;
    }

    /// Focus to `side`; when the selected row has no frame there, the nearest one that has.
    fn focus_on(&mut self, side: Side) {
        if self.first_row(side).is_none() {
            return;
        }
        self.focus = side;
        if !self.has(side, self.row) {
            let after = (self.row..self.rows()).find(|&x| self.has(side, x));
            let before = (0..self.row).rev().find(|&x| self.has(side, x));
            self.row = after.or(before).unwrap_or(0);
        }
    }

    fn set_stop(&mut self, s: usize) {
        if s >= self.diff.stops.len() || s == self.stop {
            return;
        }
        self.stop = s;
        self.offset.set(0);
        let side = if self.first_row(self.focus).is_some() { self.focus } else { other(self.focus) };
        self.focus = side;
        self.row = self.first_row(side).unwrap_or(0);
    }

    /// The only place state changes.
    pub fn update(&mut self, a: DiffAction) {
        let page = self.page.get().max(1);
        match a {
            DiffAction::Down => self.step(true, 1),
            DiffAction::Up => self.step(false, 1),
            DiffAction::PageDown => self.step(true, page),
            DiffAction::PageUp => self.step(false, page),
            DiffAction::Top => self.step(false, usize::MAX),
            DiffAction::Bottom => self.step(true, usize::MAX),
            DiffAction::SwitchPane => self.focus_on(other(self.focus)),
            DiffAction::FocusA => self.focus_on(Side::A),
            DiffAction::FocusB => self.focus_on(Side::B),
            DiffAction::NextStop => self.set_stop(self.stop + 1),
            DiffAction::PrevStop => self.set_stop(self.stop.saturating_sub(1)),
            DiffAction::Quit => self.quit = true,
        }
    }

    // ----- drawing --------------------------------------------------------------------

    fn header_lines(&self, width: usize) -> Vec<Line<'static>> {
        let th = &self.theme;
        let mut out = Vec::new();
        let Some(s) = self.current() else {
            out.push(Line::styled("no stop in either dump", th.dim()));
            return out;
        };
        let num = |x: Option<usize>| x.map_or("-".to_string(), |v| format!("#{v}"));
        for (label, path, stop, reason) in
            [("A ", &self.diff.a, s.a_stop, &s.a_reason), ("B ", &self.diff.b, s.b_stop, &s.b_reason)]
        {
            let name = file_name(path);
            out.push(fit(
                vec![
                    Span::styled(label, th.title()),
                    Span::raw(clean(&name)),
                    Span::styled(format!("  stop {}: ", num(stop)), th.dim()),
                    Span::raw(clean(reason.as_deref().unwrap_or("(no stop)"))),
                ],
                width,
            ));
        }
        let (added, removed) = (s.findings_added.len(), s.findings_removed.len());
        out.push(fit(
            vec![
                Span::styled("findings ", th.title()),
                Span::styled(format!("+{added} only in B"), th.changed()),
                Span::raw("  "),
                Span::styled(format!("-{removed} only in A"), th.highlight()),
                Span::styled(format!("   stop {}/{}", self.stop + 1, self.diff.stops.len()), th.dim()),
            ],
            width,
        ));
        for (mark, text) in s
            .findings_removed
            .iter()
            .map(|t| ('-', t))
            .chain(s.findings_added.iter().map(|t| ('+', t)))
            .take(MAX_FINDING_LINES)
        {
            let style = if mark == '+' { th.changed() } else { th.highlight() };
            out.push(fit(vec![Span::styled(format!(" {mark} "), style), Span::raw(clean(text))], width));
        }
        if added + removed > MAX_FINDING_LINES {
            out.push(Line::styled(
                format!("   … {} more (tracecheck diff A B)", added + removed - MAX_FINDING_LINES),
                th.dim(),
            ));
        }
        out
    }

    fn pane(&self, side: Side, area: Rect, buf: &mut Buffer) {
        let th = &self.theme;
        let focused = self.focus == side;
        let (label, path) = match side {
            Side::A => ("A", &self.diff.a),
            Side::B => ("B", &self.diff.b),
        };
        let threads = self.current().and_then(|s| s.threads.first()).map(|(a, b)| match side {
            Side::A => a.clone(),
            Side::B => b.clone(),
        });
        let thread = threads.flatten().map(|t| format!(" · thread {}", clean(&t))).unwrap_or_default();
        block(format!(" {label}: {}{thread} ", clean(&file_name(path))), focused, th).render(area, buf);
        let inner = inner(area);
        let Some(s) = self.current() else { return };
        let h = inner.height as usize;
        self.page.set(h.saturating_sub(1).max(1));
        let first = window(self.row, s.frames.len(), h, &self.offset);
        let mut n = (0..first).filter(|&r| self.has(side, r)).count();
        for (i, r) in s.frames.iter().enumerate().skip(first).take(h) {
            let text = match side {
                Side::A => r.a.as_deref(),
                Side::B => r.b.as_deref(),
            };
            let mark_style = match r.mark {
                '=' => th.dim(),
                '~' => th.highlight(),
                _ => th.bold(),
            };
            let line = match text {
                Some(t) => {
                    let l = fit(
                        vec![
                            Span::styled(format!("{} ", r.mark), mark_style),
                            Span::styled(format!("#{n:<2} "), th.dim()),
                            Span::raw(clean(t)),
                        ],
                        inner.width as usize,
                    );
                    n += 1;
                    l
                }
                None => Line::styled(format!("{} ·", r.mark), th.dim()),
            };
            let line = if i == self.row {
                pad_style(line, inner.width as usize, if focused { th.selected() } else { th.selected_unfocused() })
            } else {
                line
            };
            let y = inner.y + (i - first) as u16;
            line.render(Rect { x: inner.x, y, width: inner.width, height: 1 }, buf);
        }
        if s.frames.is_empty() {
            Line::styled("no crashed-thread frames", th.dim()).render(inner, buf);
        }
    }

    pub fn draw(&self, f: &mut Frame, area: Rect) {
        let buf = f.buffer_mut();
        if area.width < 40 || area.height < 10 {
            Line::raw("terminal too small for the diff view (40x10); q quits").render(area, buf);
            return;
        }
        let header = self.header_lines(area.width as usize);
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Length(header.len() as u16), Constraint::Min(4), Constraint::Length(1)])
            .split(area);
        for (i, l) in header.into_iter().enumerate() {
            l.render(Rect { x: rows[0].x, y: rows[0].y + i as u16, width: rows[0].width, height: 1 }, buf);
        }
        let cols = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .split(rows[1]);
        self.pane(Side::A, cols[0], buf);
        self.pane(Side::B, cols[1], buf);
        fit(
            vec![Span::styled(
                "j/k move (other pane follows) · Tab/h/l pane · PgUp/PgDn g/G · n/p stop · q quit",
                self.theme.dim(),
            )],
            rows[2].width as usize,
        )
        .render(rows[2], buf);
    }
}

const MAX_FINDING_LINES: usize = 3;

/// The last component of a path as given on the command line (the header has no room for
/// whole paths).
fn file_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn other(s: Side) -> Side {
    match s {
        Side::A => Side::B,
        Side::B => Side::A,
    }
}

/// The one place keys map to actions in the diff view.
pub fn action(k: KeyEvent) -> Option<DiffAction> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return match k.code {
            KeyCode::Char('c') => Some(DiffAction::Quit),
            KeyCode::Char('d') => Some(DiffAction::PageDown),
            KeyCode::Char('u') => Some(DiffAction::PageUp),
            _ => None,
        };
    }
    Some(match k.code {
        KeyCode::Char('q') | KeyCode::Esc => DiffAction::Quit,
        KeyCode::Char('j') | KeyCode::Down => DiffAction::Down,
        KeyCode::Char('k') | KeyCode::Up => DiffAction::Up,
        KeyCode::PageDown | KeyCode::Char(' ') => DiffAction::PageDown,
        KeyCode::PageUp => DiffAction::PageUp,
        KeyCode::Char('g') | KeyCode::Home => DiffAction::Top,
        KeyCode::Char('G') | KeyCode::End => DiffAction::Bottom,
        KeyCode::Tab | KeyCode::BackTab => DiffAction::SwitchPane,
        KeyCode::Char('h') | KeyCode::Left => DiffAction::FocusA,
        KeyCode::Char('l') | KeyCode::Right => DiffAction::FocusB,
        KeyCode::Char('n') | KeyCode::Char(']') => DiffAction::NextStop,
        KeyCode::Char('p') | KeyCode::Char('[') => DiffAction::PrevStop,
        _ => return None,
    })
}

/// Runs the diff view until `q`. The terminal is restored on exit and on panic (the main
/// TUI's guard).
pub fn run(diff: Diff) -> anyhow::Result<()> {
    let mut app = DiffApp::new(diff, Theme::from_env());
    let mut guard = super::TerminalGuard::enter()?;
    guard.terminal.draw(|f| app.draw(f, f.area()))?;
    while !app.quit {
        let mut ev = Some(event::read()?);
        // Coalesce bursts (held keys) into one redraw.
        while let Some(e) = ev.take() {
            if let Event::Key(k) = e
                && let Some(a) = action(k)
            {
                app.update(a);
            }
            if !app.quit && event::poll(std::time::Duration::ZERO)? {
                ev = Some(event::read()?);
            }
        }
        if !app.quit {
            guard.terminal.draw(|f| app.draw(f, f.area()))?;
        }
    }
    drop(guard);
    Ok(())
}
