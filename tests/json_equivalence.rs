//! The streaming JSON writer (`src/report/json.rs`) against the `serde_json::Value` writer it
//! replaced, kept here verbatim as `reference`: both must give the same bytes on every sample
//! trace, the fuzz corpora, the shared corpora (when ../shared is there) and edge cases.

mod reference {

    use serde_json::{Map, Value, json};
    use std::io::Write;
    use tracecheck::analyze::{InputReport, Report};
    use tracecheck::classify::Classifier;
    use tracecheck::model::*;
    use tracecheck::report::annotate_register;

    pub const SCHEMA: &str = "tracecheck/1";

    fn hex(v: u64) -> Value {
        Value::String(format!("{v:#x}"))
    }

    fn opt_hex(v: Option<Address>) -> Value {
        v.map(|a| hex(a.0)).unwrap_or(Value::Null)
    }

    fn opt_str<S: AsRef<str>>(v: Option<S>) -> Value {
        v.map(|s| Value::String(s.as_ref().to_string())).unwrap_or(Value::Null)
    }

    fn lines(s: Span) -> Value {
        json!([s.first, s.last])
    }

    fn frame(f: &Frame) -> Value {
        let mut m = Map::new();
        m.insert("index".into(), json!(f.index));
        m.insert("pc".into(), opt_hex(f.pc));
        m.insert("function".into(), opt_str(f.function.as_deref()));
        m.insert("args".into(), opt_str(f.args.as_deref()));
        m.insert("file".into(), opt_str(f.file.as_deref()));
        m.insert("line".into(), f.line.map(Value::from).unwrap_or(Value::Null));
        m.insert("module".into(), opt_str(f.module.as_deref()));
        m.insert("inlined".into(), json!(f.inlined));
        m.insert("signal_handler".into(), json!(f.signal_handler));
        if f.locals.is_some() {
            let locals: Vec<Value> = f.locals().map(|(n, v)| json!({"name": n, "value": v})).collect();
            m.insert("locals".into(), Value::Array(locals));
        }
        m.insert("lines".into(), lines(f.span));
        Value::Object(m)
    }

    fn regs(set: &RegisterSet) -> Value {
        let mut m = Map::new();
        for r in &set.regs {
            if let Some(v) = r.value {
                m.insert(r.name.to_string(), hex(v));
            }
        }
        Value::Object(m)
    }

    fn reg_notes(set: &RegisterSet, c: &Classifier<'_>, arch: Arch) -> Value {
        let mut m = Map::new();
        for r in &set.regs {
            if let Some(note) = annotate_register(r, c, arch) {
                m.insert(r.name.to_string(), Value::String(note));
            }
        }
        Value::Object(m)
    }

    /// A thread without its frames (streamed separately).
    fn thread_head(t: &Thread) -> Value {
        json!({
            "id": &*t.id,
            "name": t.name.as_deref(),
            "lwp": t.lwp,
            "crashed": t.crashed,
            "current": t.current,
            "backtrace_stopped": t.backtrace_stopped.as_deref(),
            "frames": Value::Null,
            "lines": lines(t.span),
        })
    }

    fn stop(ir: &InputReport, si: usize, s: &Stop, c: &Classifier<'_>) -> Value {
        let r = &s.reason;
        let arch = ir.parsed.trace.arch;
        let crashed = s.crashed_thread();
        let registers = s.registers().map(regs).unwrap_or_else(|| json!({}));
        let register_notes = s.registers().map(|set| reg_notes(set, c, arch)).unwrap_or_else(|| json!({}));
        let mut frame_registers = Map::new();
        if let Some(t) = crashed {
            for (k, set) in &t.registers {
                frame_registers.insert(k.to_string(), regs(set));
            }
        }
        let memory: Vec<Value> = s
            .memory
            .iter()
            .map(|m| {
                json!({
                    "expr": m.expr.as_deref(),
                    "address": hex(m.address.0),
                    "unit": m.unit,
                    "words": m.words.iter().map(|w| hex(*w)).collect::<Vec<_>>(),
                    "string": m.string.as_deref(),
                    "lines": lines(m.span),
                })
            })
            .collect();
        let disassembly: Vec<Value> = s
            .disassembly
            .iter()
            .map(|i| {
                json!({
                    "address": hex(i.address.0),
                    "location": i.location.as_deref(),
                    "text": &*i.text,
                    "current": i.current,
                    "lines": lines(i.span),
                })
            })
            .collect();
        let culprit = ir.culprits.get(si).cloned().flatten().and_then(|c| {
            let t = s.threads.iter().find(|t| *t.id == *c.thread)?;
            let f = t.frames.get(c.position)?;
            // A culprit named by a message, outside the backtrace (musl's assert).
            if let Some(site) = &c.named_by_message {
                return Some(json!({
                    "thread": c.thread,
                    "frame": Value::Null,
                    "function": site.function,
                    "file": site.file,
                    "line": site.line,
                    "named_by": site.source,
                }));
            }
            Some(json!({
                "thread": c.thread,
                "frame": c.index,
                "function": f.function.as_deref(),
                "file": f.file.as_deref(),
                "line": f.line,
            }))
        });
        json!({
            "index": si,
            "reason": {
                "kind": r.kind,
                "signal": r.signal.as_deref(),
                "signo": r.signo,
                "code": r.code_name().map(str::to_string).or_else(|| r.si_code.map(|c| c.to_string())),
                "code_value": r.si_code,
                "address": opt_hex(r.address),
                "address_class": r.address.map(|a| c.classify(a.0).to_string()),
                "description": r.description.as_deref(),
                "number": r.number,
                "old_value": r.old_value.as_deref(),
                "new_value": r.new_value.as_deref(),
                "lines": lines(r.span),
            },
            "rr_event": s.rr_event,
            "rr_ticks": s.rr_ticks,
            "expression": s.expression.as_deref(),
            "checker": s.checker.as_ref().map(|k| json!({
                "tool": &*k.tool,
                "kind": k.kind,
                "text": &*k.text,
                "access": k.access.as_deref(),
                "summary": k.summary.as_deref(),
                "lines": lines(k.span),
            })),
            "culprit": culprit,
            // Streamed by `write_stop`, one frame at a time (a dump may hold millions).
            "threads": Value::Null,
            "registers": registers,
            "register_notes": register_notes,
            "frame_registers": Value::Object(frame_registers),
            "memory": memory,
            "disassembly": disassembly,
            "printed": s.printed.iter().map(|p| json!({"expr": p.expr.as_deref(), "value": &*p.value, "lines": lines(p.span)})).collect::<Vec<_>>(),
            "messages": s.messages.iter().map(|m| json!({"text": &*m.text, "lines": lines(m.span)})).collect::<Vec<_>>(),
            "lines": lines(s.span),
        })
    }

    /// An input without its stops (streamed separately).
    fn input_head(ir: &InputReport) -> Value {
        let t = &ir.parsed.trace;
        let d = &ir.parsed.diagnostics;
        let mut v = input_head_fields(ir, t, d);
        // Optional: present only when the rules lacked something a debugger can print.
        if !ir.missing_evidence.is_empty()
            && let Some(o) = v.as_object_mut()
        {
            o.insert(
                "missing_evidence".into(),
                ir.missing_evidence
                    .iter()
                    .map(|m| json!({"what": m.what, "command": m.command, "rules_waiting": m.rules_waiting, "stop": m.stop}))
                    .collect::<Vec<_>>()
                    .into(),
            );
        }
        v
    }

    fn input_head_fields(ir: &InputReport, t: &tracecheck::model::Trace, d: &tracecheck::model::Diagnostics) -> Value {
        json!({
            "path": tracecheck::report::safe_line(&ir.path),
            "formats": t.formats.iter().map(|f| f.name()).collect::<Vec<_>>(),
            "arch": t.arch.name(),
            "core_command": t.core_command.as_deref(),
            // Streamed by `write_input`, stop by stop.
            "stops": Value::Null,
            "mappings": t.mappings.iter().map(|m| json!({
                "start": hex(m.start.0), "end": hex(m.end.0), "offset": hex(m.offset),
                "perms": m.perms.as_deref(), "path": m.path.as_deref(), "lines": lines(m.span),
            })).collect::<Vec<_>>(),
            "libraries": t.libraries.iter().map(|l| json!({
                "from": opt_hex(l.from), "to": opt_hex(l.to), "syms_read": l.syms_read, "path": &*l.path, "lines": lines(l.span),
            })).collect::<Vec<_>>(),
            "findings": ir.findings.iter().map(|f| json!({
                "rule": f.rule,
                "severity": f.severity.name(),
                "title": f.title,
                "message": f.message,
                "stop": f.stop,
                "thread": f.thread,
                "frame": f.frame,
                "registers": f.registers,
                "evidence": f.evidence.iter().map(|e| json!({"text": e.text, "lines": e.lines.map(lines)})).collect::<Vec<_>>(),
                "next_steps": f.next_steps,
                "heuristic": f.heuristic,
            })).collect::<Vec<_>>(),
            "diagnostics": {
                "lines_total": d.lines_total,
                "lines_recognized": d.lines_recognized,
                "lines_unrecognized": d.lines_unrecognized,
                "unrecognized": d.unrecognized.iter().map(|u| json!({"line": u.line, "text": u.text})).collect::<Vec<_>>(),
                "notes": d.notes.iter().map(|n| json!({"line": n.line, "message": n.message})).collect::<Vec<_>>(),
            },
        })
    }

    /// Writes an object's entries in order, calling `special` for the entry whose key is `key`
    /// (its value in `obj` is a placeholder).
    fn write_object(
        out: &mut dyn Write,
        obj: &Value,
        key: &str,
        special: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let Value::Object(map) = obj else {
            return serde_json::to_writer(&mut *out, obj).map_err(std::io::Error::from);
        };
        out.write_all(b"{")?;
        for (i, (k, v)) in map.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, k)?;
            out.write_all(b":")?;
            if k == key {
                special(out)?;
            } else {
                serde_json::to_writer(&mut *out, v)?;
            }
        }
        out.write_all(b"}")
    }

    fn write_thread(out: &mut dyn Write, t: &Thread) -> std::io::Result<()> {
        write_object(out, &thread_head(t), "frames", &mut |out| {
            out.write_all(b"[")?;
            for (i, f) in t.frames.iter().enumerate() {
                out.write_all(if i > 0 { b",\n" } else { b"\n" })?;
                serde_json::to_writer(&mut *out, &frame(f))?;
            }
            out.write_all(b"]")
        })
    }

    fn write_stop(
        out: &mut dyn Write,
        ir: &InputReport,
        si: usize,
        s: &Stop,
        c: &Classifier<'_>,
    ) -> std::io::Result<()> {
        write_object(out, &stop(ir, si, s, c), "threads", &mut |out| {
            out.write_all(b"[")?;
            for (i, t) in s.threads.iter().enumerate() {
                out.write_all(if i > 0 { b",\n" } else { b"\n" })?;
                write_thread(out, t)?;
            }
            out.write_all(b"]")
        })
    }

    /// One input as JSON, streamed: memory stays bounded by one frame's value, not the dump.
    pub fn write_input(out: &mut dyn Write, ir: &InputReport) -> std::io::Result<()> {
        let c = Classifier::new(&ir.parsed.trace);
        write_object(out, &input_head(ir), "stops", &mut |out| {
            out.write_all(b"[")?;
            for (i, s) in ir.parsed.trace.stops.iter().enumerate() {
                out.write_all(if i > 0 { b",\n" } else { b"\n" })?;
                write_stop(out, ir, i, s, &c)?;
            }
            out.write_all(b"]")
        })
    }

    /// The whole document. Compact JSON (newlines between stops, threads and frames), written
    /// as it is built so a dump with a million frames does not need the document in memory.
    pub fn write(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        write!(
            out,
            "{{\"schema\":{},\"tool\":{},\"inputs\":[",
            serde_json::to_string(SCHEMA)?,
            json!({"name": "tracecheck", "version": env!("CARGO_PKG_VERSION")})
        )?;
        for (i, ir) in report.inputs.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            write_input(out, ir)?;
        }
        out.write_all(b"]}\n")
    }
}

use std::path::{Path, PathBuf};
use tracecheck::analyze::{Report, analyze};

mod common;

fn both(name: &str, bytes: &[u8]) -> String {
    let parsed = tracecheck::input::parse_bytes(bytes);
    let report = Report { inputs: vec![analyze(name, parsed, &Default::default())] };
    let mut old = Vec::new();
    reference::write(&report, &mut old).expect("reference writer");
    let mut new = Vec::new();
    tracecheck::report::json::write(&report, &mut new).expect("streaming writer");
    if old != new {
        let at = old.iter().zip(&new).position(|(a, b)| a != b).unwrap_or(old.len().min(new.len()));
        let ctx = |v: &[u8]| String::from_utf8_lossy(&v[at.saturating_sub(120)..(at + 120).min(v.len())]).into_owned();
        panic!("{name}: outputs differ at byte {at}\nreference: {}\nstreaming: {}", ctx(&old), ctx(&new));
    }
    // And one input on its own, as `write_input` (used by the TUI export).
    let mut a = Vec::new();
    reference::write_input(&mut a, &report.inputs[0]).expect("reference");
    let mut b = Vec::new();
    tracecheck::report::json::write_input(&mut b, &report.inputs[0]).expect("streaming");
    assert_eq!(a, b, "{name}: write_input differs");
    String::from_utf8(new).expect("JSON is UTF-8")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "build" && n != "src") {
                files_under(&p, out);
            }
        } else if p.extension().is_some_and(|e| matches!(e.to_str(), Some("txt" | "log" | "gdb" | "lldb" | "go")))
            || p.parent().is_some_and(|d| d.parent().is_some_and(|d| d.ends_with("fuzz/corpus")))
        {
            out.push(p);
        }
    }
}

#[test]
fn same_bytes_on_every_sample_and_fuzz_input() {
    let root = common::crate_dir();
    let mut files = Vec::new();
    files_under(&root.join("sample-traces"), &mut files);
    let samples = files.len();
    for d in ["gdb_text", "runtime_text"] {
        files_under(&root.join("fuzz/corpus").join(d), &mut files);
    }
    assert!(samples >= 40, "expected the sample traces, found {samples} files");
    assert!(files.len() > samples + 20, "expected the fuzz corpora too");
    for p in &files {
        let bytes = match std::fs::read(p) {
            Ok(b) => b,
            // A fuzzer running on this checkout removes corpus files it has reduced.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && p.starts_with(root.join("fuzz")) => continue,
            Err(e) => panic!("read {}: {e}", p.display()),
        };
        both(&p.display().to_string(), &bytes);
    }
}

#[test]
fn same_bytes_on_the_shared_corpora() {
    let Some(shared) = common::require_shared("corpus") else { return };
    let mut files = Vec::new();
    files_under_all(&shared, &mut files);
    assert!(!files.is_empty());
    for p in &files {
        both(&p.display().to_string(), &std::fs::read(p).expect("read"));
    }
}

fn files_under_all(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under_all(&p, out);
        } else if p.extension().is_none_or(|e| e != "md") {
            out.push(p);
        }
    }
}

/// Escapes (every control byte, quotes, backslashes, DEL, non-ASCII), a register named
/// twice, frame registers for frames 2 and 10 (string keys: "10" sorts first), big and zero
/// hex values, a negative exit status.
#[test]
fn same_bytes_on_edge_cases() {
    let mut ctl = String::from("#0  0x0000000000401136 in f (s=0x0, q=\"");
    for b in 1u8..0x20 {
        if b != b'\n' && b != b'\r' {
            ctl.push(b as char);
        }
    }
    ctl.push_str("\\\"\u{7f}é€😀\") at a\\b\"c.c:3\n");
    let text = format!(
        "Program received signal SIGSEGV, Segmentation fault.\n\
         {ctl}\
         #1  0xffffffffffffffff in main () at m.c:9\n\
         rax            0x0                 0\n\
         rax            0x10                16\n\
         rip            0x401136            0x401136 <f+4>\n\
         rsp            0x7fffffffe000      0x7fffffffe000\n\
         (gdb) frame 2\n\
         #2  0x0000000000401200 in g () at g.c:1\n\
         (gdb) info registers\n\
         rbx            0x1                 1\n\
         (gdb) frame 10\n\
         #10 0x0000000000401300 in h () at h.c:1\n\
         (gdb) info registers\n\
         rbx            0x2                 2\n\
         [Inferior 1 (process 12) exited with code 0377]\n"
    );
    // The path is made safe first (control bytes and escapes shown, not decoded by a reader
    // into control characters; issue #16 item 8), then escaped: quote, backslash, non-ASCII.
    let mut name = String::new();
    for b in 0u8..0x20 {
        name.push(b as char);
    }
    name.push_str("\"\\\u{7f}é€😀");
    let out = both(&name, text.as_bytes());
    // The edge cases are really in the document.
    // The registers after the stop's `#0`/`#1` backtrace are frame #0's (a backtrace selects
    // nothing; `frame 2` and `frame 10` do).
    assert!(out.contains(r#""frame_registers":{"0":{"rax":"0x10","rip":"0x401136","rsp":"0x7fffffffe000"},"10":{"rbx":"0x2"},"2":{"rbx":"0x1"}}"#), "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let path = doc["inputs"][0]["path"].as_str().expect("path");
    // Decoded, the path holds no control character but a tab; the rest is kept, shown.
    assert!(path.chars().all(|c| c == '\t' || !c.is_control()), "{path:?}");
    assert!(path.contains("\\n") && path.contains("\"\\") && path.ends_with("é€😀"), "{path:?}");
    assert!(out.contains(r#""file":"a\\b\"c.c""#) && out.contains(r#""pc":"0xffffffffffffffff""#), "{out}");
    both("empty", b"");
    both("binary", &[0, 1, 2, 0xff, 0xfe, b'\n', 0x1b, b'[', b'2', b'J']);
}

/// `Frame::locals` (shortcut line split, trim and " = " search) against the plain version it
/// replaced, on strings built from the characters that matter.
mod locals {
    use proptest::prelude::*;
    use tracecheck::model::Frame;

    fn reference(locals: Option<&str>) -> Vec<(&str, &str)> {
        locals
            .unwrap_or("")
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                match l.split_once(" = ") {
                    Some((n, v)) => Some((n, v)),
                    None if l == "No locals." || l.is_empty() => None,
                    None => Some((l, "")),
                }
            })
            .collect()
    }

    fn check(s: Option<&str>) {
        let f = Frame { locals: s.map(Into::into), ..Default::default() };
        assert_eq!(f.locals().collect::<Vec<_>>(), reference(s), "{s:?}");
    }

    #[test]
    fn edge_cases() {
        for s in [
            "",
            "\n",
            "a = 1",
            " a = 1 \r\n b = 2\n",
            "No locals.",
            "x =",
            "= y",
            " = ",
            "a = b = c",
            "a  =  b",
            "\u{a0}a = 1\u{a0}",
            "\u{b}a = 1",
            "a=1\n\nb = 2\r",
            "\r",
            "No locals.\r\n",
            "é = ü",
        ] {
            check(Some(s));
        }
        check(None);
    }

    proptest! {
        #[test]
        fn same_pairs(s in proptest::collection::vec(prop_oneof![
            Just(" "), Just("="), Just("\n"), Just("\r"), Just("\t"), Just("\u{b}"), Just("a"), Just("é"),
            Just("\u{a0}"), Just("No locals."), Just(" = ")], 0..24)) {
            check(Some(&s.concat()));
        }
    }
}
