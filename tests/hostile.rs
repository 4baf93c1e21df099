//! Pasting damage and hostile input: CRLF, terminal colours, `> ` quotes, CI timestamps,
//! markdown fences, interleaved log lines, sections in another order, a truncated last
//! line, a 1 MB line, NUL bytes and invalid UTF-8. Each test checks that the parse still
//! yields the right frames (and, for the lossless damage, exactly the same model).

mod common;

use common::{parse_sample, render};
use tracecheck::input::{self, Parsed};
use tracecheck::model::*;

/// (index, pc, function, file, line) of each frame of the crashed thread.
type FrameFacts = (u32, Option<u64>, String, Option<String>, Option<u32>);

fn frames_of(p: &Parsed) -> Vec<FrameFacts> {
    let t = p.trace.main_stop().and_then(|s| s.crashed_thread()).expect("crashed thread");
    t.frames
        .iter()
        .map(|f| {
            (f.index, f.pc.map(|a| a.0), f.function_name().to_string(), f.file.as_deref().map(str::to_string), f.line)
        })
        .collect()
}

fn map_lines(text: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    for l in text.lines() {
        out.push_str(&f(l));
        out.push('\n');
    }
    out
}

/// gdb's own styling (`set style enabled on`): addresses blue, functions yellow, files green.
fn gdb_colours(l: &str) -> String {
    if !l.starts_with('#') {
        return format!("\u{1b}[0m{l}\u{1b}[m");
    }
    let mut s = l.to_string();
    if let Some(p) = s.find("0x") {
        let end = s[p..].find(' ').map(|e| p + e).unwrap_or(s.len());
        s.insert_str(end, "\u{1b}[m");
        s.insert_str(p, "\u{1b}[34m");
    }
    if let Some(p) = s.find(" in ") {
        let start = p + 4;
        let end = s[start..].find(" (").map(|e| start + e).unwrap_or(s.len());
        s.insert_str(end, "\u{1b}[m");
        s.insert_str(start, "\u{1b}[33m");
    }
    if let Some(p) = s.rfind(" at ") {
        s.insert_str(p + 4, "\u{1b}[32m");
        s.push_str("\u{1b}[m");
    }
    s
}

fn assert_same_model(name: &str, damaged: &str) {
    let (_, clean) = parse_sample(name);
    let p = input::parse(damaged);
    assert_eq!(render(&p), render(&clean), "{name}: the damage changed the parsed model");
}

#[test]
fn crlf_line_endings() {
    let (text, _) = parse_sample("threads-crash");
    assert_same_model("threads-crash", &text.replace('\n', "\r\n"));
}

#[test]
fn terminal_colours() {
    let (text, clean) = parse_sample("null-field");
    let coloured = map_lines(&text, gdb_colours);
    assert!(coloured.contains("\u{1b}[33msession_bytes\u{1b}[m"));
    assert_same_model("null-field", &coloured);
    // Other escapes: a window-title OSC and a bold prompt.
    let p = input::parse(&format!(
        "\u{1b}]0;gdb\u{7}\u{1b}[1m(gdb) \u{1b}[0mbt\n{}",
        &text[text.find("#0").unwrap_or(0)..]
    ));
    assert_eq!(frames_of(&p)[..4], frames_of(&clean)[..4]);
}

#[test]
fn markdown_quotes() {
    let (text, _) = parse_sample("threads-crash");
    assert_same_model("threads-crash", &map_lines(&text, |l| format!("> {l}")));
    // Nested quotes, and `>` alone on blank lines.
    assert_same_model(
        "threads-crash",
        &map_lines(&text, |l| if l.is_empty() { ">".into() } else { format!("> > {l}") }),
    );
}

#[test]
fn ci_timestamps() {
    let (text, _) = parse_sample("c-r13-plain");
    assert_same_model("c-r13-plain", &map_lines(&text, |l| format!("2026-04-14T09:12:33.4412093Z {l}")));
}

#[test]
fn markdown_fences_and_prose() {
    let (text, clean) = parse_sample("rust-null");
    let pasted = format!("Here is what gdb printed:\n\n```gdb\n{text}```\n\nThanks!\n");
    let p = input::parse(&pasted);
    assert_eq!(frames_of(&p), frames_of(&clean));
    let s = p.trace.main_stop().expect("stop");
    assert_eq!((s.reason.si_code, s.reason.address), (Some(1), Some(Address(0x1018))));
    // The two prose lines are the only unrecognized ones.
    assert_eq!(p.diagnostics.lines_unrecognized, 2, "{:?}", p.diagnostics.unrecognized);
}

#[test]
fn interleaved_log_lines() {
    let (text, clean) = parse_sample("threads-crash");
    let mut out = String::new();
    for (k, l) in text.lines().enumerate() {
        out.push_str(l);
        out.push('\n');
        if k % 7 == 3 {
            out.push_str(&format!("[worker-{k}] 2026-04-14 09:12:33,441 INFO heartbeat ok (queue depth {k})\n"));
        }
    }
    let p = input::parse(&out);
    assert_eq!(frames_of(&p), frames_of(&clean));
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.threads.len(), 6);
    assert_eq!(s.crashed_thread().map(|t| &*t.id), Some("6"));
    assert_eq!(s.crashed_thread().and_then(|t| t.registers.get(&0)).and_then(|r| r.get("rdx")), Some(0x2a));
    // Every log line is reported, with its line number.
    let logs = out.lines().filter(|l| l.starts_with("[worker-")).count();
    assert_eq!(p.diagnostics.lines_unrecognized as usize, logs);
    assert!(
        p.diagnostics
            .unrecognized
            .iter()
            .all(|u| out.lines().nth(u.line as usize - 1).is_some_and(|l| l.starts_with("[worker-")))
    );
}

#[test]
fn sections_in_any_order() {
    // Registers, mappings and libraries before the stop line and backtrace, without any
    // echoed commands.
    let (text, _) = parse_sample("null-field");
    let lines: Vec<&str> = text.lines().collect();
    let section = |from: &str, to: &str| -> String {
        let a = lines.iter().position(|l| *l == from).expect("from") + 1;
        let b = a + lines[a..].iter().position(|l| l.starts_with(to)).expect("to");
        lines[a..b].join("\n")
    };
    let regs = section("(gdb) info registers", "(gdb)");
    let maps = section("(gdb) info proc mappings", "(gdb)");
    let libs = section("(gdb) info sharedlibrary", "(gdb)");
    let bt = section("(gdb) bt", "(gdb)");
    let stop = "Program received signal SIGSEGV, Segmentation fault.\n0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23";
    let shuffled = format!("{libs}\n{maps}\n{regs}\n{stop}\n{bt}\n");
    let p = input::parse(&shuffled);
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
    assert_eq!(p.trace.mappings.len(), 23);
    assert_eq!(p.trace.libraries.len(), 2);
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.reason.signal.as_deref(), Some("SIGSEGV"));
    let t = s.crashed_thread().expect("thread");
    assert_eq!(t.frames.len(), 4);
    // The registers came before the stop, in a stop of their own.
    assert!(
        p.trace
            .stops
            .iter()
            .any(|s| s.threads.iter().any(|t| t.registers.get(&0).and_then(|r| r.get("rip")) == Some(0x555555555155)))
    );
}

#[test]
fn truncated_last_line() {
    let (text, clean) = parse_sample("null-field");
    // Cut inside frame #3's argument list of the first `bt`.
    let cut = text.find("#3  0x0000555555555254 in main (argc=1, ar").expect("frame 3")
        + "#3  0x0000555555555254 in main (argc=1, ar".len();
    let p = input::parse(&text[..cut]);
    let f = frames_of(&p);
    assert_eq!(f[..3], frames_of(&clean)[..3]);
    assert_eq!((f[3].0, f[3].1, f[3].2.as_str()), (3, Some(0x555555555254), "main"));
    assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("cut off")), "{:?}", p.diagnostics.notes);
    assert_eq!(p.trace.main_stop().map(|s| s.reason.signal.as_deref()), Some(Some("SIGSEGV")));
    // Cut anywhere at all: never a panic, and the stop line survives once it was read.
    let start = text.find("Program received").unwrap_or(0) + 60;
    for cut in (start..text.len()).step_by(97) {
        let mut c = cut;
        while !text.is_char_boundary(c) {
            c -= 1;
        }
        let p = input::parse(&text[..c]);
        assert_eq!(p.trace.main_stop().and_then(|s| s.reason.signal.as_deref()), Some("SIGSEGV"), "cut at {c}");
    }
}

#[test]
fn one_megabyte_line() {
    let (text, clean) = parse_sample("glibc-abort");
    let big = format!("garbage {}\n", "x".repeat(1 << 20));
    let at = text.find("(gdb) bt").expect("bt");
    let damaged = format!("{}{}{}", &text[..at], big, &text[at..]);
    let p = input::parse(&damaged);
    assert_eq!(frames_of(&p), frames_of(&clean));
    assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("bytes long")));
    // A 1 MB frame line (a huge argument): the frame is kept, cut and noted.
    let huge_frame = format!(
        "#0  0x0000555555555139 in f (s=0x1 \"{}\") at t.c:2\n#1  0x0000555555555150 in main () at t.c:9\n",
        "A".repeat(1 << 20)
    );
    let p = input::parse(&huge_frame);
    let f = frames_of(&p);
    assert_eq!((f[0].2.as_str(), f[1].2.as_str(), f[1].4), ("f", "main", Some(9)));
}

#[test]
fn nul_bytes() {
    let (text, clean) = parse_sample("stack-chk");
    let mut bytes = Vec::new();
    for (k, b) in text.bytes().enumerate() {
        bytes.push(b);
        if k % 13 == 0 {
            bytes.push(0);
        }
    }
    let p = input::parse_bytes(&bytes);
    assert_eq!(frames_of(&p), frames_of(&clean));
    assert!(p.diagnostics.notes[0].message.contains("NUL"));
}

#[test]
fn invalid_utf8() {
    let (text, clean) = parse_sample("cpp-uncaught");
    let mut bytes = Vec::new();
    for l in text.split_inclusive('\n') {
        if l.starts_with('#') {
            bytes.extend_from_slice(l.as_bytes());
        } else {
            // Damage every other line: a stray Latin-1 byte and a cut UTF-8 sequence.
            bytes.extend_from_slice(b"\xff\xe2\x82");
            bytes.extend_from_slice(l.as_bytes());
        }
    }
    let p = input::parse_bytes(&bytes);
    assert_eq!(frames_of(&p), frames_of(&clean));
    assert!(p.diagnostics.notes[0].message.contains("not valid UTF-8"));
    // Invalid bytes inside a frame's arguments: the frame still parses.
    let p = input::parse_bytes(b"#0  0x0000000000401136 in f (s=0x402010 \"\xc3\x28\xff\") at t.c:3\n#1  0x0000000000401150 in main () at t.c:8\n");
    let f = frames_of(&p);
    assert_eq!((f[0].2.as_str(), f[0].4, f[1].2.as_str()), ("f", Some(3), "main"));
}

#[test]
fn everything_at_once() {
    let (text, clean) = parse_sample("threads-crash");
    let damaged = map_lines(&text, |l| format!("2026-04-14T09:12:33.4412093Z > {}\r", gdb_colours(l)));
    let mut bytes = b"```\n".to_vec();
    bytes.extend_from_slice(damaged.as_bytes());
    bytes.extend_from_slice(b"\x00\xff```\n");
    let p = input::parse_bytes(&bytes);
    assert_eq!(frames_of(&p), frames_of(&clean));
    let s = p.trace.main_stop().expect("stop");
    assert_eq!(s.threads.len(), 6);
    assert_eq!(s.reason.si_code, Some(1));
}
