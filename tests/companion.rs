//! The gdb companion script against real gdb: builds sample crashers from
//! `sample-traces/src/` with gcc, runs each under
//! `gdb -batch -nx -ex 'source assets/tracecheck.py' -ex run -ex 'tracecheck-collect OUT'`,
//! and checks what tracecheck reads from the dump.
//!
//! Needs gdb and gcc (and g++ and rustc for the other crashers). Under CI (`CI=true`) a missing
//! tool fails the test; elsewhere the test prints a `SKIPPED` line (`common::require_tools`).

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;
use tracecheck::input::{self, Parsed};
use tracecheck::model::*;
use tracecheck::rules::{self, Selection};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = common::scratch_root().join(format!("tracecheck-companion-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Builds one sample like `sample-traces/regenerate.sh` does (run from sample-traces/ so
/// the debug info says `src/foo.c`).
fn build(name: &str, dir: &Path) -> PathBuf {
    let src = root().join("sample-traces");
    let out = dir.join(name);
    let gcc = |args: &[&str]| {
        let o = Command::new("gcc").args(args).current_dir(&src).output().unwrap();
        assert!(o.status.success(), "gcc {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    };
    let out_s = out.to_str().unwrap();
    match name {
        "julia-trampoline-bad-r13" => {
            let obj = dir.join("jit.o");
            gcc(&["-c", "src/julia-trampoline.S", "-o", obj.to_str().unwrap()]);
            gcc(&["-O0", "-g", "src/julia-trampoline.c", obj.to_str().unwrap(), "-o", out_s]);
        }
        "threads-crash" => gcc(&["-O0", "-g", "-pthread", "src/threads-crash.c", "-o", out_s]),
        "smashed-stack" => gcc(&["-O0", "-g", "-fno-stack-protector", "src/smashed-stack.c", "-o", out_s]),
        "stack-chk" => gcc(&["-O0", "-g", "-fstack-protector-all", "src/smashed-stack.c", "-o", out_s]),
        "c-r13-plain" => gcc(&["-O2", "-g", "src/c-r13-plain.c", "-o", out_s]),
        "misaligned-sse" => {
            let obj = dir.join("misaligned-sse-shim.o");
            gcc(&["-c", "src/misaligned-sse.S", "-o", obj.to_str().unwrap()]);
            gcc(&["-O0", "-g", "src/misaligned-sse.c", obj.to_str().unwrap(), "-o", out_s]);
        }
        "cpp-uncaught" => {
            let o = Command::new("g++")
                .args(["-O0", "-g", "src/cpp-uncaught.cpp", "-o", out_s])
                .current_dir(&src)
                .output()
                .unwrap();
            assert!(o.status.success(), "g++: {}", String::from_utf8_lossy(&o.stderr));
        }
        "rust-panic" | "rust-null" => {
            let mut args = vec!["-g"];
            if name == "rust-panic" {
                args.extend(["-C", "panic=abort"]);
            }
            let file = format!("src/{name}.rs");
            args.extend([file.as_str(), "-o", out_s]);
            let o = Command::new("rustc").args(&args).current_dir(&src).output().unwrap();
            assert!(o.status.success(), "rustc: {}", String::from_utf8_lossy(&o.stderr));
        }
        _ => gcc(&["-O0", "-g", &format!("src/{name}.c"), "-o", out_s]),
    }
    out
}

/// Runs gdb on `prog` with the companion script and `cmds` after it; returns the dump text.
fn collect(prog: &Path, dump: &Path, cmds: &[String]) -> String {
    let script = root().join("assets/tracecheck.py");
    let mut gdb = Command::new("gdb");
    gdb.args(["-q", "-batch", "-nx", "-ex", "set pagination off", "-ex"]).arg(format!("source {}", script.display()));
    for c in cmds {
        gdb.arg("-ex").arg(c);
    }
    gdb.arg("--args").arg(prog).env("LANG", "C").env_remove("DEBUGINFOD_URLS").stdin(std::process::Stdio::null());
    let out = gdb.output().unwrap();
    let text = std::fs::read_to_string(dump).unwrap_or_else(|e| {
        panic!(
            "no dump at {} ({e}); gdb said:\n{}{}",
            dump.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("tracecheck-collect: wrote") || said.contains("tracecheck-collect: appended"),
        "gdb output:\n{said}"
    );
    text
}

fn parse(name: &str, text: &str) -> Parsed {
    let p = input::parse(text);
    assert_eq!(
        p.diagnostics.lines_unrecognized, 0,
        "{name}: unrecognized lines in the dump: {:#?}\n--- dump ---\n{text}",
        p.diagnostics.unrecognized
    );
    p
}

fn crashed(stop: &Stop) -> &Thread {
    stop.crashed_thread().expect("a crashed thread")
}

fn function_names(t: &Thread) -> Vec<&str> {
    t.frames.iter().map(|f| f.function_name()).collect()
}

/// One crash, collected once, read back.
fn run_one(name: &str, dir: &Path) -> (String, Parsed) {
    let prog = build(name, dir);
    let dump = dir.join(format!("{name}.dump.txt"));
    let mut cmds = vec!["run".to_string(), format!("tracecheck-collect {}", dump.display())];
    if name == "poison" {
        // As its gdb command file does: glibc fills freed memory with 0xa5.
        cmds.insert(0, "set environment MALLOC_PERTURB_=165".into());
    }
    let text = collect(&prog, &dump, &cmds);
    let p = parse(name, &text);
    (text, p)
}

#[test]
fn companion_dumps_of_real_crashes() {
    if !common::require_tools(&["gdb", "gcc"]) {
        return;
    }
    let tmp = TempDir::new("crashes");
    let dir = tmp.0.clone();
    // gdb runs take about half a second each; run them side by side.
    let names = ["julia-trampoline-bad-r13", "null-field", "glibc-abort", "threads-crash"];
    let results: Vec<(String, String, Parsed)> = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .iter()
            .map(|&name| {
                let dir = dir.clone();
                s.spawn(move || {
                    let (text, p) = run_one(name, &dir);
                    (name.to_string(), text, p)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, text, p) in &results {
        let t = &p.trace;
        assert_eq!(t.arch, Arch::X86_64, "{name}");
        assert_eq!(t.formats, vec![Format::Gdb], "{name}");
        assert_eq!(t.stops.len(), 1, "{name}: one collection, one stop");
        assert!(t.program.as_deref().unwrap_or("").ends_with(name.as_str()), "{name}: program {:?}", t.program);
        assert!(!t.mappings.is_empty(), "{name}: info proc mappings");
        assert!(!t.libraries.is_empty(), "{name}: info sharedlibrary");
        let stop = &t.stops[0];
        let th = crashed(stop);
        let regs = th.registers.get(&0).expect("frame 0 registers");
        assert!(regs.get("rip").is_some() && regs.get("rsp").is_some(), "{name}: rip and rsp");
        // The words behind the stack pointer are always dumped.
        assert!(
            stop.memory.iter().any(|m| m.expr.as_deref() == Some("$sp") && m.words.len() == 16),
            "{name}: x/16gx $sp"
        );
        assert!(stop.disassembly.iter().any(|i| i.current), "{name}: x/8i $pc marks the pc");
        // Outer frames have their own `info registers`.
        if th.frames.len() > 1 {
            assert!(th.registers.contains_key(&1), "{name}: frame 1 registers");
        }
        assert!(text.contains("(gdb) thread apply all bt full\n"), "{name}");
        match name.as_str() {
            "julia-trampoline-bad-r13" => julia(t, stop),
            "null-field" => {
                assert_eq!(stop.reason.signal.as_deref(), Some("SIGSEGV"));
                assert_eq!(stop.reason.si_code, Some(1));
                assert_eq!(stop.reason.address, Some(Address(0x18)));
                assert_eq!(function_names(th)[..4], ["session_bytes", "registry_total", "report", "main"]);
                assert_eq!(th.frames[0].line, Some(23));
                assert_eq!(regs.get("rax"), Some(0));
            }
            "glibc-abort" => {
                assert_eq!(stop.reason.signal.as_deref(), Some("SIGABRT"));
                assert_eq!(stop.reason.si_code, Some(-6));
                let names = function_names(th);
                assert_eq!(names[0], "__pthread_kill_implementation");
                assert!(names.contains(&"buffer_release") && names.contains(&"main"), "{names:?}");
            }
            "threads-crash" => {
                assert_eq!(stop.reason.signal.as_deref(), Some("SIGSEGV"));
                assert_eq!(stop.reason.address, Some(Address(0)));
                assert_eq!(&*th.id, "6", "the crasher thread is gdb's thread 6");
                assert_eq!(th.name.as_deref(), Some("crasher"));
                assert_eq!(function_names(th)[..2], ["store_result", "crasher"]);
                assert_eq!(stop.threads.len(), 6);
                assert!(stop.threads.iter().filter(|t| !t.crashed).all(|t| !t.frames.is_empty()));
            }
            _ => unreachable!(),
        }
    }
}

/// The founding case: stale r13 (the thunk) used as pgcstack in a julia_* frame.
fn julia(t: &Trace, stop: &Stop) {
    assert_eq!(stop.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(stop.reason.address, Some(Address(0x3a)));
    let th = crashed(stop);
    let names = function_names(th);
    assert_eq!(names[..3], ["julia_module_callback_4212", "jlcapi_module_callback_4213", "run_pass_manager"]);
    assert!(names.contains(&"julia_run_21") && names.contains(&"main"), "{names:?}");
    let r13 = th.registers.get(&0).and_then(|r| r.get("r13")).expect("r13 in frame 0");
    // The words behind r13, dumped with `x/4gx $r13`, parse into a memory dump at r13:
    // vtable, callback, 0x2a, -1 (the thunk object, not a gcstack/world_age/ptls triple).
    let dump = stop.memory.iter().find(|m| m.expr.as_deref() == Some("$r13")).expect("x/4gx $r13 in the dump");
    assert_eq!(dump.address, Address(r13));
    assert_eq!(dump.unit, 8);
    assert_eq!(dump.words.len(), 4);
    assert_eq!(dump.words[2], 0x2a);
    assert_eq!(dump.words[3], u64::MAX);
    assert_eq!(stop.read_u64(r13 + 16), Some(0x2a));

    // The pinned-register rule on the whole collected trace (mappings included).
    let rule = rules::find("pinned-register").expect("pinned-register is registered");
    let sel = Selection { only: vec![rule.info.id.to_string()], ..Default::default() };
    let findings = rules::run(t, &sel);
    {
        let f = findings.iter().find(|f| f.rule == "pinned-register").expect("a pinned-register finding");
        assert_eq!(f.severity, tracecheck::rules::Severity::Error, "{f:#?}");
        assert_eq!(f.frame, Some(0));
        assert!(f.registers.iter().any(|r| r == "r13"), "{f:?}");
        assert!(f.message.contains("equals rsi"), "{}", f.message);
        let evidence_on_dump = f.evidence.iter().any(|e| {
            e.lines.map(|s| s.first <= dump.span.last && dump.span.first <= s.last).unwrap_or(false)
                && e.text.starts_with("[r13+")
        });
        assert!(evidence_on_dump, "the finding cites the words behind r13: {f:#?}");
    }
}

/// Two collections in one session (breakpoint, then the crash after `continue`) append to
/// one file and read back as two stops.
#[test]
fn companion_appends_a_second_stop() {
    if !common::require_tools(&["gdb", "gcc"]) {
        return;
    }
    let tmp = TempDir::new("append");
    let prog = build("null-field", &tmp.0);
    let dump = tmp.0.join("two.txt");
    let c = format!("tracecheck-collect --frames 2 {}", dump.display());
    let text = collect(&prog, &dump, &["break registry_total".into(), "run".into(), c.clone(), "continue".into(), c]);
    assert_eq!(text.matches("(gdb) tracecheck-collect ").count(), 2);
    let p = parse("two stops", &text);
    let stops = &p.trace.stops;
    assert_eq!(stops.len(), 2, "{stops:#?}");
    assert_eq!(stops[0].reason.kind, StopKind::Breakpoint);
    assert_eq!(stops[0].reason.number, Some(1));
    assert_eq!(crashed(&stops[0]).frames[0].function_name(), "registry_total");
    assert_eq!(stops[1].reason.kind, StopKind::Signal);
    assert_eq!(stops[1].reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(crashed(&stops[1]).frames[0].function_name(), "session_bytes");
    assert_eq!(p.trace.main_stop().map(|s| s.reason.kind), Some(StopKind::Signal));
}

/// A dump taken when nothing runs still completes, with gdb's errors in it.
#[test]
fn companion_without_a_process_does_not_abort() {
    if !common::require_tools(&["gdb", "gcc"]) {
        return;
    }
    let tmp = TempDir::new("noproc");
    let prog = build("null-field", &tmp.0);
    let dump = tmp.0.join("none.txt");
    let text = collect(&prog, &dump, &[format!("tracecheck-collect {}", dump.display())]);
    assert!(text.contains("(gdb) info sharedlibrary"), "the dump went to the end:\n{text}");
    assert!(text.contains("The program being debugged is not being run.") || text.contains("No registers."), "{text}");
    let p = input::parse(&text);
    assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:#?}\n{text}", p.diagnostics.unrecognized);
}

/// `tracecheck gdbinit --dir DIR` installs the script with this binary filled in and prints
/// only the `source` line on stdout. Needs no gdb.
#[test]
fn gdbinit_installs_the_script() {
    let tmp = TempDir::new("gdbinit");
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck")).arg("gdbinit").arg("--dir").arg(&tmp.0).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let path = tmp.0.canonicalize().unwrap().join("tracecheck.py");
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("source {}\n", path.display()));
    let script = std::fs::read_to_string(&path).unwrap();
    assert!(script.contains(&format!("TRACECHECK_VERSION = \"{}\"", env!("CARGO_PKG_VERSION"))));
    assert!(!script.contains("@TRACECHECK_BIN@"), "the binary path is filled in");
    assert!(script.contains("class CollectCommand(gdb.Command)"));
    let printed = Command::new(env!("CARGO_BIN_EXE_tracecheck")).args(["gdbinit", "--print-script"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&printed.stdout), script);
}

/// Every other sample crasher, collected by the companion under real gdb: the dump parses with
/// zero unrecognized lines and the finding the sample exists for comes out.
#[test]
fn companion_dumps_of_every_other_sample_crasher() {
    if !common::require_tools(&["gdb", "gcc", "g++", "rustc"]) {
        return;
    }
    let tmp = TempDir::new("every");
    let dir = tmp.0.clone();
    // (sample, rule that must fire; None for the controls)
    let cases: &[(&str, Option<&str>)] = &[
        ("null-fnptr", Some("bad-pc")),
        ("stack-overflow", Some("stack-overflow")),
        ("noncanonical", Some("noncanonical-address")),
        ("write-rodata", Some("write-to-readonly")),
        ("misaligned-sse", Some("stack-misaligned")),
        ("poison", Some("poison-value")),
        ("assert-fail", Some("assertion-failure")),
        ("smashed-stack", Some("corrupt-backtrace")),
        ("stack-chk", Some("heap-corruption")),
        ("c-r13-plain", Some("null-dereference")),
        ("cpp-uncaught", Some("uncaught-exception")),
        ("rust-panic", Some("panic")),
        ("rust-null", Some("wild-pointer")),
    ];
    let results: Vec<(&str, Option<&str>, String, Parsed)> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .iter()
            .map(|&(name, rule)| {
                let dir = dir.clone();
                s.spawn(move || {
                    let (text, p) = run_one(name, &dir);
                    (name, rule, text, p)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, rule, _text, p) in &results {
        let stop = p.trace.main_stop().unwrap_or_else(|| panic!("{name}: no stop"));
        assert_eq!(stop.reason.kind, StopKind::Signal, "{name}");
        let findings = rules::run(&p.trace, &Selection::default());
        // The Julia pgcstack check must never fire on plain C, C++ or Rust code.
        assert!(findings.iter().all(|f| f.rule != "pinned-register"), "{name}: {findings:#?}");
        if let Some(rule) = rule {
            assert!(
                findings.iter().any(|f| f.rule == *rule),
                "{name}: expected {rule}, got {:?}",
                findings.iter().map(|f| f.rule).collect::<Vec<_>>()
            );
        }
    }
}
