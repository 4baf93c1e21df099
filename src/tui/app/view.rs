//! `draw`: the layout and the panes, painted from a borrowed `&App`.

use super::*;

impl App {
    // ----- layout -------------------------------------------------------------------

    /// Where the panes go for a terminal area.
    pub fn areas(&self, area: Rect) -> Areas {
        let mut a = Areas::default();
        if area.width < MIN.0 || area.height < MIN.1 {
            a.too_small = true;
            return a;
        }
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Length(1), Constraint::Min(4), Constraint::Length(1)])
            .split(area);
        a.header = rows[0];
        a.footer = rows[2];
        let body = rows[1];
        // Exactly `top` rows above, the rest below (at least 3 each when there is room).
        let vsplit = |r: Rect, top: u16| {
            let top = top.min(r.height.saturating_sub(3)).max(3.min(r.height));
            (Rect::new(r.x, r.y, r.width, top), Rect::new(r.x, r.y + top, r.width, r.height - top))
        };
        if area.width >= WIDE.0 && area.height >= WIDE.1 {
            let cols = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(30), Constraint::Percentage(36), Constraint::Percentage(34)])
                .split(body);
            let half = body.height / 2;
            (a.frames, a.findings) = vsplit(cols[0], self.list_split(body.height));
            let (registers, detail) = vsplit(cols[1], half);
            a.registers = registers;
            a.detail = Some(detail);
            let (top, raw) = vsplit(cols[2], half);
            a.raw = Some(raw);
            // The source of the selected frame, when it was read, under the disassembly.
            if self.source_available() || self.viewer == Pane::Source {
                let (m, src) = vsplit(top, top.height / 2);
                a.memory = Some(m);
                a.source = Some(src);
            } else {
                a.memory = Some(top);
            }
        } else if area.width >= NARROW {
            let cols = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(42), Constraint::Percentage(58)])
                .split(body);
            (a.frames, a.findings) = vsplit(cols[0], self.list_split(body.height));
            let (registers, viewer) = vsplit(cols[1], body.height * 45 / 100);
            a.registers = registers;
            self.place_viewer(&mut a, viewer);
        } else {
            // Narrow: the list pane last focused above the viewer, full width, so values fit;
            // it takes the rows it needs, between a third and 60% of the body.
            let need = self.list_need(self.list_pane(), body.width.saturating_sub(2), body.height);
            let top = need.min(body.height * 6 / 10).max(body.height / 3);
            let (list, viewer) = vsplit(body, top);
            match self.list_pane() {
                Pane::Registers => a.registers = list,
                Pane::Frames => a.frames = list,
                _ => a.findings = list,
            }
            a.narrow = true;
            self.place_viewer(&mut a, viewer);
        }
        a
    }

    fn place_viewer(&self, a: &mut Areas, r: Rect) {
        match self.viewer {
            Pane::Memory => a.memory = Some(r),
            Pane::Raw => a.raw = Some(r),
            Pane::Source => a.source = Some(r),
            _ => a.detail = Some(r),
        }
    }

    /// The height of the Frames pane in the left column (the Findings pane has the rest):
    /// each gets what its rows need when both fit, the smaller one its need otherwise, so
    /// neither keeps a large empty area while the other has rows to show.
    fn list_split(&self, h: u16) -> u16 {
        let n = self.current_thread().map(|t| t.frames.len()).unwrap_or(1).max(1) as u32;
        let nf = self.ir.findings.len().max(1) as u32;
        let miss = self.ir.missing_evidence.len() as u32;
        // Frames: one row each, or two (with path, arguments and pc); findings: one row each,
        // or up to `findings::MAX_ROWS` (the message wrapped); borders included. Rows both
        // cannot use go to the frames.
        let (fr1, fr2) = (n + 2, 2 * n + 2);
        let (fi1, fi4) = (nf + miss + 2, findings::MAX_ROWS as u32 * nf + miss + 2);
        let h32 = h as u32;
        let min = 5u32.min(h32 / 2);
        let top = if fr2 + fi1 <= h32 {
            fr2.max(h32.saturating_sub(fi4))
        } else if fr1 + fi1 <= h32 {
            fr1.max(h32.saturating_sub(fi4))
        } else if fi1 <= h32 / 2 {
            h32 - fi1
        } else if fr1 <= h32 / 2 {
            fr1
        } else {
            h32 * 55 / 100
        };
        // The findings keep at least their one-row-each need (up to 5 rows with the borders).
        let max = h32.saturating_sub(fi1.clamp(3, 5));
        top.clamp(min.min(max), max) as u16
    }

    /// Rows (borders included) a list pane needs to show everything at an inner `width`
    /// (counted up to about `cap`).
    fn list_need(&self, pane: Pane, width: u16, cap: u16) -> u16 {
        let cap = cap as usize;
        let rows = match pane {
            Pane::Frames => {
                let n = self.current_thread().map(|t| t.frames.len()).unwrap_or(1).max(1);
                n * 2
            }
            Pane::Registers => self.frame_registers().map(|r| r.regs.len()).unwrap_or(2).max(2),
            _ => {
                let w = (width as usize).saturating_sub(2).max(8);
                // Only until the pane is full: a dump with thousands of findings costs no more.
                let mut wrapped = 0;
                for f in &self.ir.findings {
                    let msg = super::super::common::clean(&f.message);
                    wrapped += (1 + super::super::common::wrap_words(&msg, w).len()).min(findings::MAX_ROWS);
                    if wrapped >= cap {
                        break;
                    }
                }
                wrapped.max(1) + self.ir.missing_evidence.len()
            }
        };
        (rows + 2).min(u16::MAX as usize) as u16
    }

    /// The panes not on screen at this size, in Tab order (the Source pane only when the
    /// selected frame's source was read).
    pub fn hidden_panes(&self, a: &Areas) -> Vec<Pane> {
        if a.too_small {
            return Vec::new();
        }
        TAB_ORDER
            .into_iter()
            .filter(|p| a.of(*p).is_none())
            .filter(|p| *p != Pane::Source || self.source_available())
            .collect()
    }

    /// Paints the whole screen. Each pane draws only inside its own `Rect`.
    pub fn draw(&self, frame: &mut TermFrame, area: Rect) {
        let a = self.areas(area);
        let buf = frame.buffer_mut();
        if a.too_small {
            header::too_small(self, area, buf);
            return;
        }
        header::header(self, a.header, buf);
        header::footer(self, a.footer, &self.hidden_panes(&a), buf);
        if let Some(r) = a.of(Pane::Frames) {
            frames::draw(self, r, buf);
        }
        if let Some(r) = a.of(Pane::Registers) {
            registers::draw(self, r, buf);
        }
        if let Some(r) = a.of(Pane::Findings) {
            findings::draw(self, r, buf);
        }
        if let Some(r) = a.detail {
            detail::draw(self, r, buf);
        }
        if let Some(r) = a.memory {
            memory::draw(self, r, buf);
        }
        if let Some(r) = a.raw {
            raw::draw(self, r, buf);
        }
        if let Some(r) = a.source {
            source::draw(self, r, buf);
        }
        match &self.mode {
            Mode::Help { scroll } => popup::help(self, area, *scroll, buf),
            Mode::Threads { selected } => popup::threads(self, area, *selected, buf),
            Mode::Stops { selected } => popup::stops(self, area, *selected, buf),
            Mode::Export => popup::export(self, area, buf),
            Mode::Notes { selected, confirm } => popup::notes(self, area, *selected, *confirm, buf),
            _ => {}
        }
    }

    pub fn mode_kind(&self) -> ModeKind {
        match self.mode {
            Mode::Normal => ModeKind::Normal,
            Mode::Help { .. } | Mode::Threads { .. } | Mode::Stops { .. } => ModeKind::Popup,
            Mode::Prompt { .. } => ModeKind::Prompt,
            Mode::Export => ModeKind::Export,
            Mode::Notes { .. } => ModeKind::Notes,
        }
    }
}
