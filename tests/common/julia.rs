//! What the real-Julia tests (`tests/julia_real*.rs`) share: the CLI's JSON report of an
//! input, the fields they read from it, and `regenerate`, which records cases from the pinned
//! PyPI wheel (`ace-jax-coupling==0.2.0`, cached under `target/tmp`) with
//! `sample-traces/julia-real/regenerate.sh`, or prints `SKIPPED …` when pip cannot fetch it
//! (and fails under `CI=true`, like `skip.rs`). Included with
//! `#[path = "common/julia.rs"] mod julia;` beside `mod common;` (it needs the test's binary and
//! target directory, which `examples/` that include `common` do not have).
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const WHEEL_SHA256: &str = "2836159161d650e8fa463794d744660187ce4b08e50a4506630424b4a2cda8f9";

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tracecheck"))
}

pub fn real_dir() -> PathBuf {
    crate::common::samples_dir().join("julia-real")
}

/// The input reports of `tracecheck --format json [extra…] paths…`.
pub fn reports(paths: &[PathBuf], extra: &[&str]) -> Vec<Value> {
    let out = bin().args(["--format", "json", "--fail-on", "never"]).args(extra).args(paths).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let inputs = v["inputs"].as_array().unwrap().clone();
    assert_eq!(inputs.len(), paths.len());
    inputs
}

/// The single input report of `tracecheck --format json [extra…] path`.
pub fn report(path: &Path, extra: &[&str]) -> Value {
    reports(&[path.to_path_buf()], extra).remove(0)
}

pub fn findings<'a>(r: &'a Value, rule: &str) -> Vec<&'a Value> {
    r["findings"].as_array().unwrap().iter().filter(|f| f["rule"] == rule).collect()
}

/// Every finding except pinned-register's `info` ("r13 … is a valid pgcstack …: checked").
pub fn problems(r: &Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !(f["rule"] == "pinned-register" && f["severity"] == "info"))
        .map(|f| format!("{} {}: {}", f["severity"], f["rule"], f["message"]))
        .collect()
}

pub fn evidence(f: &Value) -> Vec<String> {
    f["evidence"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap().to_string()).collect()
}

pub fn steps(f: &Value) -> Vec<String> {
    f["next_steps"].as_array().map(|a| a.iter().map(|e| e.as_str().unwrap().to_string()).collect()).unwrap_or_default()
}

pub fn has(v: &[String], needle: &str) -> bool {
    v.iter().any(|e| e.contains(needle))
}

/// The culprit function of the first stop.
pub fn culprit(r: &Value) -> String {
    r["stops"][0]["culprit"]["function"].as_str().unwrap_or("").to_string()
}

pub fn notes(r: &Value) -> String {
    r["diagnostics"]["notes"].to_string()
}

/// Records `cases` into `out` from the pinned wheel (`regenerate.sh`, with `env` set; the
/// wheel, its unpacked runtime and the harness are cached and shared by the tests, one at a
/// time). Returns the unpacked wheel's library directory, or `None` after a visible skip
/// line when pip cannot fetch the wheel (a failure under CI).
pub fn regenerate(out: &Path, cases: &[&str], env: &[(&str, &str)]) -> Option<PathBuf> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    if !crate::common::require_tools(&["python3", "gcc", "gdb"]) {
        return None;
    }
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-cache");
    let mut cmd = Command::new("bash");
    cmd.arg(real_dir().join("regenerate.sh")).arg("--out").arg(out).args(cases).env("JULIA_REAL_CACHE", &cache);
    for (k, v) in env {
        cmd.env(k, v);
    }
    match cmd.status().unwrap().code() {
        Some(0) => {}
        Some(3) => {
            let test = std::thread::current().name().unwrap_or("this test").to_string();
            let msg = format!(
                "SKIPPED {test}: needs the ace-jax-coupling==0.2.0 wheel, which pip could not fetch (offline? `python3 -m pip download --no-deps ace-jax-coupling==0.2.0`)"
            );
            if crate::common::in_ci() {
                panic!("{msg}; CI is set: a skipped test fails under CI");
            }
            // Straight to fd 2, like skip.rs: libtest hides eprintln! of a passing test.
            use std::io::Write as _;
            let _ = std::io::stderr().write_all(format!("{msg}\n").as_bytes());
            return None;
        }
        c => panic!("regenerate.sh failed ({c:?}): its checks above say which case"),
    }
    Some(cache.join(format!("unpacked-{WHEEL_SHA256}/ace_jax_coupling/_lib/lib")))
}
