//! The interactive terminal UI (`tracecheck tui FILE`, `tracecheck -i FILE`).
//!
//! Elm shape, as in ratatui's templates: [`app::App`] is the state, [`app::Action`] what can
//! happen, `App::update` the only place state changes, `App::draw` paints it. `keys.rs` maps
//! keys and mouse events to actions in one place; each pane is one file drawing only in its
//! `Rect`; styles live in `theme.rs`; the help text in `assets/help.txt`.
//!
//! This module owns the terminal: [`run`] enters raw mode and the alternate screen, and a
//! drop guard plus a panic hook always restore it. Everything shown from the dump goes
//! through `report::safe` (in `common::clean`), so a dump cannot send escape sequences.

pub mod app;
pub mod common;
pub mod detail;
pub mod diffview;
pub mod findings;
pub mod follow;
pub mod frames;
pub mod header;
pub mod keys;
pub mod loader;
pub mod memory;
pub mod popup;
pub mod raw;
pub mod registers;
pub mod source;
pub mod theme;

use crate::model::InputReport;
use anyhow::Context;
use app::{Action, App, Effect, Outcome};
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Puts the terminal back: mouse off, main screen, cooked mode, cursor shown. Safe to call
/// more than once.
fn restore() {
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
    let _ = out.flush();
}

/// Owns the terminal while the TUI runs; dropping it restores the terminal.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<io::Stdout>>,
}

impl TerminalGuard {
    fn enter() -> anyhow::Result<TerminalGuard> {
        // Progress bars on stderr would draw over the screen (follow and loader threads).
        crate::progress::suppress();
        // A panic anywhere restores the terminal before the message is printed.
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        enable_raw_mode().context("cannot put the terminal in raw mode (is standard input a terminal?)")?;
        let guard = TerminalGuard { terminal: Terminal::new(CrosstermBackend::new(io::stdout()))? };
        execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Base64 (RFC 4648, padded) for OSC 52.
pub fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 { T[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if c.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    out
}

/// The OSC 52 sequence that asks the terminal to put `text` on the clipboard. The payload is
/// base64, so nothing in it can be read as another escape sequence.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

fn apply(app: &mut App, ev: Event) {
    let action = match ev {
        Event::Key(k) => keys::action(app.mode_kind(), k),
        Event::Mouse(m) => keys::mouse(m),
        Event::Resize(w, h) => Some(Action::Resize(w, h)),
        _ => None,
    };
    if let Some(a) = action {
        for e in app.update(a) {
            perform(app, e);
        }
    }
}

/// Performs one [`Effect`] of `App::update` (the loop's I/O) and reports the outcome back.
pub fn perform(app: &mut App, e: Effect) {
    let o = match e {
        Effect::SaveNote { dump, note } => {
            let on = note.target.to_string();
            match crate::notes::add(&dump, note) {
                Ok(f) => Outcome::NoteSaved { on, notes: f.notes },
                Err(e) => Outcome::Failed(e.to_string()),
            }
        }
        Effect::EditNote { dump, id, target, text } => match crate::notes::edit(&dump, &id, &target, &text) {
            Ok((f, crate::notes::Edited::Replaced)) => {
                Outcome::NotesChanged { message: format!("note edited on {target}"), notes: f.notes }
            }
            Ok((f, crate::notes::Edited::ReAdded)) => Outcome::NotesChanged {
                message: format!(
                    "the note had been removed meanwhile; the new text was saved as a new note on {target}"
                ),
                notes: f.notes,
            },
            Err(e) => Outcome::Failed(e.to_string()),
        },
        Effect::DeleteNote { dump, id } => {
            let mut gone = false;
            match crate::notes::update(&dump, |f| {
                let before = f.notes.len();
                f.notes.retain(|n| n.id != id);
                gone = f.notes.len() != before;
            }) {
                Ok(f) => Outcome::NotesChanged {
                    message: if gone { "note deleted".into() } else { "the note was already gone".into() },
                    notes: f.notes,
                },
                Err(e) => Outcome::Failed(e.to_string()),
            }
        }
        Effect::LoadSource { file, dirs } => {
            let roots = crate::fsutil::source_roots(&dirs);
            let state = match crate::fsutil::find_source(&file, &roots) {
                crate::fsutil::SourceFile::Read(path, text) => {
                    let shown = roots
                        .iter()
                        .find_map(|r| path.strip_prefix(r).ok())
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|| path.display().to_string());
                    app::SourceState::Read { shown, lines: text.lines().map(str::to_string).collect() }
                }
                crate::fsutil::SourceFile::Refused(why) => app::SourceState::Refused(why),
                crate::fsutil::SourceFile::NotFound => app::SourceState::NotFound,
            };
            Outcome::Source { file, state }
        }
        // Never through a symlink planted at DUMP.report.md (refused with a message).
        Effect::WriteFile { path, text } => match crate::fsutil::write_file(&path, text.as_bytes()) {
            Ok(()) => Outcome::Written { path, bytes: text.len() },
            Err(e) => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                Outcome::Failed(format!("cannot write {name}: {e}"))
            }
        },
    };
    app.outcome(o);
}

/// Runs the TUI until the user quits. `started` is when the program started, for the
/// first-frame time printed with `TRACECHECK_TIMING=1` (see docs/tui.md).
pub fn run(ir: InputReport, dump: Option<PathBuf>, started: Instant) -> anyhow::Result<()> {
    run_with_sources(ir, dump, Vec::new(), started)
}

/// [`run`], reading source files for the Source pane from `source_dirs` (`--source-dir`;
/// empty: the current directory).
pub fn run_with_sources(
    ir: InputReport,
    dump: Option<PathBuf>,
    source_dirs: Vec<PathBuf>,
    started: Instant,
) -> anyhow::Result<()> {
    run_app(App::new(ir, dump, theme::Theme::from_env()).with_source_dirs(source_dirs), started)
}

/// `tracecheck tui --follow FILE`: the TUI on a file that is still growing (a gdb log). FILE
/// need not exist yet. See `follow.rs`.
pub fn run_follow(path: PathBuf, options: crate::pipeline::LoadOptions, started: Instant) -> anyhow::Result<()> {
    run_follow_with_sources(path, options, Vec::new(), started)
}

/// [`run_follow`] with the Source pane reading from `source_dirs` (`--source-dir`).
pub fn run_follow_with_sources(
    path: PathBuf,
    options: crate::pipeline::LoadOptions,
    source_dirs: Vec<PathBuf>,
    started: Instant,
) -> anyhow::Result<()> {
    if path.is_dir() {
        anyhow::bail!("{} is a directory", path.display());
    }
    run_app(App::following(path, options, theme::Theme::from_env()).with_source_dirs(source_dirs), started)
}

/// `tracecheck tui FILE`: a transcript is read on a loader thread while the TUI shows what
/// is there (`loader.rs`); cores and the rest come loaded.
/// `source_dirs` as for [`run_with_sources`].
pub fn run_progressive(
    input: crate::pipeline::Progressive,
    dump: PathBuf,
    source_dirs: Vec<PathBuf>,
    started: Instant,
) -> anyhow::Result<()> {
    match input {
        crate::pipeline::Progressive::Done(ir) => run_with_sources(ir, Some(dump), source_dirs, started),
        crate::pipeline::Progressive::Chunked(c) => {
            let app = App::open_loading(c, Some(dump), theme::Theme::from_env(), loader::Pace::default());
            run_app(app.with_source_dirs(source_dirs), started)
        }
    }
}

/// How often the event loop looks for a finished parse while the follow worker runs.
const RESULT_POLL: Duration = Duration::from_millis(10);
/// How often it looks for the loader's analyses and redraws the progress while a file loads.
const LOADING_POLL: Duration = Duration::from_millis(50);

fn run_app(mut app: App, started: Instant) -> anyhow::Result<()> {
    let mut guard = TerminalGuard::enter()?;
    let size = guard.terminal.size()?;
    for e in app.update(Action::Resize(size.width, size.height)) {
        perform(&mut app, e);
    }
    guard.terminal.draw(|f| app.draw(f, f.area()))?;
    let first_frame = started.elapsed();
    let mut next_tick = Instant::now() + follow::POLL_INTERVAL;
    while !app.quit {
        // Without --follow, wait for input; with it, also wake up to poll the file, and often
        // while the worker parses, to show its result soon after it is ready.
        let input = match (&app.follow, &app.loading) {
            (None, None) => true,
            (None, Some(_)) => event::poll(LOADING_POLL)?,
            (Some(_), _) => {
                let mut wake = next_tick;
                if app.follow_busy() {
                    wake = wake.min(Instant::now() + RESULT_POLL);
                }
                event::poll(wake.saturating_duration_since(Instant::now()))?
            }
        };
        // While a file loads, the header's progress moves at every wake-up.
        let mut redraw = app.loading.is_some();
        redraw |= app.loading_receive();
        if input {
            apply(&mut app, event::read()?);
            // Coalesce bursts (held keys, wheel, paste) into one redraw.
            while !app.quit && event::poll(Duration::ZERO)? {
                apply(&mut app, event::read()?);
            }
            redraw = true;
        }
        if app.follow_busy() {
            redraw |= app.follow_receive(Instant::now());
        }
        if app.follow.is_some() && Instant::now() >= next_tick {
            redraw |= app.follow_tick(Instant::now());
            next_tick = Instant::now() + follow::POLL_INTERVAL;
        }
        if let Some(text) = app.clipboard.take() {
            let mut out = io::stdout();
            out.write_all(osc52(&text).as_bytes())?;
            out.flush()?;
        }
        if redraw && !app.quit {
            guard.terminal.draw(|f| app.draw(f, f.area()))?;
        }
    }
    drop(guard);
    if std::env::var_os("TRACECHECK_TIMING").is_some() {
        eprintln!("tracecheck: first frame drawn {:.1} ms after start", first_frame.as_secs_f64() * 1000.0);
        if let Some(f) = &app.follow {
            eprintln!(
                "tracecheck: follow: {} parses of up to {} bytes, last {:.1} ms, total {:.1} ms",
                f.parses,
                f.offset(),
                f.last_parse.as_secs_f64() * 1000.0,
                f.total_parse.as_secs_f64() * 1000.0
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        let seq = osc52("x\x1b]0;evil\x07");
        assert!(seq.starts_with("\x1b]52;c;eBtdMDtldmlsBw=="), "{seq:?}");
        assert_eq!(seq.matches('\x1b').count(), 1);
    }
}
