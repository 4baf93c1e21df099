//! Follow mode's side of the state: taking finished analyses from the parse worker and
//! deciding where the view goes.

use super::*;

impl App {
    // ----- follow mode --------------------------------------------------------------

    /// `tracecheck tui --follow FILE`: starts with what FILE holds now (or nothing, when gdb
    /// has not created it yet) and opens on its newest stop.
    pub fn following(path: PathBuf, options: crate::pipeline::LoadOptions, theme: Theme) -> App {
        let mut ir = crate::pipeline::analyze_text(&path.to_string_lossy(), b"", &options);
        ir.raw = Some(String::new());
        let mut app = App::new(ir, Some(path.clone()), theme);
        app.follow = Some(Follow::new(path, options));
        app.auto = true;
        app.follow_tick(Instant::now());
        app.follow_wait(Instant::now());
        app
    }

    /// One poll of the followed file (the event loop calls it every
    /// [`follow::POLL_INTERVAL`]; tests call it directly with their own clock). Reads only
    /// the appended bytes; shows new complete lines in the Raw pane at once and hands them to
    /// the parse worker; takes a finished analysis when one is ready; asks for the next one
    /// when complete lines arrived, none is in flight and the last one's cost allows it
    /// (`PARSE_GAP_FACTOR`). Never waits for a parse. Returns whether anything on screen may
    /// have changed.
    pub fn follow_tick(&mut self, now: Instant) -> bool {
        let Some(f) = self.follow.as_mut() else { return false };
        let before = (f.missing, f.over_limit);
        let polled = f.poll();
        // The header shows both.
        let mut changed = (f.missing, f.over_limit) != before;
        match polled {
            Ok(p) => {
                if p.reset {
                    self.follow_reset();
                    changed = true;
                }
                if !p.text.is_empty() {
                    self.extend_raw(&p.text);
                    changed = true;
                    if let Some(f) = self.follow.as_mut() {
                        f.worker.append(p.text);
                        f.dirty = true;
                    }
                }
            }
            Err(e) => {
                let msg = format!("cannot read {}: {e}", self.ir.path);
                if self.status.as_ref().map(|(m, _)| m.as_str()) != Some(msg.as_str()) {
                    self.status = Some((msg, true));
                    changed = true;
                }
            }
        }
        changed |= self.follow_receive(now);
        if let Some(f) = self.follow.as_mut()
            && f.dirty
            && !f.worker.in_flight
            && f.next_parse.is_none_or(|t| now >= t)
        {
            f.worker.request();
            f.dirty = false;
        }
        changed
    }

    /// A parse is running on the worker.
    pub fn follow_busy(&self) -> bool {
        self.follow.as_ref().is_some_and(|f| f.worker.in_flight)
    }

    /// Takes a finished analysis from the worker, if one is ready (never blocks).
    pub fn follow_receive(&mut self, now: Instant) -> bool {
        let Some(done) = self.follow.as_mut().and_then(|f| f.worker.try_take()) else { return false };
        self.follow_apply(done, now);
        true
    }

    /// Waits for the parse in flight and takes it (the first screen, tests and benchmarks;
    /// the event loop never calls it). Returns whether one was taken.
    pub fn follow_wait(&mut self, now: Instant) -> bool {
        let Some(done) = self.follow.as_mut().and_then(|f| f.worker.wait(Duration::from_secs(120))) else {
            return false;
        };
        self.follow_apply(done, now);
        true
    }

    /// Appends complete lines to the raw text and its line index (no rescan of older text).
    pub(super) fn extend_raw(&mut self, text: &str) {
        let raw = self.ir.raw.get_or_insert_with(String::new);
        let old = raw.len();
        raw.push_str(text);
        if self.raw_lines.is_empty() {
            self.raw_lines.push(0);
        }
        // Starting at the newline that ended the old text: the line after it starts now.
        let from = old.saturating_sub(1);
        let len = raw.len();
        for i in memchr::memchr_iter(b'\n', &raw.as_bytes()[from..]) {
            let start = from + i + 1;
            if start < len && self.raw_lines.last().is_none_or(|&l| start > l) {
                self.raw_lines.push(start);
            }
        }
        self.raw_lower = OnceCell::new();
    }

    /// The followed file was truncated or replaced: forget everything read from it.
    pub(super) fn follow_reset(&mut self) {
        let opts = self.follow.as_ref().map(|f| f.options.clone()).unwrap_or_default();
        let mut ir = crate::pipeline::analyze_text(&self.ir.path, b"", &opts);
        ir.raw = Some(String::new());
        self.ir = ir;
        self.facts = Default::default();
        self.raw_lines = vec![0];
        self.raw_lower = OnceCell::new();
        (self.stop, self.thread, self.frame, self.register, self.finding) = (0, 0, 0, 0, 0);
        (self.raw_cursor, self.detail_scroll, self.memory_scroll) = (0, 0, 0);
        self.new_stop = None;
        self.auto = true;
        if let Some(f) = self.follow.as_mut() {
            f.worker.reset();
            f.dirty = true;
            f.next_parse = None;
        }
        let list = std::mem::take(&mut self.notes);
        self.set_notes(list);
        // The file's name, as in the header: a long path would push the news off the footer.
        let path = std::path::Path::new(&self.ir.path);
        let name = path.file_name().map_or_else(|| self.ir.path.clone(), |n| n.to_string_lossy().into_owned());
        self.status = Some((format!("{name} was truncated or replaced; reading it from the start"), false));
    }

    /// Takes a finished analysis of the text read so far and decides where the view goes: to
    /// the newest stop (and its top finding) when one arrived, unless the user is busy
    /// elsewhere.
    pub(super) fn follow_apply(&mut self, done: follow::Done, now: Instant) {
        let Some(f) = self.follow.as_ref() else { return };
        let lossy = f.lossy;
        let mut ir = done.analysis;
        let cost = done.cost;
        if lossy {
            ir.parsed.diagnostics.notes.insert(
                0,
                crate::model::Note { line: None, message: "input is not valid UTF-8; bad bytes were replaced".into() },
            );
        }
        ir.raw = Some(self.ir.raw.take().unwrap_or_default());
        let key = self.selection_key();
        let old_n = self.trace().stops.len();
        // The old model can be large: it is dropped on the worker, not here.
        let old = std::mem::replace(&mut self.ir, ir);
        self.facts = done.facts;
        if let Some(f) = self.follow.as_mut() {
            f.worker.discard(old);
        }
        let list = std::mem::take(&mut self.notes);
        self.set_notes(list);
        if let Some(f) = self.follow.as_mut() {
            f.parses += 1;
            f.last_parse = cost;
            f.total_parse += cost;
            // The parse has ended by `now`: wait PARSE_GAP_FACTOR times its cost.
            f.next_parse = Some(now + cost * follow::PARSE_GAP_FACTOR);
        }
        let n = self.trace().stops.len();
        if n == 0 {
            self.restore_selection(key);
            return;
        }
        let arrived = n > old_n;
        let idle = self.last_input.is_none_or(|t| now.saturating_duration_since(t) >= follow::GRACE);
        let on_last = old_n == 0 || self.stop + 1 >= old_n;
        if self.auto || (arrived && self.mode == Mode::Normal && (on_last || idle)) {
            self.jump_to_stop(n - 1);
            self.auto = true;
        } else {
            self.restore_selection(key);
            if arrived {
                self.new_stop = Some(n - 1);
                // A message about the old stop count ("stop 1/3") would contradict the notice.
                if self.status.as_ref().is_some_and(|(_, err)| !err) {
                    self.status = None;
                }
            }
        }
        if self.new_stop.is_some_and(|s| s >= n || self.stop >= s) {
            self.new_stop = None;
        }
    }

    /// Selects stop `si`, its crashed thread and its top-ranked finding (or its crash frame).
    pub fn jump_to_stop(&mut self, si: usize) {
        if si >= self.trace().stops.len() {
            return;
        }
        self.select_stop(si);
        self.detail_scroll = 0;
        match self.ir.findings.iter().position(|f| f.stop == Some(si)) {
            Some(i) => {
                self.select_finding(i);
                self.focus = Pane::Findings;
                self.item_pane = Pane::Findings;
            }
            None => {
                self.focus = Pane::Frames;
                self.item_pane = Pane::Frames;
            }
        }
        self.follow_raw();
        self.new_stop = None;
    }

    pub(super) fn selection_key(&self) -> SelectionKey {
        SelectionKey {
            stop: self.stop,
            thread: self.current_thread().map(|t| t.id.clone()),
            frame: self.frame,
            register: self.current_register().map(|r| r.name.clone()),
            finding: self.current_finding().map(|f| (f.rule, f.stop, f.thread.clone(), f.frame)),
        }
    }

    /// Puts the selection back after a re-parse, by identity where it still exists.
    pub(super) fn restore_selection(&mut self, key: SelectionKey) {
        let n = self.trace().stops.len();
        self.stop = key.stop.min(n.saturating_sub(1));
        let ti = match (&key.thread, self.current_stop()) {
            (Some(id), Some(s)) => s.threads.iter().position(|t| t.id == *id).or_else(|| s.crashed_thread_index()),
            (None, Some(s)) => s.crashed_thread_index(),
            _ => None,
        };
        self.thread = ti.unwrap_or(0);
        let nf = self.current_thread().map(|t| t.frames.len()).unwrap_or(0);
        self.frame = key.frame.min(nf.saturating_sub(1));
        let reg = self
            .frame_registers()
            .and_then(|set| key.register.as_ref().and_then(|name| set.regs.iter().position(|r| r.name == *name)));
        let nr = self.frame_registers().map(|r| r.regs.len()).unwrap_or(0);
        self.register = reg.unwrap_or(self.register.min(nr.saturating_sub(1)));
        let found = key.finding.as_ref().and_then(|(rule, stop, thread, frame)| {
            self.ir
                .findings
                .iter()
                .position(|f| f.rule == *rule && f.stop == *stop && f.thread == *thread && f.frame == *frame)
        });
        self.finding = found.unwrap_or(self.finding.min(self.ir.findings.len().saturating_sub(1)));
        self.raw_cursor = self.raw_cursor.min(self.raw_lines.len().saturating_sub(1));
    }

    /// `stop 2/3 · rr event 4100` (the rr part when the stop has an event number).
    pub fn stop_label(&self, si: usize) -> String {
        let n = self.trace().stops.len();
        let mut s = format!("stop {}/{n}", si + 1);
        if let Some(ev) = self.trace().stops.get(si).and_then(|s| s.rr_event) {
            s.push_str(&format!(" · rr event {ev}"));
        }
        s
    }
}
