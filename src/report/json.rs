//! `--format json`: one document, schema `tracecheck/1` (see `docs/json-schema.md`).

use super::annotate_register;
use crate::analyze::{InputReport, Report};
use crate::classify::Classifier;
use crate::model::*;
use serde_json::{json, Map, Value};
use std::io::Write;

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

fn stop(ir: &InputReport, si: usize, s: &Stop, c: &Classifier<'_>) -> Value {
    let r = &s.reason;
    let arch = ir.parsed.trace.arch;
    let crashed = s.crashed_thread();
    let threads: Vec<Value> = s
        .threads
        .iter()
        .map(|t| {
            json!({
                "id": &*t.id,
                "name": t.name.as_deref(),
                "lwp": t.lwp,
                "crashed": t.crashed,
                "current": t.current,
                "backtrace_stopped": t.backtrace_stopped.as_deref(),
                "frames": t.frames.iter().map(frame).collect::<Vec<_>>(),
                "lines": lines(t.span),
            })
        })
        .collect();
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
        "culprit": culprit,
        "threads": threads,
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

pub fn input_value(ir: &InputReport) -> Value {
    let t = &ir.parsed.trace;
    let c = Classifier::new(t);
    let d = &ir.parsed.diagnostics;
    json!({
        "path": ir.path,
        "formats": t.formats.iter().map(|f| f.name()).collect::<Vec<_>>(),
        "arch": t.arch.name(),
        "core_command": t.core_command.as_deref(),
        "stops": t.stops.iter().enumerate().map(|(i, s)| stop(ir, i, s, &c)).collect::<Vec<_>>(),
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

pub fn write(report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let doc = json!({
        "schema": SCHEMA,
        "tool": {"name": "tracecheck", "version": env!("CARGO_PKG_VERSION")},
        "inputs": report.inputs.iter().map(input_value).collect::<Vec<_>>(),
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
