//! Real Julia 1.13.1: the transcripts in `sample-traces/julia-real/` (always), and the same
//! cases re-recorded from the pinned PyPI wheel `ace-jax-coupling==0.2.0` with its runtime's
//! DWARF (when pip can fetch it; cached under `target/tmp`). Without the wheel the second
//! group prints `SKIPPED: …` and fails under `CI=true`. What is real here: docs/julia.md.
//!
//! Each case asserts tracecheck's findings through the CLI (`--format json`): the founding
//! case (a heap "thunk" left in r13 by a C trampoline that calls a real `julia_*` specsig body)
//! fires `pinned-register` with the trampoline → specsig transition in its evidence; r13 = 0 and
//! another thread's pgcstack fire too; the valid controls stay quiet (an `info` finding that
//! says r13 was checked against the task layout); the GC-visible corruption fires
//! `heap-corruption` with the GC's debugging switches and an rr recipe.

mod common;
#[path = "common/julia.rs"]
mod julia;
use julia::*;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn culprit(r: &Value, stop: usize) -> (String, Option<String>) {
    let c = &r["stops"][stop]["culprit"];
    (c["function"].as_str().unwrap_or("").to_string(), c["file"].as_str().map(str::to_string))
}

/// The single pinned-register finding that is an error or a warning (not the info kind).
fn pinned_problem(r: &Value) -> Value {
    let v: Vec<&Value> = findings(r, "pinned-register").into_iter().filter(|f| f["severity"] != "info").collect();
    assert_eq!(v.len(), 1, "{:#}", r["findings"]);
    v[0].clone()
}

// ---- the committed transcripts (no wheel needed) ----------------------------------------

/// The founding case: r13 = the thunk, not a pgcstack; the transition and the layout check
/// (version-table row 1.13, the trace names libjulia-internal.so.1.13) are in the evidence.
fn check_thunk(r: &Value, dwarf: bool) {
    let f = pinned_problem(r);
    assert_eq!(f["severity"], "error", "{f:#}");
    assert_eq!(f["frame"], 0);
    let m = f["message"].as_str().unwrap();
    assert!(m.contains("not a pgcstack in julia_etc_couple_4561"), "{m}");
    let ev = evidence(&f);
    assert!(
        has(
            &ev,
            "thunk_trampoline (C ABI, frame #3) calls julia_etc_couple_4561 (specsig, expects pgcstack in r13, frame #0) without setting r13"
        ),
        "{ev:#?}"
    );
    assert!(has(&ev, "[r13+16] = 0x2a is a small integer, not a ptls pointer"), "{ev:#?}");
    assert!(has(&ev, "is not a Task: its header [r13-160] = "), "{ev:#?}");
    assert!(has(&ev, "not jl_task_tag 11 << 4 = 0xb0"), "{ev:#?}");
    assert!(has(&ev, "reads r13 before writing it (mov    0x0(%r13),%rax)"), "{ev:#?}");
    assert!(has(&ev, "the ELF symbol table puts pc in julia_etc_couple_4561 + 111"), "{ev:#?}");
    let layout = if dwarf { "from the DWARF of " } else { "from the version table row 1.13" };
    assert!(
        has(&ev, &format!("layout: Julia 1.13.1, offsetof(jl_task_t, gcstack) = 152, ptls = 168; {layout}")),
        "{ev:#?}"
    );
    assert_eq!(culprit(r, 0).0, "thunk_trampoline");
}

#[test]
fn founding_case_fires_on_real_julia_code() {
    check_thunk(&report(&real_dir().join("thunk-r13.gdb.txt"), &[]), false);
}

/// Valid controls: quiet (no error or warning), and an info finding that says why.
fn check_valid(r: &Value, stop: usize, dwarf: bool) {
    let p = findings(r, "pinned-register");
    assert!(p.iter().all(|f| f["severity"] == "info"), "{p:#?}");
    let f = p.iter().find(|f| f["stop"] == stop).unwrap_or_else(|| panic!("no info finding at stop {stop}: {p:#?}"));
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("is a valid pgcstack in julia_etc_couple_4561: checked against the Julia task layout"),
        "{f:#}"
    );
    let ev = evidence(f);
    assert!(has(&ev, "[r13-160] = 0xb0: the header of a Task (jl_task_tag 11 << 4 = 0xb0)"), "{ev:#?}");
    assert!(has(&ev, "ptls->current_task = "), "{ev:#?}");
    assert!(has(&ev, "(Julia thread id 0) is this thread (Thread 0x"), "{ev:#?}");
    let layout = if dwarf { "from the DWARF of " } else { "from the version table row 1.13" };
    assert!(has(&ev, layout), "{ev:#?}");
}

#[test]
fn valid_r13_in_julia_code_is_checked_and_quiet() {
    let r = report(&real_dir().join("sizes-fault.gdb.txt"), &[]);
    check_valid(&r, 0, false);
    // The fault itself: sizes = 0x10 read in real Julia code; the culprit is the C caller that
    // passed it, past the Base frames gdb names from the (shifted) debug info.
    let n = findings(&r, "null-dereference");
    assert_eq!(n.len(), 1);
    assert!(n[0]["message"].as_str().unwrap().contains("read of 0x10 through r14 = 0x10"), "{:#}", n[0]);
    assert_eq!(culprit(&r, 0), ("couple".to_string(), Some("src/harness.c".to_string())));
}

#[test]
fn valid_r13_through_the_c_entry_at_a_breakpoint() {
    let r = report(&real_dir().join("entry-break.gdb.txt"), &[]);
    check_valid(&r, 1, false);
}

fn check_zero(r: &Value) {
    let f = pinned_problem(r);
    assert_eq!(f["severity"], "error");
    assert!(
        f["message"].as_str().unwrap().starts_with("r13 = 0x0 is NULL, not a pgcstack in julia_etc_couple_4561"),
        "{f:#}"
    );
    let ev = evidence(&f);
    assert!(
        has(
            &ev,
            "call_with_r13 (C ABI, frame #4) calls julia_etc_couple_4561 (specsig, expects pgcstack in r13, frame #0) without setting r13"
        ),
        "{ev:#?}"
    );
    assert_eq!(culprit(r, 0).0, "call_with_r13");
}

#[test]
fn r13_zero_fires() {
    check_zero(&report(&real_dir().join("r13-zero.gdb.txt"), &[]));
}

fn check_stale(r: &Value) {
    let f = pinned_problem(r);
    assert_eq!(f["severity"], "error");
    let m = f["message"].as_str().unwrap();
    assert!(m.contains("(Julia thread id 1): the task belongs to thread 2 (Thread 0x"), "{m}");
    assert!(m.contains("not to thread 1 (Thread 0x"), "{m}");
    assert!(m.ends_with("r13 is another thread's pgcstack"), "{m}");
    let ev = evidence(&f);
    // A consistent task of its own thread: only the thread identity gives it away.
    assert!(has(&ev, "[r13-160] = 0xb0: the header of a Task"), "{ev:#?}");
    assert!(has(&ev, ": the task is current on its thread"), "{ev:#?}");
    assert!(has(&ev, "call_with_r13 (C ABI, frame #1) calls julia_etc_couple_4561"), "{ev:#?}");
    assert_eq!(culprit(r, 0).0, "call_with_r13");
}

#[test]
fn stale_pgcstack_of_another_thread_fires() {
    check_stale(&report(&real_dir().join("r13-stale.gdb.txt"), &[]));
}

fn check_gc(r: &Value) {
    let h = findings(r, "heap-corruption");
    assert_eq!(h.len(), 1, "{:#}", r["findings"]);
    let m = h[0]["message"].as_str().unwrap();
    assert!(m.contains("while Julia's GC was marking"), "{m}");
    assert!(m.ends_with("the collection was entered from main at src/harness.c:239"), "{m}");
    let st = steps(h[0]);
    assert!(has(&st, "watch -l *(long *)(OBJ - 8) and reverse-continue"), "{st:#?}");
    assert!(has(&st, "JULIA_GC_NO_GENERATIONAL=1"), "{st:#?}");
    assert!(has(&st, "GC_VERIFY"), "{st:#?}");
    assert!(has(&evidence(h[0]), "holds the garbage type 0x4141414141414140 = "), "{:#?}", evidence(h[0]));
    assert!(has(&st, "rr: watch -l *(long *)0x"), "{st:#?}");
    assert_eq!(culprit(r, 0), ("main".to_string(), Some("src/harness.c".to_string())));
    // The garbage tag the mark loop chased is the harness's 'A's.
    let nc = findings(r, "noncanonical-address");
    assert!(nc.iter().any(|f| f["message"].as_str().unwrap().contains("0x4141414141414140")), "{nc:#?}");
}

#[test]
fn gc_visible_header_corruption_fires_heap_corruption() {
    check_gc(&report(&real_dir().join("gc-corrupt.gdb.txt"), &[]));
}

#[test]
fn runtime_banner_is_read() {
    let r = report(&real_dir().join("banner.txt"), &[]);
    assert_eq!(r["formats"], serde_json::json!(["julia"]));
    let stops = r["stops"].as_array().unwrap();
    assert_eq!(stops.len(), 2, "the 1.13.1 runtime printed its banner twice");
    for s in stops {
        assert_eq!(s["reason"]["signal"], "SIGSEGV");
        assert_eq!(s["reason"]["code_value"], 1);
        assert_eq!(s["reason"]["code"], "SEGV_MAPERR");
    }
}

#[test]
fn json_contract_on_julia_real() {
    let Some(checker) = common::require_shared("tools/check-json-contract.py") else { return };
    if !common::require_tools(&["python3"]) {
        return;
    }
    for e in std::fs::read_dir(real_dir()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let out = bin().args(["--format", "json", "--fail-on", "never"]).arg(&p).output().unwrap();
        let mut child = Command::new("python3")
            .arg(&checker)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child.stdin.take().unwrap().write_all(&out.stdout).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}: {}", p.display(), String::from_utf8_lossy(&o.stdout));
    }
}

// ---- from the wheel: fresh transcripts, the runtime's DWARF, cores -----------------------

/// What register provenance says about r13 in `thunk-r13`, from the transcript with the
/// harness (`--exe`) and from the core.
const THUNK_WRITER: &str = "r13 was last written at thunk_trampoline+0x7: `mov    %rdi,%r13` (frame #3); not written since by julia_etc_couple_4561 (frame #2)";

fn runtime_lib(lib: &Path) -> PathBuf {
    lib.join("julia/ICl90UHn_libjulia-internal.so.1.13")
}

#[test]
fn wheel_cases_with_the_runtime_dwarf() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-out");
    let Some(lib) =
        regenerate(&out, &["thunk-r13", "sizes-fault", "r13-zero", "r13-stale", "gc-corrupt", "banner"], &[])
    else {
        return;
    };
    // Ground truth for 1.13.1, read with gimli from the runtime's own DWARF.
    let l = tracecheck::symbolize::julia_layout::layout_from_file(&runtime_lib(&lib), &[]).expect("layout from DWARF");
    assert_eq!((l.task_gcstack, l.task_world_age, l.task_ptls), (152, 160, 168));
    assert_eq!((l.tls_tid, l.tls_current_task, l.tls_system_id), (Some(0), Some(3912), Some(4056)));
    assert_eq!(l.task_tag, Some(11));
    assert!(l.from_dwarf);
    // The version table's 1.13 row agrees with it.
    let t = tracecheck::julia::table_layout("1.13.1").unwrap();
    assert_eq!(
        (t.task_gcstack, t.tls_current_task, t.tls_system_id, t.task_tag),
        (152, Some(3912), Some(4056), Some(11))
    );

    let exe = runtime_lib(&lib);
    let exe = exe.to_str().unwrap();
    check_thunk(&report(&out.join("thunk-r13.gdb.txt"), &["--exe", exe]), true);
    check_valid(&report(&out.join("sizes-fault.gdb.txt"), &["--exe", exe]), 0, true);
    // The runtime found by its recorded file name in a --debug-dir.
    let dir = lib.join("julia");
    check_valid(&report(&out.join("sizes-fault.gdb.txt"), &["--debug-dir", dir.to_str().unwrap()]), 0, true);
    // Register provenance from the binary (issue #11): with the harness and the library of
    // frame #0 given, their machine code names the instruction that put the thunk pointer in r13, two physical frames out
    // (the wheel's DWARF names frame #2 julia_print_to_string_4651; its code, by the ELF
    // symbol, is julia_etc_couple_4561).
    let harness = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-cache/build/harness");
    let etc = lib.join("libetcouple.so");
    let r =
        report(&out.join("thunk-r13.gdb.txt"), &["--exe", harness.to_str().unwrap(), "--exe", etc.to_str().unwrap()]);
    let ev = evidence(&pinned_problem(&r));
    assert!(has(&ev, THUNK_WRITER), "{ev:#?}");
    check_zero(&report(&out.join("r13-zero.gdb.txt"), &["--exe", exe]));
    check_stale(&report(&out.join("r13-stale.gdb.txt"), &["--exe", exe]));
    check_gc(&report(&out.join("gc-corrupt.gdb.txt"), &["--exe", exe]));
    let b = std::fs::read_to_string(out.join("banner.txt")).unwrap();
    assert!(b.contains("signal 11 (1): Segmentation fault") && b.contains("in expression starting at"), "{b}");
}

#[test]
fn wheel_cores_read_the_mapped_runtime() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-core-out");
    let cores = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-cores");
    // Cores are hundreds of MB (the Julia heap and image): recorded here, never committed.
    let Some(_lib) = regenerate(&out, &["thunk-r13", "r13-stale"], &[("JULIA_REAL_CORES", cores.to_str().unwrap())])
    else {
        return;
    };
    let harness = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-cache/build/harness");
    // The function is named as the core symbolizer names it: the ELF symbol
    // (julia_etc_couple_4561) when it describes the pc, else the wheel's shifted DWARF
    // (julia_print_to_string_4651, docs/julia.md); either is a julia_* specsig body.
    for (case, expect) in [("thunk-r13", "not a pgcstack in julia_"), ("r13-stale", "r13 is another thread's pgcstack")]
    {
        let core = cores.join(format!("{case}.core"));
        let r = report(&core, &["--exe", harness.to_str().unwrap()]);
        let f = pinned_problem(&r);
        assert!(f["message"].as_str().unwrap().contains(expect), "{case}: {f:#}");
        let ev = evidence(&f);
        if case == "thunk-r13" {
            // The core's frames come from the DWARF read with the wheel's 0x2000 correction
            // (tracecheck measures it): julia_etc_couple_4561 is frame #0 with no inlined Base
            // frames above it, so the C caller is frame #1 (gdb's shifted names make it #3).
            assert!(
                has(
                    &ev,
                    "r13 was last written at thunk_trampoline+0x7: `mov    %rdi,%r13` (frame #1); not written since by julia_etc_couple_4561 (frame #0)"
                ),
                "{case}: {ev:#?}"
            );
        }
        // The core maps libjulia-internal at its real path: the layout comes from its DWARF.
        assert!(has(&ev, "from the DWARF of "), "{case}: {ev:#?}");
        assert!(
            has(&ev, "calls julia_etc_couple_4561 (specsig, expects pgcstack in r13, frame #0)"),
            "{case}: {ev:#?}"
        );
        std::fs::remove_file(&core).ok();
    }
}

// ---- seeds 001, 003, 004 (../shared, when present) ---------------------------------------

fn seed(prefix: &str) -> Option<PathBuf> {
    // TRACECHECK_SHARED_DIR points at the shared research when it is not beside the clone.
    let dir = match std::env::var_os("TRACECHECK_SHARED_DIR") {
        Some(d) => PathBuf::from(d).join("seeds"),
        None => common::require_shared("seeds")?,
    };
    let rd = std::fs::read_dir(&dir).ok()?;
    rd.filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix)))
}

#[test]
fn seed_001_debug_build_assertion_and_segfaults() {
    let Some(p) = seed("001_") else { return };
    let r = report(&p, &[]);
    let stops = r["stops"].as_array().unwrap();
    assert_eq!(stops.len(), 3);
    assert_eq!(stops[0]["reason"]["signal"], "SIGSEGV");
    assert_eq!(stops[1]["reason"]["signal"], "SIGABRT");
    // Only runtime frames: the culprit is the faulting runtime function itself.
    assert_eq!(culprit(&r, 0).0, "jl_deserialize_value_singleton");
    assert_eq!(culprit(&r, 2).0, "ijl_static_show");
    let a = findings(&r, "assertion-failure");
    assert_eq!(a.len(), 1);
    assert_eq!(a[0]["stop"], 1);
    assert_eq!(
        a[0]["message"],
        "assertion `offs < backref_list.len` failed in jl_deserialize_value at /home/tim/Julia/src/julia/src/dump.c:2159"
    );
    assert!(has(&evidence(a[0]), "is in the Julia runtime: a debug build checks this invariant"));
    assert!(has(&steps(a[0]), "rr record julia-debug"));
}

#[test]
fn seed_003_assertion_error_stacktrace() {
    let Some(p) = seed("003_") else { return };
    let r = report(&p, &[]);
    assert_eq!(r["stops"][0]["reason"]["kind"], "runtime_error");
    assert_eq!(
        culprit(&r, 0),
        ("enzyme_extract_world".to_string(), Some("~/.julia/dev/Enzyme/src/compiler.jl".to_string()))
    );
    let u = findings(&r, "uncaught-exception");
    assert_eq!(u.len(), 1);
    assert!(
        u[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("uncaught Julia exception AssertionError thrown in enzyme_extract_world at ~/.julia/dev/Enzyme/src/compiler.jl:2494"),
        "{:#}",
        u[0]
    );
    assert!(has(&evidence(u[0]), "the innermost exception is AssertionError (wrapped: LoadError)"));
    assert!(has(&steps(u[0]), "showerror(stdout, err, catch_backtrace())"));
}

#[test]
fn seed_004_gc_mark_fault_on_a_garbage_tag() {
    let Some(p) = seed("004_") else { return };
    let r = report(&p, &[]);
    assert_eq!(r["stops"][0]["reason"]["signal"], "SIGSEGV");
    // Past jl_datatype_layout, gc_mark_outrefs, _jl_gc_collect, ijl_gc_small_alloc (runtime)
    // and copy at ./array.jl (Base): the package frame that allocated.
    assert_eq!(culprit(&r, 0), ("augmented_primal".to_string(), Some("LuxLib/src/impl/matmul.jl".to_string())));
    let h = findings(&r, "heap-corruption");
    assert_eq!(h.len(), 1);
    assert!(
        h[0]["message"]
            .as_str()
            .unwrap()
            .contains("in jl_datatype_layout while Julia's GC was marking (gc_mark_outrefs)")
    );
    let st = steps(h[0]);
    assert!(has(&st, "reverse-continue"), "{st:#?}");
    assert!(has(&st, "WITH_GC_DEBUG_ENV=1"), "{st:#?}");
}
