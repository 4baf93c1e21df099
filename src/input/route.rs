//! The line loop: each cleaned line routed by the command that produced it (when the
//! transcript echoes `(gdb) cmd`) or by its shape, to the dialect parsers.

use super::*;
use std::borrow::Cow;

/// The longest text kept waiting for the rest of its line after a pager prompt.
const PAGER_HEAD_MAX: usize = 8 * 1024;

impl Builder {
    pub(super) fn feed(&mut self, raw: &str, n: u32) {
        self.diag.lines_total += 1;
        let raw = if raw.len() > self.limits.max_line_len {
            let mut cut = self.limits.max_line_len;
            while !raw.is_char_boundary(cut) {
                cut -= 1;
            }
            self.note(Some(n), format!("line is {} bytes long; only the first {} were read", raw.len(), cut));
            &raw[..cut]
        } else {
            raw
        };
        let (mut line, marks) = clean::clean_line(raw);
        // gdb's pager prompt left in a paste. It is printed where the screen filled, which can
        // be inside a line gdb had wrapped (`… at futex-i--Type <RET> for more, q to quit, c to
        // continue without paging--`, the rest `nternal.c:87` on the next line); what follows
        // the prompt on its own line is the key the user typed. The line before the prompt is
        // joined with the next one unless that one starts a record of its own.
        if let Some(head) = self.pager_head.take() {
            let t = line.trim_start();
            let fresh = t.is_empty()
                || t.starts_with('#') && t[1..].starts_with(|c: char| c.is_ascii_digit())
                || t.starts_with("Thread ")
                || t.starts_with("(gdb)");
            if fresh {
                // The prompt's line was counted as understood; it is not if its text is not.
                if !self.line(&head, n.saturating_sub(1)) {
                    self.diag.lines_recognized = self.diag.lines_recognized.saturating_sub(1);
                    self.unrecognized(&head, n.saturating_sub(1));
                }
            } else {
                line = Cow::Owned(format!("{head}{line}"));
            }
        }
        if let Some(p) = clean::pager_prompt(&line) {
            let head = line[..p].to_string();
            self.recognized();
            // A join is one line's continuation: a head longer than a line may be (prompts
            // chained line after line in hostile input) is read as it stands, so the text
            // carried over never grows past one line.
            if head.len() > self.limits.max_line_len.min(PAGER_HEAD_MAX) {
                if !self.line(&head, n) {
                    self.diag.lines_recognized = self.diag.lines_recognized.saturating_sub(1);
                    self.unrecognized(&head, n);
                }
            } else if !head.trim().is_empty() {
                self.pager_head = Some(head);
            }
            return;
        }
        if marks.fence {
            self.recognized();
            return;
        }
        if self.line(&line, n) {
            self.recognized();
        } else {
            self.unrecognized(&line, n);
        }
    }

    /// Routes one clean line. Returns whether it was recognized.
    pub(super) fn line(&mut self, l: &str, n: u32) -> bool {
        // rsyslog writes a newline inside a message as `#012`: a whole multi-line report (a
        // systemd-coredump stack) forwarded as one line. Each piece is a line of its own; the
        // line is read when every piece is.
        // (The prefix first: it rejects the common line by its first byte, inline, where a
        // substring search of every line was a tenth of the parse; `rest` holding `#012`
        // is what the old `l.contains("#012")` pre-check let through.)
        if let Some(rest) = clean::service_prefix_rest(l)
            && let Some((first, _)) = rest.split_once("#012")
        {
            let prefix = &l[..l.len() - rest.len()];
            let mut all = self.line(&format!("{prefix}{first}"), n);
            for part in rest.split("#012").skip(1) {
                all &= self.line(part, n);
            }
            return all;
        }
        // A crash printed through a log collector: `Mar 04 11:02:31 host app[88121]: ` (the
        // journal) and/or `app-worker-1  | ` (docker compose). The text after the prefix is
        // the tool's own line; read it as such (a journal line no parser knows stays a message
        // of the kernel reader, as before).
        if let Some(rest) = clean::service_prefix_rest(l)
            && self.line(rest, n)
        {
            return true;
        }
        // A daemon's own report through a bare `prog[pid]: ` prefix (syslog without timestamp or
        // host): peeled only when the text behind it opens a handler's report, or continues one
        // read behind the same prefix (a program's other bracketed output stays as it is).
        if let Some((ident, rest)) = clean::bare_prog_prefix(l) {
            let same = self.handlers.bare.as_deref() == Some(ident);
            if (same || self.handlers.mode == handlers::HandlerMode::None) && handlers::line(self, rest, n) {
                if !same {
                    self.handlers.bare = Some(ident.into());
                }
                return true;
            }
        }
        // Inside a signal handler's or libc's report, its rows are its own.
        if self.handlers.mode != handlers::HandlerMode::None {
            if handlers::line(self, l, n) {
                return true;
            }
            self.handlers.mode = handlers::HandlerMode::None;
        }
        // A debugger's stop line or prompt ends a sanitizer report: UBSan's and TSan's end at
        // `SUMMARY:` with no closing line (ASan's `==PID==ABORTING` closes it), and gdb's
        // backtrace that follows (`#7 0x… in payload_len (pkt=<optimized out>) at ./src/u.c:9`)
        // is gdb's, not a report stack.
        if self.san.active && sanitizer::debugger_takes_over(l) {
            self.san.active = false;
        }
        // Inside an LLVM stack dump or a coredumpctl report, its `#N 0x…` rows are its own.
        if self.dumps.mode != dumps::DumpMode::None {
            if dumps::line(self, l, n) {
                return true;
            }
            if !l.trim().is_empty() {
                self.dumps.mode = dumps::DumpMode::None;
            }
        }
        if let Some(w) = self.wrap_tail.take()
            && self.wrap_tail_closes(w, l, n)
        {
            return true;
        }
        let after_frame = std::mem::replace(&mut self.after_frame_line, false);
        let after_missing = std::mem::replace(&mut self.after_missing_source, false);
        // Hot path: backtrace lines and bt-full locals.
        let first = l.as_bytes().first().copied().unwrap_or(b'\n');
        if first == b'#' && self.san.active && sanitizer::line(self, l, n) {
            return true;
        }
        if first == b'#'
            && let Some(f) = self.frame_line_ahead(l)
        {
            self.end_frame_cont(n);
            self.gdb_frame(f, l, n);
            return true;
        }
        // A paste hard-wrapped in the middle of a token: the tail starts at column 0.
        if first != b' ' && first != b'\t' && self.frame_cont.is_some() && self.frame_continues(l, n) {
            return true;
        }
        if first == b' ' || first == b'\t' {
            if self.frame_cont.is_some() && self.frame_continues(l, n) {
                return true;
            }
            if self.locals_active {
                // `bt full` indents locals by 8 spaces: skipped 8 at a time, then the rest
                // as `trim_ascii` would (same result).
                let t = l[clean::leading_spaces(l.as_bytes())..].trim_ascii();
                // `info threads`' header after a bare `bt` (gdb -batch echoes no command):
                // its rows are no locals.
                if t.starts_with("Id ") && t.contains("Target Id") {
                    self.flush_locals();
                    self.locals_active = false;
                } else if !t.is_empty() {
                    self.end_frame_cont(n);
                    self.push_local(t);
                    return true;
                }
            }
        }
        self.end_frame_cont(n);
        if self.locals_active {
            if self.locals_warning && looks_like_value(l) {
                self.push_local(l.trim());
                return true;
            }
            if l.starts_with("No locals.")
                || l.starts_with("No symbol table info available.")
                || l.starts_with("No arguments.")
            {
                return true;
            }
        }
        // An lldb frame line whose argument summary goes on over the next lines.
        if self.lldb.pending_frame.is_some() && lldb::frame_continues(self, l) {
            return true;
        }
        // A multi-line printed value.
        if self.pending_print.is_some() {
            self.print_continue(l, n);
            return true;
        }
        // A lone frame line followed by something that is not a frame: a frame selection.
        if let Some(k) = self.lone_frame.take() {
            self.selected_frame = k;
            self.last_frame_index = None;
        }
        let trimmed = l.trim_start();
        if self.message_follow > 0 {
            if trimmed.is_empty() && std::mem::take(&mut self.v8_blank) {
                return true;
            } else if trimmed.is_empty() {
                self.message_follow = 0;
            } else if self.message_continuation(trimmed, n) {
                self.v8_blank = false;
                return true;
            }
        }
        self.v8_blank = false;
        if trimmed.is_empty() {
            self.flush_locals();
            self.last_frame_index = None;
            julia::end_versioninfo(self);
            if matches!(self.ctx, Ctx::JuliaNative | Ctx::JuliaStacktrace) {
                julia::blank(self);
            }
            return true;
        }
        if let Some((dialect, cmd)) = gdb::prompt(trimmed) {
            self.flush_locals();
            self.context = context::Pane::None;
            self.command(dialect, cmd, n);
            return true;
        }
        // The shell command or REPL input that started it all (`$ rr replay`, `julia> f()`).
        if let Some(cmd) = trimmed.strip_prefix("$ ") {
            match cmd.split_whitespace().next() {
                Some("rr") => self.saw(Format::Rr),
                Some("gdb") => self.saw(Format::Gdb),
                Some("julia") => self.saw(Format::Julia),
                _ => {}
            }
            return true;
        }
        if trimmed.starts_with("julia> ") {
            self.saw(Format::Julia);
            return true;
        }
        if self.warning_lines > 0 {
            self.warning_lines -= 1;
            if trimmed.starts_with("of file ")
                || trimmed.starts_with("Use `info auto-load")
                || trimmed.starts_with("To enable execution of this file")
                || trimmed.starts_with("add-auto-load-safe-path")
                || trimmed.starts_with("line to your configuration file")
                || trimmed.starts_with("For more information about this security")
                || trimmed.starts_with("\"Auto-loading safe path\"")
                || trimmed.starts_with("info \"(gdb)Auto-loading")
                || trimmed.starts_with("set auto-load safe-path /")
            {
                return true;
            }
            self.warning_lines = 0;
        }
        if after_frame && gdb::is_spaced_source_line(trimmed) {
            self.source_line_seen(trimmed);
            return true;
        }
        if after_missing && trimmed.starts_with("in ") {
            return true;
        }
        // Context-directed output of `info locals` / `info args`.
        if matches!(self.ctx, Ctx::Locals | Ctx::Args) && (self.locals_depth > 0 || is_local_line(l)) {
            self.locals_active = true;
            self.push_local(l.trim());
            return true;
        }
        // A gdb extension's context panes (PEDA, pwndbg, GEF).
        if context::line(self, l, n) {
            return true;
        }
        // rr's and Julia's own lines are distinctive; try them before gdb's shapes.
        if rr::line(self, trimmed, n) {
            return true;
        }
        // LLVM's crash report and coredumpctl's before Go's (`fatal error: error in backend:`).
        if dumps::line(self, l, n) || rust::line(self, l, n) {
            return true;
        }
        if companion::line(self, trimmed, n) || go::line(self, l, n) || lldb::line(self, l, n) {
            return true;
        }
        // Checker reports, the kernel log and strace (issue #17).
        if valgrind::line(self, l, n) || sanitizer::line(self, l, n) || kernel::line(self, l, n) {
            return true;
        }
        if handlers::line(self, l, n) {
            return true;
        }
        if julia::line(self, l, n) {
            return true;
        }
        if self.gdb_line(l, trimmed, n) {
            return true;
        }
        if julia::fallback(self, trimmed, n) {
            return true;
        }
        // Not understood: reported, and otherwise ignored (an interleaved log line must not
        // end a `bt full` locals block or a `thread apply` section).
        false
    }

    pub(super) fn gdb_frame(&mut self, g: GdbFrameLine<'_>, l: &str, n: u32) {
        self.saw(Format::Gdb);
        // A `#0` right after a stop line is the stop location (gdb prints it so for cores).
        if self.expect_location && g.index == 0 && !matches!(self.ctx, Ctx::Backtrace { .. }) {
            self.put_stop_location(&g, n, Some(l));
            // A `#1` that follows continues this backtrace; it selects nothing (registers
            // printed after it are frame #0's, the frame a stop selects).
            self.last_frame_index = Some(0);
            return;
        }
        self.expect_location = false;
        // Is this a continuation of a running backtrace?
        let continuing = matches!(self.last_frame_index, Some(k) if g.index == k + 1);
        self.lone_frame = None;
        if !continuing
            && !matches!(self.ctx, Ctx::Backtrace { .. })
            && (g.index != 0 || self.last_frame_index.is_none())
        {
            // `frame 3` / `up` output (or a bt that starts mid-way): remember as lone.
            self.lone_frame = Some(g.index);
        }
        let ti = self.frame_thread();
        let frame = self.frame_from_gdb(&g, n);
        let pos = self.put_frame(ti, frame);
        self.mark_inlined_callee(ti, pos);
        if g.index == 0 && self.bt_thread.is_some() {
            self.match_stop_location(ti);
        }
        self.last_frame_index = Some(g.index);
        self.locals_active = true;
        self.locals_target = Some((ti, pos));
        self.locals_buf.clear();
        self.locals_depth = 0;
        self.locals_warning = false;
        if g.truncated
            || (g.file.is_none() && g.module.is_none() && !g.signal_handler)
            || (g.file.is_some() && g.line.is_none())
        {
            self.frame_text.clear();
            self.frame_text.push_str(l.trim_end());
            self.frame_cont =
                Some(FrameCont { frame: Some((ti, pos)), location: false, open: g.truncated, index: g.index });
        }
        self.after_frame_line = true;
        self.extend_stop_span(n);
    }

    /// Joins a wrapped frame line's continuation (`    at ../x.c:42`, `    b=2) at …`) and
    /// re-reads the whole frame. Returns whether the line was a continuation.
    pub(super) fn frame_continues(&mut self, l: &str, n: u32) -> bool {
        let Some(c) = self.frame_cont.as_ref() else { return false };
        let t = l.trim();
        let indented = l.starts_with([' ', '\t']);
        // A gdb pretty-printer's `Python Exception <class '…'>: …` inside an argument ends its line;
        // gdb then prints the rest of the frame at column 0: `) at query.cc:77`.
        let closes = c.open && !indented && (t.starts_with(") at ") || t.starts_with(") from "));
        let mid_token = !indented && (closes || self.frame_wrapped_mid_token(c.open, t));
        if !(mid_token || (indented && (c.open || t.starts_with("at ") || t.starts_with("from ")))) {
            return false;
        }
        let (target, location, index) = (c.frame, c.location, c.index);
        let mut text = std::mem::take(&mut self.frame_text);
        if !mid_token && !text.ends_with(' ') && !text.ends_with('(') {
            text.push(' ');
        }
        text.push_str(if mid_token { l.trim_end() } else { t });
        if text.len() > self.limits.max_line_len {
            // A runaway continuation: stop joining.
            self.frame_cont = None;
            self.frame_text = text;
            return true;
        }
        let parsed = gdb::frame_line(&text).map(|g| (self.frame_from_gdb(&g, n), g.truncated));
        if let Some((f, open)) = parsed {
            let done = !open && (f.file.is_some() || f.module.is_some());
            if let Some((ti, pos)) = target {
                if let Some(si) = self.stop
                    && let Some(old) = self.trace.stops[si].threads.get_mut(ti).and_then(|t| t.frames.get_mut(pos))
                    && old.index == index
                {
                    old.function = f.function.clone();
                    old.args = f.args.clone();
                    old.file = f.file.clone();
                    old.line = f.line;
                    old.module = f.module.clone();
                    old.span.extend_to(n);
                }
                self.mark_inlined_callee(ti, pos);
            }
            if location
                && let Some(si) = self.stop
                && let Some(loc) = self.stop_location[si].as_mut()
            {
                loc.function = f.function.clone();
                loc.args = f.args.clone();
                loc.file = f.file.clone();
                loc.line = f.line;
                loc.module = f.module.clone();
                loc.span.extend_to(n);
            }
            match self.frame_cont.as_mut() {
                Some(c) if !done => c.open = open,
                _ => self.frame_cont = None,
            }
        }
        self.frame_text = text;
        self.after_frame_line = true;
        self.extend_stop_span(n);
        true
    }

    /// The rest of a line that a paste cut inside a token: one word at column 0 that closes
    /// the open quote or `<…>` of the line before. Returns whether `l` was that rest.
    pub(super) fn wrap_tail_closes(&mut self, w: WrapTail, l: &str, n: u32) -> bool {
        if l.is_empty() || l.contains(char::is_whitespace) {
            return false;
        }
        match w {
            WrapTail::Quote => l.contains('"'),
            WrapTail::Natural { si, ti, frame, name, text } => {
                if !l.ends_with('>') || l.contains('<') {
                    return false;
                }
                let Some(set) = self
                    .trace
                    .stops
                    .get_mut(si)
                    .and_then(|st| st.threads.get_mut(ti))
                    .and_then(|t| t.registers.get_mut(&frame))
                else {
                    return false;
                };
                let value = set.reg(&name).and_then(|r| r.value);
                let mut span = set.reg(&name).map(|r| r.span).unwrap_or(Span::line(n));
                span.extend_to(n);
                set.set(Register { name, value, natural: Some(format!("{text}{l}").into()), span });
                set.span.extend_to(n);
                self.extend_stop_span(n);
                true
            }
        }
    }

    /// Is `t`, a line at column 0 after a frame line, the rest of that frame line cut in the
    /// middle of a token by a paste? Only when that is unambiguous: the frame's `at FILE`
    /// lacks its `:LINE` and `t` is `:LINE`, or the frame is inside an unclosed string
    /// argument and `t` either has no blank (more of the string) or closes the string and
    /// the argument list so that the joined line is a whole frame.
    pub(super) fn frame_wrapped_mid_token(&self, open: bool, t: &str) -> bool {
        let text = &self.frame_text;
        if let Some(d) = t.strip_prefix(':') {
            return !d.is_empty()
                && d.bytes().all(|b| b.is_ascii_digit())
                && gdb::frame_line(text).is_some_and(|g| g.file.is_some() && g.line.is_none() && !g.truncated);
        }
        if !open
            || text.bytes().filter(|&b| b == b'"').count() % 2 == 0
            || ["(gdb)", "(lldb)", "(rr)"].iter().any(|p| t.starts_with(p))
        {
            return false;
        }
        if !t.contains(char::is_whitespace) {
            return true;
        }
        let joined = format!("{text}{t}");
        gdb::frame_line(&joined).is_some_and(|g| !g.truncated && (g.file.is_some() || g.module.is_some()))
    }

    /// The frame line did not continue: a cut-off argument list is final now.
    pub(super) fn end_frame_cont(&mut self, n: u32) {
        if let Some(c) = self.frame_cont.take()
            && c.open
        {
            self.note(Some(n.saturating_sub(1)), format!("frame #{} is cut off (argument list not closed)", c.index));
        }
    }

    /// A `#0` frame of a `thread apply all bt` section: when it is the stop's location, that
    /// thread is the one that stopped (how cores say which thread crashed).
    pub(super) fn match_stop_location(&mut self, ti: usize) {
        let Some(si) = self.stop else { return };
        if self.stop_thread[si].is_some() {
            return;
        }
        let Some(loc) = self.stop_location[si].as_ref() else { return };
        let th = &self.trace.stops[si].threads[ti];
        let Some(f) = th.frames.first().filter(|f| f.index == 0) else { return };
        let hit = match (loc.pc, f.pc) {
            (Some(a), Some(b)) => a == b.0,
            _ => loc.function.is_some() && f.function == loc.function && f.file == loc.file && f.line == loc.line,
        };
        if hit {
            let id = th.id.clone();
            self.stop_thread[si] = Some(id);
            self.trace.stops[si].threads[ti].crashed = true;
            if self.thread.is_none() {
                self.thread = Some(ti);
            }
        }
    }

    /// A source line echoed after a frame (`42\tx = 1;`): the frame is selected.
    pub(super) fn source_line_seen(&mut self, t: &str) {
        if let Some(k) = self.lone_frame.take() {
            self.selected_frame = k;
            self.last_frame_index = None;
        }
        if t.ends_with("No such file or directory.") {
            self.after_missing_source = true;
        }
    }

    pub(super) fn gdb_line(&mut self, l: &str, t: &str, n: u32) -> bool {
        // gdb's notes while it stops: kept with the stop (`p $_siginfo` failed; debuginfod
        // fetched a source file).
        if t.starts_with("Unable to read siginfo") || t.starts_with("Downloading source file ") {
            self.add_message(t, n);
            return true;
        }
        if let Some(r) = t.strip_prefix("Backtrace stopped: ") {
            let ti = self.frame_thread();
            let si = self.ensure_stop();
            let th = &mut self.trace.stops[si].threads[ti];
            th.backtrace_stopped = Some(r.trim().into());
            th.backtrace_stop = Some(backtrace_stop(r.trim()));
            self.flush_locals();
            return true;
        }
        // Context-directed shapes first.
        match self.ctx {
            Ctx::Mappings => {
                if let Some(m) = gdb::mapping_row(l) {
                    self.put_mapping(m, n);
                    return true;
                }
            }
            Ctx::Libraries => {
                if let Some(s) = gdb::sharedlib_row(l) {
                    self.put_library(s, n);
                    return true;
                }
            }
            Ctx::InfoThreads => {
                if let Some(r) = gdb::info_threads_row(l) {
                    self.put_info_threads_row(r, n);
                    return true;
                }
            }
            Ctx::Symbol => {
                if let Some(s) = gdb::symbol_line(t) {
                    self.put_symbol(s, n);
                    return true;
                }
            }
            Ctx::Breakpoints => {
                // `1       breakpoint     keep y   0x… in f at x.c:3`, `1.2   y   0x… in …`,
                // `\tbreakpoint already hit 2 times`, `\tstop only if x > 3`.
                let first = t.split_whitespace().next().unwrap_or("");
                let numbered = !first.is_empty() && first.bytes().all(|c| c.is_ascii_digit() || c == b'.');
                if numbered
                    || t.starts_with("breakpoint already hit ")
                    || t.starts_with("stop only if ")
                    || t.starts_with("silent")
                {
                    self.add_message(t, n);
                    return true;
                }
            }
            Ctx::Environment => {
                if let Some((k, v)) = t.split_once(" = ")
                    && !k.is_empty()
                    && !k.contains(' ')
                {
                    self.set_env(k, v);
                    return true;
                }
                if t.starts_with("Environment variable \"") {
                    return true;
                }
            }
            _ => {}
        }
        let first = t.as_bytes()[0];
        if first == b'0' {
            // Memory rows, or the location line printed after a stop.
            if let Some(m) = gdb::memory_row(t) {
                self.put_memory(m, n);
                return true;
            }
            if t.starts_with("0x") && t.contains(" in ") {
                let mut f = GdbFrameLine::default();
                if gdb::location(t, &mut f).is_some() {
                    self.put_stop_location(&f, n, Some(t));
                    return true;
                }
            }
            if let Some(m) = gdb::mapping_row(l) {
                self.put_mapping(m, n);
                return true;
            }
            if let Some(s) = gdb::sharedlib_row(l) {
                self.put_library(s, n);
                return true;
            }
        }
        if (first == b'=' || first == b'-' || (l.starts_with([' ', '\t']) && t.starts_with("0x")))
            && let Some(i) = gdb::insn_line(l)
        {
            if i.text.is_empty() && gdb::sourced_file_error(t) {
                self.note(
                    Some(n),
                    "the gdb command file stopped at a failing command (memory at the pc is unreadable)",
                );
            }
            self.put_insn(i, n);
            return true;
        }
        if self.ctx == Ctx::Disasm
            && let Some(address) = gdb::cut_insn_line(l)
        {
            self.note(Some(n), "disassembly line cut off: only its address was read");
            let current = l.starts_with("=>");
            self.put_insn(gdb::GdbInsnLine { current, address, location: None, text: "" }, n);
            return true;
        }
        if first == b'$'
            && let Some((h, v)) = gdb::history_value(t)
        {
            self.start_print(Some(h), v, n);
            return true;
        }
        if let Some(r) = gdb::register_line(t) {
            let in_block = self.ctx == Ctx::Registers;
            if in_block || gdb::is_core_register_name(r.name) {
                self.saw(Format::Gdb);
                self.ctx = Ctx::Registers;
                self.put_register(r.name, r.value, r.natural, n);
                if let Some(nat) = r.natural
                    && nat.contains('<')
                    && !nat.contains('>')
                    && let Some(si) = self.stop
                {
                    let ti = self.current_thread();
                    let name = self.intern(r.name);
                    let (frame, text) = (self.selected_frame, nat.to_string());
                    self.wrap_tail = Some(WrapTail::Natural { si, ti, frame, name, text });
                }
                return true;
            }
        }
        if let Some(s) = gdb::stop_line(t) {
            self.put_stop_line(s, n);
            return true;
        }
        if let Some(h) = gdb::thread_header(t) {
            self.saw(Format::Gdb);
            self.flush_locals();
            let ti = self.thread_by_id(h.id);
            self.bt_thread = Some(ti);
            self.last_frame_index = None;
            let si = self.ensure_stop();
            let th = &mut self.trace.stops[si].threads[ti];
            th.lwp = h.lwp.or(th.lwp);
            th.handle = h.handle.map(Address).or(th.handle);
            if let Some(name) = h.name {
                th.name = Some(name.into());
            }
            th.span.extend_to(n);
            self.ctx = Ctx::Backtrace { full: matches!(self.ctx, Ctx::Backtrace { full: true }) };
            return true;
        }
        if let Some(r) = t.strip_prefix("[Switching to thread ") {
            // `thread N` output: `[Switching to thread 2 (Thread 0x… (LWP 5))]`
            let id = thread_id_prefix(r);
            if !id.is_empty() {
                self.select_thread(id);
            }
            return true;
        }
        if let Some(r) = t.strip_prefix("[Switching to ") {
            // After `Thread N "x" received signal`: `[Switching to Thread 0x… (LWP n)]` names
            // the stopped thread's handle and LWP.
            let mut h = gdb::GdbThreadHeader::default();
            gdb::target_id(r.trim_end_matches(']'), &mut h);
            let ti = self.current_thread();
            let si = self.ensure_stop();
            let th = &mut self.trace.stops[si].threads[ti];
            th.handle = th.handle.or(h.handle.map(Address));
            th.lwp = th.lwp.or(h.lwp);
            return true;
        }
        if let Some(r) = t.strip_prefix("[Current thread is ") {
            // Cores: the thread that received the signal.
            let id = thread_id_prefix(r);
            // gdb 7 without thread debugging: `[Current thread is 0 (process 31207)]` names no
            // thread of the listing (that thread is `Thread 1 (… (LWP 31207))`); the stop
            // location tells which one it is.
            let no_thread = id == "0" && r.contains("(process ");
            if !id.is_empty() && !no_thread {
                let si = self.ensure_stop();
                if self.stop_thread[si].is_none() {
                    self.stop_thread[si] = Some(id.into());
                    let ti = self.thread_by_id(id);
                    self.trace.stops[si].threads[ti].crashed = true;
                    self.thread = Some(ti);
                }
            }
            return true;
        }
        // KDE's crash handler (DrKonqi) heads its gdb backtrace with the application and the
        // signal (`Application: Kate (kate), signal: Segmentation fault`) and puts
        // `[KCrash Handler]` where the handler's own frames were cut from the crashed thread.
        if let Some(r) = t.strip_prefix("Application: ")
            && let Some((_, desc)) = r.rsplit_once("), signal: ")
            && let Some(sig) = crate::model::signals::from_description(desc)
        {
            let si = self.ensure_stop();
            let reason = &mut self.trace.stops[si].reason;
            if reason.signo.is_none() {
                super::finish::fill_signal(reason, sig, desc.trim());
                reason.kind = StopKind::Signal;
                reason.span = Span::line(n);
            }
            self.add_message(t, n);
            return true;
        }
        if t == "[KCrash Handler]"
            || t.starts_with("This backtrace appears to be of no use.")
            || t.starts_with("This is probably because your packages are built in a way which prevents creation of proper backtraces")
        {
            self.add_message(t, n);
            return true;
        }
        if let Some(r) = t.strip_prefix("Core was generated by `") {
            self.saw(Format::Core);
            let cmd = r.trim_end().trim_end_matches('.').trim_end_matches('\'');
            self.trace.core_command = Some(cmd.into());
            if self.trace.program.is_none()
                && let Some(p) = cmd.split_whitespace().next()
            {
                self.trace.program = Some(p.into());
            }
            self.ensure_stop();
            return true;
        }
        if t.starts_with("Stack level ") {
            self.ctx = Ctx::FrameInfo;
            return self.frame_info_line(t, n);
        }
        if self.ctx == Ctx::FrameInfo && self.frame_info_line(t, n) {
            return true;
        }
        if gdb::is_source_line(t) {
            // gdb echoes the source line after a stop or `frame N`: the frame is selected.
            self.source_line_seen(t);
            return true;
        }
        if let Some(r) = t.strip_prefix("Starting program: ") {
            self.trace.program = Some(r.split_whitespace().next().unwrap_or(r).into());
            // A new process: what it prints belongs to its own stop, not to the last one (a CI
            // log runs several programs under gdb one after another).
            self.stop = None;
            return true;
        }
        // Table headers select how the rows that follow are read, also without an echoed
        // command.
        if t.starts_with("Start Addr") || t.starts_with("Mapped address spaces:") {
            self.ctx = Ctx::Mappings;
            return true;
        }
        if t.starts_with("From") && t.contains("Syms Read") {
            self.ctx = Ctx::Libraries;
            return true;
        }
        if t.starts_with("Id") && t.contains("Target Id") {
            self.ctx = Ctx::InfoThreads;
            return true;
        }
        if t.starts_with("Num") && t.contains("Disp Enb") {
            self.ctx = Ctx::Breakpoints;
            self.add_message(t, n);
            return true;
        }
        if t.starts_with("Dump of assembler code") {
            self.ctx = Ctx::Disasm;
            return true;
        }
        // The shell's report of the signal that killed the process.
        // Also localized: `已中止 (核心已转储)`, `Speicherzugriffsfehler (Speicherabzug geschrieben)`.
        if let Some(d) = t
            .strip_suffix(" (core dumped)")
            .or_else(|| t.strip_suffix(" (核心已转储)"))
            .or_else(|| t.strip_suffix(" (Speicherabzug geschrieben)"))
            .or_else(|| t.strip_suffix(" (image mémoire enregistrée)"))
            && crate::model::signals::from_description(d).is_some()
        {
            self.add_message(t, n);
            return true;
        }
        // bash's report of a job a script (a batch system's job script) started that died of a
        // signal: `/spool/job_scripts/381204: line 6: 61377 Aborted.`, `./run.sh: line 12:  2391
        // Segmentation fault      (core dumped) ./prog`.
        if let Some(d) = super::shell::script_job_report(t)
            && crate::model::signals::from_description(d.trim_end_matches('.')).is_some()
        {
            self.add_message(t, n);
            return true;
        }
        // libstdc++'s terminate message glued to the program's own text that had no line end
        // (`Reading in DB...terminate called after throwing an instance of 'std::bad_alloc'`):
        // the message is the tail from `terminate called`.
        if let Some(p) = t.find("terminate called after throwing an instance of '")
            && p > 0
            && t.ends_with('\'')
            // Glued: no blank, quote or colon before it (a log line quoting the message, `note:
            // terminate called …`, `grep 'terminate called …'`, is no message).
            && !t[..p].ends_with(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ':' | '(' | '['))
        {
            self.push_message(Message::new(&t[p..], Span::line(n)));
            return true;
        }
        // A shell's job report (`fish: Job 1, './a' terminated by signal SIGABRT (Abort)`,
        // `zsh: segmentation fault  ./prog`).
        if super::shell::shell_job_signal(t).is_some() {
            self.add_message(t, n);
            return true;
        }
        // Rust's allocation failure (`alloc::alloc::handle_alloc_error` prints it, then aborts),
        // often glued to the shell's verdict: `memory allocation of 4654951391962047971 bytes
        // failedAborted (core dumped)`.
        if let Some(r) = t.strip_prefix("memory allocation of ")
            && let Some((size, after)) = r.split_once(" bytes failed")
            && !size.is_empty()
            && size.bytes().all(|c| c.is_ascii_digit())
            && (after.is_empty()
                || super::shell::is_shell_verdict(after)
                || super::shell::shell_job_signal(after).is_some())
        {
            // (A debugger's stop line may follow; without one, `finish` makes the stop.)
            self.add_message(&t[..t.len() - after.len()], n);
            if !after.is_empty() {
                self.add_message(after, n);
            }
            return true;
        }
        // Program messages that explain an abort.
        if crate::messages::is_abort_message(t) {
            // Julia's no-handler report is followed by the exception on one line.
            let panic_header = crate::messages::classify(t) == Some(crate::messages::MessageKind::Panic)
                && t.trim_end().ends_with(':')
                || t.starts_with("fatal: error thrown and no exception handler available.");
            // V8's uncaught exception: a blank line, `FROM` and the JavaScript stack follow.
            let v8 = crate::messages::is_v8_uncaught(t);
            self.push_message(Message::new(t, Span::line(n)));
            if panic_header || v8 {
                self.message_follow = MAX_MESSAGE_CONTINUATION;
            }
            if v8 {
                self.v8_blank = true;
                return true;
            }
            return true;
        }
        if self.expect_location && !t.starts_with('[') {
            // `main () at t.c:2` (pc at the start of a line: no address printed).
            let mut f = GdbFrameLine::default();
            if gdb::location(t, &mut f).is_some()
                && f.function.is_some()
                && (f.file.is_some() || f.module.is_some() || f.args.is_some())
            {
                self.put_stop_location(&f, n, Some(t));
                return true;
            }
        }
        if gdb::sourced_file_error(t) {
            // Batch mode: a failing command ends the script. The error text follows.
            self.note(Some(n), "the gdb command file stopped at a failing command");
            return true;
        }
        if let Some((kind, path)) = gdb::file_mismatch(t) {
            let path = path.map(|p| self.intern(p));
            self.trace.file_mismatches.push(FileMismatch { kind, path, span: Span::line(n) });
            return true;
        }
        if t.starts_with("warning: Missing auto-load script")
            || t.starts_with("warning: File \"") && t.contains("auto-loading has been declined")
        {
            self.warning_lines = 6;
            return true;
        }
        if t.starts_with("No more reverse-execution history.") {
            let reason = StopReason {
                kind: StopKind::Unknown,
                description: Some("No more reverse-execution history".into()),
                span: Span::line(n),
                ..Default::default()
            };
            let si = self.new_stop(reason, None);
            self.trace.stops[si].reverse = true;
            self.expect_location = true;
            return true;
        }
        // A signal inside a function the debugger itself called (`p f(x)`): gdb abandons the
        // call and restores the registers. That stop is not the program's crash.
        if t == "The program being debugged was signaled while in a function called from GDB." {
            if let Some(si) = self.stop {
                self.trace.stops[si].reason.in_called_function = true;
            }
            self.called_function_note = 5;
            return true;
        }
        if self.called_function_note > 0 {
            self.called_function_note -= 1;
            if t.starts_with("GDB has restored the context")
                || t.starts_with("GDB remains in the frame where the signal was received")
                || t.starts_with("To change this behavior use \"set unwindonsignal")
                || t.starts_with("Evaluation of the expression containing the function")
                || t.ends_with(") will be abandoned.")
                || t.starts_with("When the function is done executing, GDB will silently stop it")
            {
                return true;
            }
            self.called_function_note = 0;
        }
        if gdb::is_noise(t) {
            if t.bytes().filter(|&b| b == b'"').count() % 2 == 1 {
                self.wrap_tail = Some(WrapTail::Quote);
            }
            return true;
        }
        false
    }

    /// Keeps a message for the stop it explains: the current one when it is already known,
    /// else the next stop (program stderr comes before gdb's `Program received signal`).
    pub(super) fn push_message(&mut self, msg: Message) {
        match self.stop {
            Some(i) if self.trace.stops[i].reason.kind != StopKind::Unknown => self.trace.stops[i].messages.push(msg),
            _ => self.pending_messages.push(msg),
        }
    }

    /// A line after a panic header: the payload, up to a blank line, a prompt, a stop line,
    /// Rust's `note:` / `stack backtrace:` lines or another fatal message.
    pub(super) fn message_continuation(&mut self, t: &str, n: u32) -> bool {
        let ends = gdb::prompt(t).is_some()
            || t.starts_with("note: ")
            || t.starts_with("stack backtrace:")
            || gdb::stop_line(t).is_some()
            || julia::signal_header(t).is_some()
            || crate::messages::classify(t).is_some()
            // gdb's own notices between the program's lines (`[Thread 0x… (LWP 7) exited]`,
            // `[Inferior 1 (process 7) exited with code 0145]`) are not the message's.
            || (t.starts_with('[') && gdb::is_noise(t));
        if ends {
            self.message_follow = 0;
            return false;
        }
        self.message_follow -= 1;
        self.push_message(Message::new(t.trim_end(), Span::line(n)));
        true
    }

    pub(super) fn frame_info_line(&mut self, t: &str, n: u32) -> bool {
        if let Some(r) = t.strip_prefix("Stack level ") {
            let level = r.split(',').next().and_then(|x| x.trim().trim_end_matches(':').parse().ok());
            if let Some(k) = level {
                // `info frame` describes the selected frame.
                self.selected_frame = k;
            }
            let (thread, _) = self.selection();
            let mut fi = FrameInfo { level, thread, span: Span::line(n), ..Default::default() };
            if let Some(p) = r.find("frame at ") {
                fi.frame_at = lexemes::hex_u64(&r[p + 9..]).ok().map(|(_, v)| Address(v));
            }
            let si = self.ensure_stop();
            self.trace.stops[si].frame_info.push(fi);
            self.extend_stop_span(n);
            return true;
        }
        let si = self.ensure_stop();
        let t = t.trim();
        let hex_after = |s: &str, key: &str| -> Option<Address> {
            let p = s.find(key)?;
            lexemes::hex_u64(&s[p + key.len()..]).ok().map(|(_, v)| Address(v))
        };
        let Some(fi) = self.trace.stops[si].frame_info.last_mut() else { return false };
        if let Some(r) =
            t.strip_prefix("rip = ").or_else(|| t.strip_prefix("pc = ")).or_else(|| t.strip_prefix("eip = "))
        {
            fi.pc = lexemes::hex_u64(r).ok().map(|(_, v)| Address(v));
            fi.saved_pc = hex_after(r, "saved rip = ")
                .or_else(|| hex_after(r, "saved pc = "))
                .or_else(|| hex_after(r, "saved eip = "));
            // `0x… in session_bytes (src/null-field.c:23); saved rip = …`
            if let Some(p) = r.find(" in ") {
                let f = &r[p + 4..];
                let end = f.find([' ', ';']).unwrap_or(f.len());
                let name = &f[..end];
                if !name.is_empty() {
                    let name: Sym = Arc::from(name);
                    fi.function = Some(name);
                }
            }
        } else if t.starts_with("called by frame at ") || t.starts_with("caller of frame at ") {
            for part in t.split(", ") {
                if let Some(a) = hex_after(part, "called by frame at ") {
                    fi.called_by_frame_at = Some(a);
                    fi.called_by = fi.level.map(|l| l + 1);
                }
                if let Some(a) = hex_after(part, "caller of frame at ") {
                    fi.caller_of_frame_at = Some(a);
                    fi.caller_of = fi.level.and_then(|l| l.checked_sub(1));
                }
            }
        } else if let Some(r) = t.strip_prefix("source language ") {
            fi.language = Some(r.trim_end_matches('.').into());
        } else if t.starts_with("Arglist at ") {
            fi.arglist_at = hex_after(t, "Arglist at ");
        } else if t.starts_with("Locals at ") {
            fi.locals_at = hex_after(t, "Locals at ");
            fi.previous_sp = hex_after(t, "Previous frame's sp is ");
        } else if t.starts_with("Previous frame's sp is ") {
            fi.previous_sp = hex_after(t, "Previous frame's sp is ");
        } else if t.starts_with("inlined into frame")
            || t.starts_with("Outermost frame")
            || t.starts_with("Saved registers:")
            || t.starts_with("frame at ")
        {
        } else {
            // `rbp at 0x7ffe…, rip at 0x7ffe…`
            let mut any = false;
            for part in t.split(',') {
                let part = part.trim();
                if let Some((name, at)) = part.split_once(" at ")
                    && let Some(a) = lexemes::parse_hex(at)
                    && !name.is_empty()
                    && !name.contains(' ')
                {
                    fi.saved_registers.push((Arc::from(name), Address(a)));
                    any = true;
                }
            }
            if !any {
                return false;
            }
        }
        fi.span.extend_to(n);
        self.extend_stop_span(n);
        true
    }
}
