//! `tracecheck tui FILE` reads a transcript on a loader thread (`tui/loader.rs`) while the
//! screen shows what is read: these tests drive the loader with small chunks and the partial
//! analysis sent at once (`Pace`), so what they see does not depend on the machine's speed,
//! and check the screen (ratatui's `TestBackend`), the progress in the header, and that the
//! finished model is the one batch mode gives.

mod common;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tracecheck::pipeline::{self, LoadOptions, Progressive, Source};
use tracecheck::tui::app::{Action, App, Pane};
use tracecheck::tui::loader::{self, Loaded, Pace};
use tracecheck::tui::raw;
use tracecheck::tui::theme::Theme;

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-traces").join(name)
}

fn tui_options() -> LoadOptions {
    LoadOptions { keep_raw: true, ..Default::default() }
}

fn chunked(path: &Path) -> pipeline::Chunked {
    match pipeline::load_progressive(Source::Path(path.to_str().unwrap()), &tui_options()).unwrap() {
        Progressive::Chunked(c) => c,
        Progressive::Done(_) => panic!("{} was not read in chunks", path.display()),
    }
}

/// Small chunks, the partial analysis after the first one, and a long first wait.
fn eager(chunk: usize) -> Pace {
    Pace {
        chunk,
        partial_after: Duration::ZERO,
        partial_unless_left: Duration::ZERO,
        first_wait: Duration::from_secs(60),
    }
}

/// Chunks that end where thread 5's backtrace starts in `threads-crash.gdb.txt`: the first
/// holds the crash, `info threads`, `bt` and the crashed thread's `bt full`.
fn up_to_thread_5() -> Pace {
    let text = std::fs::read_to_string(sample("threads-crash.gdb.txt")).unwrap();
    eager(text.find("\nThread 5 (").unwrap() + 1)
}

fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    app.update(Action::Resize(w, h));
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| app.draw(f, f.area())).unwrap();
    let buf = term.backend().buffer().clone();
    (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>()).collect()
}

fn temp_copy(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-tui-loading-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The first screen of a file still being read shows the crash: the stop, the crashed
/// thread's frames with the crash frame selected, and `reading N% of …` in the header. When
/// the rest arrives the header's progress goes and the model is batch mode's.
#[test]
fn partial_screen_shows_the_crashed_thread_then_the_whole_file() {
    let path = sample("threads-crash.gdb.txt");
    let size = std::fs::metadata(&path).unwrap().len();
    let mut app = App::open_loading(chunked(&path), Some(path.clone()), Theme::plain(), up_to_thread_5());
    let loading = app.loading.as_ref().expect("still loading after the first chunk");
    assert!(loading.partial);
    assert_eq!(loading.total, size);
    // The partial model: the first lines only (the crash, `info threads`, `bt`, the crashed
    // thread's `bt full`), not the other threads' backtraces that come later.
    assert_eq!(app.raw_lines.len(), 42);
    // The text is read back from the file, not held: the partial analysis has no copy.
    assert!(app.ir.raw.is_none());
    let text = std::fs::read_to_string(&path).unwrap();
    let shown: Vec<String> = (0..42).map(|i| raw::line(&app, i).into_owned()).collect();
    assert_eq!(shown, text.lines().take(42).collect::<Vec<_>>());
    assert_eq!(app.raw_file.as_ref().unwrap().len(), text.lines().take(42).map(|l| l.len() as u64 + 1).sum::<u64>());
    // `info threads` gave every thread its top frame; only the crashed one has a backtrace.
    assert_eq!(app.trace().stops[0].threads.iter().filter(|t| t.frames.len() > 1).count(), 1);
    assert_eq!(app.current_thread().unwrap().frames.len(), 4);
    assert_eq!(app.stop, 0);
    let th = app.current_thread().expect("a thread");
    assert_eq!(&*th.id, "6");
    assert_eq!(app.current_frame().unwrap().function.as_deref(), Some("store_result"));
    assert!(app.is_crash_frame(app.frame));
    let s = screen(&mut app, 160, 40);
    let header = &s[0];
    assert!(header.contains("[reading "), "{header}");
    assert!(header.contains("% of 26.8 kB, showing what is read]"), "{header}");
    let body = s.join("\n");
    assert!(body.contains("store_result"), "{body}");
    assert!(body.contains("crasher"), "{body}");

    // The rest.
    let mut n = 0;
    while app.loading.is_some() {
        assert!(app.loading_wait(Duration::from_secs(60)));
        n += 1;
        assert!(n < 10);
    }
    let s = screen(&mut app, 160, 40);
    assert!(!s[0].contains("reading"), "{}", s[0]);
    assert!(app.status.is_none(), "{:?}", app.status);
    let batch = pipeline::load(Source::Path(path.to_str().unwrap()), &tui_options()).unwrap();
    assert_eq!(app.ir.parsed.trace, batch.parsed.trace);
    assert_eq!(app.ir.parsed.diagnostics, batch.parsed.diagnostics);
    assert_eq!(app.ir.findings, batch.findings);
    assert!(app.ir.raw.is_none());
    assert_eq!(app.raw_file.as_ref().map(|f| f.text()), batch.raw);
    assert_eq!(app.raw_lines, loader::line_starts(batch.raw.as_deref().unwrap().as_bytes()));
    // Nobody touched a key: the view is where `App::new` opens on the whole file.
    let fresh = App::new(batch, Some(path.clone()), Theme::plain());
    assert_eq!((app.stop, app.thread, app.frame, app.finding), (fresh.stop, fresh.thread, fresh.frame, fresh.finding));
    assert_eq!(app.focus, fresh.focus);
    assert_eq!(app.trace().stops[0].threads.len(), 6);
}

/// A user who moved while the file was read keeps their place when the whole model arrives.
#[test]
fn selection_made_during_the_load_is_kept() {
    let path = sample("threads-crash.gdb.txt");
    let mut app = App::open_loading(chunked(&path), Some(path.clone()), Theme::plain(), up_to_thread_5());
    assert!(app.loading.as_ref().is_some_and(|l| l.partial));
    app.update(Action::Focus(Pane::Frames));
    app.update(Action::Down);
    assert_eq!(app.frame, 1);
    let func = app.current_frame().unwrap().function.clone();
    assert_eq!(func.as_deref(), Some("crasher"));
    while app.loading.is_some() {
        assert!(app.loading_wait(Duration::from_secs(60)));
    }
    assert_eq!(app.focus, Pane::Frames);
    assert_eq!(&*app.current_thread().unwrap().id, "6");
    assert_eq!(app.current_frame().unwrap().function, func);
}

/// A small file is read whole within the first wait: no progress, no partial view.
#[test]
fn small_file_opens_whole() {
    let path = sample("null-field.gdb.txt");
    let pace = Pace { first_wait: Duration::from_secs(60), ..Pace::default() };
    let mut app = App::open_loading(chunked(&path), Some(path.clone()), Theme::plain(), pace);
    assert!(app.loading.is_none());
    assert!(!screen(&mut app, 120, 30)[0].contains("reading"));
    let batch = pipeline::load(Source::Path(path.to_str().unwrap()), &tui_options()).unwrap();
    assert_eq!(app.ir.findings, batch.findings);
    assert_eq!(app.ir.findings[0].rule, "null-dereference");
}

/// The chunked read gives batch mode's model for every sample and chunk size, with or
/// without a final newline, with bad bytes, and a line index of the raw text.
#[test]
fn chunked_load_equals_batch_load() {
    let dir = sample("");
    let mut inputs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    assert!(inputs.len() >= 10);
    let base = std::fs::read(sample("threads-crash.gdb.txt")).unwrap();
    inputs.push(("no-final-newline.txt".into(), base[..base.len() - 1].to_vec()));
    let mut bad = base.clone();
    bad.extend_from_slice(b"Thread 9 \xff\xfe bad\0 bytes\n#0  main () at t.c:2\nlast line, no newline \xc3");
    inputs.push(("bad-bytes.txt".into(), bad));
    inputs.push(("empty.txt".into(), Vec::new()));
    inputs.push(("one-line.txt".into(), b"Program received signal SIGSEGV, Segmentation fault.".to_vec()));
    for (name, bytes) in &inputs {
        let p = temp_copy(name, bytes);
        let batch = pipeline::load(Source::Path(p.to_str().unwrap()), &tui_options()).unwrap();
        for chunk in [1, 7, 1000, 1 << 20] {
            if chunk == 1 && bytes.len() > 30_000 {
                continue;
            }
            let msgs = loader::load_here(chunked(&p), Pace { chunk, ..Pace::default() });
            let Some(Loaded::Done(part)) = msgs.into_iter().last() else { panic!("{name}: no result") };
            let ir = part.analysis;
            assert_eq!(ir.parsed.trace, batch.parsed.trace, "{name}, chunk {chunk}");
            assert_eq!(ir.parsed.diagnostics, batch.parsed.diagnostics, "{name}, chunk {chunk}");
            assert_eq!(ir.findings, batch.findings, "{name}, chunk {chunk}");
            // No copy of the text in the analysis: it is read back from the file.
            assert!(ir.raw.is_none(), "{name}");
            let raw = part.raw.as_ref().expect("the file's text");
            assert_eq!(Some(raw.text()), batch.raw, "{name}, chunk {chunk}");
            assert_eq!(part.bytes, bytes.len() as u64);
            assert_eq!(part.raw_lines, loader::line_starts(bytes), "{name}");
            assert_eq!(part.facts, tracecheck::classify::TraceFacts::of(&ir.parsed.trace));
        }
    }
}

/// The errors batch mode gives come before the TUI starts; cores and the like load whole.
#[test]
fn errors_and_other_inputs() {
    let path = sample("null-field.gdb.txt");
    let small = LoadOptions { max_input_bytes: 10, ..tui_options() };
    let e = pipeline::load_progressive(Source::Path(path.to_str().unwrap()), &small).err().expect("too large");
    assert!(matches!(e, pipeline::LoadError::TooLarge(_)), "{e:?}");
    let e = pipeline::load_progressive(Source::Path("/nonexistent/x.txt"), &tui_options()).err().expect("missing");
    assert!(e.to_string().starts_with("cannot open /nonexistent/x.txt"), "{e}");
    // A file that grows past the limit while it is read: the footer says so.
    let p = temp_copy("grows.txt", b"(gdb) bt\n");
    let limit = LoadOptions { max_input_bytes: 12, ..tui_options() };
    let Progressive::Chunked(c) = pipeline::load_progressive(Source::Path(p.to_str().unwrap()), &limit).unwrap() else {
        panic!("not chunked")
    };
    std::fs::write(&p, b"(gdb) bt\n#0  main () at t.c:2\n").unwrap();
    let msgs = loader::load_here(c, Pace::default());
    assert!(matches!(msgs.last(), Some(Loaded::Failed(m)) if m.contains("over --max-input-bytes 12")), "{msgs:?}");
}

/// The classifier built from facts gathered once (what the TUI draws with) answers as one
/// built from the trace at every draw did, for every register value and frame pc of every
/// sample.
#[test]
fn classifier_from_facts_answers_as_before() {
    use tracecheck::classify::{Classifier, TraceFacts};
    let mut n = 0;
    for e in std::fs::read_dir(sample("")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let ir = pipeline::load(Source::Path(p.to_str().unwrap()), &LoadOptions::default()).unwrap();
        let t = &ir.parsed.trace;
        let facts = TraceFacts::of(t);
        let (old, new) = (Classifier::new(t), Classifier::with_facts(t, &facts));
        let threads = t.stops.iter().flat_map(|s| &s.threads);
        let regs = threads.clone().flat_map(|th| th.registers.values()).flat_map(|set| set.regs.iter());
        let values: Vec<u64> = regs
            .filter_map(|r| r.value)
            .chain(threads.flat_map(|th| th.frames.iter().filter_map(|f| f.pc.map(|a| a.0))))
            .collect();
        for v in values {
            assert_eq!(old.classify(v), new.classify(v), "{} {v:#x}", p.display());
            n += 1;
        }
    }
    assert!(n > 1000, "{n} values");
}

/// The classifier the panes draw with is built from the facts of the model on screen: after
/// the loader's whole analysis replaces the partial one, and after the follow worker's
/// analysis replaces the empty one (stale facts would call the stack `anonymous`).
#[test]
fn panes_classify_with_the_facts_of_the_model_shown() {
    use tracecheck::classify::{Classifier, RegionKind};
    let check = |app: &App| {
        let t = app.trace();
        let fresh = Classifier::new(t);
        let mut stack = 0;
        for set in t.stops.iter().flat_map(|s| &s.threads).flat_map(|th| th.registers.values()) {
            for v in set.regs.iter().filter_map(|r| r.value) {
                let c = app.classifier().classify(v);
                stack += usize::from(c.kind == RegionKind::Stack);
                assert_eq!(c, fresh.classify(v), "{v:#x}");
            }
        }
        assert!(stack > 0, "no register classified as stack");
    };
    let path = sample("threads-crash.gdb.txt");
    let mut app = App::open_loading(chunked(&path), Some(path.clone()), Theme::plain(), up_to_thread_5());
    while app.loading.is_some() {
        assert!(app.loading_wait(Duration::from_secs(60)));
    }
    check(&app);

    let log = temp_copy("follow.log", b"");
    let mut app =
        App::following(log.clone(), LoadOptions { max_input_bytes: 1 << 30, ..Default::default() }, Theme::plain());
    std::fs::write(&log, std::fs::read(&path).unwrap()).unwrap();
    let now = std::time::Instant::now();
    app.follow_tick(now);
    assert!(app.follow_wait(now));
    assert_eq!(app.trace().stops.len(), 1);
    check(&app);
}

/// The raw pane of a file read by the loader shows, line for line, what the pane of the same
/// file held in memory (`App::new` on batch mode's analysis) shows, bad bytes included, and
/// the exported report is the same.
#[test]
fn raw_lines_read_back_from_the_file_are_the_text_in_memory() {
    let base = std::fs::read(sample("threads-crash.gdb.txt")).unwrap();
    let mut bad = base.clone();
    bad.extend_from_slice(b"Thread 9 \xff\xfe bad\0 bytes\r\n#0  main () at t.c:2\nlast line, no newline \xc3");
    for (name, bytes) in [("plain.txt", base), ("bad.txt", bad)] {
        let p = temp_copy(name, &bytes);
        let mut app = App::open_loading(chunked(&p), Some(p.clone()), Theme::plain(), eager(1000));
        while app.loading.is_some() {
            assert!(app.loading_wait(Duration::from_secs(60)));
        }
        assert!(app.ir.raw.is_none() && app.raw_file.is_some(), "{name}");
        let batch = pipeline::load(Source::Path(p.to_str().unwrap()), &tui_options()).unwrap();
        let mem = App::new(batch, Some(p.clone()), Theme::plain());
        assert_eq!(app.raw_lines.len(), mem.raw_lines.len(), "{name}");
        for i in 0..mem.raw_lines.len() + 1 {
            assert_eq!(raw::line(&app, i), raw::line(&mem, i), "{name}, line {i}");
        }
        assert_eq!(app.markdown(true), mem.markdown(true), "{name}");
        assert_eq!(app.markdown(false), mem.markdown(false), "{name}");
    }
}

/// Search in a raw text read back from the file a block of lines at a time finds the lines
/// the search over the text in memory finds, forward and backward, across block boundaries
/// and wrapping around, smart case included. The input is written by the test (lines of
/// words, 40,000 of them, so that matches sit on both sides of the 16,384-line blocks).
#[test]
fn search_in_a_file_backed_raw_text_finds_what_the_text_in_memory_finds() {
    let mut text = String::new();
    for i in 0..40_000u32 {
        let word = match i {
            3 | 16_383 | 16_384 | 32_767 | 39_999 => "Needle",
            7 | 20_000 => "needle",
            _ => "hay",
        };
        text.push_str(&format!("line {i} {word} \u{e9}t\u{e9}\n"));
    }
    let p = temp_copy("search.txt", text.as_bytes());
    let mut file = App::open_loading(chunked(&p), Some(p.clone()), Theme::plain(), eager(1 << 16));
    while file.loading.is_some() {
        assert!(file.loading_wait(Duration::from_secs(60)));
    }
    assert!(file.raw_file.is_some());
    let batch = pipeline::load(Source::Path(p.to_str().unwrap()), &tui_options()).unwrap();
    let mut mem = App::new(batch, Some(p.clone()), Theme::plain());
    let mut hits = 0;
    for q in ["needle", "Needle", "line 1638", "\u{c9}T\u{c9}", "no such words", "39999 Needle"] {
        for start in [0usize, 3, 4, 16_383, 16_384, 16_385, 25_000, 39_999] {
            for action in [Action::SearchNext, Action::SearchPrev] {
                let mut got = Vec::new();
                for app in [&mut file, &mut mem] {
                    app.update(Action::Focus(Pane::Raw));
                    app.raw_cursor = start;
                    app.last_search = Some(q.to_string());
                    app.update(action.clone());
                    got.push((app.raw_cursor, app.status.clone()));
                }
                assert_eq!(got[0], got[1], "{q:?} from line {start}, {action:?}");
                hits += usize::from(got[0].0 != start);
            }
        }
    }
    assert!(hits > 40, "{hits}");
}

/// The model the TUI keeps for a big file carries no spare room (docs/tui.md, "Memory"):
/// every thread's frame list holds exactly its frames, a frame's typed argument facts take no
/// memory until something reads them (the rules read a few frames), and once read each of
/// their lists holds exactly its items.
#[test]
fn the_model_holds_no_spare_room_and_types_arguments_on_read() {
    let path = sample("stack-overflow.gdb.txt");
    let mut app = App::open_loading(chunked(&path), Some(path.clone()), Theme::plain(), eager(4096));
    while app.loading.is_some() {
        assert!(app.loading_wait(Duration::from_secs(60)));
    }
    let t = app.trace();
    let (mut frames, mut untyped, mut ints) = (0, 0, 0);
    let mut names = std::collections::BTreeSet::new();
    for th in t.stops.iter().flat_map(|s| &s.threads) {
        assert_eq!(th.frames.capacity(), th.frames.len(), "thread {}", th.id);
        for f in &th.frames {
            frames += 1;
            untyped += usize::from(f.args.is_some() && !f.arg_facts.is_computed());
        }
    }
    for th in t.stops.iter().flat_map(|s| &s.threads) {
        for f in &th.frames {
            let a = f.arg_facts();
            assert_eq!(f.arg_facts.is_computed(), f.args.is_some());
            assert_eq!(a.int_args.capacity(), a.int_args.len());
            assert_eq!(a.string_args.capacity(), a.string_args.len());
            assert_eq!(a.null_args.capacity(), a.null_args.len());
            assert_eq!(a.entry_values.capacity(), a.entry_values.len());
            assert_eq!(a.arg_symbols.capacity(), a.arg_symbols.len());
            ints += a.int_args.len();
            names.extend(a.int_args.iter().map(|(n, _)| n.to_string()));
        }
    }
    assert!(frames > 30 && untyped > 30, "{frames} frames, {untyped} untyped after loading");
    assert!(ints > 30, "{ints} integer arguments");
    assert!(names.contains("depth"), "{names:?}");
}
