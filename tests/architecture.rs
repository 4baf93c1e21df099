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
    // How many cores a run may take (std only).
    ("threads", 1),
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
    ("provenance_text", 2),
    ("provenance_a64", 2),
    ("provenance_mem", 2),
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

// ---- Rules read typed fields, never text ----
//
// The model keeps some text as printed (a message line, an argument list, a register's natural
// column, a printed value, a mapping's permissions) so that findings can quote it; what a rule
// needs from it is typed at input time (docs/model.md). This check fails when a rule, or a
// knowledge module that feeds rules, searches or splits one of those text fields directly
// (`m.text.contains(…)`, `f.args.as_deref()?.split(…)`, `matches!(m.text.trim(), "…")`,
// `p.value == "…"`) or parses a number out of text (`parse_hex`, `from_str_radix`,
// `.parse::<…>`). Quoting the text (`format!("stderr: {}", m.text)`) and comparing typed name
// fields (function, module, file, path) are allowed. A text field first bound to a local and
// searched through it is beyond this line-level check; review catches those.

/// Text fields of the model that hold text as printed.
const TEXT_FIELDS: &[&str] = &[
    "text",
    "args",
    "natural",
    "description",
    "backtrace_stopped",
    "value",
    "location",
    "string",
    "summary",
    "access",
    "perms",
    "old_value",
    "new_value",
    "locals",
];

/// Calls that look into text.
const TEXT_SEARCHES: &[&str] = &[
    "contains",
    "starts_with",
    "ends_with",
    "find",
    "rfind",
    "split",
    "split_once",
    "rsplit",
    "rsplit_once",
    "split_whitespace",
    "strip_prefix",
    "strip_suffix",
    "trim_start_matches",
    "trim_end_matches",
    "trim_matches",
    "parse",
    "lines",
    "matches",
    "char_indices",
    "bytes",
    "chars",
];

/// Calls that only reshape an `Option<Box<str>>` or trim it, skipped between the field and
/// the search.
const ADAPTERS: &[&str] = &[
    ".as_deref()",
    ".as_ref()",
    ".trim()",
    ".trim_start()",
    ".trim_end()",
    ".unwrap_or(\"\")",
    ".unwrap_or_default()",
    "?",
];

const NUMBER_PARSERS: &[&str] = &["parse_hex(", "from_str_radix(", ".parse::<"];

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The places in `code` (non-test code, lines trimmed and joined) where a text field is
/// searched, compared with a literal or a number parsed from text.
fn text_reads(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for p in NUMBER_PARSERS {
        if code.contains(p) {
            out.push(format!("parses a number from text: `{p}`"));
        }
    }
    let cut = |i: usize| code[i..].chars().take(60).collect::<String>();
    for field in TEXT_FIELDS {
        let needle = format!(".{field}");
        let mut from = 0;
        while let Some(p) = code[from..].find(&needle).map(|p| p + from) {
            from = p + needle.len();
            let before = code[..p].chars().last();
            let after = code[from..].chars().next();
            if !before.is_some_and(|c| is_ident(c) || c == ')' || c == ']') || after.is_some_and(is_ident) {
                continue;
            }
            let mut rest = &code[from..];
            while let Some(a) = ADAPTERS.iter().find(|a| rest.starts_with(*a)) {
                rest = &rest[a.len()..];
            }
            let searched = rest.strip_prefix('.').is_some_and(|r| {
                TEXT_SEARCHES
                    .iter()
                    .any(|m| r.strip_prefix(m).is_some_and(|t| t.starts_with('(') || t.starts_with("::<")))
            });
            let compared = ["==", "!="].iter().any(|op| {
                rest.trim_start().strip_prefix(op).is_some_and(|r| {
                    let r = r.trim_start();
                    r.starts_with('"') || r.starts_with("Some(\"")
                })
            });
            if searched || compared {
                out.push(format!("reads text field `{field}`: `{}`", cut(p)));
            }
        }
    }
    // `matches!(m.text.trim(), "…" | …)`
    let mut from = 0;
    while let Some(p) = code[from..].find("matches!(").map(|p| p + from) {
        from = p + "matches!(".len();
        let scrutinee: String = code[from..].chars().take_while(|c| *c != ',').collect();
        if TEXT_FIELDS.iter().any(|f| {
            let n = format!(".{f}");
            scrutinee.match_indices(&n).any(|(i, _)| !scrutinee[i + n.len()..].starts_with(is_ident))
        }) && code[from + scrutinee.len()..].trim_start_matches([',', ' ']).starts_with('"')
        {
            out.push(format!("matches a text field against literals: `{}`", cut(p)));
        }
    }
    out
}

/// Known exceptions, each a function that reads text the rules themselves wrote (not input):
/// `handled_fault::renumber` shifts the `#n` frame numbers in the sentences of findings made on
/// a handled fault's view to gdb's numbers (a typed frame reference in findings would remove it).
const KNOWN_TEXT_READERS: &[(&str, &str)] = &[("handled_fault.rs", "fn renumber(")];

/// `code` without the item that starts at `head` (up to its matching closing brace).
fn without_item(code: &str, head: &str) -> String {
    let Some(start) = code.find(head) else { return code.to_string() };
    let mut depth = 0i32;
    let mut opened = false;
    for (i, c) in code[start..].char_indices() {
        match c {
            '{' => {
                depth += 1;
                opened = true;
            }
            '}' => depth -= 1,
            _ => {}
        }
        if opened && depth == 0 {
            return format!("{}{}", &code[..start], &code[start + i + 1..]);
        }
    }
    code.to_string()
}

fn joined_non_test_code(text: &str) -> String {
    non_test_code(text).into_iter().map(|(_, l)| l.trim().to_string()).collect::<Vec<_>>().join("")
}

#[test]
fn rules_read_typed_fields_not_text() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root.join("rules"), &mut files);
    // Knowledge modules whose answers rules take as facts.
    for k in ["roles.rs", "handled_fault.rs", "fills.rs", "julia.rs", "classify.rs", "runtime.rs"] {
        files.push(root.join(k));
    }
    files.sort();
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read source");
        let mut code = joined_non_test_code(&text);
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        for (file, item) in KNOWN_TEXT_READERS {
            if *file == name {
                code = without_item(&code, item);
            }
        }
        for r in text_reads(&code) {
            bad.push(format!("{}: {r}", f.strip_prefix(&root).unwrap_or(f).display()));
        }
    }
    assert!(files.len() > 20, "the rule files were found: {}", files.len());
    assert!(bad.is_empty(), "rules (and the knowledge they rely on) must read typed fields:\n{}", bad.join("\n"));
}

#[test]
fn the_text_read_checker_finds_what_it_should() {
    let code = r#"
fn bad(m: &Message, f: &Frame, p: &PrintedValue, r: &Register) {
    if m.text.contains("double free") {}
    let l = f.args.as_deref()?.split(", ");
    if matches!(m.text.trim(), "pure virtual method called") {}
    if p.value == "0x0" {}
    let s = r
        .natural
        .as_deref()
        .unwrap_or("")
        .starts_with('<');
    let a = parse_hex(x);
}
fn good(m: &Message, f: &Frame) {
    let e = format!("stderr: {}", m.text);
    if m.detail == Some(MessageDetail::Note) {}
    let n = f.function_name().starts_with("std::");
    let t = m.text.trim().to_string();
    let v = r.value == Some(3);
    let texts = x.textual.contains("a");
}
#[cfg(test)]
mod tests {
    fn t(m: &Message) { assert!(m.text.contains("x")); }
}
"#;
    let found = text_reads(&joined_non_test_code(code));
    let fields: Vec<&str> = found.iter().map(|s| s.split('`').nth(1).unwrap_or("")).collect();
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(found.iter().any(|s| s.contains("parse_hex(")), "{found:#?}");
    assert_eq!(fields.iter().filter(|f| **f == "text").count(), 1, "{found:#?}");
    assert!(fields.contains(&"args") && fields.contains(&"value") && fields.contains(&"natural"), "{found:#?}");
    assert!(found.iter().any(|s| s.starts_with("matches a text field")), "{found:#?}");
    // A known exception is cut out whole, and only it.
    let code = "fn renumber(t: &str) { if x { t.parse::<u32>(); } }fn other(m: &M) { m.text.contains(\"a\"); }";
    let rest = without_item(code, "fn renumber(");
    assert_eq!(rest, "fn other(m: &M) { m.text.contains(\"a\"); }");
    assert_eq!(text_reads(&rest).len(), 1);
}
