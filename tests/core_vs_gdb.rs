//! Cores of real crashing programs, read by tracecheck and by gdb, compared.
//!
//! Each test builds a small program into a temp dir (gcc -g, rustc -g), runs it under gdb
//! until it crashes, writes a core with `gcore`, then asks gdb for `thread apply all bt`
//! and `info registers` on that core. gdb's transcript goes through tracecheck's own gdb
//! parser; the core goes through tracecheck's core reader; the two models must agree on
//! the signal, the crashing thread, every frame (function, file, line, inlined frames)
//! and the registers of frame #0.
//!
//! Needs gcc, gdb, binutils (objcopy, strip, readelf, nm, addr2line) and rustc. Missing tools
//! fail the test under CI=true and skip it with a `SKIPPED` line elsewhere (`common::require_tools`).

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;
use tracecheck::core::{CoreOptions, read_core_trace};
use tracecheck::model::{Frame, Thread, Trace};
use tracecheck::symbolize::dwarf::SymbolOptions;

fn workdir(name: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tracecheck-core-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

fn gdb(dir: &Path) -> Command {
    let mut c = Command::new("gdb");
    c.current_dir(dir).env_clear().env("PATH", "/usr/bin:/bin").env("HOME", dir).env("LANG", "C");
    c.args([
        "-q",
        "-batch",
        "-nx",
        "-iex",
        "set debuginfod enabled off",
        "-iex",
        "set pagination off",
        "-iex",
        "set width 0",
    ]);
    c
}

/// Runs `prog` under gdb to its crash and writes `prog.core` with gcore.
fn crash_and_gcore(dir: &Path, prog: &str) -> PathBuf {
    let core = dir.join(format!("{prog}.core"));
    let text = run(gdb(dir).args(["-ex", "run", "-ex", &format!("gcore {}", core.display()), &format!("./{prog}")]));
    assert!(core.is_file(), "gcore wrote no core:\n{text}");
    core
}

/// gdb's view of a core, parsed by tracecheck's gdb parser.
fn gdb_on_core(dir: &Path, prog: &str, core: &Path, extra: &[&str]) -> (Trace, String) {
    let mut c = gdb(dir);
    c.args(extra);
    c.args([
        "-ex",
        "echo (gdb) thread apply all bt\\n",
        "-ex",
        "thread apply all bt",
        "-ex",
        "echo (gdb) info registers\\n",
        "-ex",
        "info registers",
        prog,
    ]);
    c.arg(core);
    let text = run(&mut c);
    (tracecheck::input::parse(&text).trace, text)
}

fn ours(core: &Path, exes: &[PathBuf], debug_dirs: &[PathBuf]) -> tracecheck::input::Parsed {
    let opts = CoreOptions {
        symbols: SymbolOptions {
            exes: exes.to_vec(),
            debug_dirs: debug_dirs.to_vec(),
            system_debug_dir: true,
            ..Default::default()
        },
        ..Default::default()
    };
    read_core_trace(core, &opts).expect("core reads")
}

fn show(f: &Frame) -> String {
    format!(
        "#{} {} {} at {}:{}{}",
        f.index,
        f.pc.map(|p| format!("{p:#}")).unwrap_or_else(|| "-".into()),
        f.function_name(),
        f.file.as_deref().unwrap_or("?"),
        f.line.unwrap_or(0),
        if f.inlined { " (inlined)" } else { "" }
    )
}

/// Compares one thread's frames; `keep` picks the frames to compare (all, for C).
fn compare_frames(g: &Thread, o: &Thread, keep: &dyn Fn(&Frame) -> bool) -> Vec<String> {
    let gf: Vec<&Frame> = g.frames.iter().filter(|f| keep(f)).collect();
    let of: Vec<&Frame> = o.frames.iter().filter(|f| keep(f)).collect();
    let mut bad = Vec::new();
    let same = gf.len() == of.len()
        && gf.iter().zip(&of).all(|(a, b)| {
            a.function == b.function
                && a.file == b.file
                && a.line == b.line
                && a.inlined == b.inlined
                && (a.pc.is_none() || a.pc == b.pc)
        });
    if !same {
        bad.push(format!(
            "thread LWP {:?} frames differ\n  gdb:\n    {}\n  tracecheck:\n    {}",
            g.lwp,
            gf.iter().map(|f| show(f)).collect::<Vec<_>>().join("\n    "),
            of.iter().map(|f| show(f)).collect::<Vec<_>>().join("\n    ")
        ));
    }
    bad
}

/// The whole comparison: signal, crashed thread, frames of every thread, registers.
fn compare(g: &Trace, o: &Trace, keep: &dyn Fn(&Frame) -> bool, gdb_text: &str) {
    let gs = g.main_stop().expect("gdb stop");
    let os = o.main_stop().expect("our stop");
    assert_eq!(os.reason.signal, gs.reason.signal, "signal");
    let mut bad = Vec::new();
    assert_eq!(gs.threads.len(), os.threads.len(), "thread count\n{gdb_text}");
    for gt in &gs.threads {
        let Some(ot) = os.threads.iter().find(|t| t.lwp == gt.lwp) else {
            bad.push(format!("no thread with LWP {:?}", gt.lwp));
            continue;
        };
        bad.extend(compare_frames(gt, ot, keep));
    }
    // gdb makes the core's first thread current, "1"; so do we (crashed).
    let g1 = gs.threads.iter().find(|t| &*t.id == "1").expect("gdb thread 1");
    let oc = os.crashed_thread().expect("crashed thread");
    assert_eq!(oc.lwp, g1.lwp, "crashed thread");
    let gr = g1.registers.get(&0).expect("gdb printed registers");
    let or = oc.registers.get(&0).expect("our registers");
    let mut compared = 0;
    for r in &gr.regs {
        if r.name.starts_with('k') && r.name.len() == 2 {
            continue; // AVX-512 masks: not read from XSAVE (noted)
        }
        match (r.value, or.get(&r.name)) {
            (Some(v), Some(w)) if v == w => compared += 1,
            (v, w) => bad.push(format!("register {}: gdb {:x?}, tracecheck {:x?}", r.name, v, w)),
        }
    }
    assert!(compared >= 16, "too few registers compared ({compared})\n{gdb_text}");
    assert!(bad.is_empty(), "{}\n\n--- gdb transcript ---\n{gdb_text}", bad.join("\n"));
}

const THREADS_C: &str = r#"#include <pthread.h>
#include <unistd.h>

struct rec { int id; long *slot; };

static inline __attribute__((always_inline)) void put(struct rec *r, long v) {
    r->id += 1;
    *r->slot = v;
}

static inline __attribute__((always_inline)) void scale_and_put(struct rec *r, long v) {
    long w = v * 3;
    put(r, w + 1);
}

__attribute__((noinline)) void store_result(struct rec *r, long v) {
    scale_and_put(r, v);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void *worker(void *arg) {
    (void)arg;
    for (;;)
        pause();
    return 0;
}

__attribute__((noinline)) void *crasher(void *arg) {
    struct rec r = { 7, 0 };
    usleep(300000);
    store_result(&r, (long)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, crasher, (void *)5);
    for (;;)
        pause();
}
"#;

fn build_threads(dir: &Path, name: &str) -> PathBuf {
    std::fs::write(dir.join("threads.c"), THREADS_C).unwrap();
    run(Command::new("gcc").current_dir(dir).args([
        "-O2",
        "-g",
        "-fno-optimize-sibling-calls",
        "-pthread",
        "threads.c",
        "-o",
        name,
    ]));
    dir.join(name)
}

#[test]
fn multithreaded_c_with_inlined_frames_matches_gdb() {
    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir = workdir("threads");
    let exe = build_threads(&dir, "threads");
    let core = crash_and_gcore(&dir, "threads");
    let (g, text) = gdb_on_core(&dir, "./threads", &core, &[]);
    let p = ours(&core, std::slice::from_ref(&exe), &[]);
    compare(&g, &p.trace, &|_| true, &text);
    // The crashing thread really has inlined frames, and the fault address is right.
    let st = p.trace.main_stop().unwrap();
    let th = st.crashed_thread().unwrap();
    let names: Vec<&str> = th.frames.iter().map(|f| f.function_name()).collect();
    // (At the faulting store gcc's inline ranges have already left `put`; gdb agrees.)
    assert_eq!(&names[..3], &["scale_and_put", "store_result", "crasher"], "{names:?}");
    // #0 was inlined into #1, which shares its pc (gdb prints #1 without an address).
    assert!(th.frames[0].inlined && !th.frames[1].inlined && th.frames[1].pc.is_none());
    assert_eq!(st.reason.address.map(|a| a.0), Some(0));
    assert_eq!(st.threads.len(), 3);
    // Registers of callers are unwound by CFI and say what they restored.
    let r2 = &th.registers[&2];
    assert_eq!(r2.unwind, Some(tracecheck::model::UnwindMethod::Cfi));
    assert!(r2.recovered.iter().any(|r| &**r == "rip") && r2.recovered.iter().any(|r| &**r == "rsp"));
    // Memory reads from the core work for rules.
    let rsp = th.registers[&0].get("rsp").unwrap();
    assert!(p.trace.read_u64(rsp).is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// i386 cores (ELFCLASS32, EM_386), of the same threaded program built with
/// i686-linux-gnu-gcc, static and dynamic: 32-bit notes and registers, every thread unwound
/// (the waiting threads through the vDSO's `__kernel_vsyscall`, whose symbols and CFI come from
/// its image in the core), 32-bit CFI and DWARF, and the same frames and registers as gdb.
#[test]
fn i386_cores_match_gdb() {
    if !common::require_tools(&["i686-linux-gnu-gcc", "gdb"]) {
        return;
    }
    let dir = workdir("i386");
    std::fs::write(dir.join("threads.c"), THREADS_C).unwrap();
    for (name, extra) in [("threads32s", &["-static"][..]), ("threads32", &[][..])] {
        run(Command::new("i686-linux-gnu-gcc")
            .current_dir(&dir)
            .args(["-O2", "-g", "-fno-optimize-sibling-calls", "-pthread", "threads.c", "-o", name])
            .args(extra));
        let exe = dir.join(name);
        let core = crash_and_gcore(&dir, name);
        let (g, text) = gdb_on_core(&dir, &format!("./{name}"), &core, &[]);
        let p = ours(&core, std::slice::from_ref(&exe), &[]);
        assert_eq!(p.trace.arch, tracecheck::model::Arch::X86, "{name}");
        compare(&g, &p.trace, &|_| true, &text);
        let st = p.trace.main_stop().unwrap();
        assert_eq!(st.threads.len(), 3, "{name}");
        assert_eq!(st.reason.address.map(|a| a.0), Some(0), "{name}");
        let th = st.crashed_thread().unwrap();
        let names: Vec<&str> = th.frames.iter().map(|f| f.function_name()).collect();
        assert_eq!(&names[..3], &["scale_and_put", "store_result", "crasher"], "{name}: {names:?}");
        // The two waiting threads stop in the vDSO, named from its own symbol table, and their
        // callers (pause, then worker or main) come from the vDSO's CFI.
        for t in st.threads.iter().filter(|t| !t.crashed) {
            let n: Vec<&str> = t.frames.iter().map(|f| f.function_name()).collect();
            assert_eq!(&n[..2], &["__kernel_vsyscall", "pause"], "{name}: {n:?}");
            assert!(n[2] == "worker" || n[2] == "main", "{name}: {n:?}");
        }
        // 32-bit registers, caller registers unwound by CFI, and 4-byte stack words read.
        let r2 = &th.registers[&2];
        assert_eq!(r2.unwind, Some(tracecheck::model::UnwindMethod::Cfi));
        assert!(r2.recovered.iter().any(|r| &**r == "eip") && r2.recovered.iter().any(|r| &**r == "esp"));
        let esp = th.registers[&0].get("esp").unwrap();
        assert!(esp < 1 << 32 && p.trace.read_u64(esp).is_some(), "{esp:#x}");
        // The faulting instruction is decoded as 32-bit code (`mov %edx,(%eax)`).
        assert!(st.disassembly.first().is_some_and(|i| i.text.contains("(%eax)")), "{:?}", st.disassembly.first());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stripped_binary_with_build_id_debug_file_matches_gdb() {
    if !common::require_tools(&["gcc", "gdb", "objcopy", "strip", "readelf"]) {
        return;
    }
    let dir = workdir("stripped");
    let exe = build_threads(&dir, "prog");
    // Separate the debug info, strip the binary, file the debug info by build-id.
    run(Command::new("objcopy").current_dir(&dir).args(["--only-keep-debug", "prog", "prog.debug"]));
    run(Command::new("strip").current_dir(&dir).args(["prog"]));
    let readelf = run(Command::new("readelf").current_dir(&dir).args(["-n", "prog"]));
    let id = readelf.lines().find_map(|l| l.trim().strip_prefix("Build ID: ")).expect("build-id").trim().to_string();
    let dbg = dir.join("dbg");
    let sub = dbg.join(".build-id").join(&id[..2]);
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::rename(dir.join("prog.debug"), sub.join(format!("{}.debug", &id[2..]))).unwrap();
    let core = crash_and_gcore(&dir, "prog");
    let dirs = format!("set debug-file-directory {}:/usr/lib/debug", dbg.display());
    let (g, text) = gdb_on_core(&dir, "./prog", &core, &["-iex", &dirs]);
    let p = ours(&core, std::slice::from_ref(&exe), std::slice::from_ref(&dbg));
    compare(&g, &p.trace, &|_| true, &text);
    // Without the debug dir: a clear note and a partial result (names from nothing).
    let p2 = ours(&core, &[exe], &[]);
    assert!(p2.diagnostics.notes.iter().any(|n| n.message.contains("has no debug info")), "{:?}", p2.diagnostics.notes);
    assert!(!p2.trace.main_stop().unwrap().crashed_thread().unwrap().frames.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

const RUST_SRC: &str = r#"use std::hint::black_box;

#[inline(never)]
fn read_payload(p: *const u64) -> u64 {
    unsafe { *p.add(3) }
}

#[inline(never)]
fn handle(p: *const u64) -> u64 {
    read_payload(p) + 1
}

fn main() {
    let p: *const u64 = black_box(std::ptr::null());
    println!("{}", handle(p));
}
"#;

#[test]
fn rust_program_matches_gdb_on_its_own_frames() {
    if !common::require_tools(&["rustc", "gdb"]) {
        return;
    }
    let dir = workdir("rust");
    std::fs::write(dir.join("crash.rs"), RUST_SRC).unwrap();
    run(Command::new("rustc").current_dir(&dir).args(["-g", "-C", "opt-level=0", "crash.rs", "-o", "crash"]));
    let core = crash_and_gcore(&dir, "crash");
    let (g, text) = gdb_on_core(&dir, "./crash", &core, &[]);
    let p = ours(&core, &[dir.join("crash")], &[]);
    // gdb names Rust generics from DWARF (`{closure#0}<()>`), we from the symbol
    // (`{{closure}}`; a closure from DWARF, `{closure#0}`): compare the program's own frames, plus
    // signal and registers.
    compare(&g, &p.trace, &|f: &Frame| f.file.as_deref() == Some("crash.rs"), &text);
    let th = p.trace.main_stop().unwrap().crashed_thread().unwrap();
    assert_eq!(th.frames[0].function_name(), "crash::read_payload");
    assert_eq!(th.frames[1].function_name(), "crash::handle");
    assert_eq!(p.trace.main_stop().unwrap().reason.address.map(|a| a.0), Some(0x18));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_cores_and_mismatched_binaries_give_messages_not_panics() {
    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir = workdir("damaged");
    let exe = build_threads(&dir, "threads");
    let core = crash_and_gcore(&dir, "threads");
    let bytes = std::fs::read(&core).unwrap();

    // Truncated at several points: always a result, with a note saying so.
    for cut in [100usize, 4096, bytes.len() / 3, bytes.len() - 5000] {
        let t = dir.join(format!("cut-{cut}.core"));
        std::fs::write(&t, &bytes[..cut]).unwrap();
        match read_core_trace(&t, &CoreOptions::default()) {
            Ok(p) => assert!(
                p.diagnostics.notes.iter().any(|n| n.message.contains("truncated")
                    || n.message.contains("cut short")
                    || n.message.contains("beyond the end")
                    || n.message.contains("no thread")),
                "cut at {cut}: {:?}",
                p.diagnostics.notes
            ),
            Err(e) => assert_eq!(e.name(), "bad-header", "cut at {cut}: {e}"),
        }
    }
    // Garbage after a valid ELF core header.
    let mut junk = bytes[..64].to_vec();
    junk.extend((0..20000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8));
    let j = dir.join("junk.core");
    std::fs::write(&j, &junk).unwrap();
    let _ = read_core_trace(&j, &CoreOptions::default());
    // Stack memory overwritten with garbage: unwinding stops and says why.
    let mut smashed = bytes.clone();
    let p = read_core_trace(
        &core,
        &CoreOptions { symbols: SymbolOptions { exes: vec![exe.clone()], ..Default::default() }, ..Default::default() },
    )
    .unwrap();
    let rsp = p.trace.main_stop().unwrap().crashed_thread().unwrap().registers[&0].get("rsp").unwrap();
    let parsed =
        tracecheck::core::parse(std::sync::Arc::new(tracecheck::core::CoreBytes::Owned(bytes.clone()))).unwrap();
    let seg = parsed.segments.iter().find(|s| rsp >= s.vaddr && rsp < s.vaddr + s.filesz).expect("stack segment");
    let off = (seg.offset + rsp - seg.vaddr) as usize;
    for b in smashed[off..off + 512].iter_mut() {
        *b = 0x41;
    }
    let s = dir.join("smashed.core");
    std::fs::write(&s, &smashed).unwrap();
    let p = read_core_trace(
        &s,
        &CoreOptions { symbols: SymbolOptions { exes: vec![exe.clone()], ..Default::default() }, ..Default::default() },
    )
    .unwrap();
    let th = p.trace.main_stop().unwrap().crashed_thread().unwrap().clone();
    assert!(th.backtrace_stopped.is_some() || th.frames.len() < 5, "{:?} {:?}", th.backtrace_stopped, th.frames);

    // A binary that is not the one in the core: refused by build-id, with a message.
    let other_src = THREADS_C.replace("long w = v * 3;", "long w = v * 5;");
    std::fs::write(dir.join("other.c"), other_src).unwrap();
    std::fs::create_dir_all(dir.join("other")).unwrap();
    run(Command::new("gcc").current_dir(&dir).args(["-O2", "-g", "-pthread", "other.c", "-o", "other/threads"]));
    let p = read_core_trace(
        &core,
        &CoreOptions {
            symbols: SymbolOptions { exes: vec![dir.join("other/threads")], ..Default::default() },
            ..Default::default()
        },
    )
    .unwrap();
    assert!(p.diagnostics.notes.iter().any(|n| n.message.contains("build-id mismatch")), "{:?}", p.diagnostics.notes);
    assert!(!p.trace.main_stop().unwrap().threads.is_empty());

    // The CLI: a core by header whatever its name, JSON with formats ["core"].
    let renamed = dir.join("crash-dump.bin");
    std::fs::copy(&core, &renamed).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--exe"])
        .arg(&exe)
        .arg(&renamed)
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0) | Some(1)), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"][0]["formats"][0], "core");
    assert_eq!(v["inputs"][0]["stops"][0]["reason"]["signal"], "SIGSEGV");
    // An executable given as the input: a clear refusal.
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck")).arg(&exe).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a core"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn symbolize_agrees_with_binutils_addr2line() {
    if !common::require_tools(&["gcc", "nm", "addr2line"]) {
        return;
    }
    let dir = workdir("a2l");
    let exe = build_threads(&dir, "threads");
    let nm = run(Command::new("nm").current_dir(&dir).args(["-n", "threads"]));
    let mut addrs: Vec<String> = Vec::new();
    for l in nm.lines() {
        let parts: Vec<&str> = l.split_whitespace().collect();
        if parts.len() == 3 && (parts[1] == "T" || parts[1] == "t") {
            let a = u64::from_str_radix(parts[0], 16).unwrap();
            for d in [0u64, 1, 5, 9, 13, 21] {
                addrs.push(format!("{:x}", a + d));
            }
        }
    }
    addrs.push("0".into());
    addrs.push("ffffff".into());
    let theirs = run(Command::new("addr2line").args(["-a", "-f", "-i", "-C", "-e"]).arg(&exe).args(&addrs));
    let mine = run(Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["symbolize", "-a", "-f", "-i", "-C", "-e"])
        .arg(&exe)
        .args(&addrs));
    // Deliberate difference: no " (discriminator N)" suffix.
    let strip = |s: &str| -> String {
        s.lines().map(|l| l.split(" (discriminator").next().unwrap_or(l).to_string()).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(strip(&mine), strip(&theirs));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An address in read-only data is named by the data object that holds it inside its size
/// (`table+16`), else by section and module (`.rodata+0x… in prog`), never as the nearest
/// function below (`<_fini+7200>`). Built from a real crash: two registers hold pointers into
/// `.rodata` (into a named table, and into a string literal that has no symbol) at the fault.
#[test]
fn rodata_addresses_are_named_by_object_or_section_not_by_function() {
    if !common::require_tools(&["gcc", "gdb", "nm"]) {
        return;
    }
    let dir = workdir("rodata");
    std::fs::write(
        dir.join("prog.c"),
        r#"
static const long table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const char *volatile sink;
__attribute__((noinline)) long use(const long *t, const char *msg, long *out) {
    sink = msg;
    __asm__ volatile("" : : "r"(t), "r"(msg));
    *out = t[0];           /* out is NULL: faults with t and msg still in registers */
    return t[1];
}
int main(void) { return (int)use(table + 2, "a string literal in .rodata" + 4, 0); }
"#,
    )
    .unwrap();
    run(Command::new("gcc").current_dir(&dir).args(["-g", "-O1", "-fno-pie", "-no-pie", "prog.c", "-o", "prog"]));
    let core = crash_and_gcore(&dir, "prog");
    let parsed = ours(&core, &[dir.join("prog")], &[]);
    let stop = parsed.trace.main_stop().expect("a stop");
    let th = stop.crashed_thread().expect("crashed thread");
    let regs: Vec<(String, u64, String)> = th
        .registers
        .values()
        .flat_map(|s| s.regs.iter())
        .filter_map(|r| Some((r.name.to_string(), r.value?, r.natural.as_deref().unwrap_or("").to_string())))
        .collect();
    let nm = run(Command::new("nm").current_dir(&dir).args(["prog"]));
    let table = nm
        .lines()
        .find(|l| l.ends_with(" table"))
        .and_then(|l| u64::from_str_radix(l.split_whitespace().next()?, 16).ok())
        .expect("table in nm");
    let t =
        regs.iter().find(|(_, v, _)| *v == table + 16).unwrap_or_else(|| panic!("no register = table+16: {regs:?}"));
    assert_eq!(t.2, "<table+16>", "{t:?}");
    // The string literal: some register holds it, named by section and module.
    let lit = regs
        .iter()
        .find(|(_, _, n)| n.starts_with(".rodata+0x"))
        .unwrap_or_else(|| panic!("no register named by .rodata: {regs:?}"));
    assert!(lit.2.ends_with(" in prog"), "{lit:?}");
    assert!(regs.iter().all(|(_, _, n)| !n.contains("<_fini+") && !n.contains("<_IO_stdin_used+")), "{regs:?}");
    // A writable-data pointer of the same binary (rcx/r14 hold the .fini_array entry at exit).
    assert!(regs.iter().any(|(_, _, n)| n == ".fini_array+0x0 in prog"), "{regs:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
