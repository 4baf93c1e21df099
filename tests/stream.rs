//! `input::parse_reader` (streaming, used for standard input and big files) builds the same
//! model as `input::parse_bytes` on every sample trace, whatever the read sizes, and the
//! limits of `input::Limits` bound the model with a `limit reached:` note.

mod common;

use std::io::{BufReader, Read};
use tracecheck::input::{self, Limits, StreamOptions};

/// A reader that hands out at most `n` bytes per read (lines split across reads).
struct Dribble<'a>(&'a [u8], usize);

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(self.1).min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn all_samples() -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    let mut dirs = vec![common::samples_dir()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "txt") {
                v.push(p);
            }
        }
    }
    v.sort();
    assert!(v.len() >= 30, "samples missing");
    v
}

#[test]
fn streaming_gives_the_same_model_as_whole_input() {
    for p in all_samples() {
        let bytes = std::fs::read(&p).expect("read");
        let whole = input::parse_bytes(&bytes);
        for chunk in [1usize, 7, 4096, 1 << 20] {
            let s = input::parse_reader(
                BufReader::with_capacity(64.max(chunk), Dribble(&bytes, chunk)),
                &StreamOptions::default(),
            )
            .expect("read");
            assert_eq!(common::render(&s.parsed), common::render(&whole), "{} (reads of {chunk})", p.display());
            assert_eq!(s.parsed.diagnostics, whole.diagnostics, "{} (reads of {chunk})", p.display());
            assert_eq!(s.bytes, bytes.len() as u64);
        }
    }
}

#[test]
fn streaming_edge_cases_match() {
    let cases: &[&[u8]] = &[
        b"",
        b"\n",
        b"\n\n",
        b"#0  0x1 in f ()",
        b"#0  0x1 in f ()\n",
        b"a\r\nb\r\n",
        b"\xff\x00\n#0 0x1 in g ()\n\x00",
    ];
    for &c in cases {
        let s = input::parse_reader(c, &StreamOptions::default()).expect("read");
        let w = input::parse_bytes(c);
        assert_eq!(common::render(&s.parsed), common::render(&w), "{c:?}");
        assert_eq!(s.parsed.diagnostics, w.diagnostics, "{c:?}");
    }
}

#[test]
fn keep_raw_and_max_bytes() {
    let bytes = std::fs::read(common::samples_dir().join("null-field.gdb.txt")).expect("read");
    let s = input::parse_reader(&bytes[..], &StreamOptions { keep_raw: 100, ..Default::default() }).expect("read");
    assert_eq!(s.raw, bytes[..100]);
    assert!(!s.raw_complete && !s.over_max);
    let s = input::parse_reader(&bytes[..], &StreamOptions { keep_raw: 1 << 20, ..Default::default() }).expect("read");
    assert!(s.raw_complete && s.raw == bytes);
    let s = input::parse_reader(&bytes[..], &StreamOptions { max_bytes: 1000, ..Default::default() }).expect("read");
    assert!(s.over_max && s.bytes == 1000);
}

#[test]
fn long_lines_are_cut_without_being_held() {
    let mut b = b"#0  0x1 in f (a=".to_vec();
    b.extend(std::iter::repeat_n(b'x', 1 << 20));
    b.extend_from_slice(b")\n#1  0x2 in main ()\n");
    let lim = Limits { max_line_len: 1000, ..Limits::default() };
    let s = input::parse_reader(
        BufReader::with_capacity(4096, Dribble(&b, 3000)),
        &StreamOptions { limits: lim, ..Default::default() },
    )
    .expect("read");
    let notes: Vec<&str> = s.parsed.diagnostics.notes.iter().map(|n| n.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("line is 1048593 bytes long; only the first 1000 were read")), "{notes:?}");
    let th = &s.parsed.trace.stops[0].threads[0];
    assert_eq!(th.frames.last().map(|f| f.function_name()), Some("main"));
}

#[test]
fn limits_bound_threads_frames_stops_and_model_bytes() {
    let mut t = String::new();
    for k in 0..50 {
        t.push_str(&format!("Program received signal SIGSEGV, Segmentation fault.\n\nThread {k} (LWP {k}):\n#0  0x1 in f{k} ()\n#1  0x2 in g ()\n"));
    }
    let lim = Limits { max_threads: 10, max_stops: 20, max_frames: 15, ..Limits::default() };
    let p = input::parse_bytes_with(t.as_bytes(), lim);
    let threads: usize = p.trace.stops.iter().map(|s| s.threads.len()).sum();
    let frames: usize = p.trace.stops.iter().flat_map(|s| &s.threads).map(|t| t.frames.len()).sum();
    assert!(
        p.trace.stops.len() <= 20 && threads <= 10 && frames <= 15,
        "{} stops, {threads} threads, {frames} frames",
        p.trace.stops.len()
    );
    let notes: Vec<&str> =
        p.diagnostics.notes.iter().map(|n| n.message.as_str()).filter(|m| m.starts_with("limit reached: ")).collect();
    assert!(notes.iter().any(|n| n.contains("--max-threads")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("--max-stops")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("--max-frames-kept")), "{notes:?}");
    // The catch-all: registers alone, past a tiny model budget.
    let mut r = String::from("(gdb) info registers\n");
    for k in 0..10_000 {
        r.push_str(&format!("r{k}            0x{k:x}      {k}\n"));
    }
    let p = input::parse_bytes_with(r.as_bytes(), Limits { max_model_bytes: 10_000, ..Limits::default() });
    let regs: usize =
        p.trace.stops.iter().flat_map(|s| &s.threads).flat_map(|t| t.registers.values()).map(|s| s.regs.len()).sum();
    assert!(regs < 200, "{regs} registers kept");
    assert!(
        p.diagnostics.notes.iter().any(|n| n.message.contains("the model reached its size limit")),
        "{:?}",
        p.diagnostics.notes
    );
    assert_eq!(p.diagnostics.lines_total, 10_001);
}

/// The follow mode's incremental parse: lines fed as they arrive, a snapshot after each chunk
/// equals a one-shot parse of the text so far (every sample, cut at several line ends, plus
/// damaged bytes).
#[test]
fn incremental_snapshots_equal_one_shot_parses() {
    use tracecheck::input::{Incremental, Limits, parse_bytes_with};
    let names = all_samples();
    assert!(names.len() >= 10);
    let mut texts: Vec<Vec<u8>> = names.iter().map(|p| std::fs::read(p).unwrap()).collect();
    texts.push(
        b"Program received signal SIGSEGV, Segmentation fault.\n\xff\xfe bad\0 bytes\n#0  main () at t.c:2\n".to_vec(),
    );
    for bytes in &texts {
        let mut inc = Incremental::new(Limits::default());
        assert_eq!(inc.snapshot().trace, parse_bytes_with(b"", Limits::default()).trace);
        let ends: Vec<usize> = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1).collect();
        let n = ends.len();
        let cuts: Vec<usize> =
            [n / 7, n / 3, n / 2, n - 1, n].iter().filter(|&&k| k > 0).map(|&k| ends[k - 1]).collect();
        let mut at = 0;
        for cut in cuts {
            if cut <= at {
                continue;
            }
            inc.push(&bytes[at..cut]);
            at = cut;
            let once = parse_bytes_with(&bytes[..cut], Limits::default());
            let snap = inc.snapshot();
            assert_eq!(snap.trace, once.trace, "cut at {cut}");
            assert_eq!(snap.diagnostics, once.diagnostics, "cut at {cut}");
            assert_eq!(inc.len(), cut as u64);
        }
    }
}

/// fuzz `stream_reader` (crash-9d41d3fd…, minimized to 69 bytes, line limit 64, reads of one
/// byte): a line longer than the limit in raw bytes but not once its NUL bytes are dropped.
/// The whole-buffer parse kept all of its text; the stream cut the raw bytes at the limit
/// first and lost its tail (a UBSan `runtime error:` message came out shorter). NUL bytes
/// no longer count toward the streamed line's limit, and a run of them is held as one.
#[test]
fn nul_bytes_do_not_count_toward_the_streamed_line_limit() {
    let cases: [&[u8]; 3] = [
        // (the fuzzer's `c: runtime error:` given a line number, `c:1:`: a UBSan line starts at
        // a source location since the tenth generalization pass)
        b"(gd)g usg\x00\x7f\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00c:1: runtime error: inde\x01\x00\x00\x00\x00\x00\x00\x00ll-fie\x00\x00\x00\x00\x00ield.c:23",
        // A frame line padded with NULs past the limit, then a long run of them.
        b"#0  0x1\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00 in f (a=1) at a.c:3\n#1  0x2 in main ()\n",
        // NULs inside a multibyte sequence: each piece is replaced, not joined.
        b"#0  0x1 in f (s=\"\xe2\x00\x82\xac\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\") at a.c:3\n",
    ];
    let limits = Limits { max_line_len: 64, ..Limits::default() };
    for (i, bytes) in cases.iter().enumerate() {
        let whole = input::parse_bytes_with(bytes, limits);
        for step in [1, 3, 64] {
            let s = input::parse_reader(
                BufReader::with_capacity(16 + step, Dribble(bytes, step)),
                &StreamOptions { limits, ..Default::default() },
            )
            .expect("read");
            assert_eq!(s.parsed.trace, whole.trace, "case {i}, reads of {step} bytes");
        }
    }
    // The fuzz case's message is whole in both.
    let whole = input::parse_bytes_with(cases[0], limits);
    let d = whole.trace.stops[0].reason.description.as_deref().unwrap_or("");
    assert!(d.ends_with("ield.c:23"), "{d:?}");
}
