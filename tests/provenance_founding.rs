//! Register provenance from the binary for the founding case (issue #11): the C+asm
//! reproduction `sample-traces/julia-trampoline-bad-r13` (a `jlcapi_*` trampoline that calls
//! the specsig body without setting r13, so r13 still holds the thunk pointer that
//! `run_pass_manager` put there). With the binary (`--exe`), both the recorded transcript and
//! a core written by gdb's `generate-core-file` must name the instruction that wrote r13.

mod common;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const WRITER: &str = "r13 was last written at run_pass_manager+0x8: `mov    %rsi,%r13` (frame #2)";

/// Builds the founding program as `sample-traces/regenerate.sh` does (the .S half without
/// debug info) into `dir`.
fn build(dir: &Path) -> std::path::PathBuf {
    let src = common::samples_dir().join("src");
    let obj = dir.join("jit.o");
    let exe = dir.join("julia-trampoline-bad-r13");
    let ok = Command::new("gcc")
        .arg("-c")
        .arg(src.join("julia-trampoline.S"))
        .arg("-o")
        .arg(&obj)
        .status()
        .expect("gcc")
        .success();
    assert!(ok, "assembling julia-trampoline.S");
    let ok = Command::new("gcc")
        .args(["-O0", "-g"])
        .arg(src.join("julia-trampoline.c"))
        .arg(&obj)
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("gcc")
        .success();
    assert!(ok, "building julia-trampoline-bad-r13");
    exe
}

/// The pinned-register finding's evidence texts.
fn pinned_evidence(args: &[&Path]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--fail-on", "never"])
        .args(args)
        .output()
        .expect("run tracecheck");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let f = v["inputs"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| f["rule"] == "pinned-register")
        .cloned()
        .unwrap_or_else(|| panic!("no pinned-register finding for {args:?}"));
    f["evidence"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["text"].as_str().or(e.as_str()).unwrap_or("").to_string())
        .collect()
}

#[test]
fn founding_r13_writer_named_from_the_binary() {
    let transcript = common::samples_dir().join("julia-trampoline-bad-r13.gdb.txt");
    // Without the binary the transcript's own disassembly covers frames #0 and #1 but not #2
    // (run_pass_manager, the writer): the writer is not named (tests/provenance_text.rs checks
    // what is said instead).
    let without = pinned_evidence(&[&transcript]);
    assert!(!without.iter().any(|e| e.contains("last written")), "{without:#?}");

    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("tracecheck-founding-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let exe = build(&dir);
    let exe_arg = Path::new("--exe");

    let with = pinned_evidence(&[exe_arg, &exe, &transcript]);
    assert!(with.iter().any(|e| e.starts_with(WRITER)), "transcript + --exe: {with:#?}");
    assert!(
        with.iter().any(|e| e.contains(
            "not written since by julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1)"
        )),
        "{with:#?}"
    );

    // A core at the same stop.
    let status = Command::new("gdb")
        .current_dir(&dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", "/tmp")
        .env("LANG", "C")
        .args(["-q", "-batch", "-nx", "-ex", "run", "-ex", "generate-core-file founding.core", "--args"])
        .arg(&exe)
        .output()
        .expect("gdb");
    let core = dir.join("founding.core");
    assert!(core.is_file(), "gdb wrote no core: {}", String::from_utf8_lossy(&status.stdout));
    let from_core = pinned_evidence(&[exe_arg, &exe, &core]);
    assert!(from_core.iter().any(|e| e.starts_with(WRITER)), "core: {from_core:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}
