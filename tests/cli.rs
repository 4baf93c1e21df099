//! End-to-end tests of the `tracecheck` binary: exit codes, formats, the JSON contract.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tracecheck"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn samples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("sample-traces"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".gdb.txt"))
        .collect();
    v.sort();
    assert!(v.len() >= 10, "sample traces missing");
    v
}

fn run(args: &[&str]) -> Output {
    bin().args(args).current_dir(root()).output().unwrap()
}

fn json(path: &Path) -> serde_json::Value {
    let out = bin().args(["--format", "json"]).arg(path).output().unwrap();
    assert!(out.status.code() == Some(0) || out.status.code() == Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn null_field_json_has_signal_thread_frame_and_registers() {
    let v = json(&root().join("sample-traces/null-field.gdb.txt"));
    assert_eq!(v["schema"], "tracecheck/1");
    let inp = &v["inputs"][0];
    assert_eq!(inp["arch"], "x86_64");
    assert_eq!(inp["formats"][0], "gdb");
    let stop = &inp["stops"][0];
    assert_eq!(stop["reason"]["signal"], "SIGSEGV");
    assert_eq!(stop["reason"]["signo"], 11);
    assert_eq!(stop["reason"]["code"], "SEGV_MAPERR");
    assert_eq!(stop["reason"]["address"], "0x18");
    let th = stop["threads"].as_array().unwrap().iter().find(|t| t["crashed"] == true).unwrap();
    assert_eq!(th["frames"][0]["function"], "session_bytes");
    assert_eq!(th["frames"][0]["line"], 23);
    assert_eq!(stop["registers"]["rax"], "0x0");
    assert_eq!(stop["registers"]["rip"], "0x555555555155");
    assert_eq!(inp["findings"][0]["rule"], "null-dereference");
}

#[test]
fn exit_codes() {
    // A finding at error severity: 1.
    assert_eq!(run(&["sample-traces/null-field.gdb.txt"]).status.code(), Some(1));
    assert_eq!(run(&["--fail-on", "never", "sample-traces/null-field.gdb.txt"]).status.code(), Some(0));
    // Missing file: 2 with a one-line reason.
    let o = run(&["does-not-exist.txt"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot open does-not-exist.txt"), "{err}");
    assert_eq!(err.trim().lines().count(), 1);
    // Unknown rule: 2.
    assert_eq!(run(&["--rule", "no-such-rule", "sample-traces/null-field.gdb.txt"]).status.code(), Some(2));
    // No input: 2.
    assert_eq!(run(&[]).status.code(), Some(2));
}

#[test]
fn stdin_and_skip_rule() {
    let text = std::fs::read(root().join("sample-traces/null-field.gdb.txt")).unwrap();
    let mut child = bin()
        .args(["--format", "json", "--skip-rule", "null-dereference", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["inputs"][0]["path"], "<stdin>");
    assert!(v["inputs"][0]["findings"].as_array().unwrap().iter().all(|f| f["rule"] != "null-dereference"));
    assert_eq!(v["inputs"][0]["stops"][0]["reason"]["signal"], "SIGSEGV");
}

#[test]
fn text_output_has_no_colour_when_piped_or_no_color() {
    let o = run(&["sample-traces/null-field.gdb.txt"]);
    assert!(!o.stdout.contains(&0x1b));
    let o = bin()
        .args(["sample-traces/null-field.gdb.txt"])
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "1")
        .current_dir(root())
        .output()
        .unwrap();
    assert!(!o.stdout.contains(&0x1b));
    let o = bin()
        .args(["--color", "always", "sample-traces/null-field.gdb.txt"])
        .env_remove("NO_COLOR")
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.stdout.contains(&0x1b));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("null-dereference"));
}

#[test]
fn rules_and_explain() {
    let o = run(&["rules"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("null-dereference"));
    let o = run(&["explain", "null-dereference"]);
    // Rendered, not raw markdown: no `**` markers, the heading kept as text (no colour in a pipe).
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("\n\nWhat it flags A SIGSEGV or SIGBUS"), "{s}");
    assert!(!s.contains("**") && !s.contains('\x1b'), "{s}");
    assert_eq!(run(&["explain", "nope"]).status.code(), Some(2));
}

#[test]
fn elf_input_is_refused_clearly() {
    let dir = common::scratch_root().join(format!("tc-elf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("core.1234");
    std::fs::write(&p, b"\x7fELF\x02\x01\x01\0garbage").unwrap();
    let o = bin().arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ELF"));
}

/// `../shared/tools/check-json-contract.py` over every sample trace (CI has ../shared).
#[test]
fn json_contract_on_every_sample() {
    let Some(checker) = common::require_shared("tools/check-json-contract.py") else { return };
    if !common::require_tools(&["python3"]) {
        return;
    }
    for s in samples() {
        let out = bin().args(["--format", "json"]).arg(&s).output().unwrap();
        let mut child =
            Command::new("python3").arg(&checker).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&out.stdout).unwrap();
        let res = child.wait_with_output().unwrap();
        assert!(res.status.success(), "{}: {}", s.display(), String::from_utf8_lossy(&res.stdout));
    }
}

/// The contract's `arch` names five architectures; the other ones tracecheck reads (POWER, s390x)
/// keep `arch` null and are named in `arch_detail`, so every cross-architecture input of the wild
/// corpus keeps the contract (the checker runs when ../shared is there).
#[test]
fn arch_outside_the_contract_is_named_in_arch_detail() {
    let cross = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/wild/cross");
    let (mut seen, mut details) = (Vec::new(), Vec::new());
    let mut files: Vec<_> = std::fs::read_dir(&cross).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for p in &files {
        let out = bin().args(["--format", "json", "--fail-on", "never"]).arg(p).output().unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let inp = &doc["inputs"][0];
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let (arch, detail) = (inp["arch"].as_str(), inp.get("arch_detail").and_then(|v| v.as_str()));
        // A transcript with too few registers to tell POWER from the rest (ppc64le-abort shows
        // only pc, lr and r1) has no architecture at all.
        if name.starts_with("ppc64") {
            assert!(arch.is_none() && detail.is_none_or(|d| d == "ppc64"), "{name}: {arch:?} {detail:?}");
        } else if name.starts_with("s390x") {
            assert!(arch.is_none() && detail.is_none_or(|d| d == "s390x"), "{name}: {arch:?} {detail:?}");
        } else {
            assert!(detail.is_none(), "{name}: arch_detail {detail:?} beside arch {arch:?}");
        }
        if let Some(d) = detail {
            details.push(d.to_string());
        }
        seen.push((name, out.stdout));
    }
    assert!(details.contains(&"ppc64".to_string()) && details.contains(&"s390x".to_string()), "{details:?}");
    let Some(checker) = common::require_shared("tools/check-json-contract.py") else { return };
    if !common::require_tools(&["python3"]) {
        return;
    }
    for (name, json) in seen {
        let mut child =
            Command::new("python3").arg(&checker).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&json).unwrap();
        let res = child.wait_with_output().unwrap();
        assert!(res.status.success(), "{name}: {}", String::from_utf8_lossy(&res.stdout));
    }
}

#[test]
fn markdown_escapes_dump_text() {
    let dir = common::scratch_root().join(format!("tc-md-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("evil.txt");
    std::fs::write(
        &p,
        "Program received signal SIGSEGV, Segmentation fault.\n0x0000555555555139 in <img src=x onerror=alert(1)> (a=\"```\") at t.c:2\n#0  0x0000555555555139 in <img src=x onerror=alert(1)> (a=\"```\") at t.c:2\n\x1b]52;c;ZXZpbA==\x07\n",
    )
    .unwrap();
    let o = bin().args(["--format", "markdown"]).arg(&p).output().unwrap();
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(!s.contains('\x1b'));
    assert!(s.contains("<details>"));
    // Outside code spans and fenced blocks (which GitHub renders inert), no raw HTML.
    let mut outside = String::new();
    let mut fence: Option<String> = None;
    for line in s.lines() {
        let t = line.trim_start();
        if let Some(f) = &fence {
            if t.starts_with(f.as_str()) && t.trim_end_matches('`').is_empty() {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") {
            fence = Some(t.chars().take_while(|c| *c == '`').collect());
            continue;
        }
        // Drop inline code spans (any backtick run length).
        let mut rest = line;
        while let Some(a) = rest.find('`') {
            outside.push_str(&rest[..a]);
            let run = rest[a..].chars().take_while(|c| *c == '`').count();
            let after = &rest[a + run..];
            let closer = "`".repeat(run);
            match after.find(&closer) {
                Some(b) => rest = &after[b + run..],
                None => {
                    rest = "";
                }
            }
        }
        outside.push_str(rest);
        outside.push('\n');
    }
    assert!(fence.is_none(), "unclosed fence: {s}");
    assert!(!outside.contains("<img"), "{outside}");
    // The raw dump keeps its lines, numbered (`    N  text`) so "dump line N" can be followed.
    let at = s.find("Program received signal SIGSEGV, Segmentation fault.\n").expect("raw line kept");
    let next = s[at..].lines().nth(1).unwrap_or("");
    let (num, text) = next.trim_start().split_once("  ").unwrap_or(("", ""));
    assert!(num.parse::<u32>().is_ok() && text.starts_with("0x0000555555555139"), "{next}");
}

/// `tracecheck tui FILE` and `tracecheck -i FILE` take the same options as batch mode
/// (`--exe`, `--sysroot`, `--debug-dir`, the `--max-*` limits, rules) and go through the same
/// loading pipeline: the same options give the same answer from both.
#[test]
fn tui_and_interactive_accept_the_batch_options_and_behave_the_same() {
    let exe = root().join("Cargo.toml");
    let exe = exe.to_str().unwrap();
    let opts = [
        "--exe",
        exe,
        "--sysroot",
        "/",
        "--debug-dir",
        "/tmp",
        "--max-stops",
        "3",
        "--max-threads",
        "4",
        "--max-frames-kept",
        "100",
        "--max-input-bytes",
        "1000000",
        "--symbolize-timeout",
        "5",
        "--rule",
        "null-dereference",
    ];
    let outcome = |o: Output| (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned());
    // An input that cannot be loaded: both refuse it with the pipeline's message, not with a
    // usage error about the options.
    let missing = "/nonexistent/dump.txt";
    let tui = outcome(bin().arg("tui").args(opts).arg(missing).output().unwrap());
    let i = outcome(bin().arg("-i").args(opts).arg(missing).output().unwrap());
    assert_eq!(tui.0, Some(2));
    assert!(tui.1.starts_with("tracecheck: cannot open /nonexistent/dump.txt"), "{}", tui.1);
    assert_eq!(tui, i);
    // A limit the pipeline enforces, applied alike.
    let sample = root().join("sample-traces/null-field.gdb.txt");
    let sample = sample.to_str().unwrap();
    let tui = outcome(bin().args(["tui", "--max-input-bytes", "10", sample]).output().unwrap());
    let i = outcome(bin().args(["-i", "--max-input-bytes", "10", sample]).output().unwrap());
    assert!(tui.1.contains("over --max-input-bytes 10"), "{}", tui.1);
    assert_eq!(tui, i);
    // An unknown rule is refused alike.
    let tui = outcome(bin().args(["tui", "--rule", "no-such-rule", sample]).output().unwrap());
    let i = outcome(bin().args(["-i", "--rule", "no-such-rule", sample]).output().unwrap());
    assert_eq!(tui.0, Some(2));
    assert!(tui.1.contains("unknown rule 'no-such-rule'"), "{}", tui.1);
    assert_eq!(tui, i);
    // --follow takes them too.
    let o = bin().args(["tui", "--follow", "--exe", exe, "--max-stops", "2", "-"]).output().unwrap();
    assert_eq!(outcome(o).1, "tracecheck: --follow reads a file, not standard input\n");
}

#[test]
fn color_precedence_always_never_no_color_clicolor_force() {
    let esc = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = bin();
        c.args(args).arg("sample-traces/null-field.gdb.txt").current_dir(root());
        c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap().stdout.contains(&0x1b)
    };
    // --color always wins over NO_COLOR (NO_COLOR only changes the default).
    assert!(esc(&["--color", "always"], &[("NO_COLOR", "1")]));
    assert!(!esc(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    // auto on a pipe: no colour, unless CLICOLOR_FORCE; NO_COLOR beats CLICOLOR_FORCE.
    assert!(!esc(&[], &[]));
    assert!(esc(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!esc(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!esc(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
}

#[test]
fn stdin_is_named_stdin_in_text() {
    let text = std::fs::read(root().join("sample-traces/null-field.gdb.txt")).unwrap();
    let mut child = bin().arg("-").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.starts_with("<stdin> ("), "{s}");
}

#[test]
fn mistyped_subcommand_is_suggested() {
    let o = run(&["rulez"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("did you mean `tracecheck rules`"), "{e}");
    let o = run(&["explian", "x"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("`tracecheck explain`"));
    // A real file that happens to look like a subcommand is read, not second-guessed.
    let dir = common::scratch_root().join(format!("tc-sub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join("sample-traces/null-field.gdb.txt"), dir.join("rulez")).unwrap();
    let o = bin().arg("rulez").current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    // Far from every subcommand: the plain "cannot open" message.
    let o = run(&["no-such-dump-file"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("cannot open no-such-dump-file") && !e.contains("did you mean"), "{e}");
}

#[test]
fn completions_and_man_page() {
    for (shell, marker) in
        [("bash", "_tracecheck()"), ("zsh", "#compdef tracecheck"), ("fish", "complete -c tracecheck")]
    {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let s = String::from_utf8_lossy(&o.stdout);
        assert!(s.contains(marker), "{shell}: {}", &s[..s.len().min(200)]);
        // Subcommands and options are completed.
        assert!(s.contains("explain") && (s.contains("--exe") || s.contains("-l exe")), "{shell}");
    }
    let o = run(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains(".TH tracecheck 1"));
    assert!(s.contains("max\\-input\\-bytes") || s.contains("max-input-bytes"));
}

/// `tracecheck completions bash | head -1`: the reader closing the pipe early is no panic.
#[test]
fn completions_into_a_closed_pipe_do_not_panic() {
    use std::process::Stdio;
    for args in [&["completions", "bash"][..], &["man"][..]] {
        let mut child = bin().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // Close the read end at once: every write fails with EPIPE.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {e}");
    }
}

/// `--source-dir` is for `--with-source` and for the TUI (`-i`, `tui`); alone it is a usage
/// error, not silently ignored.
#[test]
fn source_dir_goes_with_with_source_or_the_tui() {
    let o = run(&["--source-dir", ".", "sample-traces/null-field.gdb.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--source-dir goes with --with-source"));
    let o = run(&["tui", "--help"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("--source-dir <DIR>"));
}

#[test]
fn help_has_examples_and_groups_limits() {
    let o = run(&["--help"]);
    let s = String::from_utf8_lossy(&o.stdout);
    let limits = s.find("Limits (for untrusted or huge inputs):").expect("limits heading");
    let max_stops = s.find("--max-stops").unwrap();
    let format = s.find("--format").unwrap();
    assert!(max_stops > limits && format < limits, "limits are grouped apart from everyday options");
    assert!(s.contains("Examples:") && s.contains("1 an error finding was"));
    let o = run(&["tui", "--help"]);
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("tracecheck rules") && s.contains("ELF core"), "{s}");
}
