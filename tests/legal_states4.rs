//! Legal machine states, fourth pass (issue 11): shapes the third pass did not cover, recorded
//! at test time (`sample-traces/legal/sweep4/`). `lookalikes.sh` stops `lookalike.c` (and a Go
//! nil check, the JVM's own SIGSEGV, a clean valgrind run) at legal states made to resemble each
//! rule's trigger, most with a twin (SIGSEGV sent with tgkill, then `continue`) and gdb's core of
//! the same stop; `sweep4.sh` runs the third pass's sampler over AArch64 programs under
//! qemu-user (gdb-multiarch), i386 programs, clang -O3 AVX-512 code and glibc's evex string
//! functions, OpenMP, ld.so during dlopen, SA_SIGINFO handlers on an altstack with vfork, and
//! the lldb sampler (`lldb_sweep.py`). Every rule must stay quiet on them; each fix has an
//! edited look-alike (a comment says what was edited) that keeps its rule firing.

mod common;
#[path = "common/legal.rs"]
mod legal;

use legal::{findings, read};
use std::path::{Path, PathBuf};
use std::process::Command;
use tracecheck::model::Severity;

fn script(name: &str) -> PathBuf {
    common::samples_dir().join("legal/sweep4").join(name)
}

fn scratch(tag: &str) -> PathBuf {
    legal::scratch(&format!("4-{tag}"))
}

/// Checks every state of `dir` (transcripts `.gdb.txt`/`.lldb.txt`, twins without
/// `$_siginfo`, cores with their executable); returns the alarms and (states, twins, cores).
fn check_states(dir: &Path) -> (Vec<String>, usize, usize, usize) {
    let (bad, n) = legal::check_states(dir, false, &|_, _, _| false);
    (bad, n.states, n.twins, n.cores)
}

/// Every look-alike of lookalike.sh: quiet as transcript, as a twin pasted without
/// `$_siginfo`, and as gdb's core; and the edited look-alikes of this pass's fixes fire.
#[test]
fn look_alikes_of_every_rule_stay_quiet() {
    if !common::require_tools(&["gdb", "gcc", "python3"]) {
        return;
    }
    let dir = scratch("lookalikes");
    let out = Command::new("bash").arg(script("lookalikes.sh")).arg(&dir).output().expect("run lookalikes.sh");
    assert!(out.status.success(), "lookalikes.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    // Each look-alike stopped where it was meant to (not at an exit or a missed breakpoint).
    let expect = [
        ("free-null", "__GI___libc_free (mem=0x0)"),
        ("realloc-null", "__GI___libc_realloc (oldmem=0x0"),
        ("nopw-null", "nopw"),
        ("prefetch-null", "prefetcht0"),
        ("lea-nanbox", "lea    0x8(%rax),%rdx"),
        ("consts", "0xcbf29ce484222325"),
        ("noalign", "la_leaf"),
        ("saves-null-inner", "inner_work"),
        ("memfd-jit", "/memfd:jit (deleted)"),
        ("near-guard", "near_guard"),
        ("altstack-bss", "<signal handler called>"),
        ("ro-load", "la_roload"),
        ("logs", "\"free(): invalid pointer\""),
        ("raise-after-fault", "received signal SIGUSR2"),
        ("vfork-child", "vfork to child process"),
    ];
    for (n, what) in expect {
        let t = read(&dir.join(format!("{n}.gdb.txt")));
        assert!(t.contains(what), "{n}: `{what}` not in the transcript:\n{t}");
        if dir.join(format!("{n}+SEGV.gdb.txt")).is_file() {
            let t = read(&dir.join(format!("{n}+SEGV.gdb.txt")));
            assert!(t.contains("received signal SIGSEGV"), "{n}+SEGV stopped with the sent SIGSEGV:\n{t}");
            assert!(t.contains("si_code = -6"), "{n}+SEGV: sent with tgkill (SI_TKILL)");
        }
    }
    // The Go nil check is set apart (see below: the finding there is true).
    let apart = dir.join("true");
    std::fs::create_dir_all(&apart).unwrap();
    for f in ["go-nil.gdb.txt", "go-nil.meta"] {
        let _ = std::fs::rename(dir.join(f), apart.join(f));
    }
    let (bad, states, twins, cores) = check_states(&dir);
    assert!(bad.is_empty(), "alarms on legal look-alikes:\n{}", bad.join("\n"));
    assert!(states >= 33 && twins >= 14 && cores >= 14, "{states} states, {twins} twins, {cores} cores");
    eprintln!("look-alikes: {states} states, {twins} twins, {cores} cores, quiet");

    // Look-alike, edited: the quoted mention in the test log turned into glibc's own message
    // line (what free prints before it aborts): heap-corruption fires.
    let t = read(&dir.join("logs+SEGV.gdb.txt"));
    let line = t.lines().find(|l| l.starts_with("test 9: ")).expect("the test log line").to_string();
    let f = findings(&t.replace(&line, "free(): invalid pointer"));
    assert!(f.iter().any(|f| f.0 == "heap-corruption" && f.1 == Severity::Error), "{f:#?}");

    // The Go nil check the program recovers: not counted as a false finding. A nil pointer was
    // dereferenced in Go code (a run-time error, recovered or not), and the debugger stops
    // before Go's handler exactly as on a crash (tests/crash_corpus.rs's go-nil), so the rule
    // says so, in main.load.
    if apart.join("go-nil.gdb.txt").is_file() {
        let t = read(&apart.join("go-nil.gdb.txt"));
        assert!(t.contains("received signal SIGSEGV") && t.contains("main.load"), "stopped in main.load:\n{t}");
        let f = findings(&t);
        assert!(
            f.iter().any(|f| f.0 == "null-dereference" && f.1 == Severity::Error && f.2.contains("in main.load")),
            "{f:#?}"
        );
    }
}

/// Runs sweep4.sh over `progs` (N states each, a fixed seed) and checks every state.
fn sweep(tag: &str, progs: &[&str], n: u32) {
    let dir = scratch(tag);
    let out = Command::new("bash")
        .arg(script("sweep4.sh"))
        .arg(&dir)
        .args(["-n", &n.to_string(), "-s", "7", "-c", "0.3", "-t", "30"])
        .args(progs)
        .output()
        .expect("run sweep4.sh");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "sweep4.sh failed:\n{log}");
    let states = dir.join("states");
    for p in progs {
        let k = std::fs::read_dir(&states)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().strip_prefix(p).is_some_and(|r| r.starts_with('-')))
            .count();
        // .txt + .meta (+ .core) per state: at least a third of the states asked for.
        assert!(k >= 2 * (n as usize / 3), "{p}: only {k} files of states\n{log}");
    }
    let (bad, states, twins, cores) = check_states(&states);
    assert!(bad.is_empty(), "alarms on legal states:\n{}", bad.join("\n"));
    eprintln!("{tag}: {states} states, {twins} twins, {cores} cores, quiet");
}

/// x86-64 and i386 under gdb: clang -O3 -fomit-frame-pointer AVX-512 code and glibc's evex
/// string functions, OpenMP, ld.so in dlopen/dlclose, SA_SIGINFO handlers on an altstack (a
/// handled NULL load and division by zero, nested signals, vfork), a dynamic i386 program.
#[test]
fn a_sample_of_the_fourth_sweep_stays_quiet() {
    if !common::require_tools(&["gdb", "gcc", "clang", "python3", "i686-linux-gnu-gcc"]) {
        return;
    }
    sweep("gdb", &["vec-clang-avx512", "omp-gcc-O2", "dl-gcc-O2", "sig-gcc-O2", "i386-work"], 8);
}

/// AArch64 under qemu-user's gdbstub (gdb-multiarch, interrupts and twins sent to qemu's
/// threads), and lldb's own transcripts (the lldb sampler) of vec.c and work.c. (`a64-sys`, the
/// threaded, signal-heavy sys.c under qemu, is left to `sweep4.sh` by hand: in 3 of 5 runs on
/// a fresh machine gdb-multiarch hung on qemu's stub after an interrupt of its second thread,
/// and the sweep ended with 0 to 1 states of the 8 asked for.)
#[test]
fn aarch64_under_qemu_and_lldb_states_stay_quiet() {
    if !common::require_tools(&[
        "gdb-multiarch",
        "qemu-aarch64",
        "aarch64-linux-gnu-gcc",
        "lldb",
        "lldb-python",
        "gcc",
        "python3",
    ]) {
        return;
    }
    sweep("qemu-lldb", &["a64-work-O0-dyn", "lldb-vec", "lldb-work-O2"], 8);
}
