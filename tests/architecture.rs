//! The layering of `src/` (docs/architecture.md): each module may use only modules of lower
//! layers (or of its own layer, without cycles), rules only the model, the register tables and
//! the knowledge modules, and no rule another rule. Read from the `crate::` paths (and
//! `super::` paths that leave a rule file) of the non-test code of every file.
//!
//! ```text
//! model < arch < knowledge < input, symbolize, core, unwind < rules < analyze, pipeline, notes
//!       < report < tui < main
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module of the library (and `main`), with its layer.
const LAYERS: &[(&str, u8)] = &[
    ("model", 0),
    ("arch", 1),
    // Safe file access (symlink-refusing writes, non-blocking opens): std and libc only.
    ("fsutil", 1),
    // Knowledge: facts and classifications that stages share.
    ("classify", 2),
    ("runtime", 2),
    ("insn", 2),
    ("messages", 2),
    ("fills", 2),
    ("roles", 2),
    ("julia", 2),
    ("handled_fault", 2),
    ("provenance", 2),
    // Reading inputs: text, binaries, cores, unwinding.
    ("input", 3),
    ("symbolize", 3),
    ("core", 3),
    ("unwind", 3),
    ("rules", 4),
    ("analyze", 5),
    ("pipeline", 5),
    ("progress", 4),
    ("notes", 5),
    ("report", 6),
    ("triage", 6),
    ("tui", 7),
    ("main", 8),
];

/// What a rule may use: the model, the register tables and the knowledge modules.
const RULE_MAX_LAYER: u8 = 2;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without comments and without `#[cfg(test)]` items.
fn non_test_code(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // Skip the item that follows: one line, or a braced block.
            let mut depth = 0i32;
            let mut opened = false;
            for (_, l) in lines.by_ref() {
                let code = l.split("//").next().unwrap_or("");
                depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
                opened |= code.contains('{');
                if (opened && depth <= 0) || (!opened && code.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        if t.starts_with("//") {
            continue;
        }
        let code = match line.find("//") {
            // A trailing comment (not a `://` in a string).
            Some(i) if !line[..i].ends_with(':') && line[..i].matches('"').count() % 2 == 0 => &line[..i],
            _ => line,
        };
        out.push((n + 1, code.to_string()));
    }
    out
}

/// The top-level modules a line names: `crate::x`, `crate::{x, y::z}`, `tracecheck::x`.
fn named_modules(line: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() && name != "self" {
                    out.push(name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

struct Import {
    from_file: String,
    line: usize,
    from: String,
    to: String,
}

fn imports() -> (Vec<Import>, Vec<String>) {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    assert!(files.len() > 50, "src/ not found");
    let rule_files: BTreeSet<String> = files
        .iter()
        .filter(|p| p.parent() == Some(&root.join("rules")))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .filter(|s| s != "mod")
        .collect();
    let mut out = Vec::new();
    let mut rule_to_rule = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        if rel == "lib.rs" {
            continue;
        }
        let module = rel.split('/').next().unwrap().trim_end_matches(".rs").to_string();
        let text = std::fs::read_to_string(f).unwrap();
        let is_rule = rel.starts_with("rules/") && rel != "rules/mod.rs";
        let top_level_file = !rel.contains('/');
        for (n, code) in non_test_code(&text) {
            let mut names = named_modules(&code, "crate::");
            if module == "main" {
                names.extend(named_modules(&code, "tracecheck::"));
            }
            if top_level_file {
                names.extend(named_modules(&code, "super::"));
            }
            for to in names {
                if to != module {
                    out.push(Import { from_file: rel.clone(), line: n, from: module.clone(), to: to.clone() });
                }
            }
            if is_rule {
                let me = Path::new(&rel).file_stem().unwrap().to_string_lossy().into_owned();
                let mut inner = named_modules(&code, "super::");
                for p in ["crate::rules::", "rules::"] {
                    inner.extend(named_modules(&code, p));
                }
                for other in inner {
                    if other != me && rule_files.contains(&other) {
                        rule_to_rule.push(format!("{rel}:{n}: rule uses rule `{other}`: {}", code.trim()));
                    }
                }
            }
        }
    }
    (out, rule_to_rule)
}

fn layer(m: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == m).map(|(_, l)| *l)
}

#[test]
fn every_module_has_a_layer() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut missing = BTreeSet::new();
    for f in files {
        let rel = f.strip_prefix(src()).unwrap().to_string_lossy().into_owned();
        let m = rel.split(['/', '\\']).next().unwrap().trim_end_matches(".rs").to_string();
        if m != "lib" && layer(&m).is_none() {
            missing.insert(m);
        }
    }
    assert!(
        missing.is_empty(),
        "modules without a layer in tests/architecture.rs (and docs/architecture.md): {missing:?}"
    );
}

#[test]
fn imports_follow_the_layers() {
    let (imports, rule_to_rule) = imports();
    let mut bad = rule_to_rule;
    for i in &imports {
        // `crate::X` where X is not a module (a re-export at the crate root).
        let Some(to) = layer(&i.to) else { continue };
        let from = layer(&i.from).expect("every module has a layer");
        let allowed = if i.from == "model" {
            false
        } else if i.from == "rules" {
            to <= RULE_MAX_LAYER
        } else {
            to <= from
        };
        if !allowed {
            bad.push(format!("{}:{}: `{}` (layer {from}) uses `{}` (layer {to})", i.from_file, i.line, i.from, i.to));
        }
    }
    assert!(bad.is_empty(), "imports the layering forbids:\n{}", bad.join("\n"));
}

#[test]
fn no_cycles_between_modules() {
    let (imports, _) = imports();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for i in &imports {
        if layer(&i.to).is_some() {
            graph.entry(i.from.clone()).or_default().insert(i.to.clone());
        }
    }
    // Depth-first search for a back edge; report the cycle.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(p) = stack.iter().position(|s| s == n) {
            let mut c = stack[p..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in graph.keys() {
        if let Some(c) = visit(n, &graph, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", c.join(" -> "));
        }
    }
}

/// The checker itself: it sees grouped imports, skips test code and comments, and would
/// catch the violations this layering was introduced to remove.
#[test]
fn the_checker_reads_imports_as_written() {
    assert_eq!(named_modules("use crate::{model::Trace, arch, self};", "crate::"), ["model", "arch"]);
    assert_eq!(named_modules("let x = crate::input::parse(t); mycrate::foo()", "crate::"), ["input"]);
    let code = "use crate::model::*;\n// crate::tui in a comment\n#[cfg(test)]\nmod tests {\n    use crate::input::parse;\n    fn f() { crate::report::x(); }\n}\nfn g() { crate::rules::run(); } // crate::tui\n";
    let names: Vec<String> = non_test_code(code).iter().flat_map(|(_, l)| named_modules(l, "crate::")).collect();
    assert_eq!(names, ["model", "rules"]);
    assert!(layer("rules").unwrap() > RULE_MAX_LAYER && layer("input").unwrap() > RULE_MAX_LAYER);
    assert!(layer("analyze").unwrap() > layer("rules").unwrap());
}
