//! Tail-call frames on cores, against gdb on the same cores.
//!
//! gdb shows a function that left the stack by a tail call as a frame of its own when the
//! DWARF call sites (`DW_AT_call_tail_call`) lead unambiguously from the caller's call site to
//! the function inside (`dwarf2/frame-tailcall.c`). The crash-corpus programs `tailcall-*` are
//! rebuilt and crashed (`regenerate.sh --cores`); gdb's `bt` on each core is read by
//! tracecheck's gdb parser and compared frame by frame (function, file, line, pc) with the core
//! read by tracecheck, and both give the same culprit:
//! chains of two and three tail calls (gdb shows them all), clang's chain (its call sites carry
//! `DW_AT_call_pc`, which gdb 13 does not read: no tail-call frame), a tail call through a
//! function pointer (no target without the caller's registers: none), two paths with nothing in
//! common (ambiguous: none), two paths with a common end (that end only), and the look-alike
//! built without tail calls (real frames, nothing added).
//!
//! Needs gcc, clang and gdb; missing tools fail under CI=true and skip elsewhere.

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;
use tracecheck::core::{CoreOptions, read_core_trace};
use tracecheck::model::{Frame, Trace};
use tracecheck::symbolize::dwarf::SymbolOptions;

const CASES: [&str; 7] = [
    "tailcall-chain2",
    "tailcall-chain3",
    "tailcall-chain3-clang",
    "tailcall-indirect",
    "tailcall-ambiguous",
    "tailcall-suffix",
    "tailcall-chain2-nosibling",
];

fn cores() -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-tailcalls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = common::samples_dir().join("crashers/regenerate.sh");
    let out = Command::new("bash").arg(script).arg("--cores").arg(&dir).args(CASES).output().expect("regenerate.sh");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    dir
}

/// gdb's `bt` on the core, as text.
fn gdb_bt(dir: &Path, name: &str) -> String {
    let out = Command::new("gdb")
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir)
        .env("LANG", "C")
        .args(["-q", "-batch", "-nx", "-iex", "set debuginfod enabled off", "-iex", "set width 0"])
        .args(["-ex", "echo (gdb) bt\\n", "-ex", "bt"])
        .arg(format!("./{name}"))
        .arg(format!("{name}.core"))
        .output()
        .expect("gdb");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "gdb failed:\n{text}");
    text
}

fn crashed_frames(t: &Trace) -> Vec<Frame> {
    let stop = t.main_stop().expect("a stop");
    stop.threads.iter().find(|th| th.crashed).or(stop.threads.first()).expect("a thread").frames.clone()
}

/// The culprit tracecheck names for a file (`--exe` with the binary for a core).
fn culprit(args: &[&Path]) -> Option<String> {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tracecheck"));
    c.args(["--format", "json", "--fail-on", "never"]);
    if let [file, exe] = args {
        c.arg("--exe").arg(exe).arg(file);
    } else {
        c.arg(args[0]);
    }
    let out = c.output().expect("run tracecheck");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["inputs"][0]["stops"][0]["culprit"]["function"].as_str().map(str::to_string)
}

/// A frame's file; gdb prints clang's `./src/x.c` (its DW_AT_name) where tracecheck prints
/// `src/x.c` (a difference of spelling, not of file, outside what this test checks).
fn file(f: &Frame) -> Option<&str> {
    f.file.as_deref().map(|p| p.strip_prefix("./").unwrap_or(p))
}

fn show(f: &Frame) -> String {
    format!(
        "{} {} at {}:{}",
        f.pc.map(|p| format!("{p:#}")).unwrap_or_else(|| "-".into()),
        f.function_name(),
        f.file.as_deref().unwrap_or("?"),
        f.line.unwrap_or(0)
    )
}

#[test]
fn tail_call_frames_on_cores_are_gdbs() {
    if !common::require_tools(&["gcc", "clang", "gdb", "bash"]) {
        return;
    }
    let dir = cores();
    // The program's frames gdb shows above the C library's (frame #0 is the CPU's strlen
    // variant, #1 puts or fputs), and the culprit.
    let expected: [(&str, &[&str], &str); 7] = [
        ("tailcall-chain2", &["emit_label", "print_entry", "main"], "emit_label"),
        ("tailcall-chain3", &["write_text", "render_cell", "render_row", "main"], "write_text"),
        ("tailcall-chain3-clang", &["main"], "main"),
        ("tailcall-indirect", &["main"], "main"),
        ("tailcall-ambiguous", &["main"], "main"),
        ("tailcall-suffix", &["format_name", "main"], "format_name"),
        ("tailcall-chain2-nosibling", &["emit_label", "print_entry", "main"], "emit_label"),
    ];
    let mut bad = Vec::new();
    for (name, program, want) in expected {
        let text = gdb_bt(&dir, name);
        let g = crashed_frames(&tracecheck::input::parse(&text).trace);
        let opts = CoreOptions {
            symbols: SymbolOptions { exes: vec![dir.join(name)], system_debug_dir: true, ..Default::default() },
            ..Default::default()
        };
        let core = dir.join(format!("{name}.core"));
        let o = crashed_frames(&read_core_trace(&core, &opts).expect("core reads").trace);
        let same = g.len() == o.len()
            && g.iter().zip(&o).all(|(a, b)| {
                a.function == b.function && file(a) == file(b) && a.line == b.line && (a.pc.is_none() || a.pc == b.pc)
            });
        if !same {
            bad.push(format!(
                "{name}: frames differ\n  gdb:\n    {}\n  core:\n    {}",
                g.iter().map(show).collect::<Vec<_>>().join("\n    "),
                o.iter().map(show).collect::<Vec<_>>().join("\n    ")
            ));
            continue;
        }
        let names: Vec<String> = o.iter().skip(2).map(|f| f.function_name().to_string()).collect();
        if names != program {
            bad.push(format!("{name}: program frames {names:?}, expected {program:?}"));
        }
        let from_core = culprit(&[&core, &dir.join(name)]);
        let gdb_file = dir.join(format!("{name}.bt.txt"));
        std::fs::write(&gdb_file, &text).unwrap();
        let from_gdb = culprit(&[&gdb_file]);
        if from_core.as_deref() != Some(want) || from_gdb.as_deref() != Some(want) {
            bad.push(format!("{name}: culprit {from_core:?} (core), {from_gdb:?} (gdb's bt), expected {want}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
