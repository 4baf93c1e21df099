//! Register provenance and the callee-saved checks from what a transcript itself shows
//! (issue #11): its `disassemble` listings (gdb AT&T and Intel, `/r` bytes, lldb's `->`
//! marker), `info frame` and `x/` dumps, without `--exe` or a core. The binary path (with
//! `--exe`) must name the same instruction.

mod common;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Each finding of `rule`: its message and evidence lines joined.
fn findings(args: &[&Path], rule: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--fail-on", "never"])
        .args(args)
        .output()
        .expect("run tracecheck");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["inputs"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            let mut t = f["message"].as_str().unwrap_or("").to_string();
            for e in f["evidence"].as_array().into_iter().flatten() {
                t.push('\n');
                t.push_str(e["text"].as_str().unwrap_or(""));
            }
            t
        })
        .collect()
}

fn crasher(name: &str) -> PathBuf {
    common::samples_dir().join("crashers").join(format!("{name}.gdb.txt"))
}

/// The evidence line that starts with `prefix`.
fn line_with<'a>(texts: &'a [String], prefix: &str) -> Option<&'a str> {
    texts.iter().flat_map(|t| t.lines()).find(|l| l.starts_with(prefix))
}

#[test]
fn writer_named_from_gdb_intel_listings() {
    let f = findings(&[&crasher("julia-r13-intel")], "pinned-register");
    let l = line_with(&f, "r13 was last written").unwrap_or_else(|| panic!("{f:#?}"));
    assert_eq!(
        l,
        "r13 was last written at run_pass_manager+0x8: `mov    r13,rsi` (frame #2); not written since by \
         julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1), which pass it on (from the \
         transcript's disassembly: julia_module_callback_4212 (frame #0): 6 instructions from its entry to the pc; \
         jlcapi_module_callback_4213 (frame #1): 4 instructions from its entry to the pc; run_pass_manager (frame #2): \
         7 instructions from its entry to the pc)"
    );
}

#[test]
fn writer_named_from_lldb_listings() {
    let t = common::samples_dir().join("lldb/julia-trampoline-frames.lldb.txt");
    let f = findings(&[&t], "pinned-register");
    let l = line_with(&f, "r13 was last written").unwrap_or_else(|| panic!("{f:#?}"));
    assert!(l.starts_with("r13 was last written at run_pass_manager+0x8: `movq   %rsi, %r13` (frame #2)"), "{l}");
    assert!(l.contains("from the transcript's disassembly"), "{l}");
}

#[test]
fn a_frame_whose_code_is_not_shown_is_where_the_walk_stops() {
    // The founding transcript shows frames #0 and #1 whole, and no code of frame #2.
    let t = common::samples_dir().join("julia-trampoline-bad-r13.gdb.txt");
    let f = findings(&[&t], "pinned-register");
    let l = line_with(&f, "r13 is not written").unwrap_or_else(|| panic!("{f:#?}"));
    assert!(
        l.starts_with(
            "r13 is not written in julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1) \
             before their pc: inherited from run_pass_manager (frame #2) (from the transcript's disassembly"
        ),
        "{l}"
    );
    assert!(!f.iter().any(|t| t.contains("last written")), "{f:#?}");
    // lldb's `disassemble --pc` shows nothing before the pc: nothing is claimed.
    let t = common::samples_dir().join("lldb/julia-trampoline-bad-r13.lldb.txt");
    let f = findings(&[&t], "pinned-register");
    assert!(!f.iter().any(|t| t.contains("written")), "{f:#?}");
}

#[test]
fn callee_saved_slots_from_transcript_memory() {
    // A callee that returned: its save slot from its `disassemble /r` prologue, the slot's
    // word from `x/8gx $sp-64`.
    let f = findings(&[&crasher("push-slot-overrun")], "callee-saved-changed");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].contains(
            "mix_rows saves r12 at CFA-24 (at mix_rows+0x1: `push   %r12`), and that saved copy, at 0x7fffffffec28 \
             below the caller's sp, holds 0x0 in the x/ dump"
        ),
        "{}",
        f[0]
    );
    assert!(f[0].contains("fold_table+0x5 `mov    0x8(%r12),%rsi` read through it without faulting"), "{}", f[0]);
    // A live frame: `info frame` says where r12 is saved, `x/8gx $sp` shows it.
    let f = findings(&[&crasher("live-slot-smash")], "callee-saved-changed");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].starts_with(
            "scan_rows (frame #0) saved fold_table's r12 at 0x7fffffffec38, and that saved copy now holds 0x0, which \
             fold_table (frame #1) cannot have had at the call: fold_table+0x5 `mov    0x10(%r12),%rdx`"
        ),
        "{}",
        f[0]
    );
    // The look-alikes: the same saves, nothing overwritten.
    for c in ["push-slot-ok", "live-slot-ok"] {
        assert!(findings(&[&crasher(c)], "callee-saved-changed").is_empty(), "{c}");
    }
}

/// Builds crashers with `regenerate.sh --cores` (their binaries and cores) into a temp dir.
fn build(cases: &[&str]) -> Option<PathBuf> {
    if !common::require_tools(&["gcc", "gdb", "bash"]) {
        return None;
    }
    let dir = common::scratch_root().join(format!("tracecheck-provenance-text-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new("bash")
        .arg(common::samples_dir().join("crashers/regenerate.sh"))
        .arg("--cores")
        .arg(&dir)
        .args(cases)
        .output()
        .expect("regenerate.sh");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    Some(dir)
}

#[test]
fn transcript_and_binary_paths_agree() {
    let Some(dir) = build(&["julia-r13-intel", "push-slot-overrun", "live-slot-smash"]) else { return };
    let exe = Path::new("--exe");
    // The same writer, by the same label, from the Intel text and from the machine code.
    let t = crasher("julia-r13-intel");
    let text = findings(&[&t], "pinned-register");
    let bin = findings(&[exe, &dir.join("julia-r13-intel"), &t], "pinned-register");
    let core = findings(&[exe, &dir.join("julia-r13-intel"), &dir.join("julia-r13-intel.core")], "pinned-register");
    let head =
        |v: &[String]| line_with(v, "r13 was last written").and_then(|l| l.split(':').next()).map(str::to_string);
    assert_eq!(head(&text).as_deref(), Some("r13 was last written at run_pass_manager+0x8"));
    assert_eq!(head(&text), head(&bin), "{bin:#?}");
    assert_eq!(head(&text), head(&core), "{core:#?}");
    assert!(!line_with(&bin, "r13 was last written").unwrap_or("").contains("transcript's disassembly"));
    // The callee's save slot: from its shown prologue, from its CFI (with --exe and in the core).
    let t = crasher("push-slot-overrun");
    for f in [
        findings(&[&t], "callee-saved-changed"),
        findings(&[exe, &dir.join("push-slot-overrun"), &t], "callee-saved-changed"),
        findings(&[exe, &dir.join("push-slot-overrun"), &dir.join("push-slot-overrun.core")], "callee-saved-changed"),
    ] {
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].contains("saves r12 at CFA-24 (at mix_rows+0x1: `push   %r12`)"), "{}", f[0]);
        assert!(f[0].contains("r12 last written at fold_table+0x2: `mov    %rdi,%r12`"), "{}", f[0]);
    }
    // A live frame's slot: from `info frame`, from the CFI.
    let t = crasher("live-slot-smash");
    for f in [
        findings(&[&t], "callee-saved-changed"),
        findings(&[exe, &dir.join("live-slot-smash"), &t], "callee-saved-changed"),
        findings(&[exe, &dir.join("live-slot-smash"), &dir.join("live-slot-smash.core")], "callee-saved-changed"),
    ] {
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].starts_with("scan_rows (frame #0) saved fold_table's r12 at 0x"), "{}", f[0]);
        assert!(f[0].contains("that saved copy now holds 0x0"), "{}", f[0]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
