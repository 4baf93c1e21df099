//! What `tracecheck tui --follow` costs on a long session (figures in docs/tui.md).
//!
//! ```text
//! sample-traces/gen-bench.sh /tmp/follow10.bench.txt 560 48   # real gdb transcript, ~11 MB
//! TRACECHECK_BENCH_DUMP=/tmp/follow10.bench.txt cargo bench --bench follow
//! ```
//!
//! Without `TRACECHECK_BENCH_DUMP` it builds a ~10 MB transcript from the `threads-crash`
//! sample, as `tui_first_frame` does. Four measurements:
//!
//! 1. One full parse (`input::parse_bytes` + `analyze`) of prefixes of the dump: 1 MB,
//!    2.5 MB, 5 MB and all of it. Best and median of 7. And one follow-mode snapshot
//!    (`input::Incremental::snapshot` + `analyze`, what the follow worker runs per request)
//!    of all of it, the lines already fed.
//! 2. A poll that finds nothing new (one `stat`) and one that reads 256 kB of new lines.
//! 3. A session replayed into a temp file: the dump grows by `RATE` bytes per 200 ms poll
//!    and `App::follow_tick` runs after each append, on a clock that advances 200 ms per
//!    poll. Reports how many polls parsed, the parse time in total and at most, and the
//!    same total had every poll with new lines parsed (no debounce). Rates that would take
//!    more than 250 polls for the dump are skipped. The parses run on the follow worker.
//! 4. Key to frame while a 60 MB log grows (`TRACECHECK_BENCH_FOLLOW_MB`, default 60), in
//!    real time: 1 MB is appended every 200 ms poll, and between polls a key (Down / Up) is
//!    handled and the screen drawn (160x45 `TestBackend`) every 4 ms, while the worker
//!    parses on its own thread. Key to frame is the time from the key to the finished frame,
//!    including taking a finished analysis when one is ready (the event loop does that
//!    before the key). Reports the median, 99th percentile and maximum.
//!    `TRACECHECK_BENCH_ONLY=keys` runs only this one.

use std::io::Write;
use std::time::{Duration, Instant};
use tracecheck::pipeline::LoadOptions;
use tracecheck::tui::app::App;
use tracecheck::tui::theme::Theme;

fn synthetic() -> Vec<u8> {
    synthetic_of(10 << 20)
}

/// A real gdb transcript (`threads-crash`) with its `thread apply all bt full` section
/// repeated up to `size` bytes.
fn synthetic_of(size: usize) -> Vec<u8> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = std::fs::read_to_string(root.join("sample-traces/threads-crash.gdb.txt")).expect("sample");
    let start = base.find("\nThread ").unwrap_or(0);
    let end = base[start..].find("(gdb) info threads").map(|e| start + e).unwrap_or(base.len());
    let block = &base[start..end];
    let mut out = String::with_capacity(size + (1 << 20));
    out.push_str(&base);
    out.push_str("(gdb) thread apply all bt full\n");
    let mut n = 100;
    while out.len() < size {
        out.push_str(&block.replace("\nThread ", &format!("\nThread {n}")));
        n += 1;
    }
    out.into_bytes()
}

/// The longest prefix of at most `n` bytes that ends at a line end.
fn prefix(b: &[u8], n: usize) -> &[u8] {
    if n >= b.len() {
        return b;
    }
    match memchr::memrchr(b'\n', &b[..n]) {
        Some(i) => &b[..=i],
        None => &b[..0],
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `TRACECHECK_BENCH_ONLY=keys`: only measurement 4.
    if std::env::var("TRACECHECK_BENCH_ONLY").is_ok_and(|v| v == "keys") {
        let dir = std::env::temp_dir().join(format!("tracecheck-follow-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        key_to_frame_while_growing(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let (bytes, what) = match std::env::var_os("TRACECHECK_BENCH_DUMP") {
        Some(p) => (std::fs::read(&p).expect("read the dump"), std::path::PathBuf::from(p).display().to_string()),
        None => (synthetic(), "synthetic".to_string()),
    };
    println!("dump: {what} ({:.1} MB)", bytes.len() as f64 / 1e6);

    // 1. Full re-parse cost by size.
    for size in [1_000_000, 2_500_000, 5_000_000, usize::MAX] {
        let p = prefix(&bytes, size);
        let mut runs: Vec<Duration> = (0..7)
            .map(|_| {
                let t = Instant::now();
                let parsed = tracecheck::input::parse_bytes(p);
                let ir = tracecheck::analyze::analyze("x", parsed, &Default::default());
                std::hint::black_box(&ir);
                t.elapsed()
            })
            .collect();
        runs.sort();
        let mbs = p.len() as f64 / 1e6 / runs[3].as_secs_f64();
        println!(
            "re-parse {:>5.1} MB: best {:>6.1} ms, median {:>6.1} ms ({mbs:.0} MB/s)",
            p.len() as f64 / 1e6,
            ms(runs[0]),
            ms(runs[3])
        );
    }

    {
        let mut inc = tracecheck::input::Incremental::new(Default::default());
        inc.push(&bytes);
        let mut runs: Vec<Duration> = (0..7)
            .map(|_| {
                let t = Instant::now();
                let ir = tracecheck::analyze::analyze("x", inc.snapshot(), &Default::default());
                std::hint::black_box(&ir);
                t.elapsed()
            })
            .collect();
        runs.sort();
        println!(
            "follow snapshot {:>5.1} MB (lines already fed): best {:>6.1} ms, median {:>6.1} ms",
            bytes.len() as f64 / 1e6,
            ms(runs[0]),
            ms(runs[3])
        );
    }

    let dir = std::env::temp_dir().join(format!("tracecheck-follow-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log = dir.join("session.log");

    // 2. Poll costs, parse excluded (the debounce holds it back).
    {
        let first = prefix(&bytes, 5_000_000);
        std::fs::write(&log, first).expect("write");
        let mut app =
            App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 32, ..Default::default() }, Theme::plain());
        let now = Instant::now();
        let t = Instant::now();
        for _ in 0..100 {
            app.follow_tick(now);
        }
        println!("poll, nothing new: {:.1} µs", t.elapsed().as_secs_f64() * 1e6 / 100.0);
        let more = &bytes[first.len()..];
        let chunk = prefix(more, 256 << 10);
        std::fs::OpenOptions::new().append(true).open(&log).and_then(|mut f| f.write_all(chunk)).expect("append");
        let t = Instant::now();
        app.follow_tick(now);
        println!("poll reading {} kB of new lines (no parse): {:.2} ms", chunk.len() >> 10, ms(t.elapsed()));
    }

    // 3. A replayed session.
    for rate in [64 << 10, 256 << 10, 1 << 20] {
        if bytes.len() / rate > 250 {
            println!("session at {:>4} kB/poll: skipped (over 250 polls for this dump)", rate >> 10);
            continue;
        }
        std::fs::write(&log, b"").expect("truncate");
        let mut app =
            App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 32, ..Default::default() }, Theme::plain());
        let mut clock = Instant::now();
        let mut file = std::fs::OpenOptions::new().append(true).open(&log).expect("open");
        let (mut at, mut polls, mut parse_sizes) = (0usize, 0u64, 0u64);
        let wall = Instant::now();
        let mut max = Duration::ZERO;
        while at < bytes.len() {
            let end = (at + rate).min(bytes.len());
            file.write_all(&bytes[at..end]).expect("append");
            at = end;
            clock += Duration::from_millis(200);
            let before = app.follow.as_ref().map(|f| f.parses).unwrap_or(0);
            app.follow_tick(clock);
            // The replay runs faster than real time: let the worker keep up, as it would.
            app.follow_wait(clock);
            polls += 1;
            let f = app.follow.as_ref().expect("following");
            if f.parses > before {
                max = max.max(f.last_parse);
            }
            parse_sizes += app.ir.raw.as_ref().map(|r| r.len() as u64).unwrap_or(0);
        }
        // Let the debounce run out and parse the end.
        app.follow_wait(clock);
        clock += Duration::from_secs(10);
        app.follow_tick(clock);
        app.follow_wait(clock);
        let f = app.follow.as_ref().expect("following");
        let session = Duration::from_millis(200) * polls as u32;
        // Without the debounce every poll would parse everything read so far: estimate
        // with the measured speed of this run.
        let speed = f.total_parse.as_secs_f64() / f.parses.max(1) as f64 / (bytes.len() as f64 / 2.0);
        let no_debounce = parse_sizes as f64 * speed;
        println!(
            "session at {:>4} kB/poll: {polls} polls over {:.1} s of log time, {} parses, parse total {:.0} ms (max {:.0} ms) \
             = {:.0}% of one core; parsing at every poll would be ~{:.1} s; {} stops; replay took {:.1} s",
            rate >> 10,
            session.as_secs_f64(),
            f.parses,
            ms(f.total_parse),
            ms(max),
            100.0 * f.total_parse.as_secs_f64() / session.as_secs_f64(),
            no_debounce,
            app.trace().stops.len(),
            wall.elapsed().as_secs_f64()
        );
    }
    key_to_frame_while_growing(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

fn key_to_frame_while_growing(dir: &std::path::Path) {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use tracecheck::tui::app::Action;
    let mb: usize = std::env::var("TRACECHECK_BENCH_FOLLOW_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    let bytes = synthetic_of(mb << 20);
    let log = dir.join("grow.log");
    std::fs::write(&log, b"").expect("truncate");
    let mut app =
        App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 32, ..Default::default() }, Theme::plain());
    let mut term = Terminal::new(TestBackend::new(160, 45)).expect("terminal");
    app.update(Action::Resize(160, 45));
    let mut file = std::fs::OpenOptions::new().append(true).open(&log).expect("open");
    let (rate, poll) = (1usize << 20, Duration::from_millis(200));
    let mut at = 0;
    let mut keys: Vec<Duration> = Vec::new();
    let mut ticks: Vec<Duration> = Vec::new();
    let (mut took, mut draws): (Vec<Duration>, Vec<Duration>) = (Vec::new(), Vec::new());
    let mut down = true;
    let started = Instant::now();
    let mut next_poll = Instant::now();
    // Until the whole log is written and its last parse shown.
    while at < bytes.len() || app.follow_busy() || app.follow.as_ref().is_some_and(|f| f.dirty) {
        if Instant::now() >= next_poll {
            if at < bytes.len() {
                let end = prefix(&bytes[at..], rate).len().max(1) + at;
                file.write_all(&bytes[at..end.min(bytes.len())]).expect("append");
                at = end.min(bytes.len());
            }
            let t = Instant::now();
            app.follow_tick(t);
            ticks.push(t.elapsed());
            next_poll += poll;
        }
        // A key, handled as the event loop does: take a finished analysis, update, draw.
        let t = Instant::now();
        if app.follow_busy() && app.follow_receive(t) {
            took.push(t.elapsed());
        }
        let k = Instant::now();
        app.update(if down { Action::Down } else { Action::Up });
        down = !down;
        term.draw(|f| app.draw(f, f.area())).expect("draw");
        keys.push(t.elapsed());
        draws.push(k.elapsed());
        std::thread::sleep(Duration::from_millis(4));
        if started.elapsed() > Duration::from_secs(600) {
            println!("key to frame: gave up after 10 minutes");
            break;
        }
    }
    keys.sort();
    ticks.sort();
    draws.sort();
    took.sort();
    let f = app.follow.as_ref().expect("following");
    let pct = |v: &[Duration], p: f64| v[((v.len() - 1) as f64 * p) as usize];
    println!(
        "load average (1, 5, 15 min) at the end: {}",
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim()
    );
    println!(
        "key to frame while a {:.1} MB log grows 1 MB per 200 ms poll: {} keys, median {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
         of which update + draw p99 {:.2} ms, max {:.2} ms, and taking a finished analysis (UI thread) max {:.2} ms; \
         poll (UI thread) median {:.2} ms, max {:.2} ms; {} parses on the worker, last {:.0} ms, total {:.1} s; \
         {} stops, {} threads; {:.1} s",
        bytes.len() as f64 / 1e6,
        keys.len(),
        ms(pct(&keys, 0.5)),
        ms(pct(&keys, 0.99)),
        ms(*keys.last().unwrap_or(&Duration::ZERO)),
        ms(pct(&draws, 0.99)),
        ms(*draws.last().unwrap_or(&Duration::ZERO)),
        ms(*took.last().unwrap_or(&Duration::ZERO)),
        ms(pct(&ticks, 0.5)),
        ms(*ticks.last().unwrap_or(&Duration::ZERO)),
        f.parses,
        ms(f.last_parse),
        f.total_parse.as_secs_f64(),
        app.trace().stops.len(),
        app.trace().stops.last().map(|s| s.threads.len()).unwrap_or(0),
        started.elapsed().as_secs_f64()
    );
}
