//! The wild corpus (`tests/wild/`, see its README and MANIFEST): text in the shapes people
//! paste into bug reports, recorded here for real (gdb, lldb, Go, sanitizers, valgrind, strace,
//! qemu-user for other architectures) or reconstructed with our own values where a shape can
//! only be seen in public posts (rr, Julia versions not runnable here, kernel logs).
//!
//! Each input goes through the `tracecheck` binary (`--format json`, docs/json-schema.md); the
//! test checks every fact the manifest lists, and that no listed must-not finding appears. It
//! prints the fact figures and the understood-line share (lines whose content reached the
//! model, over all lines), and writes nothing: `docs/corpus.md` quotes the figures.
//!
//! `tests/wild/known-failures.txt` lists the facts that do not hold yet, one `path :: fact`
//! a line. The list may only shrink: a failing fact that is not listed fails the test, and so
//! does a listed fact that now holds (remove it). The understood share of the tool-output lines
//! (all lines minus the MANIFEST's `foreign` ones) may not fall below `MIN_UNDERSTOOD_PERMILLE`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The understood-line share (per mille) the corpus may not fall below. Raise it as parsers
/// improve; never lower it.
const MIN_UNDERSTOOD_PERMILLE: u64 = 990;

fn wild_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wild")
}

struct Entry {
    path: String,
    /// `(key, value)` in manifest order.
    facts: Vec<(String, String)>,
}

fn read_manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(wild_dir().join("MANIFEST")).expect("tests/wild/MANIFEST");
    let mut out: Vec<Entry> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if let Some(p) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            out.push(Entry { path: p.to_string(), facts: Vec::new() });
            continue;
        }
        let (k, v) = t.split_once(':').unwrap_or_else(|| panic!("MANIFEST:{}: not `key: value`: {t}", n + 1));
        let e = out.last_mut().unwrap_or_else(|| panic!("MANIFEST:{}: fact before any [path]", n + 1));
        e.facts.push((k.trim().to_string(), v.trim().to_string()));
    }
    out
}

/// The input as tracecheck should see it: a RECONSTRUCTED file's first line is our note about
/// its origin, not part of the paste.
fn input_text(path: &str) -> (String, bool) {
    let bytes = std::fs::read(wild_dir().join(path)).unwrap_or_else(|e| panic!("tests/wild/{path}: {e}"));
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if text.starts_with("# RECONSTRUCTED") {
        let rest = text.split_once('\n').map(|(_, r)| r).unwrap_or("");
        (rest.to_string(), true)
    } else {
        (text, false)
    }
}

fn run_tracecheck(text: &str) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--fail-on", "never", "--color", "never", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tracecheck");
    let mut stdin = child.stdin.take().expect("stdin");
    let owned = text.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(owned.as_bytes());
    });
    let out = child.wait_with_output().expect("tracecheck output");
    writer.join().ok();
    assert!(out.status.success(), "tracecheck failed: {}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("tracecheck --format json prints JSON");
    doc["inputs"][0].clone()
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn stops(i: &Value) -> impl Iterator<Item = &Value> {
    i["stops"].as_array().into_iter().flatten()
}

fn threads(i: &Value) -> impl Iterator<Item = &Value> {
    stops(i).flat_map(|st| st["threads"].as_array().into_iter().flatten())
}

fn frame_name(f: &Value) -> String {
    f["function"].as_str().unwrap_or("??").to_string()
}

fn frames_of(t: &Value) -> Vec<&Value> {
    t["frames"].as_array().map(|a| a.iter().collect()).unwrap_or_default()
}

fn all_frames(i: &Value) -> impl Iterator<Item = &Value> {
    threads(i).flat_map(|t| t["frames"].as_array().into_iter().flatten())
}

fn findings(i: &Value) -> BTreeSet<String> {
    i["findings"].as_array().into_iter().flatten().map(|f| s(&f["rule"]).to_string()).collect()
}

fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Does one manifest fact hold for the parsed input? `Err` for a malformed fact.
fn check(key: &str, val: &str, i: &Value) -> Result<bool, String> {
    Ok(match key {
        "origin" => true, // checked separately
        "format" => i["formats"].as_array().into_iter().flatten().any(|f| s(f) == val),
        // Architectures the contract's `arch` cannot name (POWER, s390x) are in `arch_detail`.
        "arch" => s(&i["arch"]) == val || (i["arch"].is_null() && s(&i["arch_detail"]) == val),
        "stop" => {
            let mut w = val.split_whitespace();
            let kind = w.next().ok_or("stop: needs a kind")?;
            let sig = w.next();
            stops(i).any(|st| s(&st["reason"]["kind"]) == kind && sig.is_none_or(|g| s(&st["reason"]["signal"]) == g))
        }
        "stops" => {
            let n: usize = val.parse().map_err(|_| "stops: needs a number")?;
            stops(i).filter(|st| s(&st["reason"]["kind"]) != "unknown").count() == n
        }
        "address" => stops(i).any(|st| s(&st["reason"]["address"]) == val),
        "code" => stops(i).any(|st| s(&st["reason"]["code"]) == val),
        "crashed" if val == "none" => !threads(i).any(|t| t["crashed"] == Value::Bool(true)),
        "crashed" => threads(i).any(|t| t["crashed"] == Value::Bool(true) && s(&t["id"]) == val),
        "frames" => {
            let want: Vec<&str> = val.split(" | ").map(str::trim).collect();
            threads(i).any(|t| {
                let fr = frames_of(t);
                fr.len() >= want.len() && fr.iter().zip(&want).all(|(f, w)| frame_name(f) == *w)
            })
        }
        "culprit" if val == "none" => stops(i).all(|st| st["culprit"].is_null()),
        "culprit" => stops(i).any(|st| s(&st["culprit"]["function"]) == val),
        "reg" => val.split_whitespace().all(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            stops(i).any(|st| s(&st["registers"][k]) == v)
        }),
        "pc" => val.split_whitespace().all(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            let idx: u64 = k.parse().unwrap_or(u64::MAX);
            all_frames(i).any(|f| f["index"].as_u64() == Some(idx) && s(&f["pc"]) == v)
        }),
        "rr_event" => stops(i).any(|st| st["rr_event"].as_u64().map(|n| n.to_string()).as_deref() == Some(val)),
        "rr_ticks" => stops(i).any(|st| st["rr_ticks"].as_u64().map(|n| n.to_string()).as_deref() == Some(val)),
        "finding" => val.split_whitespace().all(|r| findings(i).contains(r)),
        // `must: RULE`: the anomaly the poster (or a maintainer) of a public report named, in a
        // class a rule covers; counted in the recall figure.
        "must" => {
            let mut w = val.split_whitespace();
            let rule = w.next().ok_or("must: needs a rule")?;
            if w.next().is_some() {
                return Err("must: one rule per line".into());
            }
            findings(i).contains(rule)
        }
        // `evidence: RULE TEXT`: a finding of RULE has an evidence line containing TEXT.
        "evidence" => {
            let (rule, text) = val.split_once(' ').ok_or("evidence: needs RULE TEXT")?;
            i["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|f| s(&f["rule"]) == rule)
                .any(|f| f["evidence"].as_array().into_iter().flatten().any(|e| s(&e["text"]).contains(text)))
        }
        "message" => {
            stops(i).any(|st| st["messages"].as_array().into_iter().flatten().any(|m| s(&m["text"]).contains(val)))
        }
        "expression" => stops(i).any(|st| s(&st["expression"]) == val),
        "threads" => {
            let n: usize = val.parse().map_err(|_| "threads: needs a number")?;
            stops(i).any(|st| st["threads"].as_array().map(|a| a.len()) == Some(n))
        }
        "watch" => {
            let (old, new) = val.split_once(' ').ok_or("watch: needs OLD NEW")?;
            stops(i).any(|st| {
                let r = &st["reason"];
                s(&r["kind"]) == "watchpoint" && s(&r["old_value"]) == old && s(&r["new_value"]) == new
            })
        }
        "locals" => {
            let (func, name) = val.split_once('=').ok_or("locals: needs FUNCTION=NAME")?;
            all_frames(i).any(|f| {
                frame_name(f) == func && f["locals"].as_array().into_iter().flatten().any(|l| s(&l["name"]) == name)
            })
        }
        "disasm" => {
            let (addr, text) = val.split_once(' ').ok_or("disasm: needs ADDRESS TEXT")?;
            stops(i).any(|st| {
                st["disassembly"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|d| s(&d["address"]) == addr && s(&d["text"]).starts_with(text.trim()))
            })
        }
        "handler" => {
            // frame IDX is `<signal handler called>`: it and the frame above it are never inlined
            let idx: u64 = val.parse().map_err(|_| "handler: needs a frame index")?;
            threads(i).any(|t| {
                let fr = frames_of(t);
                fr.iter().any(|f| {
                    f["index"].as_u64() == Some(idx)
                        && f["signal_handler"] == Value::Bool(true)
                        && f["inlined"] == Value::Bool(false)
                }) && fr
                    .iter()
                    .all(|f| idx == 0 || f["index"].as_u64() != Some(idx - 1) || f["inlined"] == Value::Bool(false))
            })
        }
        "module" => all_frames(i).any(|f| basename(s(&f["module"])) == val),
        "not" => {
            let have = findings(i);
            val.split_whitespace().all(|r| !have.contains(r))
        }
        // Lines that are not tool output (the program's own stdout, interleaved application
        // logs): they must be reported as not understood, never swallowed.
        "foreign" => val.split_whitespace().all(|l| {
            let l: u64 = l.parse().unwrap_or(0);
            i["diagnostics"]["unrecognized"].as_array().into_iter().flatten().any(|u| u["line"].as_u64() == Some(l))
        }),
        other => return Err(format!("unknown fact key `{other}`")),
    })
}

fn family(path: &str) -> &str {
    path.split('/').next().unwrap_or(path)
}

#[test]
fn wild_corpus() {
    let mut manifest = read_manifest();
    // `WILD_ONLY=a,b` measures only the inputs whose path contains one of these (a pass's
    // before/after figures, docs/corpus.md); the known-failure bookkeeping is then skipped.
    let only: Vec<String> = std::env::var("WILD_ONLY")
        .map(|v| v.split(',').map(str::trim).filter(|x| !x.is_empty()).map(str::to_string).collect())
        .unwrap_or_default();
    if !only.is_empty() {
        manifest.retain(|e| only.iter().any(|o| e.path.contains(o.as_str())));
    }
    let known_text = std::fs::read_to_string(wild_dir().join("known-failures.txt")).unwrap_or_default();
    let known: BTreeSet<String> = known_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();

    let mut problems: Vec<String> = Vec::new();
    let mut failing: BTreeSet<String> = BTreeSet::new();
    // family -> (facts, facts held, must-not checks, must-not held, lines, understood)
    let mut fig: BTreeMap<String, [u64; 6]> = BTreeMap::new();
    let mut foreign_lines = 0u64;
    let mut unrecognized: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    // Recall on the anomalies posters named (`must:` facts): (held, total), and the misses.
    let mut must = (0u64, 0u64);
    let mut must_missed: Vec<String> = Vec::new();
    // Inputs with no unread line but their `foreign` ones; culprit facts held; `not:` facts
    // broken (false findings) and the inputs they are in.
    let mut fully_read = 0u64;
    let mut culprits = (0u64, 0u64);
    let mut false_findings: Vec<String> = Vec::new();

    for e in &manifest {
        if !seen.insert(e.path.clone()) {
            problems.push(format!("{}: listed twice in MANIFEST", e.path));
        }
        let (text, reconstructed) = input_text(&e.path);
        let origin = e.facts.iter().find(|(k, _)| k == "origin").map(|(_, v)| v.as_str()).unwrap_or("");
        let origin_ok = if reconstructed {
            origin.starts_with("RECONSTRUCTED from ")
        } else {
            origin.starts_with("recorded: ") || origin.starts_with("damaged: ")
        };
        if !origin_ok {
            problems.push(format!(
                "{}: origin `{origin}` does not match the file (RECONSTRUCTED header: {reconstructed})",
                e.path
            ));
        }
        if !e.facts.iter().any(|(k, _)| k != "origin" && k != "format") {
            problems.push(format!("{}: no facts", e.path));
        }
        let input = run_tracecheck(&text);
        let f = fig.entry(family(&e.path).to_string()).or_default();
        let d = &input["diagnostics"];
        f[4] += d["lines_total"].as_u64().unwrap_or(0);
        f[5] += d["lines_recognized"].as_u64().unwrap_or(0);
        for u in d["unrecognized"].as_array().into_iter().flatten() {
            unrecognized.push(format!("{}:{}: {}", e.path, u["line"], s(&u["text"])));
        }
        let foreign_here: u64 =
            e.facts.iter().filter(|(k, _)| k == "foreign").map(|(_, v)| v.split_whitespace().count() as u64).sum();
        let unread_here = d["unrecognized"].as_array().map_or(0, |a| a.len() as u64);
        if unread_here <= foreign_here {
            fully_read += 1;
        }
        for (k, v) in &e.facts {
            if k == "origin" {
                continue;
            }
            if k == "foreign" {
                foreign_lines += v.split_whitespace().count() as u64;
            }
            let must_not = k == "not";
            let held = match check(k, v, &input) {
                Ok(h) => h,
                Err(msg) => {
                    problems.push(format!("{}: bad fact `{k}: {v}`: {msg}", e.path));
                    continue;
                }
            };
            if k == "culprit" {
                culprits.1 += 1;
                culprits.0 += held as u64;
            }
            if must_not && !held {
                false_findings.push(format!("{}: {v}", e.path));
            }
            if k == "must" {
                must.1 += 1;
                if held {
                    must.0 += 1;
                } else {
                    must_missed.push(format!("{}: {v}", e.path));
                }
            }
            let (a, b) = if must_not { (2, 3) } else { (0, 1) };
            f[a] += 1;
            if held {
                f[b] += 1;
            }
            let name = format!("{} :: {k}: {v}", e.path);
            if !held {
                failing.insert(name.clone());
                if !known.contains(&name) {
                    problems.push(format!("fact does not hold (and is not a known failure): {name}"));
                }
            } else if known.contains(&name) {
                problems.push(format!("fact now holds: remove it from tests/wild/known-failures.txt: {name}"));
            }
        }
    }
    for k in known.iter().filter(|_| only.is_empty()) {
        if !failing.contains(k) && !problems.iter().any(|p| p.ends_with(k.as_str())) {
            problems.push(format!("known failure names no manifest fact: {k}"));
        }
    }

    let mut tot = [0u64; 6];
    println!("wild corpus: {} inputs", manifest.len());
    println!("{:<10} {:>6} {:>13} {:>13} {:>16}", "family", "inputs", "facts", "must-not", "understood lines");
    for (fam, v) in &fig {
        let n = manifest.iter().filter(|e| family(&e.path) == fam).count();
        println!(
            "{fam:<10} {n:>6} {:>6}/{:<6} {:>6}/{:<6} {:>7}/{:<6} {:>5.1}%",
            v[1],
            v[0],
            v[3],
            v[2],
            v[5],
            v[4],
            100.0 * v[5] as f64 / v[4].max(1) as f64
        );
        for (t, x) in tot.iter_mut().zip(v) {
            *t += x;
        }
    }
    println!(
        "{:<10} {:>6} {:>6}/{:<6} {:>6}/{:<6} {:>7}/{:<6} {:>5.1}%",
        "total",
        manifest.len(),
        tot[1],
        tot[0],
        tot[3],
        tot[2],
        tot[5],
        tot[4],
        100.0 * tot[5] as f64 / tot[4].max(1) as f64
    );
    println!("facts holding: {:.1}%; known failures: {}", 100.0 * tot[1] as f64 / tot[0].max(1) as f64, known.len());
    let tool_lines = tot[4] - foreign_lines;
    println!(
        "understood lines of tool output (all lines minus {foreign_lines} foreign lines: program stdout, \
         interleaved application logs): {}/{tool_lines} = {:.1}%",
        tot[5],
        100.0 * tot[5] as f64 / tool_lines.max(1) as f64
    );
    println!(
        "poster-named anomalies flagged (`must:` facts): {}/{} = {:.1}%",
        must.0,
        must.1,
        100.0 * must.0 as f64 / must.1.max(1) as f64
    );
    for m in &must_missed {
        println!("  missed: {m}");
    }
    println!("fully read (no unread line but the `foreign` ones): {fully_read}/{}", manifest.len());
    println!("culprit right (`culprit:` facts): {}/{}", culprits.0, culprits.1);
    println!("false findings (`not:` facts broken): {}", false_findings.len());
    for f in &false_findings {
        println!("  false: {f}");
    }
    println!("lines not understood ({} shown, at most 50 per input):", unrecognized.len());
    for u in &unrecognized {
        println!("  {u}");
    }
    // The floor applies to the tool's own output: a `foreign` line (program stdout, a test
    // harness's or an application's log between the tool's lines) must stay not understood,
    // so counting it against the share would punish reading it right.
    let permille = 1000 * tot[5] / tool_lines.max(1);
    if permille < MIN_UNDERSTOOD_PERMILLE {
        problems.push(format!("understood-line share fell to {permille}‰ (minimum {MIN_UNDERSTOOD_PERMILLE}‰)"));
    }
    assert!(!only.is_empty() || manifest.len() >= 80, "the corpus needs at least 80 inputs, has {}", manifest.len());
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

/// Every input file under tests/wild/<family>/ is in the manifest, and every family has at
/// least 8 inputs.
#[test]
fn wild_corpus_manifest_covers_every_file() {
    let manifest = read_manifest();
    let listed: BTreeSet<&str> = manifest.iter().map(|e| e.path.as_str()).collect();
    let mut per_family: BTreeMap<String, usize> = BTreeMap::new();
    let mut missing = Vec::new();
    for fam in std::fs::read_dir(wild_dir()).expect("tests/wild").flatten() {
        let fname = fam.file_name().to_string_lossy().into_owned();
        if !fam.path().is_dir() || fname == "src" || fname == "build" {
            continue;
        }
        for f in std::fs::read_dir(fam.path()).expect("family dir").flatten() {
            let rel = format!("{fname}/{}", f.file_name().to_string_lossy());
            if rel.ends_with(".txt") {
                *per_family.entry(fname.clone()).or_default() += 1;
                if !listed.contains(rel.as_str()) {
                    missing.push(rel);
                }
            }
        }
    }
    assert!(missing.is_empty(), "inputs without a MANIFEST entry: {missing:?}");
    for (fam, n) in &per_family {
        assert!(*n >= 8, "family {fam} has {n} inputs; at least 8 are needed");
    }
}
