//! Terminal and markup injection: escape sequences (CSI cursor moves, OSC 0/2 titles,
//! OSC 52 clipboard writes, OSC 8 links, DCS, C1 controls, a lone ESC, BEL, backspace,
//! carriage-return overwrites) and HTML/markdown placed in every field a dump, a notes
//! sidecar or a file name can fill. Text, JSON and markdown output, `note --list`, error
//! messages and every TUI pane must come out with none of them live.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PAYLOADS: &[&str] = &[
    "\u{1b}[2J\u{1b}[H",
    "\u{1b}[1A\u{1b}[2K",
    "\u{1b}]0;owned-title\u{7}",
    "\u{1b}]2;owned-title\u{1b}\\",
    "\u{1b}]52;c;cm0gLXJmIH4K\u{7}",
    "\u{1b}]8;;https://evil.example/\u{1b}\\link\u{1b}]8;;\u{1b}\\",
    "\u{1b}Pq#0;2;0;0;0\u{1b}\\",
    "\u{9b}31m",
    "\u{1b}",
    "\u{7}",
    "\u{8}\u{8}\u{8}",
    "safe\rEVIL",
    "\u{85}\u{9d}",
];

const MARKUP: &[&str] =
    &["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "</details>", "```"];

fn all(tag: &str) -> String {
    let mut s = String::new();
    for (k, p) in PAYLOADS.iter().enumerate() {
        s.push_str(&format!("{tag}{k}{p}"));
    }
    s
}

fn markup() -> String {
    MARKUP.concat()
}

/// A gdb transcript with payloads in the function names, arguments, file names, locals,
/// register natural columns, an abort message, thread names, memory, disassembly,
/// mappings and unrecognized lines.
fn hostile_dump() -> Vec<u8> {
    let p = all("p");
    let m = markup();
    let mut s = String::new();
    s.push_str(&format!("{} assertion failed: {m}\n", all("msg")));
    s.push_str("Program received signal SIGSEGV, Segmentation fault.\n");
    s.push_str(&format!("0x0000555555555155 in evil{p} (s=0x0{p}) at src/{p}{m}.c:23\n"));
    s.push_str("(gdb) bt full\n");
    s.push_str(&format!("#0  0x0000555555555155 in evil{p}{m} (s=0x0, name={p}) at src/{p}.c:23\n"));
    s.push_str(&format!("        local{p} = {p}{m}\n"));
    s.push_str(&format!("#1  0x00005555555551cc in main{m} () at src/{m}.c:36\n"));
    s.push_str(&format!("#2  0x00007ffff7dd3d90 in libc{p} () from /lib/{p}.so.6\n"));
    s.push_str("(gdb) info registers\n");
    s.push_str(&format!("rax            0x555555556013      0x555555556013 <evil{p}{m}+4>\n"));
    s.push_str(&format!("rip            0x555555555155      0x555555555155 <evil{p}+12>\n"));
    s.push_str("rsp            0x7fffffffe7c0      0x7fffffffe7c0\n");
    s.push_str("(gdb) x/2gx $sp\n");
    s.push_str(&format!("0x7fffffffe7c0 <{p}>:\t0x0000000000000000\t0x0000555555556013\n"));
    s.push_str("(gdb) x/2i $pc\n");
    s.push_str(&format!("=> 0x555555555155 <evil+12>:\tmov    0x18(%rdi),%rax {p}\n"));
    s.push_str("(gdb) info proc mappings\n");
    s.push_str(&format!("      0x555555554000     0x555555556000     0x2000        0x0  r-xp   /tmp/{p}{m}\n"));
    s.push_str("(gdb) info threads\n");
    s.push_str(&format!("* 1    Thread 0x7ffff7d8a740 (LWP 4242) \"{p}\" evil{p} () at src/{p}.c:23\n"));
    s.push_str(&format!("unrecognized {p} line {m}\n"));
    s.push_str(&format!("{} and a raw C1 byte here: \u{9b}2J, raw bytes next\n", all("u")));
    let mut b = s.into_bytes();
    b.extend_from_slice(b"raw 8-bit CSI \x9b2J and \x9d and \xc2\x9b31m\n");
    b
}

fn dir(tag: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tracecheck-injection-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("dir");
    d
}

/// The dump under a file name that holds escapes too, with a sidecar whose ids, targets
/// and texts are hostile.
fn hostile_files(tag: &str) -> PathBuf {
    let d = dir(tag).join(format!("dump{}.txt", "\u{1b}]0;file-title\u{7}\u{1b}[31m"));
    std::fs::write(&d, hostile_dump()).expect("write");
    let p = all("n");
    let m = markup();
    let anchor = serde_json::json!({"stop": 0, "thread": format!("1{p}"), "index": 0, "function": format!("evil{p}"), "file": p});
    let side = serde_json::json!({"version": 1, "notes": [
        {"id": format!("id{p}"), "target": {"kind": "trace"}, "text": format!("trace note {p}{m}\nsecond line"), "created": 1},
        {"id": "f", "target": {"kind": "frame", "frame": anchor}, "text": format!("frame note {p}{m}"), "created": 1},
        {"id": "r", "target": {"kind": "register", "register": format!("rax{p}"), "frame": anchor}, "text": format!("reg {p}"), "created": 1},
        {"id": "g", "target": {"kind": "finding", "rule": format!("rule{p}{m}")}, "text": format!("finding {p}{m}"), "created": 1},
    ]});
    std::fs::write(tracecheck::notes::sidecar_path(&d), serde_json::to_string(&side).expect("json")).expect("write");
    d
}

fn run(args: &[&str], path: &Path) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tracecheck"));
    c.args(args).arg(path).env_remove("NO_COLOR");
    c.output().expect("run")
}

/// No live control character: ESC, BEL, BS, CR, DEL, any other C0 but tab and newline,
/// and no C1 control (U+0080..U+009F, which includes the 8-bit CSI U+009B).
fn assert_inert(what: &str, bytes: &[u8], allow_sgr: bool) {
    let text = String::from_utf8_lossy(bytes);
    for (i, c) in text.char_indices() {
        if c == '\u{1b}' && allow_sgr {
            // Only tracecheck's own colours: ESC [ digits/semicolons m.
            let rest = &text[i + 1..];
            let ok = rest.strip_prefix('[').is_some_and(|r| {
                let end = r.find(|ch: char| !(ch.is_ascii_digit() || ch == ';'));
                end.is_some_and(|e| r[e..].starts_with('m'))
            });
            assert!(ok, "{what}: an escape that is not a colour at byte {i}: {:?}", &text[i..(i + 20).min(text.len())]);
            continue;
        }
        let bad = (c < ' ' && c != '\t' && c != '\n') || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c);
        assert!(
            !bad,
            "{what}: control character {:?} at byte {i}: {:?}",
            c,
            &text[i.saturating_sub(30)..(i + 10).min(text.len())]
        );
    }
}

/// Outside fenced blocks and inline code spans, markdown has no raw HTML tag and no link
/// made from dump text.
fn assert_no_live_markup(md: &str) {
    let mut fence: Option<String> = None;
    for line in md.lines() {
        let t = line.trim_start();
        if let Some(f) = &fence {
            if t.starts_with(f.as_str()) && t.trim_end() == f.as_str() {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            let f: String = t.chars().take_while(|&c| c == '`' || c == '~').collect();
            fence = Some(f);
            continue;
        }
        // Drop inline code spans (any backtick run, closed by a run of the same length).
        let mut out = String::new();
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'`' {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                let tick = "`".repeat(n);
                if let Some(end) = line[i + n..].find(&tick) {
                    i = i + n + end + n;
                    continue;
                }
            }
            out.push(b[i] as char);
            i += 1;
        }
        // The report's own HTML (a <details> fold) is allowed; nothing from the dump.
        let own = ["<details>", "</details>", "<summary>", "</summary>"];
        let mut rest = out.clone();
        for o in own {
            rest = rest.replace(o, "");
        }
        // An escaped bracket (`\]`) makes no link.
        let rest = rest.replace("\\]", "");
        for bad in ["<script", "<img", "</details", "](javascript:", "<a "] {
            assert!(!rest.contains(bad), "live markup {bad:?} in: {line}");
        }
    }
}

#[test]
fn batch_formats_neutralize_escapes_and_markup() {
    let d = hostile_files("batch");
    for (args, sgr) in [
        (vec!["--color", "never", "-v"], false),
        (vec!["--color", "always", "-v"], true),
        (vec!["-f", "json"], false),
        (vec!["-f", "markdown"], false),
        (vec!["-f", "markdown", "--no-raw"], false),
    ] {
        let o = run(&args, &d);
        assert!(matches!(o.status.code(), Some(0..=1)), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert_inert(&format!("{args:?} stdout"), &o.stdout, sgr);
        assert_inert(&format!("{args:?} stderr"), &o.stderr, false);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("evil"), "{args:?}: the frames are gone:\n{out}");
        if args.contains(&"markdown") {
            assert_no_live_markup(&out);
            assert!(out.contains("trace note"), "{out}");
        }
        if args.contains(&"json") {
            // serde escapes what is left; the document still parses.
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
            let s = v.to_string();
            assert!(
                !s.contains('\u{1b}') && !s.contains('\u{9b}') && !s.contains('\u{7}'),
                "JSON strings hold controls: {s}"
            );
        }
    }
}

#[test]
fn notes_listing_and_messages_are_inert() {
    let d = hostile_files("notes");
    let o = run(&["note", "--list"], &d);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_inert("note --list", &o.stdout, false);
    assert_inert("note --list stderr", &o.stderr, false);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 4, "one line per note");
    // Adding a note whose text and path hold escapes: the confirmation is inert.
    let mut c = Command::new(env!("CARGO_BIN_EXE_tracecheck"));
    let o = c.arg("note").arg(&d).arg(format!("added {}", all("a"))).output().expect("run");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_inert("note add", &o.stdout, false);
    assert_inert("note add stderr", &o.stderr, false);
    // Error messages naming a hostile path.
    let missing = d.with_file_name(format!("missing{}", all("m")));
    for args in [vec![], vec!["-f", "json"], vec!["note", "--list"], vec!["tui"]] {
        let o = run(&args, &missing);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_inert(&format!("{args:?} error"), &o.stderr, false);
        assert!(String::from_utf8_lossy(&o.stderr).contains("missing"), "{args:?}");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_tracecheck")).args(["--rule", &all("r")]).arg(&d).output().expect("run");
    assert_inert("unknown rule error", &o.stderr, false);
    let o = Command::new(env!("CARGO_BIN_EXE_tracecheck")).args(["explain", &all("r")]).output().expect("run");
    assert_inert("explain error", &o.stderr, false);
}

#[test]
fn tui_cells_hold_no_control_characters() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use tracecheck::tui::app::{Action, App, Pane, TAB_ORDER};
    let d = hostile_files("tui");
    let bytes = std::fs::read(&d).expect("read");
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let mut ir = tracecheck::analyze::analyze(&d.to_string_lossy(), parsed, &Default::default());
    ir.raw = Some(String::from_utf8_lossy(&bytes).into_owned());
    let mut app = App::new(ir, Some(d.clone()), tracecheck::tui::theme::Theme::plain());
    let check = |app: &mut App, what: &str| {
        for (w, h) in [(80u16, 24u16), (200, 60)] {
            app.update(Action::Resize(w, h));
            let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
            term.draw(|f| app.draw(f, f.area())).expect("draw");
            let buf = term.backend().buffer().clone();
            for y in 0..h {
                for x in 0..w {
                    let sym = buf[(x, y)].symbol();
                    assert!(
                        !sym.chars().any(|c| (c < ' ') || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c)),
                        "{what} {w}x{h}: control character in cell ({x},{y}): {sym:?}"
                    );
                }
            }
        }
    };
    for pane in TAB_ORDER {
        app.update(Action::Focus(pane));
        check(&mut app, &format!("{pane:?}"));
        for _ in 0..12 {
            app.update(Action::Down);
            check(&mut app, &format!("{pane:?} after Down"));
        }
        app.update(Action::Open);
        check(&mut app, &format!("{pane:?} opened"));
        app.update(Action::Back);
    }
    app.update(Action::Focus(Pane::Frames));
    for a in [Action::Threads, Action::Back, Action::Help, Action::Back] {
        app.update(a);
        check(&mut app, "popup");
    }
}
