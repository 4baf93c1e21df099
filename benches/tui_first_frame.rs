//! The TUI on big inputs (issue 14, item 4; figures in docs/tui.md and docs/performance.md):
//! time to the first frame, time until the whole file is shown, key to redrawn frame while
//! the file loads and after, and peak memory, on two real gdb `thread apply all bt full`
//! transcripts of `sample-traces/src/bench-threads.c`:
//!
//! ```text
//! sample-traces/gen-bench.sh target/bench/gdb-200.bench.txt 200 155     # 11.2 MB, ~15 s
//! sample-traces/gen-bench.sh target/bench/gdb-1800.bench.txt 1800 155   # 100.7 MB, ~3 min
//! cargo bench --bench tui_first_frame
//! ```
//!
//! Missing transcripts are generated with those commands (they are not committed).
//! `TRACECHECK_BENCH_DUMP=FILE` measures one file instead.
//!
//! The first frame is what `tracecheck tui FILE` does before its first draw, in the same
//! code: `pipeline::load_progressive`, `App::open_loading` (the loader thread reads and
//! parses; the UI waits for its first analysis: the whole file, or the lines read so far when
//! the whole will not be ready soon), one draw at 200x50 into ratatui's `TestBackend`.
//! Keys (Down, Up, PageDown, Tab, `]`, `[`, Enter, Esc… in turn) are handled as the event loop
//! handles them: take a finished analysis if one is ready, `update`, draw. Memory: the peak
//! RSS (`VmHWM`) of a child process that opens the file the same way, waits for the whole
//! analysis and draws once.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tracecheck::pipeline::{self, LoadOptions, Progressive, Source};
use tracecheck::tui::app::{Action, App, Pane};
use tracecheck::tui::loader::Pace;
use tracecheck::tui::theme::Theme;

fn options() -> LoadOptions {
    // What `tracecheck tui FILE` passes (`LoadArgs::options(true)` with no flags).
    LoadOptions { keep_raw: true, ..Default::default() }
}

fn open(path: &Path) -> App {
    let name = path.to_str().expect("utf-8 path");
    match pipeline::load_progressive(Source::Path(name), &options()).expect("load") {
        Progressive::Chunked(c) => App::open_loading(c, Some(path.to_path_buf()), Theme::colored(), Pace::default()),
        Progressive::Done(ir) => App::new(ir, Some(path.to_path_buf()), Theme::colored()),
    }
}

/// CPU time of the calling thread: a key's own work, without the time the scheduler gave
/// other processes (the machine these figures come from is shared).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time of the whole process (all threads: the UI and the loader).
fn process_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize]
}

fn input(root: &Path, name: &str, threads: u32) -> PathBuf {
    let p = root.join("target/bench").join(name);
    if !p.exists() {
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        println!("generating {} (sample-traces/gen-bench.sh … {threads} 155)", p.display());
        let ok = std::process::Command::new(root.join("sample-traces/gen-bench.sh"))
            .arg(&p)
            .arg(threads.to_string())
            .arg("155")
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "gen-bench.sh failed (needs gcc and gdb)");
    }
    p
}

/// The keys a user presses while reading a crash, in turn.
const KEYS: &[Action] = &[
    Action::Down,
    Action::Down,
    Action::Up,
    Action::PageDown,
    Action::Focus(Pane::Frames),
    Action::Down,
    Action::Open,
    Action::NextPane,
    Action::Down,
    Action::NextStop,
    Action::PrevStop,
    Action::Threads,
    Action::Down,
    Action::Back,
    Action::Focus(Pane::Raw),
    Action::PageDown,
    Action::Bottom,
    Action::Top,
    Action::Focus(Pane::Findings),
];

fn main() {
    if let Ok(p) = std::env::var("TRACECHECK_BENCH_MEM") {
        return child_memory(Path::new(&p));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inputs = match std::env::var_os("TRACECHECK_BENCH_DUMP") {
        Some(p) => vec![PathBuf::from(p)],
        None => vec![input(root, "gdb-200.bench.txt", 200), input(root, "gdb-1800.bench.txt", 1800)],
    };
    println!("load average (1, 5, 15 min): {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    for p in &inputs {
        measure(p);
    }
}

fn measure(path: &Path) {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    println!("== {} ({:.1} MB)", path.display(), size as f64 / 1e6);
    let (w, h) = (200u16, 50u16);
    let runs = if size > 50_000_000 { 5 } else { 9 };
    let (mut first, mut whole) = (Vec::new(), Vec::new());
    let (mut first_cpu, mut whole_cpu) = (Vec::new(), Vec::new());
    let mut partial_first = 0;
    let mut shown_at_first = 0u64;
    for _ in 0..runs {
        let c0 = process_cpu();
        let t0 = Instant::now();
        let mut app = open(path);
        app.update(Action::Resize(w, h));
        let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
        term.draw(|f| app.draw(f, f.area())).expect("draw");
        first.push(t0.elapsed());
        first_cpu.push(process_cpu().saturating_sub(c0));
        if app.loading.is_some() {
            partial_first += 1;
            shown_at_first = app.raw_lines.len() as u64;
        }
        while app.loading.is_some() {
            app.loading_wait(Duration::from_secs(60));
        }
        term.draw(|f| app.draw(f, f.area())).expect("draw");
        whole.push(t0.elapsed());
        whole_cpu.push(process_cpu().saturating_sub(c0));
        // Not counted: freeing the model.
        drop(app);
    }
    let best = |v: &[Duration]| v.iter().min().copied().unwrap_or_default();
    println!(
        "first frame {w}x{h}: best {:.1} ms, median {:.1} ms ({partial_first} of {runs} runs showed the lines read so far{}); \
         whole file shown: best {:.1} ms, median {:.1} ms",
        ms(best(&first)),
        ms(pct(&mut first, 0.5)),
        if partial_first > 0 { format!(", e.g. {shown_at_first} lines") } else { String::new() },
        ms(best(&whole)),
        ms(pct(&mut whole, 0.5)),
    );
    println!(
        "  CPU time of the process (UI and loader threads): first frame median {:.1} ms, whole file median {:.1} ms \
         ({:.0} MB/s)",
        ms(pct(&mut first_cpu, 0.5)),
        ms(pct(&mut whole_cpu, 0.5)),
        size as f64 / 1e6 / pct(&mut whole_cpu, 0.5).as_secs_f64()
    );

    // Keys while the file loads, then on the whole model.
    let mut app = open(path);
    app.update(Action::Resize(w, h));
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| app.draw(f, f.area())).expect("draw");
    let (mut during, mut after) = (Vec::new(), Vec::new());
    let mut i = 0;
    let mut during_cpu = Vec::new();
    while app.loading.is_some() {
        let c = thread_cpu();
        let t = Instant::now();
        app.loading_receive();
        app.update(KEYS[i % KEYS.len()].clone());
        term.draw(|f| app.draw(f, f.area())).expect("draw");
        during.push(t.elapsed());
        during_cpu.push(thread_cpu().saturating_sub(c));
        i += 1;
        std::thread::sleep(Duration::from_millis(4));
    }
    let mut slowest = (Duration::ZERO, Action::Quit);
    let mut cpu = Vec::new();
    for _ in 0..(KEYS.len() * 20) {
        let c = thread_cpu();
        let t = Instant::now();
        let key = KEYS[i % KEYS.len()].clone();
        app.update(key.clone());
        term.draw(|f| app.draw(f, f.area())).expect("draw");
        let took = t.elapsed();
        after.push(took);
        cpu.push(thread_cpu().saturating_sub(c));
        if std::env::var_os("TRACECHECK_BENCH_KEYS_DEBUG").is_some() && took > Duration::from_millis(5) {
            eprintln!("slow key {key:?}: {:.2} ms", ms(took));
        }
        if took > slowest.0 {
            slowest = (took, key);
        }
        i += 1;
    }
    let stats = |v: &mut Vec<Duration>| {
        if v.is_empty() {
            return "none (loaded before the first frame)".to_string();
        }
        let n = v.len();
        let (m, p99) = (pct(v, 0.5), pct(v, 0.99));
        format!("{n} keys, median {:.2} ms, p99 {:.2} ms, max {:.2} ms", ms(m), ms(p99), ms(*v.last().expect("n > 0")))
    };
    println!("key to frame while loading: {}", stats(&mut during));
    println!("  the same keys in CPU time of the UI thread: {}", stats(&mut during_cpu));
    println!("key to frame after: {}; slowest: {:?} {:.2} ms", stats(&mut after), slowest.1, ms(slowest.0));
    println!("  the same keys in CPU time of the UI thread: {}", stats(&mut cpu));
    let t = app.trace();
    println!(
        "model: {} stops, {} threads, {} frames, {} findings, {} raw lines, limit notes: {}",
        t.stops.len(),
        t.stops.iter().map(|s| s.threads.len()).sum::<usize>(),
        t.stops.iter().flat_map(|s| &s.threads).map(|th| th.frames.len()).sum::<usize>(),
        app.ir.findings.len(),
        app.raw_lines.len(),
        pipeline::limit_notes(&app.ir).count()
    );
    drop(app);

    // Peak memory in a child process.
    let exe = std::env::current_exe().expect("exe");
    match std::process::Command::new(exe).env("TRACECHECK_BENCH_MEM", path).output() {
        Ok(o) => {
            let out = String::from_utf8_lossy(&o.stdout);
            let kb: u64 = out.trim().parse().unwrap_or(0);
            println!(
                "peak RSS (VmHWM, child process: open, whole analysis, one draw): {:.1} MB = {:.2}x the input",
                kb as f64 * 1024.0 / 1e6,
                kb as f64 * 1024.0 / size.max(1) as f64
            );
        }
        Err(e) => println!("peak RSS: cannot run the child: {e}"),
    }
}

fn child_memory(path: &Path) {
    let mut app = match std::env::var("TRACECHECK_BENCH_MEM_MODE").as_deref() {
        Ok("load") => {
            let ir = pipeline::load(Source::Path(path.to_str().expect("utf-8")), &options()).expect("load");
            App::new(ir, None, Theme::colored())
        }
        Ok("whole") => match pipeline::load_progressive(Source::Path(path.to_str().expect("utf-8")), &options()) {
            Ok(Progressive::Chunked(c)) => {
                let pace = Pace { partial_after: Duration::from_secs(3600), ..Pace::default() };
                App::open_loading(c, None, Theme::colored(), pace)
            }
            _ => panic!("not chunked"),
        },
        _ => open(path),
    };
    while app.loading.is_some() {
        app.loading_wait(Duration::from_secs(60));
    }
    app.update(Action::Resize(200, 50));
    let mut term = Terminal::new(TestBackend::new(200, 50)).expect("terminal");
    term.draw(|f| app.draw(f, f.area())).expect("draw");
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |k: &str| status.lines().find_map(|l| l.strip_prefix(k)).unwrap_or("0 kB").trim().to_string();
    if std::env::var_os("TRACECHECK_BENCH_MEM_DEBUG").is_some() {
        eprintln!("VmRSS {} (anon {}, file {})", field("VmRSS:"), field("RssAnon:"), field("RssFile:"));
    }
    println!("{}", field("VmHWM:").trim_end_matches(" kB").trim());
    std::mem::forget(app);
}
