//! Which of the memory-corruption and abort rules fire on each sample trace. Every sample is
//! listed, so the quiet ones are proven quiet; a new sample must be added here.

use tracecheck::rules::{self, Selection};

const RULES: &[&str] =
    &["poison-value", "heap-corruption", "corrupt-backtrace", "uncaught-exception", "panic", "assertion-failure"];

/// sample → the rules (of [`RULES`]) that fire on it, in any order.
const EXPECTED: &[(&str, &[&str])] = &[
    ("assert-fail.gdb.txt", &["assertion-failure"]),
    ("c-r13-plain.gdb.txt", &[]),
    ("cpp-uncaught.gdb.txt", &["uncaught-exception"]),
    ("glibc-abort.gdb.txt", &["heap-corruption"]),
    ("julia-trampoline-bad-r13.gdb.txt", &[]),
    ("julia-trampoline-good-r13.gdb.txt", &[]),
    ("misaligned-sse.gdb.txt", &[]),
    // 0xdead000000000000: an info-level, heuristic poison-pointer finding (see the rule's doc).
    ("noncanonical.gdb.txt", &["poison-value"]),
    ("null-field.gdb.txt", &[]),
    ("null-fnptr.gdb.txt", &[]),
    ("poison.gdb.txt", &["poison-value"]),
    ("rust-null.gdb.txt", &[]),
    ("rust-panic.gdb.txt", &["panic"]),
    ("rust-thread-panic-join.gdb.txt", &["panic"]),
    ("smashed-stack.gdb.txt", &["poison-value", "corrupt-backtrace"]),
    ("stack-chk.gdb.txt", &["heap-corruption", "corrupt-backtrace"]),
    ("stack-overflow.gdb.txt", &[]),
    ("threads-crash.gdb.txt", &[]),
    ("threads-current-core.gdb.txt", &[]),
    ("threads-current.gdb.txt", &[]),
    ("write-rodata.gdb.txt", &[]),
];

fn sample_dir() -> String {
    format!("{}/sample-traces", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_sample_is_listed() {
    let mut names: Vec<String> = std::fs::read_dir(sample_dir())
        .expect("sample-traces")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gdb.txt"))
        .collect();
    names.sort();
    let listed: Vec<String> = EXPECTED.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, listed);
}

#[test]
fn rules_fire_exactly_where_expected() {
    let sel = Selection { only: RULES.iter().map(|s| s.to_string()).collect(), skip: vec![] };
    let mut wrong = Vec::new();
    for (name, expected) in EXPECTED {
        let bytes = std::fs::read(format!("{}/{name}", sample_dir())).expect("sample");
        let parsed = tracecheck::input::parse_bytes(&bytes);
        let findings = rules::run(&parsed.trace, &sel);
        let mut got: Vec<&str> = findings.iter().map(|f| f.rule).collect();
        got.sort();
        let mut want: Vec<&str> = expected.to_vec();
        want.sort();
        if got != want {
            wrong.push(format!(
                "{name}: expected {want:?}, got {got:?}: {:#?}",
                findings.iter().map(|f| &f.message).collect::<Vec<_>>()
            ));
        }
        // One finding per rule per stop on these single-stop samples.
        let mut dedup = got.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), got.len(), "{name}: a rule fired twice");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn messages_are_short_lowercase_and_without_trailing_period() {
    let sel = Selection { only: RULES.iter().map(|s| s.to_string()).collect(), skip: vec![] };
    for (name, _) in EXPECTED {
        let bytes = std::fs::read(format!("{}/{name}", sample_dir())).expect("sample");
        let parsed = tracecheck::input::parse_bytes(&bytes);
        for f in rules::run(&parsed.trace, &sel) {
            let first = f.message.chars().next().unwrap_or(' ');
            assert!(!first.is_uppercase(), "{name}: {}", f.message);
            assert!(!f.message.ends_with('.'), "{name}: {}", f.message);
            assert!(f.message.len() < 300, "{name}: {} chars: {}", f.message.len(), f.message);
            assert!(!f.evidence.is_empty(), "{name}: {} has no evidence", f.rule);
        }
    }
}

#[test]
fn root_causes_rank_first_on_stack_chk() {
    // The canary abort explains the trace; the broken unwind is a consequence.
    let bytes = std::fs::read(format!("{}/stack-chk.gdb.txt", sample_dir())).expect("sample");
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let sel = Selection { only: RULES.iter().map(|s| s.to_string()).collect(), skip: vec![] };
    let f = rules::run(&parsed.trace, &sel);
    assert_eq!(f.iter().map(|f| f.rule).collect::<Vec<_>>(), vec!["heap-corruption", "corrupt-backtrace"]);
}
