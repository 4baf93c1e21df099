//! What the legal-state sweeps (`legal_states3.rs` … `legal_states6.rs`) share: reading a
//! recorded state (a transcript, the transcript with the program's executable, gdb's core,
//! a twin pasted without `p $_siginfo`) and checking a directory of states the sweep scripts
//! of `sample-traces/legal/` wrote (`NAME.gdb.txt`/`.lldb.txt`, `NAME.meta`, `NAME.core`).
//! Included with `#[path = "common/legal.rs"] mod legal;` next to `mod common;`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tracecheck::analyze::analyze;
use tracecheck::core::{CoreOptions, read_core_trace};
use tracecheck::model::Severity;
use tracecheck::symbolize::dwarf::SymbolOptions;

/// (rule, severity, message) of each finding.
pub type Found = Vec<(&'static str, Severity, String)>;

pub fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).into_owned()
}

/// The findings on a transcript read alone.
pub fn findings(text: &str) -> Found {
    let r = analyze("t", tracecheck::input::parse(text), &Default::default());
    r.findings.iter().map(|f| (f.rule, f.severity, f.message.clone())).collect()
}

/// The findings on a transcript read with the program's executable (`--exe`).
pub fn findings_exe(text: &str, exe: &Path) -> Found {
    let opts = tracecheck::pipeline::LoadOptions {
        symbols: SymbolOptions { exes: vec![exe.to_path_buf()], system_debug_dir: true, ..Default::default() },
        symbolize_text: true,
        ..Default::default()
    };
    let r = tracecheck::pipeline::analyze_text("t", text.as_bytes(), &opts);
    r.findings.iter().map(|f| (f.rule, f.severity, f.message.clone())).collect()
}

/// The findings on an ELF core read with its executable.
pub fn core_findings(core: &Path, exe: &Path) -> Found {
    let opts = CoreOptions {
        symbols: SymbolOptions { exes: vec![exe.to_path_buf()], system_debug_dir: true, ..Default::default() },
        ..Default::default()
    };
    let parsed = read_core_trace(core, &opts).expect("core reads");
    let r = analyze("core", parsed, &Default::default());
    r.findings.iter().map(|f| (f.rule, f.severity, f.message.clone())).collect()
}

/// Warnings and errors only: an info finding is a remark, not a false alarm.
pub fn alarms(f: Found) -> Found {
    f.into_iter().filter(|f| f.1 != Severity::Info).collect()
}

/// The transcript without `p $_siginfo` and its answer: a twin as many users paste it.
pub fn without_siginfo(t: &str) -> String {
    t.lines()
        .filter(|l| *l != "(gdb) p $_siginfo" && !(l.starts_with('$') && l.contains("si_signo")))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The `exe=` line of a state's `.meta`.
pub fn meta_exe(meta: &str) -> PathBuf {
    PathBuf::from(meta.lines().find_map(|l| l.strip_prefix("exe=")).unwrap_or(""))
}

/// A `key=` line of a state's `.meta` (`kind`, `twin`).
pub fn meta_value<'a>(meta: &'a str, key: &str) -> &'a str {
    meta.lines().find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('='))).unwrap_or("")
}

/// Counts of what `check_states` read.
#[derive(Default, Debug)]
pub struct Read {
    pub states: usize,
    pub twins: usize,
    pub cores: usize,
    pub with_exe: usize,
}

/// Checks every state of `dir` (transcripts `.gdb.txt`/`.lldb.txt`, the transcript with
/// `--exe` when `with_exe`, twins without `$_siginfo`, cores alone or beside a transcript,
/// with their executable; each core is deleted once read); returns the alarms for which
/// `deliberate(state, reading, rule)` is false, and the counts. Readings: `transcript`,
/// `transcript+exe`, `nosiginfo`, `core`.
pub fn check_states(dir: &Path, with_exe: bool, deliberate: &dyn Fn(&str, &str, &str) -> bool) -> (Vec<String>, Read) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let f = e.file_name().to_string_lossy().into_owned();
            let n = f
                .strip_suffix(".gdb.txt")
                .or_else(|| f.strip_suffix(".lldb.txt"))
                .or_else(|| f.strip_suffix(".core"))?
                .to_string();
            Some(n)
        })
        .collect();
    names.sort();
    names.dedup();
    let mut bad = Vec::new();
    let mut n = Read::default();
    let mut report = |state: &str, reading: &str, f: Found| {
        for f in f {
            if !deliberate(state, reading, f.0) {
                bad.push(format!("{state} ({reading}): {f:?}"));
            }
        }
    };
    for name in &names {
        let meta = read(&dir.join(format!("{name}.meta")));
        let exe = meta_exe(&meta);
        let text = [".gdb.txt", ".lldb.txt"].iter().map(|s| dir.join(format!("{name}{s}"))).find(|p| p.is_file());
        n.states += 1;
        if let Some(path) = &text {
            let t = read(path);
            report(name, "transcript", alarms(findings(&t)));
            if with_exe && exe.is_file() {
                n.with_exe += 1;
                report(name, "transcript+exe", alarms(findings_exe(&t, &exe)));
            }
            if !meta_value(&meta, "twin").is_empty() {
                n.twins += 1;
                let maps = t.contains("(gdb) info proc mappings") || t.contains("(lldb) image list");
                let f = alarms(findings(&without_siginfo(&t)))
                    .into_iter()
                    // Without the memory map the access at pc cannot be checked: the allocator
                    // and stack-overflow guesses may warn (as in legal_states3).
                    .filter(|f| {
                        !(matches!(f.0, "heap-corruption" | "stack-overflow") && !maps && f.1 == Severity::Warning)
                    })
                    .collect();
                report(name, "nosiginfo", f);
            }
        }
        let core = dir.join(format!("{name}.core"));
        // (An i386 program's core, ELFCLASS32, is read like the others.)
        if core.is_file() {
            n.cores += 1;
            let f = alarms(core_findings(&core, &exe));
            let _ = std::fs::remove_file(&core);
            report(name, "core", f);
        }
    }
    (bad, n)
}

/// A fresh scratch directory `legal-states<tag>` under the test process's scratch root.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = crate::common::scratch_root().join(format!("legal-states{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
