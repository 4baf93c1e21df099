//! `tracecheck note` from the shell and the batch markdown's use of the sidecar: notes next
//! to what they annotate, escaped; `--list`, `--remove`; source only with `--with-source`.

mod common;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tracecheck"))
}

fn copy(name: &str) -> PathBuf {
    let dir = common::scratch_root().join(format!(
        "tracecheck-notes-cli-{}-{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let dst = dir.join(name);
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces").join(name), &dst).unwrap();
    dst
}

fn run(args: &[&str], dump: &Path) -> Output {
    let mut c = bin();
    c.args(args).arg(dump);
    c.output().unwrap()
}

fn note(dump: &Path, args: &[&str]) -> Output {
    bin().arg("note").arg(dump).args(args).output().unwrap()
}

fn markdown(dump: &Path, extra: &[&str]) -> String {
    let mut a = vec!["--format", "markdown"];
    a.extend_from_slice(extra);
    String::from_utf8(run(&a, dump).stdout).unwrap()
}

#[test]
fn notes_from_the_shell_appear_next_to_what_they_annotate() {
    let d = copy("null-field.gdb.txt");
    assert!(note(&d, &["--frame", "2", "r->slots has only 2 entries"]).status.success());
    assert!(note(&d, &["--register", "rax", "NULL from slots[2]"]).status.success());
    assert!(note(&d, &["--finding", "null-dereference", "expected: see frame 2"]).status.success());
    assert!(note(&d, &["<script>alert(1)</script> `code` | pipe ![img](x) \u{1b}]52;c;QUFB\u{7}"]).status.success());
    let md = markdown(&d, &[]);
    let lines: Vec<&str> = md.lines().collect();
    let i = lines.iter().position(|l| l.starts_with("#2 ") && l.contains("report")).unwrap();
    assert_eq!(lines[i + 1].trim(), "^ note: r->slots has only 2 entries");
    assert!(lines.iter().any(|l| l.starts_with("| rax |") && l.ends_with("| NULL from slots\\[2\\] |")), "{md}");
    assert!(md.contains("  - **note:** expected: see frame 2"), "{md}");
    // The trace note is at the top, escaped: no HTML, no markdown, no escape sequence.
    let top = lines.iter().position(|l| l.starts_with("> **Note:**")).unwrap();
    assert!(top < lines.iter().position(|l| l.starts_with("The program stopped")).unwrap());
    assert_eq!(lines[top], "> **Note:** &lt;script&gt;alert(1)&lt;/script&gt; \\`code\\` \\| pipe \\!\\[img\\](x) ");
    assert!(!md.contains('\u{1b}'));
    // --list shows each note and where it lands.
    let out = note(&d, &["--list"]);
    let list = String::from_utf8(out.stdout).unwrap();
    assert_eq!(list.lines().count(), 4, "{list}");
    assert!(
        list.contains("[frame #2]")
            && list.contains("[rax @ frame #0]")
            && list.contains("[finding null-dereference]")
            && list.contains("[trace]"),
        "{list}"
    );
    assert!(!list.contains('\u{1b}'));
    // --remove by id.
    let id = list.lines().find(|l| l.contains("[trace]")).unwrap().split_whitespace().next().unwrap().to_string();
    assert!(note(&d, &["--remove", &id]).status.success());
    assert_eq!(note(&d, &["--remove", &id]).status.code(), Some(2));
    assert!(!markdown(&d, &[]).contains("&lt;script&gt;"));
}

#[test]
fn note_errors_are_one_line_and_exit_2() {
    let d = copy("null-field.gdb.txt");
    for args in
        [&["--frame", "99", "x"][..], &["--finding", "no-such-rule", "x"], &["--register", "xyz", "x"], &["   "]]
    {
        let o = note(&d, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // A broken sidecar: the note command refuses, the file is untouched, the batch markdown
    // still renders (with a warning).
    let side = tracecheck::notes::sidecar_path(&d);
    std::fs::write(&side, "[1,2").unwrap();
    let o = note(&d, &["x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is broken"));
    assert_eq!(std::fs::read_to_string(&side).unwrap(), "[1,2");
    let o = run(&["--format", "markdown"], &d);
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning"));
    assert!(String::from_utf8_lossy(&o.stdout).contains("## Crash report"));
}

#[test]
fn with_source_only_when_asked() {
    let d = copy("null-field.gdb.txt");
    // The frames say `src/null-field.c`; put the sample's source next to the dump.
    let src_dir = d.parent().unwrap().join("src");
    std::fs::create_dir_all(&src_dir).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-traces/src/null-field.c"),
        src_dir.join("null-field.c"),
    )
    .unwrap();
    let without = markdown(&d, &[]);
    assert!(!without.contains("### Source"));
    // Source lines come only from the source directories (`--source-dir`, default the
    // current directory), not from wherever the dump is.
    let with = markdown(&d, &["--with-source"]);
    assert!(!with.lines().any(|l| l.starts_with(">   23 | ")), "{with}");
    let dir = d.parent().unwrap().to_str().unwrap().to_string();
    let with = markdown(&d, &["--with-source", "--source-dir", &dir]);
    assert!(with.contains("Files read: `src/null-field.c`"), "{with}");
    assert!(with.contains("### Source (read from local files because `--with-source` was given)"), "{with}");
    assert!(with.lines().any(|l| l.starts_with(">   23 | ")), "{with}");
}

#[test]
fn interactive_flag_and_subcommand_need_one_file() {
    let o = bin().args(["-i"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = bin().args(["tui", "-"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    // No terminal here: the TUI says so instead of hanging or corrupting anything.
    let d = copy("null-field.gdb.txt");
    let o = bin().arg("tui").arg(&d).stdin(std::process::Stdio::null()).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn concurrent_note_processes_keep_every_note() {
    let d = copy("null-field.gdb.txt");
    let children: Vec<_> = (0..6)
        .map(|i| {
            let d = d.clone();
            std::thread::spawn(move || {
                for j in 0..4 {
                    let o = note(&d, &["--frame", "1", &format!("writer {i} note {j}")]);
                    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                }
            })
        })
        .collect();
    for c in children {
        c.join().unwrap();
    }
    let f = tracecheck::notes::load(&d).unwrap();
    assert_eq!(f.notes.len(), 24);
    let md = markdown(&d, &[]);
    assert_eq!(md.matches("^ note: writer").count(), 24);
}
