//! What the TUI tests (`tests/tui*.rs`) share, against ratatui's `TestBackend`: an App loaded
//! from a sample (or a copy of it, so notes and exports never touch the repository), keys as
//! the event loop handles them, the rendered screen as text, and the `0x…` tokens on it.
//! Included with `#[path = "common/tui.rs"] mod tui;` beside `mod common;`.
#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use std::path::{Path, PathBuf};
use tracecheck::tui::app::{Action, App};
use tracecheck::tui::theme::Theme;

/// Copies `sample-traces/<name>` into a fresh directory of its own.
pub fn sample_copy(name: &str) -> PathBuf {
    let dir = crate::common::scratch_root().join(format!(
        "tracecheck-tui-{}-{}",
        name.replace('.', "_"),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let dst = dir.join(name);
    std::fs::copy(crate::common::samples_dir().join(name), &dst).unwrap();
    dst
}

/// The App of the input at `path` (its notes sidecar beside it when `sidecar`), plain theme.
pub fn app_of(path: &Path, sidecar: bool) -> App {
    let bytes = std::fs::read(path).unwrap();
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let name = if sidecar {
        path.to_string_lossy().into_owned()
    } else {
        path.file_name().unwrap().to_string_lossy().into_owned()
    };
    let mut ir = tracecheck::analyze::analyze(&name, parsed, &Default::default());
    ir.raw = Some(String::from_utf8_lossy(&bytes).into_owned());
    App::new(ir, sidecar.then(|| path.to_path_buf()), Theme::plain())
}

/// The App of a sample copy, with its sidecar (what `tracecheck tui FILE` opens).
pub fn load(path: &Path) -> App {
    app_of(path, true)
}

/// A key as the event loop handles it: update, then perform the I/O it asked for.
pub fn key(app: &mut App, a: Action) {
    for e in app.update(a) {
        tracecheck::tui::perform(app, e);
    }
}

pub fn typ(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, Action::Input(c));
    }
}

/// The screen at `w`x`h`: its text, one line per row, and the buffer.
pub fn render(app: &mut App, w: u16, h: u16) -> (String, Buffer) {
    key(app, Action::Resize(w, h));
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| app.draw(f, f.area())).unwrap();
    let buf = term.backend().buffer().clone();
    let text = (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>() + "\n").collect();
    (text, buf)
}

/// The screen's text only.
pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    render(app, w, h).0
}

/// `0x…` tokens: the value without leading zeros (`0` for zero, empty for a bare `0x`), and the
/// character right after the token (a `…` or a border there is a cut value).
pub fn hex_tokens(s: &str) -> Vec<(String, Option<char>)> {
    let b: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == '0' && b[i + 1] == 'x' && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i + 2;
            while j < b.len() && b[j].is_ascii_hexdigit() {
                j += 1;
            }
            // `0x` without digits is kept (as ""): a value cut right after its prefix.
            let digits = b[i + 2..j].iter().collect::<String>().to_ascii_lowercase();
            let v = digits.trim_start_matches('0');
            let v = if v.is_empty() && j > i + 2 { "0" } else { v };
            out.push((v.to_string(), b.get(j).copied()));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}
