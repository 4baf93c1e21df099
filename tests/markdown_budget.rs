//! Issue 15 item 3: the markdown bug report fits a GitHub issue body (65,536 characters) for
//! every bundled sample and for a big input; sections in order; system registers left out;
//! evidence as sentences with values in code; the raw dump numbered and trimmed with a note.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const GITHUB_LIMIT: usize = 65_536;

fn markdown(path: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "markdown"])
        .arg(path)
        .output()
        .expect("run tracecheck");
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}: {:?}", path.display(), o);
    String::from_utf8(o.stdout).expect("utf-8")
}

fn samples(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "build" && n != "src") {
                samples(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "txt") && p.file_name().is_none_or(|n| n != "README.txt") {
            out.push(p);
        }
    }
}

/// Code fences open and close in pairs (a trimmed section must not leave one open).
fn fences_balanced(md: &str) -> bool {
    let mut open: Option<usize> = None;
    for l in md.lines() {
        let n = l.chars().take_while(|c| *c == '`').count();
        if n < 3 {
            continue;
        }
        match open {
            None => open = Some(n),
            Some(k) if n == k && l.trim_end().len() == n => open = None,
            _ => {}
        }
    }
    open.is_none()
}

#[test]
fn every_sample_fits_a_github_issue() {
    let mut all = Vec::new();
    samples(&common::samples_dir(), &mut all);
    assert!(all.len() > 40, "samples found: {}", all.len());
    for p in &all {
        let md = markdown(p);
        let n = md.chars().count();
        assert!(n < GITHUB_LIMIT, "{}: {n} characters", p.display());
        assert!(fences_balanced(&md), "{}: unbalanced fences", p.display());
    }
}

#[test]
fn aarch64_report_orders_sections_and_leaves_out_system_registers() {
    let md = markdown(&common::samples_dir().join("aarch64/julia-trampoline-bad-x20.collect.txt"));
    let pos = |s: &str| md.find(s).unwrap_or_else(|| panic!("no {s:?} in\n{md}"));
    assert!(pos("### Findings") < pos("### Backtrace"));
    assert!(pos("### Backtrace") < pos("### Registers"));
    assert!(pos("### Registers") < pos("### Environment"));
    assert!(pos("### Environment") < pos("<details><summary>Raw dump"));
    let (report, raw) = md.split_at(pos("<details>"));
    // System registers are only in the raw dump.
    assert!(!report.contains("ID_AA64"), "{report}");
    assert!(report.contains("| x20 | `0x00000055000213b0`"), "{report}");
    assert!(report.contains("system, segment or mask registers left out"), "{report}");
    assert!(report.contains("- architecture: aarch64"), "{report}");
    // Evidence: a sentence, values in code.
    assert!(
        report.contains("  - evidence: `[x20+16]` = `0x2a` is a small integer, not a ptls pointer — dump line"),
        "{report}"
    );
    // The raw dump is numbered, so "dump line N" can be followed.
    assert!(raw.contains("\n  249  "), "{raw}");
}

#[test]
fn big_input_is_trimmed_with_a_note() {
    let base = std::fs::read_to_string(common::samples_dir().join("null-field.gdb.txt")).unwrap();
    let mut big = base.clone();
    for i in 0..20_000 {
        big.push_str(&format!("0x7fffffffe{:03x}:\t0x0000000000000000\t0x00000000{i:08x}\n", i % 4096));
    }
    let dir = common::scratch_root().join(format!("tracecheck-md-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("big.gdb.txt");
    std::fs::write(&p, &big).unwrap();
    let md = markdown(&p);
    std::fs::remove_dir_all(&dir).ok();
    assert!(md.chars().count() < GITHUB_LIMIT, "{}", md.chars().count());
    assert!(fences_balanced(&md));
    assert!(md.contains("### Findings") && md.contains("null-dereference"), "{md}");
    assert!(md.contains("The raw dump is trimmed to fit GitHub's 65,536-character limit: lines "), "{md}");
    assert!(md.contains("Attach the full file `big.gdb.txt`"), "{md}");
    assert!(md.trim_end().ends_with("</sub>"), "footer kept");
}
