//! The report says what it did: a streamed input's markdown raw section says it stops at
//! 16 MiB; a file name with a newline or an escape is shown as one inert line (text header,
//! JSON `path`); an `--exe` that matches no module is named as unused; a line of NUL bytes
//! does not claim "only the first 0 were read".

#[path = "common/child.rs"]
mod child;
mod common;

use std::time::Duration;

#[test]
fn streamed_markdown_says_where_the_raw_section_stops() {
    // Standard input is always streamed; 17 MiB of text passes the 16 MiB kept for markdown.
    let mut cmd = child::tracecheck();
    cmd.args(["--format", "markdown", "-"]);
    let feed: Box<dyn FnOnce(std::process::ChildStdin) + Send> = Box::new(|w| {
        let head = std::fs::read(common::samples_dir().join("null-field.gdb.txt")).unwrap();
        child::write_repeated(w, &head, b"an unrelated log line that is not debugger output\n", 17 << 20);
    });
    let o = child::run(cmd, Some(feed), Duration::from_secs(300));
    o.assert_clean("17 MiB on stdin");
    let md = o.stdout_text();
    let raw_at = md.find("<details><summary>Raw dump").expect("raw section");
    let summary = &md[raw_at..raw_at + md[raw_at..].find('\n').unwrap()];
    assert!(summary.contains("first 16 MiB"), "the raw section does not say it was cut: {summary}");
}

#[test]
fn a_file_name_with_a_newline_or_escape_stays_one_inert_line() {
    let dir = common::scratch_root().join(format!("tracecheck-honesty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("evil\nFAKE LINE\u{1b}]0;title\u{7}.txt");
    std::fs::copy(common::samples_dir().join("null-field.gdb.txt"), &p).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tracecheck")).arg(&p).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.lines().any(|l| l.starts_with("FAKE LINE")), "the name forged a line:\n{text}");
    assert!(!text.contains('\u{1b}'), "escape in the text header");
    assert!(text.contains("evil\\nFAKE LINE"), "{text}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tracecheck")).args(["-f", "json"]).arg(&p).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let path = v["inputs"][0]["path"].as_str().unwrap();
    assert!(!path.chars().any(|c| c.is_control()), "control characters decode out of JSON path: {path:?}");
    assert!(path.contains("evil\\nFAKE LINE"), "{path:?}");
}

#[test]
fn an_exe_that_matches_no_module_is_named() {
    let dir = common::scratch_root().join(format!("tracecheck-honesty-exe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A real ELF file whose name no module of the dump has.
    let exe = dir.join("unrelated-program");
    std::fs::copy(env!("CARGO_BIN_EXE_tracecheck"), &exe).unwrap();
    let d = common::samples_dir().join("null-field.gdb.txt");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .arg("-v")
        .arg("--exe")
        .arg(&exe)
        .arg(&d)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    // The copy is as large as the debug binary (about 100 MB): never leave it behind.
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        text.contains("unrelated-program: no module of the trace matches it"),
        "an unused --exe is not mentioned:\n{text}"
    );
}

#[test]
fn a_line_of_nul_bytes_does_not_say_zero_bytes_were_read() {
    // NUL bytes are dropped when the input is decoded and do not count toward the 64 KiB line
    // limit (as in the whole-buffer parse): 200,000 of them are an empty line, read whole;
    // followed by 70,000 bytes of text they are a line cut after 64 KiB of that text.
    let run = |text_after_nuls: usize| {
        let mut cmd = child::tracecheck();
        cmd.args(["-v", "-"]);
        let feed: Box<dyn FnOnce(std::process::ChildStdin) + Send> = Box::new(move |mut w| {
            use std::io::Write;
            let _ = w.write_all(&vec![0u8; 200_000]);
            let _ = w.write_all(&vec![b'x'; text_after_nuls]);
            let _ = w.write_all(b"\n#0  0x0000555555555155 in f () at a.c:3\n");
        });
        let o = child::run(cmd, Some(feed), Duration::from_secs(60));
        o.assert_clean("NUL line");
        o.stdout_text()
    };
    let out = run(0);
    assert!(!out.contains("only the first 0 were read"), "{out}");
    assert!(!out.contains("line 1: line is"), "an empty line was said to be cut:\n{out}");
    assert!(out.contains("#0  0x0000555555555155 in f () at a.c:3"), "{out}");
    let out = run(70_000);
    assert!(
        out.contains(
            "line 1: line is 270000 bytes long; only the first 265540 were read \
             (65536 of them text once NUL and invalid bytes were dropped)"
        ),
        "{out}"
    );
    assert!(out.contains("#0  0x0000555555555155 in f () at a.c:3"), "{out}");
}
