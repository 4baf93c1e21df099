//! Record builders: one typed record (stop, mapping, library, thread row, symbol, memory row,
//! instruction, printed value) put into the trace from a parsed gdb line.

use super::*;

impl Builder {
    pub(super) fn put_stop_line(&mut self, s: GdbStopLine<'_>, n: u32) {
        self.saw(Format::Gdb);
        self.julia.end_report();
        let span = Span::line(n);
        let mut reason = StopReason { span, ..Default::default() };
        match s {
            GdbStopLine::Signal { thread: t, thread_name, signal, desc } => {
                fill_signal(&mut reason, signal, desc);
                reason.kind = StopKind::Signal;
                let si = self.new_stop(reason, t);
                if let (Some(_), Some(name)) = (t, thread_name) {
                    let ti = self.current_thread();
                    self.trace.stops[si].threads[ti].name = Some(name.into());
                }
                self.expect_location = true;
                self.rr.after_stop(si);
            }
            GdbStopLine::Terminated { signal, desc } => {
                fill_signal(&mut reason, signal, desc);
                reason.kind = StopKind::Signal;
                self.new_stop(reason, None);
                // A core: the next `#0 …` line is the crashing thread's frame 0, but which
                // thread that is only the backtraces (or `[Current thread is N]`) tell.
                self.core_stop = true;
                self.expect_location = true;
            }
            GdbStopLine::Breakpoint { thread: t, number, location } => {
                reason.kind = StopKind::Breakpoint;
                reason.number = Some(number);
                reason.description = Some(location.into());
                let si = self.new_stop(reason, t);
                self.rr.after_stop(si);
                // The location is on this line.
                let mut f = GdbFrameLine::default();
                if gdb::location(location, &mut f).is_some() {
                    self.put_stop_location(&f, n, None);
                }
                self.expect_location = true;
            }
            GdbStopLine::Watchpoint { thread: t, number, expr } => {
                reason.kind = StopKind::Watchpoint;
                reason.number = Some(number);
                if matches!(self.last_verb.as_str(), "watch" | "awatch" | "rwatch" | "wa") {
                    // The confirmation printed when a watchpoint is set, not a hit.
                    return;
                }
                reason.description = Some(expr.into());
                let si = self.new_stop(reason, t);
                self.rr.after_stop(si);
                self.rr.watch_values = true;
                self.expect_location = true;
            }
            GdbStopLine::Exited { code } => {
                reason.kind = StopKind::Exited;
                reason.number = Some(code);
                self.new_stop(reason, None);
            }
            GdbStopLine::Killed { signal } => {
                fill_signal(&mut reason, signal, "");
                reason.kind = StopKind::Exited;
                self.new_stop(reason, None);
            }
        }
    }

    /// The location printed with or after a stop line. `text` is the line, for a wrapped
    /// continuation.
    pub(super) fn put_stop_location(&mut self, g: &GdbFrameLine<'_>, n: u32, text: Option<&str>) {
        self.expect_location = false;
        self.after_frame_line = true;
        let si = self.ensure_stop();
        let loc = GdbOwnedLocation {
            pc: g.pc,
            function: g.function.map(|s| self.intern_function(s, g.file)),
            file: g.file.map(|s| self.intern(s)),
            line: g.line,
            module: g.module.map(|s| self.intern(s)),
            args: g.args.map(Box::from),
            span: Span::line(n),
        };
        self.stop_location[si] = Some(loc);
        // When the stop names its thread (or there is only the one), the location is that
        // thread's frame 0.
        let mut target = None;
        if !self.core_stop && (self.stop_thread[si].is_some() || self.trace.stops[si].threads.is_empty()) {
            let ti = self.current_thread();
            let mut f = self.frame_from_gdb(g, n);
            f.index = 0;
            let pos = self.put_frame(ti, f);
            self.locals_target = None;
            target = Some((ti, pos));
        }
        if let Some(text) = text
            && (g.truncated
                || (g.file.is_none() && g.module.is_none() && !g.signal_handler)
                || (g.file.is_some() && g.line.is_none()))
        {
            self.frame_text.clear();
            if !text.starts_with('#') {
                self.frame_text.push_str("#0  ");
            }
            self.frame_text.push_str(text.trim_end());
            self.frame_cont = Some(FrameCont { frame: target, location: true, open: g.truncated, index: 0 });
        }
        self.extend_stop_span(n);
    }

    pub(super) fn put_mapping(&mut self, m: gdb::GdbMappingRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let path = m.path.map(|p| self.intern(p));
        self.trace.mappings.push(Mapping {
            start: Address(m.start),
            end: Address(m.end),
            offset: m.offset,
            perms: m.perms.map(Box::from),
            path,
            span: Span::line(n),
        });
    }

    pub(super) fn put_library(&mut self, s: gdb::GdbSharedLibRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let path = self.intern(s.path);
        self.trace.libraries.push(Library {
            from: s.from.map(Address),
            to: s.to.map(Address),
            syms_read: s.syms_read,
            path,
            span: Span::line(n),
        });
    }

    pub(super) fn put_info_threads_row(&mut self, r: gdb::GdbInfoThreadsRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let ti = self.thread_by_id(r.id);
        let si = self.ensure_stop();
        {
            let th = &mut self.trace.stops[si].threads[ti];
            th.lwp = r.lwp.or(th.lwp);
            th.handle = r.handle.map(Address).or(th.handle);
            if let Some(name) = r.name {
                th.name = Some(name.into());
            }
            th.current |= r.current;
            th.span.extend_to(n);
        }
        if let Some(mut f) = r.frame {
            f.index = 0;
            let fr = self.frame_from_gdb(&f, n);
            let has = !self.trace.stops[si].threads[ti].frames.is_empty();
            if !has {
                self.put_frame(ti, fr);
                self.locals_target = None;
            } else if self.default_thread == Some(ti) {
                self.default_row_frame = Some(fr);
            }
        }
        if r.current {
            // Nothing named the stopped thread (a core without `[Current thread is N]`, a
            // transcript that starts after the stop line): right after a stop, the current
            // thread is the one that stopped, and bare output filed under gdb's thread 1 by
            // default is its own.
            if !self.selected_by_name && self.stop_thread[si].is_none() {
                if let Some(d) = self.default_thread.filter(|&d| d != ti) {
                    self.move_default_output(si, d, ti);
                }
                self.stop_thread[si] = Some(r.id.into());
            }
            self.default_thread = None;
            self.default_row_frame = None;
            self.thread = Some(ti);
        }
        self.extend_stop_span(n);
    }

    pub(super) fn put_symbol(&mut self, s: gdb::GdbSymbolLine<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let (thread, frame) = self.selection();
        let symbol = s.symbol.map(|x| self.intern(x));
        let objfile = s.objfile.map(|x| self.intern(x));
        let expr = self.cmd_expr.clone();
        let si = self.ensure_stop();
        self.trace.stops[si].symbols.push(SymbolLookup {
            expr,
            symbol,
            offset: s.offset,
            section: s.section.map(Box::from),
            objfile,
            thread,
            frame,
            span: Span::line(n),
        });
        self.extend_stop_span(n);
    }

    pub(super) fn put_memory(&mut self, m: gdb::GdbMemoryRow<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let (unit_hint, expr) = match &self.ctx {
            Ctx::Memory { unit, expr, .. } => (*unit, expr.clone()),
            _ => (None, None),
        };
        let (thread, frame) = self.selection();
        let si = self.ensure_stop();
        let stop = &mut self.trace.stops[si];
        stop.span.extend_to(n);
        if let Some(s) = m.string {
            stop.memory.push(MemoryDump {
                expr,
                thread,
                frame,
                address: Address(m.address),
                unit: 0,
                words: Vec::new(),
                string: Some(s.into()),
                span: Span::line(n),
            });
            return;
        }
        let unit = unit_hint.unwrap_or_else(|| match m.words.first().map(|w| w.1).unwrap_or(16) {
            1..=2 => 1,
            3..=4 => 2,
            5..=8 => 4,
            _ => 8,
        });
        let words: Vec<u64> = m.words.iter().map(|w| w.0).collect();
        // Continue the previous row of the same dump when contiguous.
        if let Some(last) = stop.memory.last_mut() {
            let next = last.address.0.wrapping_add(last.unit as u64 * last.words.len() as u64);
            if last.unit == unit && last.string.is_none() && next == m.address && last.span.last + 1 == n {
                last.words.extend(words);
                last.span.extend_to(n);
                return;
            }
        }
        stop.memory.push(MemoryDump {
            expr,
            thread,
            frame,
            address: Address(m.address),
            unit,
            words,
            string: None,
            span: Span::line(n),
        });
    }

    pub(super) fn put_insn(&mut self, i: gdb::GdbInsnLine<'_>, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        self.saw(Format::Gdb);
        let (thread, frame) = self.selection();
        let si = self.ensure_stop();
        let (bytes, text) = crate::insn::split_raw_bytes(i.text);
        self.trace.stops[si].disassembly.push(Instruction {
            address: Address(i.address),
            thread,
            frame,
            location: i.location.map(Location::from),
            text: text.into(),
            bytes: bytes.map(Into::into),
            current: i.current,
            span: Span::line(n),
        });
        self.extend_stop_span(n);
    }

    // ---- printed values ----------------------------------------------------------------

    pub(super) fn start_print(&mut self, history: Option<u32>, v: &str, n: u32) {
        // Other output ends a `thread apply` section (unrecognized lines do not).
        self.bt_thread = None;
        let depth = brace_depth(v);
        let expr = self.cmd_expr.take();
        let p = PendingPrint { expr, history, buf: v.to_string(), depth, span: Span::line(n) };
        if depth > 0 {
            self.pending_print = Some(p);
        } else {
            self.finish_print(p);
        }
    }

    pub(super) fn print_continue(&mut self, l: &str, n: u32) {
        let Some(mut p) = self.pending_print.take() else { return };
        p.buf.push('\n');
        p.buf.push_str(l);
        p.depth += brace_depth(l);
        p.span.extend_to(n);
        if p.depth <= 0 || p.buf.len() > 1 << 20 {
            self.finish_print(p);
        } else {
            self.pending_print = Some(p);
        }
    }

    pub(super) fn finish_print(&mut self, p: PendingPrint) {
        self.saw(Format::Gdb);
        let si = self.ensure_stop();
        // $_siginfo is the selected thread's: another thread's (selected with `thread N` in a
        // core, where each thread has its own, a SIGSTOP's for gdb's gcore) says nothing of
        // the stop, nor does one of another signal than the stop's.
        let other_thread = self.stop_thread[si].clone().is_some_and(|id| {
            let ti = self.current_thread();
            *self.trace.stops[si].threads[ti].id != *id
        });
        let sig_known = self.trace.stops[si].reason.signo;
        if let Some(info) = gdb::siginfo(&p.buf)
            .filter(|i| !other_thread && (sig_known.is_none() || i.signo.is_none() || i.signo == sig_known))
        {
            let r = &mut self.trace.stops[si].reason;
            if r.signo.is_none() {
                r.signo = info.signo;
            }
            if r.signal.is_none()
                && let Some(name) = info.signo.and_then(crate::model::signals::name)
            {
                r.signal = Some(Arc::from(name));
            }
            if r.kind == StopKind::Unknown && info.signo.is_some() {
                r.kind = StopKind::Signal;
            }
            r.si_code = info.code.or(r.si_code);
            let signo = r.signo.unwrap_or(0);
            // si_addr is the fault address only when the kernel raised the signal (si_code > 0);
            // for a signal sent with kill/tgkill/sigqueue (SI_USER 0, SI_TKILL -6, …) the same
            // word is the sender's pid.
            if crate::model::signals::has_fault_address(signo) && info.code.is_none_or(|c| c > 0) {
                r.address = info.addr.map(Address).or(r.address);
            }
            r.span.extend_to(p.span.last);
        }
        // One field of $_siginfo (`p $_siginfo.si_code`, `p $_siginfo._sifields._sigfault.si_addr`,
        // the commands tracecheck itself suggests): `$1 = 128`, `$2 = (void *) 0x5555… <f>`.
        if let Some(field) = p.expr.as_deref().and_then(siginfo_field).filter(|_| !other_thread) {
            let v = p.buf.trim();
            let tok = v.rsplit(") ").next().unwrap_or(v).split_whitespace().next().unwrap_or("");
            let num = lexemes::parse_hex(tok).or_else(|| tok.parse::<i64>().ok().map(|x| x as u64));
            let r = &mut self.trace.stops[si].reason;
            match (field, num) {
                ("si_signo", Some(x)) => {
                    r.signo = r.signo.or(Some(x as i32));
                    if r.signal.is_none() {
                        r.signal = crate::model::signals::name(x as i32).map(Arc::from);
                    }
                }
                ("si_code", Some(x)) => r.si_code = Some(x as i32),
                ("si_code", None) => r.si_code = crate::model::signals::si_code_value(tok).or(r.si_code),
                // Kept aside: whether it is a fault address depends on si_code, which may be
                // printed after it (a #GP's si_addr is 0 and means nothing).
                ("si_addr", Some(x)) => self.printed_si_addr.push((si, x)),
                _ => {}
            }
        }
        // `p $reg` / `p/x $reg`: a register value of the selected frame.
        if let Some(reg) = p.expr.as_deref().and_then(|e| e.strip_prefix('$'))
            && !reg.is_empty()
            && !reg.starts_with('_')
            && reg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !reg.bytes().all(|b| b.is_ascii_digit())
        {
            let v = p.buf.trim();
            // `(void (*)()) 0x5555… <main+16>` or `0x7ffe…` or a decimal.
            let val = v.rsplit(") ").next().unwrap_or(v);
            let val_tok = val.split_whitespace().next().unwrap_or("");
            let num = lexemes::parse_hex(val_tok).or_else(|| val_tok.parse::<i64>().ok().map(|x| x as u64));
            if let Some(num) = num {
                let nat = if v != val_tok { Some(v.to_string()) } else { None };
                let name = self.register_alias(reg);
                // Only add when `info registers` did not already give it.
                let ti = self.current_thread();
                let have = self.trace.stops[si].threads[ti]
                    .registers
                    .get(&self.selected_frame)
                    .is_some_and(|s| s.get(&name).is_some());
                if !have {
                    self.put_register(&name, Some(num), nat.as_deref(), p.span.first);
                }
            }
        }
        let (thread, frame) = self.selection();
        self.trace.stops[si].printed.push(PrintedValue {
            expr: p.expr,
            thread,
            frame,
            history: p.history,
            value: p.buf.into_boxed_str(),
            symbols: Vec::new(),
            words: Vec::new(),
            shows_si_addr: false,
            span: p.span,
        });
        self.extend_stop_span(p.span.last);
    }

    /// gdb's `$pc`, `$sp`, `$fp` under their architecture names when the register dump
    /// shows which architecture this is.
    pub(super) fn register_alias(&mut self, reg: &str) -> String {
        let x86 = self.trace.arch == Arch::X86_64 || {
            let ti = self.current_thread();
            let si = self.ensure_stop();
            self.trace.stops[si].threads[ti]
                .registers
                .values()
                .any(|s| s.reg("rip").is_some() || s.reg("rsp").is_some())
        };
        let t = &crate::arch::x86_64::TABLE;
        match reg {
            "pc" if x86 => t.pc,
            "sp" if x86 => t.sp,
            "fp" if x86 => t.fp,
            r => r,
        }
        .to_string()
    }

    // ---- commands ----------------------------------------------------------------------
}

/// The `$_siginfo` field a print expression names: `$_siginfo.si_code`,
/// `$_siginfo._sifields._sigfault.si_addr` (gdb's long form, also with a `/x` format).
fn siginfo_field(expr: &str) -> Option<&'static str> {
    let e = expr.trim();
    let e = e.strip_prefix('/').map_or(e, |r| r.split_once(char::is_whitespace).map_or("", |x| x.1.trim()));
    match e {
        "$_siginfo.si_signo" => Some("si_signo"),
        "$_siginfo.si_code" => Some("si_code"),
        "$_siginfo._sifields._sigfault.si_addr" | "$_siginfo._sifields._sigfault._addr" => Some("si_addr"),
        _ => None,
    }
}
