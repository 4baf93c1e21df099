//! Property tests: no input makes the parser panic, and what it builds stays consistent.
//!
//! * random bytes;
//! * the sample traces mutated: truncated, spliced into each other, bytes flipped, ANSI
//!   escapes / CRLF / `> ` quotes / timestamps inserted, lines deleted or duplicated;
//! * a print-then-parse round trip (STYLE §9): generated frames and registers rendered as
//!   gdb prints them parse back to the same values.

mod common;

use proptest::prelude::*;
use std::sync::OnceLock;
use tracecheck::input::{self, Parsed};
use tracecheck::model::*;

/// `cases` per property, or `PROPTEST_CASES` for a longer run. Failing seeds are kept in
/// `tests/proptest_parse.proptest-regressions` (committed) and replayed first on every run.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    let regressions = proptest::test_runner::FileFailurePersistence::Direct(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/proptest_parse.proptest-regressions"
    ));
    ProptestConfig { cases, failure_persistence: Some(Box::new(regressions)), ..ProptestConfig::default() }
}

fn samples() -> &'static Vec<Vec<u8>> {
    static S: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    S.get_or_init(|| {
        let mut v = Vec::new();
        for dir in [common::samples_dir(), common::samples_dir().join("synthetic")] {
            let mut paths: Vec<_> = std::fs::read_dir(&dir)
                .expect("samples")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect();
            paths.sort();
            for p in paths {
                v.push(std::fs::read(p).expect("sample"));
            }
        }
        v
    })
}

/// What must hold for any parse, whatever the input.
fn invariants(p: &Parsed) {
    let d = &p.diagnostics;
    assert_eq!(d.lines_total, d.lines_recognized + d.lines_unrecognized, "every line is accounted for");
    assert!(d.unrecognized.len() <= tracecheck::input::MAX_UNRECOGNIZED_KEPT);
    assert!(d.unrecognized.iter().all(|u| u.line >= 1 && u.line <= d.lines_total + 1));
    for s in &p.trace.stops {
        assert!(s.threads.iter().filter(|t| t.crashed).count() <= 1, "at most one crashed thread per stop");
        for t in &s.threads {
            assert!(t.frames.windows(2).all(|w| w[0].index < w[1].index), "frames ordered by index, no duplicates");
            for f in &t.frames {
                assert!(f.span.first <= d.lines_total + 1);
            }
        }
        for m in &s.memory {
            assert!(m.string.is_some() || (m.unit > 0 && !m.words.is_empty()));
        }
    }
    assert!(p.trace.mappings.windows(2).all(|w| w[0].start <= w[1].start), "mappings sorted");
    let _ = p
        .trace
        .main_stop()
        .map(|s| (s.crashed_thread(), tracecheck::analyze::culprit(s), tracecheck::analyze::crash_line(s)));
}

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Splice { other: usize, from: usize, len: usize, at: usize },
    Flip { at: usize, byte: u8 },
    Insert { at: usize, what: usize },
    DeleteLine(usize),
    DuplicateLine(usize),
    PrefixLines { every: usize, what: usize },
}

const INSERTS: &[&[u8]] = &[
    b"\x1b[33m",
    b"\x1b[m",
    b"\x1b]0;title\x07",
    b"\r",
    b"\r\n",
    b"\n",
    b"> ",
    b"```\n",
    b"\0",
    b"\xff\xfe",
    b"\xe2\x82",
    b"(gdb) ",
    b"#",
    b"#0  ",
    b"0x",
    b"{",
    b"}",
    b"\"",
    b"(",
    b")",
    b" at ",
    b" in ",
    b"Thread 7 (Thread 0x1 (LWP 2)):\n",
    b"Program received signal SIGSEGV, Segmentation fault.\n",
    b"Program terminated with signal 11, Segmentation fault.\n",
    b"[1] signal 11 (1): Segmentation fault\n",
    b"Stacktrace:\n",
    b"[FATAL src/x.cc:1:f()]\n",
    b"Old value = 1\n",
    b"        x = {a = 1,\n",
];

const PREFIXES: &[&str] = &["> ", "2026-04-14T09:12:33.4412093Z ", "\x1b[1m", "    ", "\t"];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>(), 0usize..4096, any::<usize>())
            .prop_map(|(other, from, len, at)| Mutation::Splice { other, from, len, at }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (any::<usize>(), any::<usize>()).prop_map(|(at, what)| Mutation::Insert { at, what }),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (1usize..5, any::<usize>()).prop_map(|(every, what)| Mutation::PrefixLines { every, what }),
    ]
}

fn line_bounds(b: &[u8], k: usize) -> Option<(usize, usize)> {
    let starts: Vec<usize> =
        std::iter::once(0).chain(b.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| i + 1)).collect();
    let s = *starts.get(k % starts.len())?;
    let e = b[s..].iter().position(|c| *c == b'\n').map(|p| s + p + 1).unwrap_or(b.len());
    Some((s, e))
}

fn apply(mut b: Vec<u8>, m: &Mutation) -> Vec<u8> {
    let n = b.len().max(1);
    match *m {
        Mutation::Truncate(at) => b.truncate(at % n),
        Mutation::Splice { other, from, len, at } => {
            let o = &samples()[other % samples().len()];
            let from = from % o.len().max(1);
            let piece = o[from..(from + len).min(o.len())].to_vec();
            let at = at % n;
            b.splice(at.min(b.len())..at.min(b.len()), piece);
        }
        Mutation::Flip { at, byte } => {
            if !b.is_empty() {
                let at = at % b.len();
                b[at] = byte;
            }
        }
        Mutation::Insert { at, what } => {
            let at = (at % n).min(b.len());
            let w = INSERTS[what % INSERTS.len()];
            b.splice(at..at, w.iter().copied());
        }
        Mutation::DeleteLine(k) => {
            if let Some((s, e)) = line_bounds(&b, k) {
                b.drain(s..e);
            }
        }
        Mutation::DuplicateLine(k) => {
            if let Some((s, e)) = line_bounds(&b, k) {
                let l = b[s..e].to_vec();
                b.splice(s..s, l);
            }
        }
        Mutation::PrefixLines { every, what } => {
            let p = PREFIXES[what % PREFIXES.len()].as_bytes();
            let mut out = Vec::with_capacity(b.len() * 2);
            for (k, l) in b.split_inclusive(|c| *c == b'\n').enumerate() {
                if k % every == 0 {
                    out.extend_from_slice(p);
                }
                out.extend_from_slice(l);
            }
            b = out;
        }
    }
    b
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        invariants(&input::parse_bytes(&bytes));
    }

    #[test]
    fn random_gdb_like_lines_never_panic(lines in proptest::collection::vec("(#[0-9]{1,3}  )?(0x[0-9a-f]{1,18} in )?[a-z_:<>?]{0,12} ?\\(?[a-z=0-9, \"{}()]{0,30}\\)?( at [a-z./]{0,10}:[0-9]{0,6})?( from /[a-z.]{0,8})?", 0..40)) {
        invariants(&input::parse(&lines.join("\n")));
    }

    #[test]
    fn mutated_samples_never_panic(which in any::<usize>(), muts in proptest::collection::vec(mutation(), 1..8)) {
        let mut b = samples()[which % samples().len()].clone();
        for m in &muts {
            b = apply(b, m);
        }
        invariants(&input::parse_bytes(&b));
    }
}

// ---- print-then-parse round trip ---------------------------------------------------------

#[derive(Debug, Clone)]
struct GenFrame {
    pc: Option<u64>,
    function: String,
    args: String,
    location: Loc,
}

#[derive(Debug, Clone)]
enum Loc {
    Source(String, u32),
    Module(String),
    Nothing,
}

fn gen_frame() -> impl Strategy<Value = GenFrame> {
    let function = prop_oneof![
        "[a-z_][a-z0-9_]{0,20}",
        "[a-z]{1,8}::[A-Z][a-z]{1,8}::[a-z_]{1,10}",
        "std::vector<int, std::allocator<int> >::at",
        "\\(anonymous namespace\\)::[a-z]{1,8}",
    ];
    let args = prop_oneof![
        Just(String::new()),
        "[a-z]{1,5}=0x[0-9a-f]{1,12}",
        "[a-z]{1,5}=[0-9]{1,5}, [a-z]{1,5}=<optimized out>",
        "[a-z]{1,5}=0x[0-9a-f]{1,8} \"[a-z ()]{0,10}\"",
        "[a-z]{1,5}=\\.\\.\\.",
    ];
    let loc = prop_oneof![
        ("[a-z]{1,6}/[a-z_]{1,8}\\.(c|cpp|rs)", 1u32..100_000).prop_map(|(f, l)| Loc::Source(f, l)),
        "/lib/x86_64-linux-gnu/lib[a-z]{1,6}\\.so\\.[0-9]".prop_map(Loc::Module),
        Just(Loc::Nothing),
    ];
    (proptest::option::of(any::<u64>()), function, args, loc).prop_map(|(pc, function, args, location)| GenFrame {
        pc,
        function,
        args,
        location,
    })
}

fn render_frame(k: usize, f: &GenFrame) -> String {
    let mut s = format!("#{k:<3}");
    if let Some(pc) = f.pc {
        s.push_str(&format!("0x{pc:016x} in "));
    }
    s.push_str(&format!("{} ({})", f.function, f.args));
    match &f.location {
        Loc::Source(file, line) => s.push_str(&format!(" at {file}:{line}")),
        Loc::Module(m) => s.push_str(&format!(" from {m}")),
        Loc::Nothing => {}
    }
    s
}

const REGS: &[&str] = &[
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "rip", "eflags",
];

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn frames_and_registers_round_trip(frames in proptest::collection::vec(gen_frame(), 1..30), regs in proptest::collection::vec(any::<u64>(), REGS.len())) {
        let mut text = String::from("Program received signal SIGSEGV, Segmentation fault.\n(gdb) bt\n");
        for (k, f) in frames.iter().enumerate() {
            text.push_str(&render_frame(k, f));
            text.push('\n');
        }
        text.push_str("(gdb) info registers\n");
        for (name, v) in REGS.iter().zip(&regs) {
            text.push_str(&format!("{name:<15}0x{v:<18x}{v}\n"));
        }
        let p = input::parse(&text);
        prop_assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}\n{}", p.diagnostics.unrecognized, text);
        let s = p.trace.main_stop().expect("stop");
        let t = s.crashed_thread().expect("thread");
        prop_assert_eq!(t.frames.len(), frames.len());
        for (k, (got, want)) in t.frames.iter().zip(&frames).enumerate() {
            prop_assert_eq!(got.index as usize, k);
            prop_assert_eq!(got.pc.map(|a| a.0), want.pc);
            prop_assert_eq!(got.function_name(), want.function.as_str());
            prop_assert_eq!(got.args.as_deref(), Some(want.args.as_str()));
            match &want.location {
                Loc::Source(file, line) => {
                    prop_assert_eq!(got.file.as_deref(), Some(file.as_str()));
                    prop_assert_eq!(got.line, Some(*line));
                }
                Loc::Module(m) => prop_assert_eq!(got.module.as_deref(), Some(m.as_str())),
                Loc::Nothing => prop_assert!(got.file.is_none() && got.module.is_none()),
            }
        }
        let set = &t.registers[&0];
        for (name, v) in REGS.iter().zip(&regs) {
            prop_assert_eq!(set.get(name), Some(*v), "{}", name);
        }
    }
}

#[test]
fn no_sample_prefix_panics() {
    // Every prefix of every sample on line boundaries: the cheap exhaustive cousin of
    // `Truncate`.
    for s in samples() {
        for (i, _) in s.iter().enumerate().filter(|(_, c)| **c == b'\n').step_by(5) {
            invariants(&input::parse_bytes(&s[..i]));
        }
    }
}

#[test]
fn arch_is_known_for_every_sample() {
    for s in samples() {
        let p = input::parse_bytes(s);
        invariants(&p);
        let has_regs = p.trace.stops.iter().any(|s| s.threads.iter().any(|t| !t.registers.is_empty()));
        if has_regs {
            assert_eq!(p.trace.arch, Arch::X86_64);
        }
    }
}
