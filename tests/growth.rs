//! Work must grow linearly with every count a dump controls: registers, mappings, libraries,
//! threads, frames, memory dumps, disassembly, stops, Go goroutines, notes, findings.
//!
//! Each case generates an input of size n and of size 4n, runs the whole batch pipeline on
//! it (parse, every rule, text, JSON and markdown), and compares the times. Linear work gives
//! a ratio near 4, a scan per item (quadratic) about 16; the test fails above 10. No absolute
//! time is asserted: only the ratio, with the best of three runs of each size so that other
//! jobs on the machine do not decide the result.

use std::fmt::Write as _;
use std::time::{Duration, Instant};
use tracecheck::analyze::{self, Report};
use tracecheck::report::{self, markdown::MarkdownOptions, text::TextOptions};
use tracecheck::rules::Selection;

const HEAD: &str = "Program received signal SIGSEGV, Segmentation fault.\n\
0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n";

fn frame0() -> &'static str {
    "#0  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n"
}

/// The whole batch pipeline on one input, every output format.
fn pipeline(text: &str, notes: Option<&str>) {
    let parsed = tracecheck::input::parse_bytes(text.as_bytes());
    let ir = analyze::analyze("grown.txt", parsed, &Selection::default());
    let mut md = MarkdownOptions { include_raw: true, ..Default::default() };
    if let Some(n) = notes {
        let f = tracecheck::notes::parse(n, std::path::Path::new("grown.txt.tracecheck-notes.json")).expect("notes");
        let lines = tracecheck::notes::list_lines(&f, &ir);
        assert_eq!(lines.len(), f.notes.len());
        md.notes.insert("grown.txt".into(), f.notes);
    }
    let report = Report { inputs: vec![ir] };
    let mut sink = std::io::sink();
    report::text::write(&report, &TextOptions { verbose: true, ..Default::default() }, &mut sink).unwrap();
    report::json::write(&report, &mut sink).unwrap();
    report::markdown::write(&report, &md, &mut sink).unwrap();
}

fn best_of_three(f: &dyn Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// Most time 4× the input may take, as a multiple of the time of 1×.
const MAX_RATIO: f64 = 10.0;

/// Times `make(n)` and `make(4n)` through the pipeline; fails when 4× the input costs more
/// than [`MAX_RATIO`]× the time. The big input runs on its own thread, given up on (and the
/// test failed) as soon as it passes the bound, so a quadratic case fails fast instead of
/// running for minutes; a finished run over the bound is retried up to three times.
fn assert_linear(what: &str, n: usize, make: impl Fn(usize) -> (String, Option<String>)) {
    // One case at a time: the cases of this file must not be each other's noise.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let small = make(n);
    let ts = best_of_three(&|| pipeline(&small.0, small.1.as_deref()));
    let big = std::sync::Arc::new(make(4 * n));
    let bound = ts.mul_f64(MAX_RATIO).max(Duration::from_millis(50));
    let mut tries = Vec::new();
    for _ in 0..3 {
        let (tx, rx) = std::sync::mpsc::channel();
        let b = big.clone();
        std::thread::spawn(move || {
            let t = Instant::now();
            pipeline(&b.0, b.1.as_deref());
            let _ = tx.send(t.elapsed());
        });
        match rx.recv_timeout(bound) {
            Ok(tb) => {
                let ratio = tb.as_secs_f64() / ts.as_secs_f64().max(1e-6);
                eprintln!("{what}: n={n} {ts:?}, 4n {tb:?}, ratio {ratio:.1}");
                if ratio < MAX_RATIO {
                    return;
                }
                tries.push(format!("{tb:?}"));
            }
            // Left running (it ends with the test binary): a second one would only compete.
            Err(_) => panic!("{what}: n={n} took {ts:?}; 4n took over {bound:?} ({MAX_RATIO}x): quadratic?"),
        }
    }
    panic!("{what}: n={n} took {ts:?}; 4n took {tries:?}, more than {MAX_RATIO}x: quadratic?");
}

#[test]
fn distinct_register_names() {
    // The case: 160,000 distinct register lines against 40,000.
    assert_linear("registers", 40_000, |n| {
        let mut s = format!("{HEAD}(gdb) bt\n{}(gdb) info registers\n", frame0());
        for i in 0..n {
            writeln!(s, "xr{i}            0x{i:x}                 {i}").unwrap();
        }
        (s, None)
    });
}

#[test]
fn mappings_and_libraries() {
    assert_linear("mappings+libraries", 10_000, |n| {
        let mut s = format!("{HEAD}(gdb) bt\n{}", frame0());
        s.push_str("(gdb) info proc mappings\nprocess 1\nMapped address spaces:\n\n");
        s.push_str("          Start Addr           End Addr       Size     Offset  Perms  objfile\n");
        for i in 0..n as u64 {
            let a = 0x7f00_0000_0000 + i * 0x2000;
            writeln!(s, "      {a:#x}     {:#x}     0x1000        0x0  r-xp   /lib/lib{i}.so", a + 0x1000).unwrap();
        }
        s.push_str(
            "(gdb) info sharedlibrary\nFrom                To                  Syms Read   Shared Object Library\n",
        );
        for i in 0..n as u64 {
            let a = 0x7f00_0000_0000 + i * 0x2000;
            writeln!(s, "{a:#018x}  {:#018x}  Yes         /lib/lib{i}.so", a + 0x800).unwrap();
        }
        // Frames whose pcs fall in those libraries: each is looked up.
        s.push_str("(gdb) bt\n");
        for i in 0..n as u64 {
            writeln!(s, "#{i}  {:#018x} in f{i} () from /lib/lib{i}.so", 0x7f00_0000_0000 + i * 0x2000 + 0x10).unwrap();
        }
        (s, None)
    });
}

#[test]
fn threads_with_registers() {
    assert_linear("threads", 5_000, |n| {
        let mut s = format!("{HEAD}(gdb) thread apply all bt\n");
        for i in 1..=n {
            writeln!(s, "\nThread {i} (Thread 0x7ffff7d{i:05x} (LWP {i})):").unwrap();
            writeln!(s, "#0  0x00007ffff7e{i:05x} in worker{i} () from /lib/libc.so.6").unwrap();
            writeln!(s, "#1  0x0000555555555{:03x} in main () at m.c:{i}", i % 4096).unwrap();
        }
        for i in 1..=n {
            writeln!(s, "(gdb) thread {i}\n[Switching to thread {i} (Thread 0x7ffff7d{i:05x} (LWP {i}))]").unwrap();
            writeln!(s, "(gdb) info registers rip\nrip            0x7ffff7e{i:05x}      0x7ffff7e{i:05x}").unwrap();
        }
        (s, None)
    });
}

#[test]
fn frames_in_one_thread_gdb_and_lldb() {
    assert_linear("gdb frames", 20_000, |n| {
        let mut s = format!("{HEAD}(gdb) bt\n");
        for i in 0..n {
            writeln!(s, "#{i}  0x0000555555{i:06x} in f{i} (x={i}) at src/f{}.c:{i}", i % 100).unwrap();
        }
        (s, None)
    });
    assert_linear("lldb frames", 20_000, |n| {
        let mut s = String::from(
            "(lldb) bt\n* thread #1, name = 'a', stop reason = signal SIGSEGV: invalid address (fault address: 0x18)\n",
        );
        for i in 0..n {
            writeln!(s, "    frame #{i}: 0x0000555555{i:06x} a`f{i}(x={i}) at f.c:{i}:3").unwrap();
        }
        (s, None)
    });
}

#[test]
fn memory_dumps_and_disassembly() {
    assert_linear("memory+disassembly", 5_000, |n| {
        let mut s = format!("{HEAD}(gdb) bt\n{}", frame0());
        for i in 0..n as u64 {
            let a = 0x7fff_ff00_0000 + i * 0x100;
            writeln!(s, "(gdb) x/4gx {a:#x}\n{a:#x}:\t0x0000000000000000\t{:#018x}", i).unwrap();
            writeln!(s, "{:#x}:\t0x00007fffffffebd0\t0x0000555555555191", a + 16).unwrap();
        }
        s.push_str("(gdb) x/200i $pc\n");
        for i in 0..n as u64 {
            let mark = if i == 0 { "=> " } else { "   " };
            writeln!(s, "{mark}{:#x} <session_bytes+{i}>:\tmov    0x18(%rax),%rax", 0x5555_5555_5155u64 + 4 * i)
                .unwrap();
        }
        (s, None)
    });
}

#[test]
fn stops() {
    assert_linear("stops", 2_000, |n| {
        let mut s = String::new();
        for i in 0..n {
            writeln!(
                s,
                "\nProgram received signal SIGSEGV, Segmentation fault.\n0x0000555555555{:03x} in f{i} () at a.c:{i}",
                i % 4096
            )
            .unwrap();
            writeln!(
                s,
                "(gdb) bt\n#0  0x0000555555555{:03x} in f{i} () at a.c:{i}\n#1  0x0000555555555191 in main () at a.c:1",
                i % 4096
            )
            .unwrap();
            writeln!(s, "(gdb) info registers rip r13\nrip            0x555555555{:03x}      0x555555555{:03x}\nr13            0x0   0", i % 4096, i % 4096).unwrap();
        }
        (s, None)
    });
}

#[test]
fn pager_prompts_chained_line_after_line() {
    // gdb's pager prompt inside every line: each line is joined with the next, so the text
    // carried over must stay one line long, not grow with the count.
    assert_linear("pager prompts", 2_000, |n| {
        let mut s = String::from(HEAD);
        for i in 0..n {
            // Not a new record (`#N`), so every line is joined to the text before it.
            writeln!(s, "    f{i} () at a{i}.c:--Type <RET> for more, q to quit, c to continue without paging--")
                .unwrap();
        }
        (s, None)
    });
}

#[test]
fn go_goroutines() {
    assert_linear("go goroutines", 5_000, |n| {
        let mut s = String::from("panic: runtime error: invalid memory address or nil pointer dereference\n");
        s.push_str("[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x48f2a5]\n");
        for i in 1..=n {
            writeln!(s, "\ngoroutine {i} [running]:\nmain.work{i}(0x0)\n\t/src/main.go:{i} +0x{:x}", i % 4096).unwrap();
            writeln!(s, "created by main.main in goroutine 1\n\t/src/main.go:9 +0x25").unwrap();
        }
        (s, None)
    });
}

#[test]
fn notes_in_the_sidecar() {
    assert_linear("notes", 2_000, |n| {
        let mut s = format!("{HEAD}(gdb) bt\n");
        for i in 0..n {
            writeln!(s, "#{i}  0x0000555555{i:06x} in f{i} () at src/f.c:{i}").unwrap();
        }
        s.push_str("(gdb) info registers\n");
        for i in 0..200 {
            writeln!(s, "xr{i}            0x{i:x}                 {i}").unwrap();
        }
        let mut notes = String::from("{\"version\":1,\"notes\":[");
        for i in 0..n {
            if i > 0 {
                notes.push(',');
            }
            let target = match i % 3 {
                0 => format!(
                    "{{\"kind\":\"frame\",\"frame\":{{\"stop\":0,\"thread\":\"1\",\"index\":{i},\"function\":\"f{i}\",\"file\":\"src/f.c\",\"line\":{i}}}}}"
                ),
                1 => format!(
                    "{{\"kind\":\"register\",\"register\":\"xr{}\",\"frame\":{{\"stop\":0,\"thread\":\"1\",\"index\":0,\"function\":\"f0\"}}}}",
                    i % 200
                ),
                _ => "{\"kind\":\"trace\"}".to_string(),
            };
            write!(notes, "{{\"id\":\"n{i}\",\"target\":{target},\"text\":\"note {i}\",\"created\":1}}").unwrap();
        }
        notes.push_str("]}");
        (s, Some(notes))
    });
}

/// The indexed placement used for many notes places each note exactly where the one-note
/// `resolve` does (moved anchors, orphans, findings and registers included).
#[test]
fn indexed_note_placement_equals_one_by_one() {
    let (dump, _) = common_notes_dump(60);
    let parsed = tracecheck::input::parse_bytes(dump.as_bytes());
    let ir = analyze::analyze("grown.txt", parsed, &Selection::default());
    let mut list = Vec::new();
    for (i, (index, function, line)) in
        [(0, "f0", Some(0)), (5, "f5", None), (7, "f9", Some(9)), (3, "nope", None), (200, "f12", Some(1))]
            .into_iter()
            .enumerate()
    {
        let anchor = tracecheck::notes::FrameAnchor {
            stop: 0,
            thread: "1".into(),
            index,
            function: function.into(),
            file: Some("src/f.c".into()),
            line,
        };
        for target in [
            tracecheck::notes::Target::Frame { frame: anchor.clone() },
            tracecheck::notes::Target::Register { register: "xr1".into(), frame: anchor.clone() },
            tracecheck::notes::Target::Finding { rule: "null-dereference".into(), frame: Some(anchor.clone()) },
            tracecheck::notes::Target::Finding { rule: "bad-pc".into(), frame: None },
        ] {
            list.push(tracecheck::notes::new_note(target, &format!("n{i}")));
        }
    }
    let all = tracecheck::notes::resolve_all(&list, &ir);
    for (n, p) in list.iter().zip(&all) {
        assert_eq!(&tracecheck::notes::resolve(n, &ir), p, "{:?}", n.target);
    }
    assert!(all.iter().any(|p| matches!(p, tracecheck::notes::Placement::Frame(f) if f.moved)));
    assert!(all.iter().any(|p| matches!(p, tracecheck::notes::Placement::Orphan)));
}

fn common_notes_dump(n: usize) -> (String, ()) {
    let mut s = format!("{HEAD}(gdb) bt\n");
    for i in 0..n {
        writeln!(s, "#{i}  0x0000555555{i:06x} in f{} () at src/f.c:{i}", if i == 9 { 7 } else { i }).unwrap();
    }
    s.push_str("(gdb) info registers\nxr1            0x1                 1\n");
    (s, ())
}
