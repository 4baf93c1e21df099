//! `update`: one [`Action`] applied to the state, returning the [`Effect`]s (file I/O) the
//! event loop performs; no I/O here.

use super::*;

impl App {
    // ----- update -------------------------------------------------------------------

    /// Applies one action. Never panics on any state.
    /// Applies an action to the state. Does no I/O: what needs the file system (saving a
    /// note, writing the export) comes back as [`Effect`]s for the event loop to perform
    /// (`tui::perform`), which reports each result with [`App::outcome`].
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        self.step(action);
        self.request_source();
        self.clamp_hscroll();
        std::mem::take(&mut self.effects)
    }

    /// Keeps each pane's sideways scroll within what its last draw could show.
    fn clamp_hscroll(&mut self) {
        let max = self.hscroll_max.get();
        for (h, m) in self.hscroll.iter_mut().zip(max) {
            *h = (*h).min(m);
        }
    }

    pub(super) fn step(&mut self, action: Action) {
        if let Action::Resize(w, h) = action {
            self.size = Rect::new(0, 0, w, h);
            return;
        }
        // Follow mode: the user is here; new stops no longer move the view while they look
        // at an earlier one (see `follow_parse`).
        self.last_input = Some(Instant::now());
        self.auto = false;
        self.update_mode(action);
        if self.new_stop.is_some_and(|s| self.stop >= s || s >= self.trace().stops.len()) {
            self.new_stop = None;
        }
    }

    pub(super) fn update_mode(&mut self, action: Action) {
        if !matches!(action, Action::Click { .. } | Action::Scroll { .. }) && self.mode == Mode::Normal {
            self.status = None;
        }
        match self.mode.clone() {
            Mode::Normal => self.update_normal(action),
            Mode::Help { scroll } => match action {
                Action::Down => self.mode = Mode::Help { scroll: scroll.saturating_add(1) },
                Action::Up => self.mode = Mode::Help { scroll: scroll.saturating_sub(1) },
                Action::PageDown => self.mode = Mode::Help { scroll: scroll.saturating_add(10) },
                Action::PageUp => self.mode = Mode::Help { scroll: scroll.saturating_sub(10) },
                Action::Top => self.mode = Mode::Help { scroll: 0 },
                Action::Bottom => {
                    let n = super::popup::HELP.lines().count() as u16;
                    self.mode = Mode::Help { scroll: n.saturating_sub(self.size.height.saturating_sub(4)) }
                }
                Action::Quit => self.quit = true,
                Action::Back | Action::Help | Action::Open => self.mode = Mode::Normal,
                _ => {}
            },
            Mode::Threads { selected } => {
                let n = self.current_stop().map(|s| s.threads.len()).unwrap_or(0);
                match action {
                    Action::Down => self.mode = Mode::Threads { selected: (selected + 1).min(n.saturating_sub(1)) },
                    Action::Up => self.mode = Mode::Threads { selected: selected.saturating_sub(1) },
                    Action::PageDown => {
                        self.mode = Mode::Threads { selected: (selected + 10).min(n.saturating_sub(1)) }
                    }
                    Action::PageUp => self.mode = Mode::Threads { selected: selected.saturating_sub(10) },
                    Action::Top => self.mode = Mode::Threads { selected: 0 },
                    Action::Bottom => self.mode = Mode::Threads { selected: n.saturating_sub(1) },
                    Action::Open => {
                        self.mode = Mode::Normal;
                        if selected < n {
                            self.select_thread(selected);
                            self.focus = Pane::Frames;
                            self.item_pane = Pane::Frames;
                            self.follow_raw();
                        }
                    }
                    Action::Quit => self.quit = true,
                    Action::Back | Action::Threads => self.mode = Mode::Normal,
                    _ => {}
                }
            }
            Mode::Stops { selected } => {
                let n = self.trace().stops.len();
                let last = n.saturating_sub(1);
                match action {
                    Action::Down => self.mode = Mode::Stops { selected: (selected + 1).min(last) },
                    Action::Up => self.mode = Mode::Stops { selected: selected.saturating_sub(1) },
                    Action::PageDown => self.mode = Mode::Stops { selected: (selected + 10).min(last) },
                    Action::PageUp => self.mode = Mode::Stops { selected: selected.saturating_sub(10) },
                    Action::Top => self.mode = Mode::Stops { selected: 0 },
                    Action::Bottom => self.mode = Mode::Stops { selected: last },
                    Action::Open => {
                        self.mode = Mode::Normal;
                        if selected < n {
                            self.jump_to_stop(selected);
                            self.status = Some((self.stop_label(selected), false));
                        }
                    }
                    Action::Quit => self.quit = true,
                    Action::Back | Action::Stops => self.mode = Mode::Normal,
                    _ => {}
                }
            }
            Mode::Export => match action {
                Action::ExportFile | Action::Open => {
                    self.mode = Mode::Normal;
                    self.export_file();
                }
                Action::ExportClipboard => {
                    self.mode = Mode::Normal;
                    self.export_clipboard();
                }
                Action::Back | Action::Quit => self.mode = Mode::Normal,
                _ => {}
            },
            Mode::Prompt { kind, mut text, cursor } => match action {
                Action::Input(c) => {
                    let mut cursor = cursor;
                    if text.chars().count() < 4000 {
                        text.insert(byte_at(&text, cursor), c);
                        cursor += 1;
                    }
                    self.mode = Mode::Prompt { kind, text, cursor };
                }
                Action::Backspace => {
                    let mut cursor = cursor;
                    if cursor > 0 {
                        cursor -= 1;
                        text.remove(byte_at(&text, cursor));
                    }
                    self.mode = Mode::Prompt { kind, text, cursor };
                }
                Action::Delete => {
                    if cursor < text.chars().count() {
                        text.remove(byte_at(&text, cursor));
                    }
                    self.mode = Mode::Prompt { kind, text, cursor };
                }
                Action::Left | Action::Right | Action::Top | Action::Bottom => {
                    let n = text.chars().count();
                    let cursor = match action {
                        Action::Left => cursor.saturating_sub(1),
                        Action::Right => (cursor + 1).min(n),
                        Action::Top => 0,
                        _ => n,
                    };
                    self.mode = Mode::Prompt { kind, text, cursor };
                }
                // Esc: nothing is saved; an edited note keeps its old text.
                Action::Back => self.mode = Mode::Normal,
                Action::Open => {
                    self.mode = Mode::Normal;
                    match kind {
                        PromptKind::Search => {
                            if !text.is_empty() {
                                self.last_search = Some(text);
                            }
                            self.search(true, true);
                        }
                        PromptKind::Note(target) => self.save_note(target, &text),
                        PromptKind::EditNote { id, target, original } => self.edit_note(id, target, &original, &text),
                    }
                }
                _ => {}
            },
            Mode::Notes { selected, confirm } => {
                let list = self.notes_list();
                let n = list.len();
                let last = n.saturating_sub(1);
                let mv = |s: usize| Mode::Notes { selected: s, confirm: false };
                match action {
                    Action::Down => self.mode = mv((selected + 1).min(last)),
                    Action::Up => self.mode = mv(selected.saturating_sub(1)),
                    Action::PageDown => self.mode = mv((selected + 10).min(last)),
                    Action::PageUp => self.mode = mv(selected.saturating_sub(10)),
                    Action::Top => self.mode = mv(0),
                    Action::Bottom => self.mode = mv(last),
                    Action::Open => {
                        if let Some(note) = list.get(selected).and_then(|&i| self.notes.get(i)) {
                            let text = note.text.clone();
                            let cursor = text.chars().count();
                            let kind = PromptKind::EditNote {
                                id: note.id.clone(),
                                target: note.target.clone(),
                                original: text.clone(),
                            };
                            self.mode = Mode::Prompt { kind, text, cursor };
                        }
                    }
                    Action::Delete => match list.get(selected).and_then(|&i| self.notes.get(i)) {
                        Some(note) if confirm => {
                            let id = note.id.clone();
                            self.mode = mv(selected);
                            self.delete_note(id);
                        }
                        Some(_) => {
                            self.mode = Mode::Notes { selected, confirm: true };
                            self.status =
                                Some(("press d again to delete this note; any other key keeps it".into(), false));
                        }
                        None => {}
                    },
                    Action::Quit => self.quit = true,
                    Action::Back | Action::Notes => self.mode = Mode::Normal,
                    _ => self.mode = mv(selected),
                }
            }
        }
    }

    pub(super) fn update_normal(&mut self, action: Action) {
        match action {
            Action::Quit => self.quit = true,
            Action::Up => self.move_by(-1),
            Action::Down => self.move_by(1),
            Action::PageUp => self.move_by(-(self.page() as isize)),
            Action::PageDown => self.move_by(self.page() as isize),
            Action::Top => self.move_by(isize::MIN / 2),
            // While the footer announces a new stop, End goes there (and follows again).
            Action::Bottom => match self.new_stop {
                Some(_) => {
                    let last = self.trace().stops.len().saturating_sub(1);
                    self.jump_to_stop(last);
                    self.auto = true;
                    self.status = Some((self.stop_label(last), false));
                }
                None => self.move_by(isize::MAX / 2),
            },
            // Sideways scroll of the focused pane (Detail wraps its lines instead).
            Action::Left | Action::Right => {
                if self.focus == Pane::Detail {
                    self.status = Some(("the Detail pane wraps its lines; nothing to scroll sideways".into(), false));
                } else {
                    let i = self.focus.index();
                    let max = self.hscroll_max.get()[i];
                    self.hscroll[i] = if action == Action::Left {
                        self.hscroll[i].saturating_sub(HSTEP)
                    } else {
                        self.hscroll[i].saturating_add(HSTEP).min(max)
                    };
                }
            }
            Action::NextPane | Action::PrevPane => {
                let i = TAB_ORDER.iter().position(|p| *p == self.focus).unwrap_or(0);
                let n = TAB_ORDER.len();
                let j = if action == Action::NextPane { (i + 1) % n } else { (i + n - 1) % n };
                self.focus_pane(TAB_ORDER[j]);
            }
            Action::Focus(p) => self.focus_pane(p),
            Action::Open => self.open(),
            Action::Back => {}
            Action::SearchStart => {
                self.mode = Mode::Prompt { kind: PromptKind::Search, text: String::new(), cursor: 0 }
            }
            Action::SearchNext => self.search(true, false),
            Action::SearchPrev => self.search(false, false),
            Action::Threads => {
                self.mode = Mode::Threads { selected: self.thread };
            }
            Action::Stops => {
                if self.trace().stops.is_empty() {
                    self.status = Some(("no stops in this dump yet".into(), false));
                } else {
                    self.mode = Mode::Stops { selected: self.stop };
                }
            }
            Action::Help => self.mode = Mode::Help { scroll: 0 },
            Action::NextStop | Action::PrevStop => {
                let n = self.trace().stops.len();
                if n > 1 {
                    let s = if action == Action::NextStop { (self.stop + 1) % n } else { (self.stop + n - 1) % n };
                    self.select_stop(s);
                    self.follow_raw();
                    self.status = Some((self.stop_label(s), false));
                } else {
                    self.status = Some(("this dump has one stop".into(), false));
                }
            }
            Action::AddNote => {
                self.mode = Mode::Prompt { kind: PromptKind::Note(self.note_target()), text: String::new(), cursor: 0 }
            }
            Action::AddTraceNote => {
                self.mode = Mode::Prompt { kind: PromptKind::Note(Target::Trace), text: String::new(), cursor: 0 }
            }
            Action::Notes => {
                if self.notes.is_empty() {
                    self.status =
                        Some(("no notes yet (a adds one on the selected item, A on the trace)".into(), false));
                } else {
                    self.mode = Mode::Notes { selected: 0, confirm: false };
                }
            }
            Action::Export => self.mode = Mode::Export,
            Action::ExportFile => self.export_file(),
            Action::ExportClipboard => self.export_clipboard(),
            Action::Click { column, row } => self.click(column, row),
            Action::Scroll { column, row, down } => {
                if let Some(p) = self.pane_at(column, row) {
                    let before = self.focus;
                    self.focus = p;
                    self.move_by(if down { 3 } else { -3 });
                    self.focus = before;
                }
            }
            Action::Input(_) | Action::Backspace | Action::Delete | Action::Resize(..) => {}
        }
    }

    pub(super) fn focus_pane(&mut self, p: Pane) {
        self.focus = p;
        if p.is_viewer() {
            self.viewer = p;
        } else {
            self.item_pane = p;
            self.follow_raw();
        }
    }

    /// Rows a page moves: the height of the focused pane.
    pub(super) fn page(&self) -> usize {
        let a = self.areas(self.size);
        a.of(self.focus).map(|r| r.height.saturating_sub(3) as usize).unwrap_or(10).max(1)
    }

    pub(super) fn move_by(&mut self, d: isize) {
        let step = |cur: usize, len: usize| -> usize {
            if len == 0 {
                return 0;
            }
            (cur as isize).saturating_add(d).clamp(0, len as isize - 1) as usize
        };
        match self.focus {
            Pane::Frames => {
                let n = self.current_thread().map(|t| t.frames.len()).unwrap_or(0);
                let p = step(self.frame, n);
                self.select_frame(p);
                self.item_pane = Pane::Frames;
                self.follow_raw();
            }
            Pane::Registers => {
                let n = self.frame_registers().map(|r| r.regs.len()).unwrap_or(0);
                self.register = step(self.register, n);
                self.item_pane = Pane::Registers;
                self.follow_raw();
            }
            Pane::Findings => {
                let n = self.ir.findings.len();
                if n > 0 {
                    let i = step(self.finding, n);
                    self.select_finding(i);
                    self.item_pane = Pane::Findings;
                    self.follow_raw();
                }
            }
            Pane::Detail => {
                self.detail_scroll = (self.detail_scroll as isize).saturating_add(d).clamp(0, u16::MAX as isize) as u16;
            }
            Pane::Memory => {
                let n = memory::line_count(self);
                self.memory_scroll = step(self.memory_scroll, n);
            }
            Pane::Raw => {
                self.raw_cursor = step(self.raw_cursor, self.raw_lines.len());
            }
            Pane::Source => {
                let n = match self.current_source() {
                    Some((_, _, SourceState::Read { lines, .. })) => lines.len(),
                    _ => 0,
                };
                let top = self.source_top.unwrap_or_else(|| super::super::source::centred_top(self));
                self.source_top = Some(step(top, n));
            }
        }
    }

    pub(super) fn open(&mut self) {
        match self.focus {
            Pane::Findings => {
                // The finding's frame, with its registers highlighted.
                self.select_finding(self.finding);
                self.focus = Pane::Registers;
                self.item_pane = Pane::Findings;
                self.viewer = Pane::Detail;
            }
            Pane::Frames => {
                self.focus = Pane::Registers;
                self.item_pane = Pane::Frames;
            }
            Pane::Registers => {
                self.item_pane = Pane::Registers;
                self.follow_raw();
                self.focus_pane(Pane::Raw);
            }
            Pane::Detail | Pane::Memory | Pane::Source => self.focus_pane(Pane::Raw),
            Pane::Raw => self.open_raw_line(),
        }
    }

    /// Enter on a raw line: select the frame, register or finding defined there.
    pub(super) fn open_raw_line(&mut self) {
        let line = self.raw_cursor as u32 + 1;
        let within = |s: &Span| s.first <= line && line <= s.last;
        if let Some(i) =
            self.ir.findings.iter().position(|f| f.evidence.iter().any(|e| e.lines.is_some_and(|s| within(&s))))
        {
            self.select_finding(i);
            self.item_pane = Pane::Findings;
            self.focus = Pane::Findings;
            return;
        }
        let t = self.trace();
        let mut hit = None;
        'outer: for (si, s) in t.stops.iter().enumerate() {
            for (ti, th) in s.threads.iter().enumerate() {
                if let Some(p) = th.frames.iter().position(|f| within(&f.span)) {
                    hit = Some((si, ti, p, None));
                    break 'outer;
                }
                for (idx, set) in &th.registers {
                    if let Some(ri) = set.regs.iter().position(|r| within(&r.span)) {
                        let p = th.frames.iter().position(|f| f.index == *idx).unwrap_or(0);
                        hit = Some((si, ti, p, Some(ri)));
                        break 'outer;
                    }
                }
            }
        }
        match hit {
            Some((si, ti, p, reg)) => {
                if si != self.stop {
                    self.select_stop(si);
                }
                if ti != self.thread {
                    self.select_thread(ti);
                }
                self.select_frame(p);
                if let Some(ri) = reg {
                    self.register = ri;
                    self.focus = Pane::Registers;
                    self.item_pane = Pane::Registers;
                } else {
                    self.focus = Pane::Frames;
                    self.item_pane = Pane::Frames;
                }
            }
            None => self.status = Some((format!("line {line} defines no frame, register or finding evidence"), false)),
        }
    }

    pub(super) fn pane_at(&self, column: u16, row: u16) -> Option<Pane> {
        let a = self.areas(self.size);
        TAB_ORDER.into_iter().find(|p| {
            a.of(*p).is_some_and(|r| column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height)
        })
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        let Some(p) = self.pane_at(column, row) else { return };
        let a = self.areas(self.size);
        let Some(r) = a.of(p) else { return };
        self.focus_pane(p);
        if row <= r.y || row + 1 >= r.y + r.height {
            return;
        }
        let i = (row - r.y - 1) as usize;
        match p {
            Pane::Frames => {
                let per = frames::rows_per(self, r.height.saturating_sub(2));
                let target = self.frames_offset.get() + i / per;
                if self.current_thread().is_some_and(|t| target < t.frames.len()) {
                    self.select_frame(target);
                    self.follow_raw();
                }
            }
            Pane::Registers => {
                let target = self.registers_offset.get() + i;
                if self.frame_registers().is_some_and(|s| target < s.regs.len()) {
                    self.register = target;
                    self.follow_raw();
                }
            }
            Pane::Findings => {
                let target = findings::row_to_finding(self, i);
                if let Some(t) = target {
                    self.select_finding(t);
                    self.follow_raw();
                }
            }
            Pane::Raw => {
                let target = self.raw_top.get().saturating_add(i);
                if target < self.raw_lines.len() {
                    self.raw_cursor = target;
                }
            }
            Pane::Detail | Pane::Memory | Pane::Source => {}
        }
    }

    // ----- search -------------------------------------------------------------------

    /// `/`, `n`, `N`: searches the focused pane (Detail and Memory search the raw dump).
    pub(super) fn search(&mut self, forward: bool, fresh: bool) {
        let Some(q) = self.last_search.clone() else {
            self.status = Some(("no previous search (type / to search)".into(), false));
            return;
        };
        let pane = match self.focus {
            Pane::Detail | Pane::Memory | Pane::Source => Pane::Raw,
            p => p,
        };
        let found = match pane {
            Pane::Frames => {
                let frames: Vec<String> = self
                    .current_thread()
                    .map(|t| t.frames.iter().map(crate::report::frame_line).collect())
                    .unwrap_or_default();
                cyclic(self.frame, frames.len(), forward, fresh, |i| matches(&frames[i], &q)).inspect(|&i| {
                    self.select_frame(i);
                    self.item_pane = Pane::Frames;
                })
            }
            Pane::Registers => {
                let names: Vec<String> = self
                    .frame_registers()
                    .map(|s| {
                        s.regs.iter().map(|r| format!("{} {}", r.name, r.natural.as_deref().unwrap_or(""))).collect()
                    })
                    .unwrap_or_default();
                cyclic(self.register, names.len(), forward, fresh, |i| matches(&names[i], &q)).inspect(|&i| {
                    self.register = i;
                })
            }
            Pane::Findings => {
                let texts: Vec<String> =
                    self.ir.findings.iter().map(|f| format!("{} {} {}", f.rule, f.title, f.message)).collect();
                cyclic(self.finding, texts.len(), forward, fresh, |i| matches(&texts[i], &q)).inspect(|&i| {
                    self.select_finding(i);
                })
            }
            _ => self.search_raw(&q, forward, fresh),
        };
        match found {
            Some(_) => {
                if pane == Pane::Raw {
                    self.focus_pane(Pane::Raw);
                    self.raw_top.set(usize::MAX);
                } else {
                    self.follow_raw();
                }
                self.status = Some((format!("/{q}"), false));
            }
            None => self.status = Some((format!("Pattern not found: {}", crate::report::safe(&q)), true)),
        }
    }

    pub(super) fn search_raw(&mut self, q: &str, forward: bool, fresh: bool) -> Option<usize> {
        if self.raw_file.is_some() {
            let found = self.search_raw_file(q, forward, fresh);
            if let Some(l) = found {
                self.raw_cursor = l;
            }
            return found;
        }
        let raw = self.ir.raw.as_deref()?;
        let smart = !q.chars().any(|c| c.is_uppercase());
        let hay: &[u8] =
            if smart { self.raw_lower.get_or_init(|| raw.to_lowercase().into_bytes()) } else { raw.as_bytes() };
        // Lower-casing can change byte lengths of non-ASCII text; fall back to exact search.
        let (hay, needle): (&[u8], Vec<u8>) = if smart && hay.len() == raw.len() {
            (hay, q.to_lowercase().into_bytes())
        } else {
            (raw.as_bytes(), q.as_bytes().to_vec())
        };
        let finder = memchr::memmem::Finder::new(&needle);
        let n = self.raw_lines.len();
        if n == 0 {
            return None;
        }
        let cur = self.raw_cursor.min(n - 1);
        let line_of = |off: usize| self.raw_lines.partition_point(|&s| s <= off).saturating_sub(1);
        let found = if forward {
            let start_line = if fresh { cur } else { cur + 1 };
            let start = self.raw_lines.get(start_line).copied().unwrap_or(hay.len());
            finder
                .find(&hay[start.min(hay.len())..])
                .map(|o| line_of(start + o))
                .or_else(|| finder.find(hay).map(line_of))
        } else {
            let end = self.raw_lines.get(cur).copied().unwrap_or(hay.len());
            let rfinder = memchr::memmem::FinderRev::new(&needle);
            rfinder.rfind(&hay[..end.min(hay.len())]).map(line_of).or_else(|| rfinder.rfind(hay).map(line_of))
        };
        if let Some(l) = found {
            self.raw_cursor = l;
        }
        found
    }
}

/// Lines of a file-backed raw text read and searched at a time (about 1 MB of a transcript).
const SEARCH_BLOCK: usize = 16 << 10;

impl App {
    /// [`App::search_raw`] on a text read back from the file (`raw_file`): the same lines are
    /// found, a block of lines at a time, so no copy of the whole text is made.
    fn search_raw_file(&self, q: &str, forward: bool, fresh: bool) -> Option<usize> {
        let f = self.raw_file.as_ref()?;
        let n = self.raw_lines.len();
        if n == 0 {
            return None;
        }
        let smart = !q.chars().any(|c| c.is_uppercase());
        let needle = if smart { q.to_lowercase() } else { q.to_string() };
        // The first (or last) line of `a..b` holding the needle.
        let find = |a: usize, b: usize, last: bool| -> Option<usize> {
            let start = *self.raw_lines.get(a)? as u64;
            let end = self.raw_lines.get(b).map_or(f.len(), |&e| e as u64);
            let bytes = f.bytes(start, end);
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            if smart {
                text = text.to_lowercase();
            }
            let hay = text.as_bytes();
            let at = if last {
                memchr::memmem::rfind(hay, needle.as_bytes())
            } else {
                memchr::memmem::find(hay, needle.as_bytes())
            }?;
            Some(a + memchr::memchr_iter(b'\n', &hay[..at]).count())
        };
        let blocks =
            |from: usize, to: usize| (from..to).step_by(SEARCH_BLOCK).map(move |a| (a, (a + SEARCH_BLOCK).min(to)));
        let cur = self.raw_cursor.min(n - 1);
        if forward {
            let start_line = if fresh { cur } else { cur + 1 };
            blocks(start_line.min(n), n).chain(blocks(0, n)).find_map(|(a, b)| find(a, b, false))
        } else {
            let back = |to: usize| {
                (0..to.div_ceil(SEARCH_BLOCK)).rev().map(move |k| (k * SEARCH_BLOCK, ((k + 1) * SEARCH_BLOCK).min(to)))
            };
            back(cur).chain(back(n)).find_map(|(a, b)| find(a, b, true))
        }
    }
}

/// Columns one ← or → moves a pane sideways.
pub const HSTEP: usize = 8;

/// The byte offset of char `i` of `s` (its length past the end).
fn byte_at(s: &str, i: usize) -> usize {
    s.char_indices().nth(i).map(|(b, _)| b).unwrap_or(s.len())
}

/// The next index after (or before) `cur`, wrapping, for which `hit` is true.
pub(super) fn cyclic(cur: usize, len: usize, forward: bool, fresh: bool, hit: impl Fn(usize) -> bool) -> Option<usize> {
    if len == 0 {
        return None;
    }
    let first = if fresh { 0 } else { 1 };
    (first..=len).map(|k| if forward { (cur + k) % len } else { (cur + len * 2 - k) % len }).find(|&i| hit(i))
}
