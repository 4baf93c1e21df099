//! Golden outputs: the text, JSON and markdown report of every bundled sample
//! (`sample-traces/**/*.txt`), as the `tracecheck` binary of this build prints them, compared
//! byte for byte with `tests/golden/<sample path without .txt>.{text,json,md}`; the exit
//! status of each run is in `tests/golden/exit-codes.txt`.
//!
//! After an intended change of output, rewrite the files and review the diff:
//!
//! ```sh
//! BLESS=1 cargo test --test golden
//! git diff tests/golden/
//! ```
//!
//! How the binary is run (docs/testing.md): from the checkout's root with the sample's
//! relative path, `--color never`, `NO_COLOR=1`, and `--sysroot` pointing at a directory
//! that does not exist, so that the libraries a transcript names (`/usr/lib/.../libc.so.6`)
//! are never read from this machine: the output depends on the repository only. The one
//! normalisation: outputs are compared byte for byte (the samples' own absolute paths stay as
//! recorded). Standard error must be empty.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const FORMATS: [(&str, &str); 3] = [("text", "text"), ("json", "json"), ("markdown", "md")];
/// A sysroot that does not exist: nothing a transcript names is looked up on this machine.
const SYSROOT: &str = "/nonexistent-tracecheck-golden-sysroot";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden_dir() -> PathBuf {
    root().join("tests/golden")
}

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| v == "1")
}

/// Every bundled sample: `*.txt` under `sample-traces/`, as paths relative to the checkout,
/// sorted; not the generated `build/` folder or `*.bench.txt` files (both git-ignored).
fn samples() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if p.is_dir() {
                if name != "build" {
                    walk(&p, out);
                }
            } else if name.ends_with(".txt") && !name.ends_with(".bench.txt") {
                out.push(p);
            }
        }
    }
    let mut v = Vec::new();
    walk(&root().join("sample-traces"), &mut v);
    let v: Vec<String> =
        v.iter().map(|p| p.strip_prefix(root()).expect("under the checkout").to_string_lossy().into_owned()).collect();
    assert!(v.len() >= 40, "the bundled samples are missing: {v:?}");
    v
}

/// `sample-traces/aarch64/null-field.gdb.txt` -> `tests/golden/aarch64/null-field.gdb.<ext>`.
fn golden_path(sample: &str, ext: &str) -> PathBuf {
    let rel = sample.strip_prefix("sample-traces/").expect("a sample path");
    let stem = rel.strip_suffix(".txt").expect("a .txt sample");
    golden_dir().join(format!("{stem}.{ext}"))
}

/// The binary's stdout for one sample in one format, normalised, and its exit status.
fn output(sample: &str, format: &str) -> (String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args(["--format", format, "--color", "never", "--sysroot", SYSROOT])
        .arg(sample)
        .output()
        .unwrap_or_else(|e| panic!("running tracecheck on {sample}: {e}"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.is_empty(), "{sample} ({format}): unexpected standard error:\n{err}");
    let code = o.status.code().unwrap_or_else(|| panic!("{sample} ({format}): killed by a signal"));
    let out = String::from_utf8(o.stdout).unwrap_or_else(|e| panic!("{sample} ({format}): output is not UTF-8: {e}"));
    (normalise(&out), code)
}

/// Nothing is rewritten: the binary is run with paths relative to the checkout, so no output
/// depends on where the checkout is. (Absolute paths in the output come from the samples'
/// own text, recorded where they were recorded, and must stay as they are.)
fn normalise(s: &str) -> String {
    s.to_string()
}

/// The first differing lines of two texts, for the failure message.
fn diff(expected: &str, actual: &str) -> String {
    let mut msg = String::new();
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut shown = 0;
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i).copied(), a.get(i).copied());
        if x != y && shown < 12 {
            writeln!(msg, "  line {}:\n    - {}\n    + {}", i + 1, x.unwrap_or("<none>"), y.unwrap_or("<none>")).ok();
            shown += 1;
        }
    }
    if shown == 0 {
        msg.push_str("  (same lines; the line ends or the final newline differ)\n");
    }
    msg
}

/// Writes `content` to `path` under BLESS=1; otherwise compares and returns a message
/// when they differ.
fn check(path: &Path, content: &str) -> Option<String> {
    if bless() {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create tests/golden");
        if std::fs::read_to_string(path).ok().as_deref() != Some(content) {
            std::fs::write(path, content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        return None;
    }
    let shown = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    match std::fs::read_to_string(path) {
        Err(e) => Some(format!("{shown}: {e} (BLESS=1 cargo test --test golden creates it)\n")),
        Ok(expected) if expected != content => Some(format!("{shown} differs:\n{}", diff(&expected, content))),
        Ok(_) => None,
    }
}

#[test]
fn every_sample_in_every_format_matches_its_golden_file() {
    let mut failures = Vec::new();
    let mut codes = String::new();
    for s in samples() {
        for (format, ext) in FORMATS {
            let (out, code) = output(&s, format);
            assert!(!out.is_empty(), "{s} ({format}): no output");
            writeln!(codes, "{s} {format} {code}").ok();
            failures.extend(check(&golden_path(&s, ext), &out));
        }
    }
    failures.extend(check(&golden_dir().join("exit-codes.txt"), &codes));
    assert!(
        failures.is_empty(),
        "{} golden file(s) differ; after review, BLESS=1 cargo test --test golden rewrites them:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// No golden file without its sample (a renamed or removed sample leaves none behind).
#[test]
fn every_golden_file_has_its_sample() {
    let samples = samples();
    let mut wanted: Vec<PathBuf> =
        samples.iter().flat_map(|s| FORMATS.iter().map(move |(_, ext)| golden_path(s, ext))).collect();
    wanted.push(golden_dir().join("exit-codes.txt"));
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() { walk(&p, out) } else { out.push(p) }
        }
    }
    let mut found = Vec::new();
    walk(&golden_dir(), &mut found);
    let stale: Vec<String> = found.iter().filter(|p| !wanted.contains(p)).map(|p| p.display().to_string()).collect();
    if bless() {
        for p in &stale {
            std::fs::remove_file(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        }
        return;
    }
    assert!(stale.is_empty(), "golden files without a sample (BLESS=1 removes them): {stale:?}");
}

/// The JSON goldens keep the documented contract (`../shared/tools/check-json-contract.py`).
#[test]
fn json_goldens_keep_the_contract() {
    let Some(checker) = common::require_shared("tools/check-json-contract.py") else { return };
    if !common::require_tools(&["python3"]) {
        return;
    }
    let mut checked = 0;
    for s in samples() {
        let path = golden_path(&s, "json");
        let o = Command::new("python3").arg(&checker).arg(&path).output().expect("python3");
        assert!(
            o.status.success(),
            "{}: {}{}",
            path.display(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 40);
}
