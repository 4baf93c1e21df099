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
        if area.width >= WIDE.0 && area.height >= WIDE.1 {
            let halves = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
                .split(body);
            let cols = [Constraint::Percentage(30), Constraint::Percentage(36), Constraint::Percentage(34)];
            let top = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[0]);
            let bottom = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[1]);
            a.frames = top[0];
            a.registers = top[1];
            a.memory = Some(top[2]);
            a.findings = bottom[0];
            a.detail = Some(bottom[1]);
            a.raw = Some(bottom[2]);
        } else {
            let halves = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
                .split(body);
            let cols = [Constraint::Percentage(42), Constraint::Percentage(58)];
            let top = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[0]);
            let bottom = Layout::default().direction(Direction::Horizontal).constraints(cols).split(halves[1]);
            a.frames = top[0];
            a.registers = top[1];
            a.findings = bottom[0];
            match self.viewer {
                Pane::Memory => a.memory = Some(bottom[1]),
                Pane::Raw => a.raw = Some(bottom[1]),
                _ => a.detail = Some(bottom[1]),
            }
        }
        a
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
        header::footer(self, a.footer, buf);
        frames::draw(self, a.frames, buf);
        registers::draw(self, a.registers, buf);
        findings::draw(self, a.findings, buf);
        if let Some(r) = a.detail {
            detail::draw(self, r, buf);
        }
        if let Some(r) = a.memory {
            memory::draw(self, r, buf);
        }
        if let Some(r) = a.raw {
            raw::draw(self, r, buf);
        }
        match &self.mode {
            Mode::Help { scroll } => popup::help(self, area, *scroll, buf),
            Mode::Threads { selected } => popup::threads(self, area, *selected, buf),
            Mode::Stops { selected } => popup::stops(self, area, *selected, buf),
            Mode::Export => popup::export(self, area, buf),
            _ => {}
        }
    }

    pub fn mode_kind(&self) -> ModeKind {
        match self.mode {
            Mode::Normal => ModeKind::Normal,
            Mode::Help { .. } | Mode::Threads { .. } | Mode::Stops { .. } => ModeKind::Popup,
            Mode::Prompt { .. } => ModeKind::Prompt,
            Mode::Export => ModeKind::Export,
        }
    }
}
