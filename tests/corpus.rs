//! Text nobody here wrote: the external corpus in `../shared/corpus` (CASR crash reports and
//! satyr's gdb backtraces, see its README). The corpus is not part of this repository, so
//! every test here prints a `SKIPPED` line when it is absent (a fresh clone) and fails under CI.
//!
//! * every CASR `Stacktrace`, `ProcMaps` and `Disassembly` line must be recognized;
//! * tracecheck's crash line (`analyze::crash_line`) is compared with CASR's `CrashLine`;
//!   the agreement figure is printed, and every disagreement must be explained in
//!   `docs/corpus.md` (the test fails on an undocumented one);
//! * each satyr backtrace must give the right threads, frame counts and crashing thread.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use tracecheck::input::{self, gdb};

/// `../shared/corpus`, or `None` after a `SKIPPED` line (a failure under CI).
fn corpus_dir() -> Option<PathBuf> {
    common::require_shared("corpus")
}

struct Casrep {
    name: String,
    stacktrace: Vec<String>,
    proc_maps: Vec<String>,
    disassembly: Vec<String>,
    crash_line: Option<String>,
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn casreps(dir: &Path) -> Vec<Casrep> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("casr-gdb"))
        .expect("casr-gdb folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "casrep"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("read casrep");
            let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            Casrep {
                name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                stacktrace: strings(&v, "Stacktrace"),
                proc_maps: strings(&v, "ProcMaps"),
                disassembly: strings(&v, "Disassembly"),
                crash_line: v.get("CrashLine").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string),
            }
        })
        .collect()
}

#[test]
fn casr_stacktrace_lines_are_frames() {
    let Some(dir) = corpus_dir() else { return };
    let reps = casreps(&dir);
    assert!(reps.len() >= 100, "expected the CASR reports, found {}", reps.len());
    let mut lines = 0;
    for r in &reps {
        for (k, l) in r.stacktrace.iter().enumerate() {
            lines += 1;
            let f = gdb::frame_line(l).unwrap_or_else(|| panic!("{}: not a frame line: {l}", r.name));
            assert_eq!(f.index as usize, k, "{}: frame number of {l}", r.name);
            assert!(!f.truncated, "{}: cut off: {l}", r.name);
            assert!(f.file.is_some() || f.module.is_some(), "{}: no location in {l}", r.name);
            assert_eq!(f.file.is_some(), f.line.is_some(), "{}: file without line in {l}", r.name);
            if l.contains(" in ") && l[4..].trim_start().starts_with("0x") {
                assert!(f.pc.is_some(), "{}: pc lost in {l}", r.name);
            }
            if let Some(a) = f.args {
                assert!(l.contains(&format!("({a})")), "{}: args {a:?} not the printed group in {l}", r.name);
            }
        }
        // The whole block parses into one thread with every frame, nothing unrecognized.
        let p = input::parse(&r.stacktrace.join("\n"));
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{}: {:?}", r.name, p.diagnostics.unrecognized);
        let stop = p.trace.main_stop().expect("a stop");
        assert_eq!(stop.threads.len(), 1, "{}", r.name);
        assert_eq!(stop.threads[0].frames.len(), r.stacktrace.len(), "{}", r.name);
    }
    println!("casr: {lines} Stacktrace lines in {} reports recognized as frames", reps.len());
}

#[test]
fn casr_proc_maps_and_disassembly() {
    let Some(dir) = corpus_dir() else { return };
    let reps = casreps(&dir);
    let (mut maps, mut insns) = (0, 0);
    for r in &reps {
        // The first ProcMaps line is the column header.
        let (header, rows) = r.proc_maps.split_first().expect("ProcMaps");
        assert!(header.trim_start().starts_with("Start Addr"), "{}: {header}", r.name);
        for l in rows {
            let m = gdb::mapping_row(l).unwrap_or_else(|| panic!("{}: not a mapping row: {l}", r.name));
            assert!(m.start < m.end, "{}: {l}", r.name);
            maps += 1;
        }
        let p = input::parse(&r.proc_maps.join("\n"));
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{}: {:?}", r.name, p.diagnostics.unrecognized);
        assert_eq!(p.trace.mappings.len(), rows.len(), "{}: mappings", r.name);

        for (k, l) in r.disassembly.iter().enumerate() {
            let i = gdb::insn_line(l).unwrap_or_else(|| panic!("{}: not an instruction: {l}", r.name));
            assert_eq!(i.current, k == 0, "{}: the `==>` marker is on the first line only: {l}", r.name);
            assert!(!i.text.is_empty(), "{}: {l}", r.name);
            insns += 1;
        }
        if r.disassembly.is_empty() {
            continue;
        }
        let p = input::parse(&r.disassembly.join("\n"));
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{}: {:?}", r.name, p.diagnostics.unrecognized);
        let stop = p.trace.main_stop().expect("a stop");
        assert_eq!(stop.disassembly.len(), r.disassembly.len(), "{}", r.name);
        assert!(stop.disassembly[0].current, "{}", r.name);
    }
    println!("casr: {maps} ProcMaps rows and {insns} Disassembly lines recognized");
}

/// tracecheck's crash line next to CASR's, for every report where CASR has one.
fn crash_line_comparison(reps: &[Casrep]) -> (usize, Vec<(String, String, Option<String>)>) {
    let mut agree = 0;
    let mut differ = Vec::new();
    for r in reps {
        let Some(casr) = &r.crash_line else { continue };
        let p = input::parse(&r.stacktrace.join("\n"));
        let ours = p.trace.main_stop().and_then(tracecheck::analyze::crash_line);
        if ours.as_deref() == Some(casr.as_str()) {
            agree += 1;
        } else {
            differ.push((r.name.clone(), casr.clone(), ours));
        }
    }
    (agree, differ)
}

#[test]
fn casr_crash_line_agreement() {
    let Some(dir) = corpus_dir() else { return };
    let reps = casreps(&dir);
    let total = reps.iter().filter(|r| r.crash_line.is_some()).count();
    let (agree, differ) = crash_line_comparison(&reps);
    println!("crash line agreement with CASR: {agree}/{total}");
    for (name, casr, ours) in &differ {
        println!("  {name}: CASR {casr}, tracecheck {}", ours.as_deref().unwrap_or("(none)"));
    }
    // Every disagreement is explained in docs/corpus.md, and the figure there is current.
    let doc = std::fs::read_to_string(common::crate_dir().join("docs/corpus.md")).expect("docs/corpus.md");
    assert!(
        doc.contains(&format!("{agree}/{total}")),
        "docs/corpus.md does not state the current agreement figure {agree}/{total}"
    );
    let undocumented: Vec<&String> =
        differ.iter().map(|d| &d.0).filter(|n| !doc.contains(n.trim_end_matches(".casrep"))).collect();
    assert!(undocumented.is_empty(), "disagreements not explained in docs/corpus.md: {undocumented:?}");
}

/// What each satyr backtrace must parse into, worked out by reading the files: thread ids
/// with their frame counts, the crashing thread and its frame 0.
struct SatyrExpect {
    file: &'static str,
    signal: &'static str,
    threads: &'static [(&'static str, usize)],
    crashed: &'static str,
    frame0: &'static str,
}

const SATYR: &[SatyrExpect] = &[
    // No `Thread N` headers: one thread. The `#0 write ()` after the stop line is the crash
    // location; the backtrace after `[Some crap]` is that thread's (its pc differs: the
    // file was spliced, the function is the same).
    SatyrExpect {
        file: "no-thread-header.txt",
        signal: "SIGSEGV",
        threads: &[("1", 6)],
        crashed: "1",
        frame0: "write",
    },
    // Wrapped (80-column) frame lines; raise ← FatalSignalHandler ← <signal handler> ←
    // nsTreeBodyFrame::PrefillPropertyArray.
    SatyrExpect { file: "quality_100.txt", signal: "SIGSEGV", threads: &[("1", 21)], crashed: "1", frame0: "raise" },
    // 20 threads; the stop location `g_str_hash (v=v@entry=0x0) at ghash.c:1871` is thread
    // 1's frame 0 (no pc printed: matched on function, file and line).
    SatyrExpect {
        file: "rhbz-1032472.txt",
        signal: "SIGSEGV",
        threads: &[
            ("20", 11),
            ("19", 9),
            ("18", 9),
            ("17", 9),
            ("16", 9),
            ("15", 9),
            ("14", 9),
            ("13", 9),
            ("12", 9),
            ("11", 9),
            ("10", 8),
            ("9", 9),
            ("8", 8),
            ("7", 9),
            ("6", 8),
            ("5", 9),
            ("4", 9),
            ("3", 8),
            ("2", 8),
            ("1", 31),
        ],
        crashed: "1",
        frame0: "g_str_hash",
    },
    // The location `0x00007f778873dbde in _dbus_list_foreach () from …` has thread 1's pc.
    SatyrExpect {
        file: "rhbz-1239318.txt",
        signal: "SIGSEGV",
        threads: &[("6", 8), ("5", 7), ("4", 7), ("3", 7), ("2", 7), ("1", 10)],
        crashed: "1",
        frame0: "_dbus_list_foreach",
    },
    // Old gdb: `Thread 11 (Thread 19965):` (decimal LWPs), wrapped lines, warnings inside
    // `bt full` values. Thread 1 is the one in raise ← FatalSignalHandler.
    SatyrExpect {
        file: "rhbz-621492.txt",
        signal: "SIGSEGV",
        threads: &[
            ("11", 9),
            ("10", 6),
            ("9", 10),
            ("8", 7),
            ("7", 8),
            ("6", 12),
            ("5", 6),
            ("4", 12),
            ("3", 6),
            ("2", 14),
            ("1", 111),
        ],
        crashed: "1",
        frame0: "raise",
    },
    // i386 Xorg abort: one thread, `Backtrace stopped` after an nvidia driver frame.
    SatyrExpect {
        file: "rhbz-955617.txt",
        signal: "SIGABRT",
        threads: &[("1", 13)],
        crashed: "1",
        frame0: "__kernel_vsyscall",
    },
];

#[test]
fn satyr_backtraces() {
    let Some(dir) = corpus_dir() else { return };
    for e in SATYR {
        let bytes = std::fs::read(dir.join("satyr-gdb").join(e.file)).expect("satyr file");
        let p = input::parse_bytes(&bytes);
        let stop = p.trace.main_stop().unwrap_or_else(|| panic!("{}: no stop", e.file));
        assert_eq!(stop.reason.signal.as_deref(), Some(e.signal), "{}", e.file);
        let got: Vec<(&str, usize)> = stop.threads.iter().map(|t| (&*t.id, t.frames.len())).collect();
        assert_eq!(got, e.threads, "{}: threads and frame counts", e.file);
        let crashed = stop.crashed_thread().expect("crashed thread");
        assert!(crashed.crashed, "{}: crashed thread only guessed", e.file);
        assert_eq!(&*crashed.id, e.crashed, "{}: crashed thread", e.file);
        assert_eq!(crashed.frames[0].function_name(), e.frame0, "{}: frame 0", e.file);
        assert_eq!(stop.threads.iter().filter(|t| t.crashed).count(), 1, "{}", e.file);
        // Frame numbers run 0..n without gaps in every thread.
        for t in &stop.threads {
            for (k, f) in t.frames.iter().enumerate() {
                assert_eq!(f.index as usize, k, "{}: thread {} frame numbering", e.file, t.id);
            }
        }
        // Only text that is not debugger output stays unrecognized (see docs/corpus.md).
        assert!(p.diagnostics.lines_unrecognized <= 1, "{}: {:?}", e.file, p.diagnostics.unrecognized);
        println!("satyr {}: {} threads, crashed thread {} at {}", e.file, stop.threads.len(), crashed.id, e.frame0);
    }
}

#[test]
fn satyr_wrapped_frames_are_joined() {
    let Some(dir) = corpus_dir() else { return };
    let bytes = std::fs::read(dir.join("satyr-gdb/quality_100.txt")).expect("quality_100");
    let p = input::parse_bytes(&bytes);
    let stop = p.trace.main_stop().expect("stop");
    let t = stop.crashed_thread().expect("thread");
    // `#1  0x… in nsProfileLock::FatalSignalHandler (signo=11, ` + `    info=…, context=…)` +
    // `    at nsProfileLock.cpp:213`
    let f1 = &t.frames[1];
    assert_eq!(f1.function_name(), "nsProfileLock::FatalSignalHandler");
    assert_eq!(f1.args.as_deref(), Some("signo=11, info=<value optimized out>, context=<value optimized out>"));
    assert_eq!((f1.file.as_deref(), f1.line), (Some("nsProfileLock.cpp"), Some(213)));
    assert!(t.frames[2].signal_handler);
    // `colRect = {x = …, width = -1861695320, ` + `height = 32656}` is one local.
    let locals: Vec<(&str, &str)> = t.frames[4].locals().collect();
    assert_eq!(locals.iter().map(|l| l.0).collect::<Vec<_>>(), ["colContext", "colRect", "colMargin"]);
    assert!(locals[1].1.ends_with("height = 32656}"));
    // #9 `Paint` was inlined into #10 (printed without an address).
    assert!(t.frames[9].inlined && t.frames[10].pc.is_none());
}
