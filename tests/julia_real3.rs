//! Real Julia 1.13.1, third pass (issue #11): the GC-frame corruption leads over its symptom,
//! the wheel's shifted DWARF is measured and corrected, pinned-register reads a Julia body's
//! code from the library when the transcript lacks it, and four new real shapes
//! (`sample-traces/julia-real/src/more3.c`). Two groups, as in `tests/julia_real2.rs`:
//!
//! - the committed transcripts (always);
//! - from the pinned wheel (when pip can fetch it): the library for `--exe`, and cores recorded
//!   now. Without the wheel the second group prints `SKIPPED: …` and fails under `CI=true`.

mod common;
#[path = "common/julia.rs"]
mod julia;
use julia::*;

use serde_json::Value;
use std::path::{Path, PathBuf};

// ---- committed transcripts ----------------------------------------------------------------

/// shape-nroots: the GC, walking a GC frame with a garbage nroots, took a word of
/// libjulia-internal's code for a root and set its mark bits. The corrupt GC frame leads (an
/// error, no longer a guess: the "root" lies in code); the write to read-only memory is its
/// symptom (a warning that says so).
fn check_nroots_leads(r: &Value) {
    let all = r["findings"].as_array().unwrap();
    assert_eq!(all[0]["rule"], "heap-corruption", "{all:#?}");
    assert_eq!(all[0]["severity"], "error");
    assert_eq!(all[0]["heuristic"], false);
    let m = all[0]["message"].as_str().unwrap();
    assert!(m.contains("in gc_mark_stack") && m.contains(": corrupt GC frame: a jl_gcframe_t"), "{m}");
    assert!(
        evidence(&all[0]).iter().any(|e| e.contains("of the root 0x7ffff7299840, which lies in a r-xp mapping")),
        "{:#?}",
        evidence(&all[0])
    );
    let w = findings(r, "write-to-readonly");
    assert_eq!(w.len(), 1, "{all:#?}");
    assert_eq!(w[0]["severity"], "warning");
    let wm = w[0]["message"].as_str().unwrap();
    assert!(
        wm.starts_with("Julia's GC set the mark bits in the header (0x7ffff7299838) of a pointer that is no object"),
        "{wm}"
    );
    assert!(wm.contains("a root read from the task's GC frames (a corrupt GC frame) in gc_mark_stack"), "{wm}");
    assert!(wm.contains("is its symptom"), "{wm}");
    assert_eq!(culprit(r), "more_modes");
}

#[test]
fn gc_frame_corruption_leads_over_the_readonly_write() {
    check_nroots_leads(&report(&real_dir().join("shape-nroots.gdb.txt"), &[]));
    // Look-alikes that keep write-to-readonly as the error it is: a C write to .rodata, and
    // C code writing into a code page of the Julia library in a Julia process (shape-rome).
    let r = report(&common::samples_dir().join("write-rodata.gdb.txt"), &[]);
    let w = findings(&r, "write-to-readonly");
    assert_eq!(w.len(), 1);
    assert_eq!(w[0]["severity"], "error");
    assert_eq!(w[0]["message"], "write to 0x555555556004 (read-only data, r--p write-rodata) in upcase");
    let r = report(&real_dir().join("shape-rome.gdb.txt"), &[]);
    check_rome(&r);
}

/// shape-rome: C code on the main thread writes into etc_abi_version's code with the runtime's
/// signal handler installed; the runtime turns the fault into ReadOnlyMemoryError (fatal: no
/// handler). The write is the bug: write-to-readonly, nothing about the GC.
fn check_rome(r: &Value) {
    let w = findings(r, "write-to-readonly");
    assert!(!w.is_empty(), "{:#?}", problems(r));
    assert_eq!(w[0]["severity"], "error");
    assert!(
        w[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("write to 0x7ffff7817510 (code, r-xp libetcouple.so) in more3_modes")
    );
    assert!(findings(r, "heap-corruption").is_empty());
    assert_eq!(culprit(r), "more3_modes");
    // The runtime's report after `continue` (its handler turned the fault into an exception
    // nothing caught): a second true finding, after the write.
    let u = findings(r, "uncaught-exception");
    if !u.is_empty() {
        assert!(
            u[0]["message"].as_str().unwrap().starts_with(
                "uncaught Julia exception Core.ReadOnlyMemoryError(): the runtime found no exception handler"
            ),
            "{:#}",
            u[0]
        );
        assert_eq!(r["findings"][0]["rule"], "write-to-readonly");
    }
    let bad: Vec<String> = problems(r)
        .into_iter()
        .filter(|p| !p.contains("write-to-readonly") && !p.contains("uncaught-exception"))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

/// shape-unadopted: a pthread the runtime never adopted calls ijl_alloc_svec; the allocator
/// reads the task's ptls through the NULL pgcstack (si_addr 0x10). A NULL dereference in the
/// runtime, the culprit the C caller; nothing else.
fn check_unadopted(r: &Value) {
    let n = findings(r, "null-dereference");
    assert_eq!(n.len(), 1, "{:#?}", problems(r));
    assert_eq!(n[0]["severity"], "error");
    assert!(n[0]["message"].as_str().unwrap().contains("at offset 0x10"), "{}", n[0]["message"]);
    let m = n[0]["message"].as_str().unwrap();
    assert!(m.contains("read the current task's ptls through a NULL pgcstack"), "{m}");
    assert!(m.contains("a thread the runtime never adopted called its C API"), "{m}");
    assert!(
        evidence(n[0])
            .iter()
            .any(|e| e.starts_with("0x10 = offsetof(jl_task_t, ptls) 168 - offsetof(jl_task_t, gcstack) 152")),
        "{:#?}",
        evidence(n[0])
    );
    assert_eq!(culprit(r), "unadopted");
    let bad: Vec<String> = problems(r).into_iter().filter(|p| !p.contains("null-dereference")).collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

/// shape-clobber: a memset interposed on libetcouple.so (build/harness-clobber) returns with
/// the callee-saved r13 overwritten; Julia code (julia__read_mb_12721, gdb:
/// julia.read_mb_12721) goes on and reads through it: a general-protection fault. True:
/// noncanonical-address on r13. Not a pgcstack problem: r13 is not the argument there (the
/// body reused it after its prologue), so pinned-register must not fire. The callee-saved
/// violation is found where the process memory is (the core: `with_core`): r13 was reloaded
/// from a spill slot, the slot traced to the store of r13 after the call to memset, and
/// memset (through libetcouple.so's PLT, resolved in the core's GOT) writes r13 without
/// saving it. From the transcript alone it is not (docs/julia.md).
fn check_clobber(r: &Value, with_core: bool) {
    let n = findings(r, "noncanonical-address");
    assert_eq!(n.len(), 1, "{:#?}", problems(r));
    assert_eq!(n[0]["severity"], "error");
    let m = n[0]["message"].as_str().unwrap();
    assert!(m.starts_with("r13 = 0x4141414141414140 is non-canonical: `mov    -0x8(%r13),%rcx`"), "{m}");
    // gdb names it julia.read_mb_12721, the core julia__read_mb_12721: one function.
    assert!(tracecheck::roles::same_function(&culprit(r), "julia__read_mb_12721"), "{}", culprit(r));
    let c = findings(r, "callee-saved-changed");
    if with_core {
        assert_eq!(c.len(), 1, "{:#?}", problems(r));
        assert_eq!(c[0]["severity"], "error");
        let m = c[0]["message"].as_str().unwrap();
        assert!(
            m.starts_with(
                "r13 = 0x4141414141414140 in julia__read_mb_12721 was loaded at julia__read_mb_12721+0x2f5 (`mov    -0xa0(%rbp),%r13`) from -0xa0(%rbp), which was last written at julia__read_mb_12721+0x19f (`mov    %r13,-0xa0(%rbp)`); r13 there is callee-saved and was set before `call memset` at julia__read_mb_12721+0xe4, but memset writes r13 without saving it, at memset+0x27: `movabs $0x4141414141414140,%r13`"
            ),
            "{m}"
        );
        let ev = evidence(c[0]);
        assert!(
            ev.iter().any(|e| e == "r13 last written before the call at julia__read_mb_12721+0xd1: `mov    %rax,%r13`"),
            "{ev:#?}"
        );
        assert!(ev.iter().any(|e| e == "memset writes exactly the value r13 holds (0x4141414141414140)"), "{ev:#?}");
        assert!(
            ev.iter().any(|e| e.starts_with("the call goes through a PLT stub at ") && e.ends_with("(memset)")),
            "{ev:#?}"
        );
    } else {
        assert!(c.is_empty(), "{c:#?}");
    }
    let bad: Vec<String> = problems(r)
        .into_iter()
        .filter(|p| !p.contains("noncanonical-address") && (!with_core || !p.contains("callee-saved-changed")))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn new_real_shapes_have_their_true_findings_and_no_others() {
    check_clobber(&report(&real_dir().join("shape-clobber.gdb.txt"), &[]), false);
    check_unadopted(&report(&real_dir().join("shape-unadopted.gdb.txt"), &[]));
    // Look-alikes: NULL reads that are not the runtime's ptls through a NULL pgcstack (a Julia
    // body reading [r13] with r13 = 0; a C program's NULL field) say nothing of adoption.
    for p in [real_dir().join("r13-zero.gdb.txt"), common::samples_dir().join("null-field.gdb.txt")] {
        let r = report(&p, &[]);
        let n = findings(&r, "null-dereference");
        assert!(!n.is_empty(), "{}", p.display());
        assert!(n.iter().all(|f| !f["message"].as_str().unwrap().contains("never adopted")), "{n:#?}");
    }
    // Legal: gdb stopped at the entry of a collection the allocator started under a 16 MiB
    // --heap-size-hint, then the program ran to its end.
    let r = report(&real_dir().join("shape-heaphint.gdb.txt"), &[]);
    assert!(problems(&r).is_empty(), "{:#?}", problems(&r));
    // A throwing C pointer finalizer: gdb stopped inside it (legal: no finding about that
    // state), then the runtime reported the error as fatal (no handler around C finalizers)
    // and exited with 1: one uncaught-exception finding with the exception, nothing else.
    let r = report(&real_dir().join("shape-finalizer.gdb.txt"), &[]);
    assert_eq!(problems(&r).len(), 1, "{:#?}", problems(&r));
    let u = findings(&r, "uncaught-exception");
    assert_eq!(u.len(), 1);
    let m = u[0]["message"].as_str().unwrap();
    assert!(m.starts_with("uncaught Julia exception ErrorException(\"boom in a finalizer\"): the runtime found no exception handler (the program was in finalizer"), "{m}");
    assert!(
        evidence(u[0]).iter().any(|e| e == "stderr: fatal: error thrown and no exception handler available."),
        "{:#?}",
        evidence(u[0])
    );
    let r = report(&real_dir().join("shape-rome.gdb.txt"), &[]);
    assert_eq!(findings(&r, "uncaught-exception").len(), 1, "{:#?}", problems(&r));
}

// ---- from the wheel --------------------------------------------------------------------------

/// A transcript without the listings of the function's code (`x/Ni $pc - K`, `disassemble`):
/// what a user who typed only bt, registers and dumps has.
fn without_listings(src: &Path, dst: &Path) {
    let text = std::fs::read_to_string(src).unwrap();
    let mut out = String::new();
    let mut skip = false;
    for line in text.lines() {
        if let Some(c) = line.strip_prefix("(gdb) ") {
            let c = c.trim();
            skip = c.starts_with("disassemble")
                || (c.starts_with("x/")
                    && c.contains("i $pc - ")
                    && c[2..].trim_start_matches(char::is_numeric).starts_with('i'));
            if skip {
                continue;
            }
        }
        if !skip {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(out.len() < text.len(), "{} had no listing", src.display());
    std::fs::write(dst, out).unwrap();
}

/// Without the body's code from its entry, pinned-register stays quiet and the report says
/// what would let it judge (named by the ELF symbol: gdb's bt names another function here);
/// with the library (`--exe libetcouple.so`) it reads the code itself and fires again.
#[test]
fn pinned_register_reads_the_julia_body_from_the_library() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real3-pinned");
    std::fs::create_dir_all(&out).unwrap();
    let Some(lib) = regenerate(&out, &["sigstate"], &[]) else { return };
    let etc = lib.join("libetcouple.so");
    for case in ["r13-zero", "shape-unmapped"] {
        let stripped = out.join(format!("{case}-nolisting.gdb.txt"));
        without_listings(&real_dir().join(format!("{case}.gdb.txt")), &stripped);
        let r = report(&stripped, &[]);
        assert!(findings(&r, "pinned-register").is_empty(), "{case}: {:#?}", problems(&r));
        let missing = r["missing_evidence"].as_array().unwrap();
        let waits = missing
            .iter()
            .find(|m| m["rules_waiting"].as_array().is_some_and(|a| a.iter().any(|x| x == "pinned-register")))
            .unwrap_or_else(|| panic!("{case}: pinned-register waits on nothing: {missing:#?}"));
        assert!(
            waits["what"].as_str().unwrap().starts_with("the code of julia_etc_couple_4561 from its entry"),
            "{waits}"
        );
        assert!(
            waits["command"].as_str().unwrap().starts_with("x/")
                && waits["command"].as_str().unwrap().contains("i $pc - "),
            "{waits}"
        );
        // The same transcript with the library: the rule has the code and fires.
        let r = report(&stripped, &["--exe", etc.to_str().unwrap()]);
        let p = findings(&r, "pinned-register");
        assert!(p.iter().any(|f| f["severity"] == "error"), "{case} with --exe: {:#?}", problems(&r));
        assert!(p.iter().any(|f| f["message"].as_str().unwrap().contains("julia_etc_couple_4561")), "{p:#?}");
    }
}

/// The wheel's DWARF is 0x2000 below its code (both libjulia-internal and libetcouple.so). On
/// cores recorded now, tracecheck measures that and names the functions the ELF symbol table
/// names (gdb's `info symbol $pc` in the transcript recorded with each core), and the core
/// path agrees with the transcript on the culprit and the findings.
#[test]
fn wheel_dwarf_shift_corrected_on_cores() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real3-cores");
    let cores = out.join("cores");
    let Some(lib) = regenerate(
        &out,
        &["shape-nroots", "shape-unadopted", "shape-rome", "shape-clobber"],
        &[("JULIA_REAL_CORES", cores.to_str().unwrap())],
    ) else {
        return;
    };
    let harness = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-cache/build/harness");
    let runtime = lib.join("julia/ICl90UHn_libjulia-internal.so.1.13");
    let exe = ["--exe", harness.to_str().unwrap(), "--exe", runtime.to_str().unwrap()];
    let frames = |r: &Value| -> Vec<String> {
        r["stops"][0]["threads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["crashed"] == true)
            .map(|t| {
                t["frames"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["function"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };

    // shape-nroots: gdb's bt says ws_queue_push / gc_mark_memory16 / cvalue_double_init; the
    // ELF symbols say gc_mark_stack (at pc) and ijl_gc_collect (called from more_modes).
    let t = std::fs::read_to_string(out.join("shape-nroots.gdb.txt")).unwrap();
    assert!(
        t.contains("in ws_queue_push (") && t.contains("\ngc_mark_stack + 254 in section .text"),
        "gdb's names changed"
    );
    let core = cores.join("shape-nroots.core");
    let r = report(&core, &exe);
    let f = frames(&r);
    let at = |n: &str| f.iter().position(|x| x == n).unwrap_or_else(|| panic!("no frame {n}: {f:?}"));
    assert!(at("gc_mark_stack") < at("_jl_gc_collect") && at("_jl_gc_collect") < at("ijl_gc_collect"), "{f:?}");
    assert!(at("ijl_gc_collect") < at("more_modes"), "{f:?}");
    for wrong in ["ws_queue_push", "gc_mark_memory16", "cvalue_double_init"] {
        assert!(!f.iter().any(|x| x == wrong), "DWARF name {wrong} at a shifted address: {f:?}");
    }
    assert!(
        notes(&r).contains("ICl90UHn_libjulia-internal.so.1.13: its debug info (DWARF) is 0x2000 below its code"),
        "{}",
        notes(&r)
    );
    check_nroots_leads(&r);

    // shape-unadopted: the runtime frames are ijl_alloc_svec_uninit ← ijl_alloc_svec (gdb:
    // jl_iintrinsic_2 twice); the culprit is the C caller on both paths.
    let t = std::fs::read_to_string(out.join("shape-unadopted.gdb.txt")).unwrap();
    assert!(t.contains("in jl_iintrinsic_2 ("), "gdb's names changed");
    let r = report(&cores.join("shape-unadopted.core"), &exe);
    let f = frames(&r);
    assert_eq!(&f[..3], ["ijl_alloc_svec_uninit", "ijl_alloc_svec", "unadopted"], "{f:?}");
    check_unadopted(&r);
    check_unadopted(&report(&out.join("shape-unadopted.gdb.txt"), &[]));

    // shape-rome: no Julia frames to rename; both paths say write-to-readonly.
    let r = report(&cores.join("shape-rome.core"), &exe);
    check_rome(&r);
    check_rome(&report(&out.join("shape-rome.gdb.txt"), &[]));
    // shape-clobber: the core's frames, read with the correction, are the Julia source
    // (_setindex! inlined into julia__read_mb_12721, called by julia_etc_couple_4561); gdb
    // showed julia_print_to_string_4651 and seven Base frames for the caller.
    let clobber = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("julia-real-cache/build/harness-clobber");
    let r = report(
        &cores.join("shape-clobber.core"),
        &["--exe", clobber.to_str().unwrap(), "--exe", runtime.to_str().unwrap()],
    );
    let f = frames(&r);
    assert!(f.iter().any(|x| x == "julia__read_mb_12721") && f.iter().any(|x| x == "julia_etc_couple_4561"), "{f:?}");
    assert!(!f.iter().any(|x| x == "julia_print_to_string_4651"), "{f:?}");
    check_clobber(&r, true);
    check_clobber(&report(&out.join("shape-clobber.gdb.txt"), &[]), false);
    // A binary whose DWARF is where its code is gets no such note.
    assert!(!notes(&r).contains("harness: its debug info (DWARF)"), "{}", notes(&r));
    let _ = std::fs::remove_dir_all(&cores);
}
