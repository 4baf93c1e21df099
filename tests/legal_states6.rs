//! Legal machine states, sixth pass (issue 11): managed runtimes whose legal code looks like
//! ABI anomalies to naive rules (`sample-traces/legal/sweep6/`, README in
//! `sample-traces/legal/`):
//!
//! - `sweep6.sh`: the third pass's sampler (`sweep/sweep.py`) over HotSpot (JIT code in
//!   anonymous executable memory, implicit null checks and safepoint polls through SIGSEGV),
//!   SBCL (a write barrier through SIGSEGV on protected pages, traps, code in its `sbcl.core`
//!   image mapped rwx), Erlang's BEAM JIT (code in a dual-mapped memfd), LuaJIT (traces, FFI
//!   callbacks), Chez Scheme and Go with cgo callbacks and SIGURG preemption; the signals each
//!   runtime raises and handles itself are passed on, and about a third of the resumes stop on
//!   them (`kind=handled-SIG…` in the state's `.meta`);
//! - `controls6.sh`: real crashes in C functions called from SBCL and LuaJIT, which the rules
//!   that learnt to excuse those runtimes' own code must still report.
//!
//! Every sampled state must stay quiet (warnings and errors; an `info` finding is a remark),
//! except what `tolerated` names: a state whose transcript holds no evidence at all of the
//! runtime it comes from.

mod common;
#[path = "common/legal.rs"]
mod legal;

use legal::{alarms, findings, meta_value, read};
use std::path::{Path, PathBuf};
use std::process::Command;
use tracecheck::model::Severity;

fn script(name: &str) -> PathBuf {
    common::samples_dir().join("legal/sweep6").join(name)
}

fn committed(name: &str) -> String {
    read(&common::samples_dir().join("legal/states6").join(format!("{name}.gdb.txt")))
}

/// The files, mappings, programs and thread names that tell a runtime runs (what
/// `RuleContext::jit_runtime` reads).
const RUNTIME_EVIDENCE: &[&str] = &[
    "sbcl",
    "libjvm.so",
    "VM Thread",
    "CompilerThre",
    "beam.smp",
    "1_scheduler",
    "libluajit",
    "luajit",
    "petite.boot",
];

/// Alarms on a sampled legal state that are tolerated: SBCL's write barrier stopped at
/// (a handled SIGSEGV, SEGV_ACCERR, on a write by Lisp code) in a transcript that names nothing
/// of SBCL (one thread, so no thread names; no `info proc mappings`; only libc, libm and libzstd
/// in `info sharedlibrary`; frame #0 `?? ()`). Nothing then tells this from a C program writing
/// to read-only memory at a pc without a symbol, and the heuristic warning (no mappings
/// printed) stands.
fn tolerated(dir: &Path, state: &str, reading: &str, rule: &str) -> bool {
    if !(state.starts_with("sbcl-") && rule == "write-to-readonly" && reading != "core") {
        return false;
    }
    let t = read(&dir.join(format!("{state}.gdb.txt")));
    !RUNTIME_EVIDENCE.iter().any(|e| t.contains(e)) && !t.contains("(gdb) info proc mappings")
}

/// Runs sweep6.sh over `progs` (N states each, a fixed seed) and checks every state; returns
/// how many states stopped at a handled signal.
fn sweep(tag: &str, progs: &[&str], n: u32, secs: u32) -> usize {
    let dir = legal::scratch(&format!("6-{tag}"));
    let out = Command::new("bash")
        .arg(script("sweep6.sh"))
        .arg(&dir)
        .args(["-n", &n.to_string(), "-s", "11", "-c", "0.3", "-t", &secs.to_string()])
        .args(progs)
        .output()
        .expect("run sweep6.sh");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "sweep6.sh failed:\n{log}");
    assert!(!log.contains("left out"), "a program was left out:\n{log}");
    let states = dir.join("states");
    let mut handled = 0;
    for p in progs {
        let metas: Vec<String> = std::fs::read_dir(&states)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|f| f.strip_prefix(p).is_some_and(|r| r.starts_with('-') && r.ends_with(".meta")))
            .collect();
        // at least a third of the states asked for
        assert!(metas.len() >= n as usize / 3, "{p}: only {} states\n{log}", metas.len());
        handled += metas.iter().filter(|m| meta_value(&read(&states.join(m)), "kind").starts_with("handled-")).count();
    }
    let (bad, read) = legal::check_states(&states, true, &|s, r, u| tolerated(&states, s, r, u));
    assert!(bad.is_empty(), "alarms on legal states:\n{}", bad.join("\n"));
    eprintln!("{tag}: {read:?}, {handled} at handled signals, quiet");
    handled
}

/// HotSpot with its JIT: gdb stops on the JVM's own SIGSEGVs (implicit null checks, safepoint
/// polls) at about a third of the resumes.
#[test]
fn hotspot_states_stay_quiet() {
    if !common::require_tools(&["gdb", "java", "javac", "python3"]) {
        return;
    }
    sweep("jvm", &["jvm"], 8, 70);
}

/// SBCL (its write barrier's SIGSEGVs stopped at), the BEAM JIT, LuaJIT, Chez Scheme and Go
/// with cgo callbacks (its SIGURG preemption stopped at).
#[test]
fn sbcl_beam_luajit_chez_and_cgo_states_stay_quiet() {
    if !common::require_tools(&["gdb", "sbcl", "erlc", "luajit", "chezscheme", "go", "gcc", "python3"]) {
        return;
    }
    let handled = sweep("runtimes", &["sbcl", "erlang", "luajit", "chez", "cgo6"], 8, 40);
    // SBCL's SIGSEGVs and Go's SIGURGs come many times a second: with 16 draws at 0.4, a
    // sweep without a single stop at one is a sampler that no longer stops on them.
    assert!(handled >= 1, "no state at a handled signal");
}

/// Real crashes in C functions called from SBCL (alien-funcall) and LuaJIT (FFI): the rules
/// that excuse those runtimes' generated code still report them, as errors.
#[test]
fn crashes_in_c_called_from_runtimes_still_fire() {
    if !common::require_tools(&["gdb", "gcc", "sbcl", "luajit"]) {
        return;
    }
    let dir = legal::scratch("6-controls");
    let out = Command::new("bash").arg(script("controls6.sh")).arg(&dir).output().expect("run controls6.sh");
    assert!(out.status.success(), "controls6.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let expect: &[(&str, &str, &str)] = &[
        ("sbcl-memset-ro", "write-to-readonly", "memset"),
        ("sbcl-smash", "corrupt-backtrace", "stack smashed above #0 smash6"),
        ("sbcl-load-null", "null-dereference", "in load6"),
        ("luajit-load-null", "null-dereference", "in load6"),
    ];
    for (name, rule, what) in expect {
        let t = read(&dir.join(format!("{name}.gdb.txt")));
        // the memory map shows the runtime: the rules know it runs
        assert!(t.contains("sbcl.core") || t.contains("/usr/bin/luajit"), "{name}: no runtime in the mappings:\n{t}");
        let f = findings(&t);
        assert!(f.iter().any(|f| f.0 == *rule && f.1 == Severity::Error && f.2.contains(what)), "{name}: {f:#?}");
    }
}

/// States of this pass kept in `sample-traces/legal/states6/` (real gdb 13 transcripts recorded
/// by sweep6.sh and controls6.sh), each quiet (or, for the controls, firing), and each fix's
/// edited look-alike (a comment says what was edited) firing again. Needs no tool.
#[test]
fn committed_states_stay_quiet_and_edited_look_alikes_fire() {
    for n in ["sbcl-trap", "sbcl-core-frame", "sbcl-barrier", "erlang-memfd", "jvm-handled"] {
        let f = alarms(findings(&committed(n)));
        assert!(f.is_empty(), "{n}: {f:#?}");
    }
    // The program named as nothing this tool knows for a runtime: every `sbcl` (the process's
    // and thread names, the mappings of /usr/bin/sbcl and sbcl.core) turned into `prog`.
    let unknown = |t: &str| t.replace("sbcl", "prog");

    // corrupt-backtrace: SBCL's `memory_fault_emulation_trap` is entered by its signal handler
    // rewriting the context; gdb's frames above it are guesses. Edited: no runtime, and the
    // same garbage above a C function is a corrupt stack again.
    let t = committed("sbcl-trap");
    assert!(t.contains("memory_fault_emulation_trap") && t.contains("received signal SIGTRAP"));
    let f = findings(&t);
    assert!(
        f.iter().any(|f| f.0 == "corrupt-backtrace"
            && f.1 == Severity::Info
            && f.2.contains("rewriting the interrupted context")),
        "{f:#?}"
    );
    let f = alarms(findings(&unknown(&t)));
    assert!(f.iter().any(|f| f.0 == "corrupt-backtrace" && f.1 == Severity::Warning), "{f:#?}");

    // corrupt-backtrace: a frame without a symbol in sbcl.core, mapped rwx (Lisp code, which
    // has no unwind information). Edited: no runtime (the image is then a file of some
    // program, whose code would have unwind information), and the garbage above it is a
    // corrupt stack again.
    let t = committed("sbcl-core-frame");
    assert!(t.contains("rwxp   /usr/lib/sbcl/sbcl.core"));
    let f = findings(&t);
    assert!(f.iter().any(|f| f.0 == "corrupt-backtrace" && f.1 == Severity::Info && f.2.contains("SBCL")), "{f:#?}");
    let f = alarms(findings(&unknown(&t)));
    assert!(f.iter().any(|f| f.0 == "corrupt-backtrace" && f.1 == Severity::Warning), "{f:#?}");

    // write-to-readonly: SBCL's write barrier (SEGV_ACCERR on a write by Lisp code into a
    // protected heap page) is info. Edited: no runtime, and it is an alarm again.
    let t = committed("sbcl-barrier");
    let f = findings(&t);
    assert!(f.iter().any(|f| f.0 == "write-to-readonly" && f.1 == Severity::Info), "{f:#?}");
    let f = alarms(findings(&unknown(&t)));
    assert!(f.iter().any(|f| f.0 == "write-to-readonly"), "{f:#?}");

    // corrupt-backtrace: the BEAM's JIT code runs from an r-x memfd mapping. Edited: the memfd
    // named as a library file (whose code would have unwind information).
    let t = committed("erlang-memfd");
    assert!(t.contains("r-xs   /memfd:vmem (deleted)"));
    let f = alarms(findings(&t.replace("r-xs   /memfd:vmem (deleted)", "r-xs   /usr/lib/libvmem.so")));
    assert!(f.iter().any(|f| f.0 == "corrupt-backtrace" && f.1 == Severity::Warning), "{f:#?}");

    // The controls as recorded: real crashes in C called from SBCL and LuaJIT.
    for (n, rule) in [
        ("sbcl-memset-ro", "write-to-readonly"),
        ("sbcl-smash", "corrupt-backtrace"),
        ("sbcl-load-null", "null-dereference"),
        ("luajit-load-null", "null-dereference"),
    ] {
        let f = findings(&committed(n));
        assert!(f.iter().any(|f| f.0 == rule && f.1 == Severity::Error), "{n}: {f:#?}");
    }
}
