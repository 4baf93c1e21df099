//! A file still being read in the background (`tui/loader.rs`): the first screen, taking
//! the loader's analyses as they come, and the header's progress.

use super::*;
use crate::tui::loader::{Loaded, Loading, Pace, Part};

impl App {
    /// `tracecheck tui FILE` on a transcript: starts the loader thread and opens on its first
    /// analysis, waiting at most `pace.first_wait` for it. A small file is read whole within that
    /// time; of a big one the first screen shows the lines read so far (the crash and its
    /// thread come first in a gdb session), with `reading N% of M MB` in the header, and
    /// [`App::loading_receive`] takes the whole analysis when it is ready.
    pub fn open_loading(c: crate::pipeline::Chunked, dump: Option<PathBuf>, theme: Theme, pace: Pace) -> App {
        let name = c.name().to_string();
        let mut loading = Loading::start(c, pace);
        let (part, done, failed) = match loading.wait(pace.first_wait) {
            Some(Loaded::Done(p)) => (Some(p), true, None),
            Some(Loaded::Partial(p)) => (Some(p), false, None),
            Some(Loaded::Failed(m)) => (None, true, Some(m)),
            None => (None, false, None),
        };
        let partial = part.is_some() && !done;
        let mut app = match part {
            Some(p) => {
                let mut app = App::with_parts(p.analysis, p.raw_lines, p.facts, dump, theme);
                app.raw_file = p.raw;
                app
            }
            None => {
                let mut ir = crate::pipeline::analyze_text(&name, b"", &Default::default());
                ir.raw = Some(String::new());
                App::new(ir, dump, theme)
            }
        };
        if let Some(m) = failed {
            app.status = Some((m, true));
        }
        if !done {
            loading.partial = partial;
            app.loading = Some(loading);
        }
        app
    }

    /// Takes the loader's next analysis if one is ready (never blocks). Returns whether
    /// anything on screen changed (the progress in the header moves on its own: the event
    /// loop redraws while [`App::loading`] is set).
    pub fn loading_receive(&mut self) -> bool {
        let Some(l) = self.loading.as_ref() else { return false };
        let got = l.try_take();
        self.loading_take(got)
    }

    /// Waits up to `timeout` for the loader's next analysis and takes it (tests and
    /// benchmarks; the event loop never waits).
    pub fn loading_wait(&mut self, timeout: Duration) -> bool {
        let Some(l) = self.loading.as_ref() else { return false };
        let got = l.wait(timeout);
        self.loading_take(got)
    }

    fn loading_take(&mut self, got: Option<Loaded>) -> bool {
        match got {
            None => false,
            Some(Loaded::Partial(p)) => {
                self.take_part(*p);
                if let Some(l) = self.loading.as_mut() {
                    l.partial = true;
                }
                true
            }
            Some(Loaded::Done(p)) => {
                self.take_part(*p);
                self.loading = None;
                true
            }
            Some(Loaded::Failed(m)) => {
                self.status = Some((m, true));
                self.loading = None;
                true
            }
        }
    }

    /// `reading 45% of 104.9 MB` while the file is being read, with `(partial)` when the view
    /// shows the lines read so far.
    pub fn loading_label(&self) -> Option<String> {
        let l = self.loading.as_ref()?;
        let mut s = l.label();
        if l.partial {
            s.push_str(", showing what is read");
        }
        Some(s)
    }

    /// Shows a newer analysis of the file: the selection stays where the user put it (by
    /// identity), or, if they have not touched anything yet, goes where [`App::new`] puts it
    /// (the main stop, its crashed thread, the top finding).
    fn take_part(&mut self, p: Part) {
        let untouched = self.last_input.is_none() && self.mode == Mode::Normal;
        let key = self.selection_key();
        let mut ir = p.analysis;
        // Keep the path the App was opened with.
        ir.path = std::mem::take(&mut self.ir.path);
        let old = std::mem::replace(&mut self.ir, ir);
        self.raw_lines = p.raw_lines;
        self.raw_file = p.raw;
        self.facts = p.facts;
        self.raw_lower = OnceCell::new();
        // A partial model is small, but freeing it is not the UI's work; its pages (and
        // what the loader freed) go back to the system rather than stay in the allocator.
        let _ = std::thread::Builder::new().name("tracecheck-free".into()).spawn(move || {
            drop(old);
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            // SAFETY: malloc_trim only releases free memory of glibc's arenas.
            unsafe {
                libc::malloc_trim(0);
            }
        });
        let list = std::mem::take(&mut self.notes);
        self.set_notes(list);
        if untouched {
            let t = self.trace();
            let stop = t.main_stop().and_then(|s| t.stops.iter().position(|x| std::ptr::eq(x, s))).unwrap_or(0);
            self.select_stop(stop);
            if self.ir.findings.is_empty() {
                self.focus = Pane::Frames;
                self.item_pane = Pane::Frames;
            } else {
                self.select_finding(0);
                self.focus = Pane::Findings;
                self.item_pane = Pane::Findings;
            }
            self.follow_raw();
        } else {
            self.restore_selection(key);
        }
    }
}
