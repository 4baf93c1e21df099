//! Echoed debugger commands (`(gdb) cmd`, `(lldb) cmd`): what the lines that follow are.

use super::*;

impl Builder {
    pub(super) fn command(&mut self, dialect: &str, cmd: &str, n: u32) {
        match dialect {
            "rr" => self.saw(Format::Rr),
            "lldb" => self.saw(Format::Lldb),
            _ => self.saw(Format::Gdb),
        }
        self.pending_print = None;
        self.bt_thread = None;
        self.cmd_expr = None;
        self.last_frame_index = None;
        self.lone_frame = None;
        self.expect_location = false;
        self.frame_cont = None;
        self.flush_locals();
        self.julia.end_report();
        let mut words = cmd.split_whitespace();
        let head = words.next().unwrap_or("");
        let (verb, fmt) = match head.split_once('/') {
            Some((v, f)) => (v, Some(f)),
            None => (head, None),
        };
        let rest: Vec<&str> = words.collect();
        let arg = rest.join(" ");
        self.last_verb.clear();
        self.last_verb.push_str(verb);
        self.ctx = Ctx::None;
        match verb {
            "bt" | "backtrace" | "where" => {
                let full = rest.iter().any(|w| *w == "full" || *w == "-full");
                self.ctx = Ctx::Backtrace { full };
                // A plain `bt` belongs to the selected thread.
            }
            "thread" | "t" => {
                if rest.first() == Some(&"apply") {
                    let full = rest.contains(&"full");
                    self.ctx = Ctx::Backtrace { full };
                } else if let Some(id) = rest.first()
                    && id.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                {
                    self.select_thread(id);
                }
            }
            "taas" | "tfaas" => self.ctx = Ctx::Backtrace { full: false },
            "info" | "i" => {
                let what = rest.first().copied().unwrap_or("");
                match what {
                    "registers" | "reg" | "r" | "all-registers" | "registers-all" => {
                        self.ctx = Ctx::Registers;
                    }
                    "proc" if rest.get(1).is_some_and(|w| w.starts_with("map")) => {
                        self.ctx = Ctx::Mappings;
                    }
                    "sharedlibrary" | "shared" | "sharedlib" | "dll" => self.ctx = Ctx::Libraries,
                    "threads" | "thread" => self.ctx = Ctx::InfoThreads,
                    "breakpoints" | "break" | "b" | "br" | "watchpoints" => self.ctx = Ctx::Breakpoints,
                    "frame" | "f" => self.ctx = Ctx::FrameInfo,
                    "locals" | "lo" | "local" => {
                        self.ctx = Ctx::Locals;
                        self.locals_active = true;
                        self.locals_target = self.selected_frame_position();
                    }
                    "args" | "arg" => {
                        self.ctx = Ctx::Args;
                        self.locals_active = true;
                        self.locals_target = None;
                    }
                    "symbol" | "sym" => {
                        self.ctx = Ctx::Symbol;
                        let e = rest[1..].join(" ");
                        self.cmd_expr = if e.is_empty() { None } else { Some(e.into()) };
                    }
                    _ => {}
                }
            }
            "frame" | "f" | "up" | "down" | "select-frame" => {
                let k = rest.first().and_then(|w| w.parse::<u32>().ok());
                match (verb, k) {
                    ("up", k) => self.selected_frame = self.selected_frame.saturating_add(k.unwrap_or(1)),
                    ("down", k) => self.selected_frame = self.selected_frame.saturating_sub(k.unwrap_or(1)),
                    (_, Some(k)) => self.selected_frame = k,
                    _ => {}
                }
                // The frame line that follows must not start a new backtrace.
                self.ctx = Ctx::None;
            }
            "x" => {
                let f = fmt.unwrap_or("");
                let insns = f.contains('i');
                let unit = if f.contains('g') {
                    Some(8)
                } else if f.contains('w') {
                    Some(4)
                } else if f.contains('h') {
                    Some(2)
                } else if f.contains('b') {
                    Some(1)
                } else {
                    None
                };
                self.ctx =
                    Ctx::Memory { unit, expr: if arg.is_empty() { None } else { Some(arg.as_str().into()) }, insns };
            }
            "disassemble" | "disas" => self.ctx = Ctx::Disasm,
            "p" | "print" | "output" | "call" | "inspect" => {
                self.cmd_expr = if arg.is_empty() { None } else { Some(arg.as_str().into()) };
                self.ctx = Ctx::Print;
            }
            "show" if rest.first().is_some_and(|w| w.starts_with("env")) => self.ctx = Ctx::Environment,
            "set" if rest.first().is_some_and(|w| w.starts_with("env")) => {
                // `set environment X=Y`, `set env X Y`, `set env X = Y`
                let kv = rest[1..].join(" ");
                let (k, v) = match kv.split_once('=') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => match kv.split_once(' ') {
                        Some((k, v)) => (k.trim(), v.trim()),
                        None => (kv.trim(), ""),
                    },
                };
                if !k.is_empty() {
                    self.set_env(k, v);
                }
            }
            _ => {}
        }
        rr::command(self, verb, &rest, n);
        lldb::command(self, dialect, head, &rest);
    }

    /// Position of the selected frame in the selected thread, when that frame was printed.
    pub(super) fn selected_frame_position(&mut self) -> Option<(usize, usize)> {
        let ti = self.current_thread();
        let si = self.ensure_stop();
        let k = self.selected_frame;
        let th = &self.trace.stops[si].threads[ti];
        let pos = th.frames.iter().position(|f| f.index == k)?;
        th.frames[pos].locals.is_none().then_some((ti, pos))
    }

    // ---- finishing ---------------------------------------------------------------------
}
