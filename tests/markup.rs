//! Text from a dump must show as what it is, and must not act on the tracker it is posted to.
//!
//! * Invisible and bidirectional characters (U+202E and the other overrides, the isolates
//!   U+2066-2069, zero-width U+200B-200F, U+FEFF) are shown as `<U+202E>` in text output,
//!   markdown and the TUI, and written as `\u202e` escapes in JSON (which still parses back
//!   to the same string).
//! * Markdown: mentions (`@user`, `@org/team`), issue references (`#123`, `owner/repo#9`,
//!   `GH-7`) and bare links (`https://…`, `www.…`, e-mail addresses) from the dump render
//!   inert. Checked on the HTML that cmark-gfm (GitHub's own markdown library) renders, with
//!   GitHub's reference patterns applied to the text outside code, as GitHub does.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const INVISIBLE: &[char] = &[
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{200e}', '\u{200f}', '\u{feff}', '\u{061c}', '\u{2060}',
];

/// What GitHub would make live, put where a dump puts text: function, args, file, module,
/// thread name, an assertion message, an unrecognized line, a register's natural column.
const LIVE: &str =
    "@alice @org/team #123 owner/repo#9 GH-7 gh-8 https://evil.example/x www.evil.example me@evil.example";

fn dump() -> String {
    let inv: String = INVISIBLE.iter().collect();
    format!(
        "prog: src/a.c:9: main: Assertion `x {LIVE} {inv}' failed.\n\
\n\
Program received signal SIGABRT, Aborted.\n\
0x00007ffff7e4a9fc in evil\u{202e}cod.exe (x=1) at src/a\u{2066}b\u{2069}.c:9\n\
(gdb) bt\n\
#0  0x00007ffff7e4a9fc in evil\u{202e}cod.exe (x=1) at src/a\u{2066}b\u{2069}.c:9\n\
#1  0x0000555555555191 in f{inv} (s=\"{LIVE}\") at src/@bob/x#42.c:30\n\
#2  0x00005555555551cc in g () from /lib/GH-9/@carol.so\n\
#3  0x0000555555555254 in main () at https://evil.example/main.c:51\n\
(gdb) info registers rip\n\
rip            0x7ffff7e4a9fc      0x7ffff7e4a9fc <evil\u{202e}cod.exe+12 @dave #77>\n\
{LIVE} {inv}\n"
    )
}

fn write_dump(name: &str) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-markup-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("dump.txt");
    std::fs::write(&p, dump()).unwrap();
    // A note the sidecar carries (a sidecar can travel with a dump): its text is escaped too.
    let note = format!(
        "{{\"version\":1,\"notes\":[{{\"id\":\"n1\",\"target\":{{\"kind\":\"trace\"}},\"text\":\"see {} and \\u202e\",\"created\":1}}]}}",
        LIVE
    );
    std::fs::write(dir.join("dump.txt.tracecheck-notes.json"), note).unwrap();
    p
}

fn run(args: &[&str], path: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_tracecheck")).args(args).arg(path).output().expect("run");
    assert!(matches!(o.status.code(), Some(0..=1)), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("utf-8 output")
}

fn assert_no_invisible(what: &str, s: &str, allow_zwj: bool) {
    for c in INVISIBLE {
        if allow_zwj && *c == '\u{200d}' {
            continue;
        }
        assert!(!s.contains(*c), "{what}: raw U+{:04X} in the output", *c as u32);
    }
}

#[test]
fn invisible_characters_are_shown_in_text_output() {
    let d = write_dump("text");
    for args in [vec![], vec!["-v"], vec!["--color", "always", "-v"]] {
        let out = run(&args, &d);
        assert_no_invisible(&format!("text {args:?}"), &out, false);
        assert!(out.contains("evil<U+202E>cod.exe"), "text {args:?}:\n{out}");
        assert!(out.contains("src/a<U+2066>b<U+2069>.c"), "text {args:?}:\n{out}");
    }
    let out = run(&["-v"], &d);
    assert!(out.contains("<U+200B><U+200C><U+200D><U+200E><U+200F><U+FEFF>"), "{out}");
    let list = run(&["note", "--list"], &d);
    assert_no_invisible("note --list", &list, false);
    assert!(list.contains("<U+202E>"), "{list}");
}

#[test]
fn invisible_characters_are_escaped_but_faithful_in_json() {
    let d = write_dump("json");
    let out = run(&["-f", "json"], &d);
    assert_no_invisible("json", &out, false);
    assert!(out.contains("evil\\u202ecod.exe"), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let f0 = &v["inputs"][0]["stops"][0]["threads"][0]["frames"][0];
    assert_eq!(f0["function"], "evil\u{202e}cod.exe", "JSON keeps the real string");
    let f1 = &v["inputs"][0]["stops"][0]["threads"][0]["frames"][1];
    assert_eq!(f1["function"].as_str().unwrap(), format!("f{}", INVISIBLE.iter().collect::<String>()));
}

#[test]
fn invisible_characters_are_shown_in_markdown() {
    let d = write_dump("md");
    let md = run(&["-f", "markdown"], &d);
    // tracecheck's own zero-width joiners (after `@`, `#`, …) are the only ones left.
    assert_no_invisible("markdown", &md, true);
    assert!(md.contains("evil<U+202E>cod.exe"), "{md}");
    assert!(md.contains("<U+200D>"), "a ZWJ from the dump is shown:\n{md}");
    for l in md.lines() {
        for (i, c) in l.char_indices() {
            if c == '\u{200d}' {
                let before = l[..i].chars().last();
                let after = l[i + c.len_utf8()..].chars().next();
                assert!(
                    matches!(before, Some('@' | '#' | ':' | 'h' | 'H' | 'w' | 'W')),
                    "a ZWJ the report did not put there: {l:?}"
                );
                let _ = after;
            }
        }
    }
}

#[test]
fn tui_shows_invisible_characters() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use tracecheck::tui::app::{Action, App, TAB_ORDER};
    let d = write_dump("tui");
    let bytes = std::fs::read(&d).unwrap();
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let mut ir = tracecheck::analyze::analyze(&d.to_string_lossy(), parsed, &Default::default());
    ir.raw = Some(String::from_utf8_lossy(&bytes).into_owned());
    let mut app = App::new(ir, Some(d.clone()), tracecheck::tui::theme::Theme::plain());
    let mut seen = false;
    for pane in TAB_ORDER {
        app.update(Action::Focus(pane));
        for step in 0..6 {
            app.update(Action::Resize(200, 60));
            let mut term = Terminal::new(TestBackend::new(200, 60)).unwrap();
            term.draw(|f| app.draw(f, f.area())).unwrap();
            let buf = term.backend().buffer().clone();
            let mut screen = String::new();
            for y in 0..60 {
                for x in 0..200 {
                    screen.push_str(buf[(x, y)].symbol());
                }
                screen.push('\n');
            }
            assert_no_invisible(&format!("TUI {pane:?} step {step}"), &screen, false);
            seen |= screen.contains("<U+202E>");
            app.update(Action::Down);
        }
    }
    assert!(seen, "no pane showed the override as <U+202E>");
}

// ---- markdown on GitHub -----------------------------------------------------------------

/// Renders GitHub-flavoured markdown to HTML with cmark-gfm and its GitHub extensions.
fn render_gfm(md: &str) -> Option<String> {
    if !common::require_tools(&["cmark-gfm"]) {
        return None;
    }
    use std::io::Write;
    let mut child = Command::new("cmark-gfm")
        .args(["-e", "autolink", "-e", "table", "-e", "strikethrough", "-e", "tagfilter", "--unsafe"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cmark-gfm");
    child.stdin.take().unwrap().write_all(md.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    Some(String::from_utf8(o.stdout).unwrap())
}

/// The HTML's text outside `<code>`/`<pre>` (where GitHub makes nothing live), tags removed
/// and the few entities cmark writes decoded.
fn live_text(html: &str) -> String {
    let mut out = String::new();
    let mut depth_code = 0i32;
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        if depth_code == 0 {
            out.push_str(&rest[..lt]);
        }
        let gt = rest[lt..].find('>').map(|g| lt + g).unwrap_or(rest.len() - 1);
        let tag = &rest[lt + 1..gt];
        let name: String = tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if name == "code" || name == "pre" {
            depth_code += if tag.starts_with('/') { -1 } else { 1 };
        }
        out.push(' ');
        rest = &rest[gt + 1..];
    }
    out.push_str(rest);
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// GitHub's patterns: `@name` after a non-word character, `#digits`, `GH-digits`.
fn live_references(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for i in 0..chars.len() {
        let prev_ok = i == 0 || !is_word(chars[i - 1]);
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let ctx = || chars[i.saturating_sub(10)..(i + 12).min(chars.len())].iter().collect::<String>();
        if chars[i] == '@' && prev_ok && next.is_ascii_alphanumeric() {
            found.push(format!("mention: {}", ctx()));
        }
        if chars[i] == '#' && next.is_ascii_digit() {
            found.push(format!("issue: {}", ctx()));
        }
        if prev_ok
            && chars[i].eq_ignore_ascii_case(&'g')
            && chars.get(i + 1).is_some_and(|c| c.eq_ignore_ascii_case(&'h'))
            && chars.get(i + 2) == Some(&'-')
            && chars.get(i + 3).is_some_and(|c| c.is_ascii_digit())
        {
            found.push(format!("GH reference: {}", ctx()));
        }
    }
    found
}

#[test]
fn reference_detector_finds_what_github_links() {
    // The detector itself, on cmark-gfm's rendering of text a person would write.
    let Some(html) = render_gfm("hi @alice see #12 and GH-3, https://x.example and `@not #1`\n") else { return };
    assert!(html.contains("<a href=\"https://x.example\""), "{html}");
    let live = live_references(&live_text(&html));
    assert_eq!(live.len(), 3, "{live:?}");
}

#[test]
fn markdown_from_a_dump_has_no_live_mention_reference_or_link() {
    let d = write_dump("gfm");
    for args in [vec!["-f", "markdown"], vec!["-f", "markdown", "--no-raw"], vec!["-f", "markdown", "-v"]] {
        let md = run(&args, &d);
        let Some(html) = render_gfm(&md) else { return };
        assert!(!html.contains("<a "), "{args:?}: a link in the rendered report:\n{html}");
        let live = live_references(&live_text(&html));
        assert!(live.is_empty(), "{args:?}: live on GitHub: {live:#?}\n{md}");
        // The text is still there to read.
        assert!(html.contains("alice") && html.contains("evil.example"), "{html}");
    }
}
