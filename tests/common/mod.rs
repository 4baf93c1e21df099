//! Test helpers shared by the integration tests: a compact, readable text rendering of a
//! parsed model (the snapshot format), snapshot comparison with `UPDATE_SNAPSHOTS=1`, and
//! paths to the sample traces. Tests that need an outside tool or `../shared` use
//! `require_tools` / `require_shared` from `skip.rs` (read its contract).
#![allow(dead_code)]

// The one skip helper (contract in skip.rs): `require_tools`, `require_shared`.
mod skip;
#[allow(unused_imports)]
pub use skip::*;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tracecheck::input::Parsed;
use tracecheck::model::*;

/// The directory this test process writes its scratch files under:
/// `$TMPDIR/tracecheck-tests/<pid>`. On first use it removes the directories of earlier test
/// processes that are gone, so a run leaves at most its own files behind (tests that stop
/// halfway, or keep their files to be inspected, no longer pile up in the temporary
/// directory).
pub fn scratch_root() -> PathBuf {
    static SWEEP: std::sync::Once = std::sync::Once::new();
    let base = std::env::temp_dir().join("tracecheck-tests");
    SWEEP.call_once(|| {
        let Ok(rd) = std::fs::read_dir(&base) else { return };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(pid) = name.parse::<u32>() else { continue };
            if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let root = base.join(std::process::id().to_string());
    std::fs::create_dir_all(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
    root
}

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn samples_dir() -> PathBuf {
    crate_dir().join("sample-traces")
}

/// Reads and parses a sample trace (`name` without `.gdb.txt`, or a path under
/// `sample-traces/`).
pub fn parse_sample(name: &str) -> (String, Parsed) {
    let p = if name.contains('/') || name.contains('.') {
        samples_dir().join(name)
    } else {
        samples_dir().join(format!("{name}.gdb.txt"))
    };
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let parsed = tracecheck::input::parse_bytes(&bytes);
    (String::from_utf8_lossy(&bytes).into_owned(), parsed)
}

fn opt<T: std::fmt::Display>(o: &Option<T>) -> String {
    match o {
        Some(v) => v.to_string(),
        None => "-".to_string(),
    }
}

fn short(s: &str, max: usize) -> String {
    let s = s.replace('\n', "⏎");
    if s.chars().count() <= max {
        return s;
    }
    let mut out: String = s.chars().take(max).collect();
    write!(out, "…(+{} chars)", s.chars().count() - max).ok();
    out
}

fn frame(out: &mut String, f: &Frame) {
    write!(out, "    #{} ", f.index).ok();
    match f.pc {
        Some(pc) => write!(out, "{pc:#}"),
        None => write!(out, "-"),
    }
    .ok();
    write!(out, " {}", f.function_name()).ok();
    if let Some(a) = &f.args {
        write!(out, " ({})", short(a, 160)).ok();
    }
    if let Some(file) = &f.file {
        write!(out, " at {file}:{}", opt(&f.line)).ok();
        if let Some(c) = f.column {
            write!(out, ":{c}").ok();
        }
    }
    if let Some(m) = &f.module {
        write!(out, " from {m}").ok();
    }
    if f.inlined {
        out.push_str(" [inlined]");
    }
    if f.signal_handler {
        out.push_str(" [signal-handler]");
    }
    writeln!(out, "  @{}", f.span.first).ok();
    let n = f.locals().count();
    if n > 0 {
        let names: Vec<&str> = f.locals().map(|(k, _)| k).collect();
        writeln!(out, "        locals({n}): {}", short(&names.join(", "), 200)).ok();
    }
}

fn registers(out: &mut String, frame: u32, set: &RegisterSet) {
    writeln!(
        out,
        "    registers of frame {} ({} regs, lines {}-{}):",
        frame,
        set.regs.len(),
        set.span.first,
        set.span.last
    )
    .ok();
    let mut line = String::new();
    for r in &set.regs {
        let item = match r.value {
            Some(v) => format!("{}={:#x}", r.name, v),
            None => format!("{}=<{}>", r.name, short(r.natural.as_deref().unwrap_or("?"), 24)),
        };
        if line.len() + item.len() > 110 {
            writeln!(out, "      {}", line.trim_end()).ok();
            line.clear();
        }
        line.push_str(&item);
        line.push(' ');
    }
    if !line.is_empty() {
        writeln!(out, "      {}", line.trim_end()).ok();
    }
}

/// The snapshot text of one parse.
pub fn render(p: &Parsed) -> String {
    let t = &p.trace;
    let mut out = String::new();
    let fmts: Vec<&str> = t.formats.iter().map(|f| f.name()).collect();
    writeln!(out, "formats: {}", fmts.join(" ")).ok();
    writeln!(out, "arch: {}", t.arch.name().unwrap_or("unknown")).ok();
    if let Some(p) = &t.program {
        writeln!(out, "program: {p}").ok();
    }
    if let Some(c) = &t.core_command {
        writeln!(out, "core: {c}").ok();
    }
    let main = t.main_stop().map(|m| m as *const Stop);
    for (i, s) in t.stops.iter().enumerate() {
        let r = &s.reason;
        let is_main = main == Some(s as *const Stop);
        writeln!(
            out,
            "stop {i}{} lines {}-{}: {:?} signal={} signo={} si_code={}{} addr={} number={} desc={}",
            if is_main { " (main)" } else { "" },
            s.span.first,
            s.span.last,
            r.kind,
            opt(&r.signal),
            opt(&r.signo),
            opt(&r.si_code),
            r.code_name().map(|c| format!(" ({c})")).unwrap_or_default(),
            r.address.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
            opt(&r.number),
            r.description.as_deref().map(|d| format!("{d:?}")).unwrap_or_else(|| "-".into()),
        )
        .ok();
        if r.old_value.is_some() || r.new_value.is_some() {
            writeln!(out, "  old={} new={}", opt(&r.old_value), opt(&r.new_value)).ok();
        }
        if s.rr_event.is_some() || s.rr_ticks.is_some() || s.rr_tid.is_some() {
            writeln!(out, "  rr event={} ticks={} tid={}", opt(&s.rr_event), opt(&s.rr_ticks), opt(&s.rr_tid)).ok();
        }
        if s.reverse {
            writeln!(out, "  reached by reverse execution").ok();
        }
        for m in &s.messages {
            writeln!(out, "  message @{}: {}", m.span.first, short(&m.text, 160)).ok();
        }
        for th in &s.threads {
            writeln!(
                out,
                "  thread {} name={} lwp={} handle={}{}{} frames={}",
                th.id,
                th.name.as_deref().map(|n| format!("{n:?}")).unwrap_or_else(|| "-".into()),
                opt(&th.lwp),
                th.handle.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                if th.crashed { " crashed" } else { "" },
                if th.current { " current" } else { "" },
                th.frames.len(),
            )
            .ok();
            let nf = th.frames.len();
            for (k, f) in th.frames.iter().enumerate() {
                // Very deep stacks: first and last 40 frames.
                if nf > 100 && k == 40 {
                    writeln!(out, "    … {} frames …", nf - 80).ok();
                }
                if nf > 100 && (40..nf - 40).contains(&k) {
                    continue;
                }
                frame(&mut out, f);
            }
            if let Some(b) = &th.backtrace_stopped {
                writeln!(out, "    backtrace stopped: {b}").ok();
            }
            for (k, set) in &th.registers {
                registers(&mut out, *k, set);
            }
        }
        for m in &s.memory {
            write!(
                out,
                "  memory {} [t{} f{}] @{:#} unit={} lines {}-{}:",
                opt(&m.expr),
                opt(&m.thread),
                m.frame,
                m.address,
                m.unit,
                m.span.first,
                m.span.last
            )
            .ok();
            if let Some(st) = &m.string {
                write!(out, " string {}", short(st, 100)).ok();
            }
            for w in &m.words {
                write!(out, " {w:#x}").ok();
            }
            out.push('\n');
        }
        for ins in &s.disassembly {
            writeln!(
                out,
                "  insn [t{} f{}] {} {:#} <{}> {}  @{}",
                opt(&ins.thread),
                ins.frame,
                if ins.current { "=>" } else { "  " },
                ins.address,
                ins.location.as_deref().unwrap_or(""),
                ins.text,
                ins.span.first
            )
            .ok();
        }
        for pv in &s.printed {
            writeln!(
                out,
                "  print [t{} f{}] ${} {} = {}  @{}",
                opt(&pv.thread),
                pv.frame,
                opt(&pv.history),
                opt(&pv.expr),
                short(&pv.value, 100),
                pv.span.first
            )
            .ok();
        }
        for fi in &s.frame_info {
            let saved: Vec<String> = fi.saved_registers.iter().map(|(n, a)| format!("{n}@{a:#}")).collect();
            writeln!(
                out,
                "  frame-info [t{}] level={} fn={} frame_at={} pc={} saved_pc={} caller_of={} called_by={} arglist={} locals={} prev_sp={} lang={} saved=[{}]  @{}",
                opt(&fi.thread),
                opt(&fi.level),
                opt(&fi.function),
                fi.frame_at.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                fi.pc.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                fi.saved_pc.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                opt(&fi.caller_of),
                opt(&fi.called_by),
                fi.arglist_at.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                fi.locals_at.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                fi.previous_sp.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
                opt(&fi.language),
                saved.join(" "),
                fi.span.first
            )
            .ok();
        }
    }
    for (i, s) in t.stops.iter().enumerate() {
        for sym in &s.symbols {
            writeln!(
                out,
                "symbol (stop {i}) [t{} f{}] {} = {} + {} in {} of {}  @{}",
                opt(&sym.thread),
                sym.frame,
                opt(&sym.expr),
                opt(&sym.symbol),
                sym.offset,
                opt(&sym.section),
                opt(&sym.objfile),
                sym.span.first
            )
            .ok();
        }
    }
    for (k, v) in &t.environment {
        writeln!(out, "environment: {k}={v}").ok();
    }
    writeln!(out, "mappings: {}", t.mappings.len()).ok();
    for m in &t.mappings {
        writeln!(out, "  {:#}-{:#} off={:#x} {} {}", m.start, m.end, m.offset, opt(&m.perms), opt(&m.path)).ok();
    }
    writeln!(out, "libraries: {}", t.libraries.len()).ok();
    for l in &t.libraries {
        writeln!(
            out,
            "  {}-{} {} {}",
            l.from.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
            l.to.map(|a| format!("{a:#}")).unwrap_or_else(|| "-".into()),
            if l.syms_read { "syms" } else { "nosyms" },
            l.path
        )
        .ok();
    }
    let d = &p.diagnostics;
    writeln!(
        out,
        "diagnostics: total={} recognized={} unrecognized={}",
        d.lines_total, d.lines_recognized, d.lines_unrecognized
    )
    .ok();
    for u in &d.unrecognized {
        writeln!(out, "  unrecognized @{}: {}", u.line, u.text).ok();
    }
    for n in &d.notes {
        writeln!(out, "  note {}: {}", opt(&n.line), n.message).ok();
    }
    out
}

/// Compares `actual` with `tests/snapshots/<name>.txt`. With `UPDATE_SNAPSHOTS=1` it
/// (re)writes the file instead. A missing snapshot fails (so CI never passes silently).
pub fn assert_snapshot(name: &str, actual: &str) {
    let path = crate_dir().join("tests/snapshots").join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).ok();
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_SNAPSHOTS=1 to create it)", path.display()));
    if expected != actual {
        let mut msg = format!("snapshot {} differs (UPDATE_SNAPSHOTS=1 rewrites it after review):\n", path.display());
        let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
        let mut shown = 0;
        for i in 0..e.len().max(a.len()) {
            let (x, y) = (e.get(i).copied(), a.get(i).copied());
            if x != y && shown < 20 {
                writeln!(msg, "  line {}:\n    - {}\n    + {}", i + 1, x.unwrap_or("<none>"), y.unwrap_or("<none>"))
                    .ok();
                shown += 1;
            }
        }
        panic!("{msg}");
    }
}
