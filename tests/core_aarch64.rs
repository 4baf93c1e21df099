//! An AArch64 core, for real: `sample-traces/src/null-field.c` cross-compiled (static) with
//! Debian's aarch64 gcc, crashed under qemu-user, which writes an ELF core with no NT_FILE
//! note. tracecheck must read the registers, unwind with CFI and symbolize the frames exactly
//! as gdb-multiarch does on the same core (the expected frames below were checked against it).
//!
//! Needs `aarch64-linux-gnu-gcc` and `qemu-aarch64` (.ci/run installs them). Missing tools fail
//! the test under CI=true and skip it with a `SKIPPED` line elsewhere (`common::require_tools`).

mod common;
use std::path::PathBuf;
use std::process::Command;
use tracecheck::model::*;

#[test]
fn qemu_aarch64_core_reads_unwinds_and_symbolizes_like_gdb() {
    if !common::require_tools(&["aarch64-linux-gnu-gcc", "qemu-aarch64"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("tracecheck-a64core-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-traces/src/null-field.c");
    let exe = dir.join("nf");
    let st = Command::new("aarch64-linux-gnu-gcc")
        .args(["-g", "-O0", "-static", "-o"])
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap();
    assert!(st.success(), "cross-compiling failed");
    // qemu-user writes qemu_<prog>_<date>_<pid>.core in the working directory on a crash.
    let st = Command::new("sh")
        .arg("-c")
        .arg("ulimit -c unlimited; exec qemu-aarch64 ./nf")
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(!st.success(), "the program must crash");
    let core = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("qemu_nf_") && n.to_string_lossy().ends_with(".core"))
        })
        .expect("qemu wrote a core");
    let opts = tracecheck::core::CoreOptions {
        symbols: tracecheck::symbolize::dwarf::SymbolOptions { exes: vec![exe.clone()], ..Default::default() },
        ..Default::default()
    };
    let p = tracecheck::core::read_core_trace(&core, &opts).expect("core reads");
    let t = &p.trace;
    assert_eq!(t.arch, Arch::Aarch64);
    assert_eq!(t.formats, vec![Format::Core]);
    let stop = t.main_stop().unwrap();
    assert_eq!(stop.reason.signal.as_deref(), Some("SIGSEGV"));
    let th = stop.crashed_thread().unwrap();
    // As gdb-multiarch prints `bt` on this core.
    let got: Vec<(&str, Option<u32>)> = th.frames.iter().take(4).map(|f| (f.function_name(), f.line)).collect();
    assert_eq!(
        got,
        [("session_bytes", Some(23)), ("registry_total", Some(30)), ("report", Some(36)), ("main", Some(51))],
        "{:#?}",
        th.frames
    );
    assert!(th.frames.iter().all(|f| f.file.as_deref().is_none_or(|f| f.ends_with("null-field.c"))));
    let r0 = &th.registers[&0];
    assert_eq!(r0.get("x0"), Some(0), "s == NULL");
    let pc = r0.get("pc").unwrap();
    assert_eq!(th.frames[0].pc, Some(Address(pc)));
    // Callers' frames were recovered by CFI (x29/x30 chain).
    assert_eq!(th.registers[&1].unwind, Some(UnwindMethod::Cfi));
    // The rules see an AArch64 NULL dereference (the load is `ldr x0, [x0, #24]`).
    let findings = tracecheck::rules::run(t, &Default::default());
    assert!(findings.iter().all(|f| f.rule != "pinned-register"), "{findings:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}
