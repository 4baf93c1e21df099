//! Notes durability against the real binary: `kill -9` at random moments of a save loop
//! never leaves a truncated or lost sidecar, concurrent writers keep every note, and a
//! sidecar from a newer format version is refused and left byte for byte as it was.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tracecheck"))
}

fn dump(tag: &str) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-notes-durability-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let d = dir.join("null-field.gdb.txt");
    std::fs::copy(common::samples_dir().join("null-field.gdb.txt"), &d).expect("copy");
    d
}

fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Writers that are SIGKILLed at random moments (from before exec to after the rename):
/// after every kill the sidecar parses, and it holds every note whose process exited 0.
#[test]
fn kill_9_during_saves_loses_nothing_that_was_confirmed() {
    let d = dump("kill");
    let mut seed = 0x2545f4914f6cdd1du64;
    let mut confirmed: Vec<String> = Vec::new();
    let (mut killed, mut finished) = (0, 0);
    let rounds = 120;
    for k in 0..rounds {
        let text = format!("durable note {k}");
        // Three writers at once, so kills also land while others hold the lock.
        let mut children: Vec<(String, std::process::Child)> = (0..3)
            .map(|w| {
                let t = format!("{text}.{w}");
                let c = bin()
                    .arg("note")
                    .arg(&d)
                    .arg("--frame")
                    .arg("1")
                    .arg(&t)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("spawn");
                (t, c)
            })
            .collect();
        // A debug tracecheck takes ~10-40 ms to add a note: kill within 0-40 ms.
        std::thread::sleep(Duration::from_micros(xorshift(&mut seed) % 40_000));
        let victim = (xorshift(&mut seed) % 3) as usize;
        let _ = children[victim].1.kill();
        for (t, mut c) in children.drain(..) {
            let st = c.wait().expect("wait");
            if st.success() {
                confirmed.push(t);
                finished += 1;
            } else {
                killed += 1;
            }
        }
        let f = tracecheck::notes::load(&d)
            .unwrap_or_else(|e| panic!("round {k}: the sidecar does not parse after a kill: {e}"));
        for t in &confirmed {
            assert!(f.notes.iter().any(|n| &n.text == t), "round {k}: confirmed note {t:?} is lost");
        }
    }
    let side = tracecheck::notes::sidecar_path(&d);
    let text = std::fs::read_to_string(&side).expect("sidecar");
    assert!(text.ends_with("}\n"), "sidecar not whole");
    // Temporaries of killed writers are removed by the next write: none is left after it.
    let o = bin().arg("note").arg(&d).arg("after the kills").output().expect("run");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let left: Vec<String> = std::fs::read_dir(d.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left after the next write: {left:?}");
    eprintln!("kill -9: {rounds} rounds, {finished} writers confirmed, {killed} killed; every confirmed note kept");
    assert!(
        killed > 0 && finished > 0,
        "the test did not exercise both outcomes ({killed} killed, {finished} finished)"
    );
}

/// N processes adding notes to the same dump at once keep all of each other's notes.
#[test]
fn many_concurrent_writers_lose_no_note() {
    let d = dump("concurrent");
    let writers = 12;
    let per = 5;
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let d = d.clone();
            std::thread::spawn(move || {
                for j in 0..per {
                    let o = bin().arg("note").arg(&d).arg(format!("writer {w} note {j}")).output().expect("run");
                    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("writer");
    }
    let f = tracecheck::notes::load(&d).expect("sidecar");
    assert_eq!(f.notes.len(), writers * per);
    let mut ids: Vec<&str> = f.notes.iter().map(|n| n.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), writers * per, "note ids collide");
}

fn refuses_and_keeps(d: &Path, content: &str, expect: &str) {
    let side = tracecheck::notes::sidecar_path(d);
    std::fs::write(&side, content).expect("write");
    for args in [vec!["a new note"], vec!["--remove", "x"], vec!["--list"]] {
        let o = bin().arg("note").arg(d).args(&args).output().expect("run");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert_eq!(std::fs::read_to_string(&side).expect("read"), content, "{args:?} changed the sidecar");
    }
}

#[test]
fn newer_or_broken_sidecars_are_refused_not_overwritten() {
    let d = dump("newer");
    refuses_and_keeps(&d, "{\"version\": 2, \"notes\": [], \"future\": true}\n", "newer than this tracecheck reads");
    refuses_and_keeps(&d, "{\"version\": 1, \"notes\": [", "is broken");
    refuses_and_keeps(&d, "", "is broken");
    refuses_and_keeps(&d, "{\"version\": 99999999999, \"notes\": []}", "newer than this tracecheck reads");
}

/// A sidecar or lock file that is a symlink (planted next to a dump someone sent) is refused
/// with a message, and nothing is written at the link's target.
#[test]
fn notes_never_write_through_a_symlink() {
    let d = dump("symlink");
    let dir = d.parent().unwrap().to_path_buf();
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let bashrc = outside.join(".bashrc");
    std::fs::write(&bashrc, "echo keep me\n").unwrap();
    let side = tracecheck::notes::sidecar_path(&d);
    let lock = dir.join(format!("{}.lock", side.file_name().unwrap().to_string_lossy()));
    // 1. The sidecar is a link to a file outside.
    std::os::unix::fs::symlink(&bashrc, &side).unwrap();
    let o = bin().arg("note").arg(&d).arg("a note").output().expect("run");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "sidecar link: {err}");
    assert!(err.contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&bashrc).unwrap(), "echo keep me\n", "the link's target was written");
    std::fs::remove_file(&side).unwrap();
    let _ = std::fs::remove_file(&lock);
    // 2. The lock is a dangling link: following it would create a file at its target.
    let planted = outside.join("created-by-the-lock");
    std::os::unix::fs::symlink(&planted, &lock).unwrap();
    let o = bin().arg("note").arg(&d).arg("a note").output().expect("run");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "lock link: {err}");
    assert!(err.contains("symbolic link"), "{err}");
    assert!(!planted.exists(), "the lock followed a dangling symlink and created its target");
    assert!(!side.exists(), "nothing is saved when the lock is refused");
}
