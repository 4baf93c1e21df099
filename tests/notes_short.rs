//! Issue 15 item 8: short note ids (a unique prefix removes, an ambiguous one is refused with
//! the candidates), `tracecheck note DUMP` lists, notes in the default text report next to
//! what they annotate, nothing left behind once the last note is removed, and the lock-file
//! race (a writer removing the lock file with the last note) loses no update.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tracecheck::notes;

fn dir(name: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tracecheck-notes-short-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn dump_in(d: &Path) -> PathBuf {
    let p = d.join("d.txt");
    std::fs::copy(common::samples_dir().join("null-field.gdb.txt"), &p).unwrap();
    p
}

fn tc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tracecheck")).args(args).env_remove("NO_COLOR").output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn left_in(d: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(d).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn short_ids_list_remove_and_text_report() {
    let d = dir("cli");
    let dump = dump_in(&d);
    let f = dump.to_str().unwrap();
    for args in [
        vec!["note", f, "--frame", "1", "slots[2] never filled"],
        vec!["note", f, "--register", "rax", "the NULL"],
        vec!["note", f, "--finding", "null-dereference", "seen before"],
        vec!["note", f, "whole trace"],
    ] {
        assert!(tc(&args).status.success(), "{args:?}");
    }
    // No text: the notes are listed, with short ids.
    let list = out(&tc(&["note", f]));
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 4, "{list}");
    assert!(lines[0].ends_with("[frame #1]  slots[2] never filled"), "{list}");
    let ids: Vec<&str> = lines.iter().map(|l| l.split_whitespace().next().unwrap()).collect();
    for id in &ids {
        assert!((4..16).contains(&id.len()), "short id {id}");
    }
    assert_eq!(tc(&["note", f, "--list"]).stdout, list.as_bytes(), "--list is the same listing");

    // The default text report shows each note next to what it annotates.
    let text = out(&tc(&["--color", "never", f]));
    let idx = |s: &str| text.find(s).unwrap_or_else(|| panic!("no {s:?} in\n{text}"));
    assert!(idx("  note: whole trace") < idx("stop 1:"));
    assert!(idx("#1  0x0000555555555191 in registry_total") < idx("        ^ note: slots[2] never filled"));
    assert!(idx("        ^ note: slots[2] never filled") < idx("#2  0x"));
    assert!(idx("    rax ") < idx("           ^ note: the NULL"));
    assert!(idx("error null-dereference") < idx("      note: seen before"));

    // A unique prefix removes; every note removed leaves no sidecar and no lock file.
    for id in &ids {
        let o = tc(&["note", f, "--remove", id]);
        assert!(o.status.success(), "{id}: {}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(left_in(&d), ["d.txt"]);
    let o = tc(&["note", f, "--remove", ids[0]]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn ambiguous_prefix_is_refused_with_candidates() {
    let d = dir("ambiguous");
    let dump = dump_in(&d);
    let f = dump.to_str().unwrap();
    // Two notes whose ids share "ab12" (ids written by hand: any string is a valid id).
    let side = notes::sidecar_path(&dump);
    std::fs::write(
        &side,
        r#"{"version": 1, "notes": [
  {"id": "ab12ff00", "target": {"kind": "trace"}, "text": "one", "created": 1},
  {"id": "ab12ee00", "target": {"kind": "trace"}, "text": "two", "created": 2},
  {"id": "cd340000", "target": {"kind": "trace"}, "text": "three", "created": 3}
]}"#,
    )
    .unwrap();
    let list = out(&tc(&["note", f]));
    assert!(
        list.contains("ab12f  [trace]  one") && list.contains("ab12e  [trace]  two") && list.contains("cd34  [trace]"),
        "{list}"
    );
    let o = tc(&["note", f, "--remove", "ab12"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("note id ab12 is ambiguous: it starts ab12f, ab12e"), "{err}");
    assert_eq!(notes::load(&dump).unwrap().notes.len(), 3, "nothing removed");
    assert!(tc(&["note", f, "--remove", "ab12e"]).status.success());
    let left: Vec<String> = notes::load(&dump).unwrap().notes.into_iter().map(|n| n.id).collect();
    assert_eq!(left, ["ab12ff00", "cd340000"]);
    std::fs::remove_dir_all(&d).ok();
}

/// Writers that add a note and remove it again, concurrently: every removal finds its note
/// (no update lost to a writer locking a lock file another one had just removed), and nothing
/// is left behind.
#[test]
fn last_note_removal_races_lose_nothing() {
    let d = dir("race");
    let dump = dump_in(&d);
    let handles: Vec<_> = (0..6)
        .map(|t| {
            let dump = dump.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    let n = notes::new_note(notes::Target::Trace, &format!("t{t} i{i}"));
                    let id = n.id.clone();
                    let after = notes::add(&dump, n).unwrap();
                    assert!(after.notes.iter().any(|x| x.id == id));
                    assert_eq!(notes::remove_prefix(&dump, &id).unwrap(), notes::Removed::One(id.clone()), "t{t} i{i}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(left_in(&d), ["d.txt"]);
    std::fs::remove_dir_all(&d).ok();
}
