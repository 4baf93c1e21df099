//! Time to the TUI's first frame on a large dump: read, parse, analyze, build the `App`, draw
//! once at 80x24 and at 200x50 (into ratatui's `TestBackend`, so no terminal is needed).
//!
//! ```text
//! sample-traces/gen-bench.sh /tmp/tui10.bench.txt 560 48   # real gdb transcript, ~11 MB
//! TRACECHECK_BENCH_DUMP=/tmp/tui10.bench.txt cargo bench --bench tui_first_frame
//! ```
//!
//! Without `TRACECHECK_BENCH_DUMP` it builds a ~10 MB transcript from the `threads-crash`
//! sample (its `thread apply all bt` section repeated with new thread numbers). Prints the
//! best and median of several runs. The target is under 100 ms (docs/tui.md).

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};
use tracecheck::tui::app::{Action, App};
use tracecheck::tui::theme::Theme;

fn synthetic() -> (std::path::PathBuf, usize) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = std::fs::read_to_string(root.join("sample-traces/threads-crash.gdb.txt")).expect("sample");
    let start = base.find("\nThread ").unwrap_or(0);
    let end = base[start..].find("(gdb) info threads").map(|e| start + e).unwrap_or(base.len());
    let block = &base[start..end];
    let mut out = String::with_capacity(11 << 20);
    out.push_str(&base);
    out.push_str("(gdb) thread apply all bt full\n");
    let mut n = 100;
    while out.len() < 10 << 20 {
        out.push_str(&block.replace("\nThread ", &format!("\nThread {n}")));
        n += 1;
    }
    let path = std::env::temp_dir().join(format!("tracecheck-bench-{}.txt", std::process::id()));
    std::fs::write(&path, &out).expect("write");
    (path, out.len())
}

fn once(path: &std::path::Path, w: u16, h: u16) -> Duration {
    let t0 = Instant::now();
    let bytes = std::fs::read(path).expect("read");
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let mut ir = tracecheck::analyze::analyze(&path.to_string_lossy(), parsed, &Default::default());
    ir.raw = Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
    let mut app = App::new(ir, Some(path.to_path_buf()), Theme::colored());
    app.update(Action::Resize(w, h));
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| app.draw(f, f.area())).expect("draw");
    t0.elapsed()
}

fn phases(path: &std::path::Path) {
    let t = Instant::now();
    let bytes = std::fs::read(path).expect("read");
    let a = t.elapsed();
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let b = t.elapsed();
    let mut ir = tracecheck::analyze::analyze("x", parsed, &Default::default());
    let c = t.elapsed();
    ir.raw = Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
    let d = t.elapsed();
    let mut app = App::new(ir, None, Theme::colored());
    let e = t.elapsed();
    app.update(Action::Resize(80, 24));
    let mut term = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
    term.draw(|f| app.draw(f, f.area())).expect("draw");
    let f = t.elapsed();
    let ms = |x: Duration| x.as_secs_f64() * 1e3;
    println!(
        "phases: read {:.1} ms, parse {:.1} ms, analyze {:.1} ms, raw copy {:.1} ms, App::new {:.1} ms, draw {:.1} ms",
        ms(a),
        ms(b - a),
        ms(c - b),
        ms(d - c),
        ms(e - d),
        ms(f - e)
    );
}

fn main() {
    let (path, synthetic_file) = match std::env::var_os("TRACECHECK_BENCH_DUMP") {
        Some(p) => (std::path::PathBuf::from(p), false),
        None => (synthetic().0, true),
    };
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "dump: {} ({:.1} MB{})",
        path.display(),
        size as f64 / 1e6,
        if synthetic_file { ", synthetic" } else { "" }
    );
    phases(&path);
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        let mut runs: Vec<Duration> = (0..7).map(|_| once(&path, w, h)).collect();
        runs.sort();
        println!(
            "first frame {w}x{h}: best {:.1} ms, median {:.1} ms (read + parse + analyze + App::new + draw)",
            runs[0].as_secs_f64() * 1e3,
            runs[runs.len() / 2].as_secs_f64() * 1e3
        );
    }
    // After the first frame: a redraw after moving the selection (what each key costs).
    let bytes = std::fs::read(&path).expect("read");
    let mut ir = tracecheck::analyze::analyze("x", tracecheck::input::parse_bytes(&bytes), &Default::default());
    ir.raw = Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
    let mut app = App::new(ir, None, Theme::colored());
    let mut term = Terminal::new(TestBackend::new(200, 50)).expect("terminal");
    app.update(Action::Resize(200, 50));
    let t0 = Instant::now();
    for _ in 0..100 {
        app.update(Action::Down);
        term.draw(|f| app.draw(f, f.area())).expect("draw");
    }
    println!("key + redraw 200x50: {:.2} ms each", t0.elapsed().as_secs_f64() * 10.0);
    if synthetic_file {
        let _ = std::fs::remove_file(&path);
    }
}
