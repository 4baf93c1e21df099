//! `tracecheck triage`: the labelled set's clustering precision and recall, the SQLite index
//! (incremental, migrations, newer-schema refusal, symlinks, kill -9, two processes, merge),
//! and bad inputs.

#[path = "common/child.rs"]
#[allow(dead_code)]
mod child;
mod common;

use rusqlite::Connection;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tracecheck"))
}

fn set_dir() -> PathBuf {
    common::samples_dir().join("triage")
}

fn tmp(name: &str) -> PathBuf {
    let d = common::scratch_root().join(format!("tc-triage-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn triage(db: &Path, args: &[&str]) -> Output {
    let out = bin().arg("triage").arg("--db").arg(db).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "triage {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// (input path, crash ordinal 1..) -> bug, and the inputs with no crash.
fn labels() -> (BTreeMap<(String, usize), String>, Vec<String>) {
    let text = std::fs::read_to_string(set_dir().join("expected.tsv")).unwrap();
    let mut m = BTreeMap::new();
    let mut none = Vec::new();
    for l in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let f: Vec<&str> = l.split('\t').collect();
        let k: usize = f[1].parse().unwrap();
        if k == 0 {
            none.push(f[0].to_string());
        } else {
            m.insert((f[0].to_string(), k), f[2].to_string());
        }
    }
    (m, none)
}

/// (input path relative to the set, crash ordinal) -> (cluster, signature) from an index.
fn assignments(db: &Path, base: &Path) -> BTreeMap<(String, usize), (String, String)> {
    let c = Connection::open(db).unwrap();
    let mut st = c
        .prepare(
            "SELECT i.path, c.stop_index, cl.cluster, c.signature_id FROM crashes c JOIN inputs i ON i.id = c.input_id
             JOIN clusters cl ON cl.key_hash = c.key_hash ORDER BY i.path, c.stop_index",
        )
        .unwrap();
    let rows: Vec<(String, i64, String, String)> =
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).unwrap().map(Result::unwrap).collect();
    let mut out = BTreeMap::new();
    let mut ordinal: HashMap<String, usize> = HashMap::new();
    let base = base.to_string_lossy().to_string() + "/";
    for (path, _stop, cl, sig) in rows {
        let rel = path.strip_prefix(&base).unwrap_or(&path).to_string();
        let k = ordinal.entry(rel.clone()).or_insert(0);
        *k += 1;
        out.insert((rel, *k), (cl, sig));
    }
    out
}

/// Pairwise precision and recall of a clustering against the labels.
fn pairwise(truth: &BTreeMap<(String, usize), String>, got: &BTreeMap<(String, usize), String>) -> (f64, f64) {
    let keys: Vec<&(String, usize)> = truth.keys().collect();
    let (mut tp, mut fp, mut fneg) = (0u32, 0u32, 0u32);
    for i in 0..keys.len() {
        for j in (i + 1)..keys.len() {
            let same_bug = truth[keys[i]] == truth[keys[j]];
            let same_cluster = got.get(keys[i]).is_some() && got.get(keys[i]) == got.get(keys[j]);
            match (same_bug, same_cluster) {
                (true, true) => tp += 1,
                (false, true) => fp += 1,
                (true, false) => fneg += 1,
                _ => {}
            }
        }
    }
    let p = if tp + fp == 0 { 1.0 } else { f64::from(tp) / f64::from(tp + fp) };
    let r = if tp + fneg == 0 { 1.0 } else { f64::from(tp) / f64::from(tp + fneg) };
    (p, r)
}

fn labelled_inputs() -> Vec<String> {
    let (m, none) = labels();
    let mut v: Vec<String> = m.keys().map(|k| k.0.clone()).chain(none).filter(|p| !p.contains(".zip!")).collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn labelled_set_precision_and_recall() {
    let (truth, none) = labels();
    let truth: BTreeMap<_, _> = truth.into_iter().filter(|((p, _), _)| !p.contains(".zip!")).collect();
    let d = tmp("labelled");
    let dir = set_dir();
    let mut results = Vec::new();
    for n in [1usize, 2, 3, 4, 5] {
        let db = d.join(format!("n{n}.sqlite"));
        let mut cmd = bin();
        cmd.current_dir(&dir).arg("triage").arg("--db").arg(&db).args(["--frames", &n.to_string()]);
        cmd.args(labelled_inputs());
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got = assignments(&db, &dir);
        // Every labelled crash is found, and nothing else.
        let got_keys: Vec<_> = got.keys().cloned().collect();
        let want_keys: Vec<_> = truth.keys().cloned().collect();
        assert_eq!(got_keys, want_keys, "crash records per input (N={n})");
        for p in none.iter().filter(|p| !p.contains(".zip!")) {
            assert!(!got.keys().any(|k| &k.0 == p), "{p} has no crash");
        }
        let clusters: BTreeMap<_, _> = got.iter().map(|(k, v)| (k.clone(), v.0.clone())).collect();
        let exact: BTreeMap<_, _> = got.iter().map(|(k, v)| (k.clone(), v.1.clone())).collect();
        let (cp, cr) = pairwise(&truth, &clusters);
        let (ep, er) = pairwise(&truth, &exact);
        eprintln!(
            "N={n}: clusters precision {cp:.3} recall {cr:.3}; exact signatures precision {ep:.3} recall {er:.3}"
        );
        results.push((n, cp, cr, ep, er));
    }
    let (_, cp, cr, ep, er) = results[2];
    // The default N=3 (docs/triage.md): no two different bugs share a cluster, and clustering
    // finds more of the same-bug pairs than exact signatures do.
    assert_eq!(cp, 1.0, "precision at N=3");
    assert!(cr >= 0.8, "recall at N=3: {cr}");
    assert_eq!(ep, 1.0);
    assert!(cr > er, "clustering recall {cr} should beat exact signatures {er}");
    // N=1 signatures (the culprit only) cannot tell the callers apart but still keep the
    // length assertion apart from the NULL dereference in the same function (crash type).
    assert_eq!(results[0].3, 1.0);
}

#[test]
fn zip_members_are_read_in_memory() {
    let d = tmp("zip");
    let db = d.join("z.sqlite");
    let out = triage(&db, &["--format", "json", set_dir().join("ci-logs.zip").to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["indexed"], 2);
    assert_eq!(v["summary"]["crashes"], 2);
    assert_eq!(v["summary"]["without_crash"], 1);
    let c = Connection::open(&db).unwrap();
    let paths: Vec<String> = c
        .prepare("SELECT path FROM inputs ORDER BY path")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(paths[0].ends_with("ci-logs.zip!build (linux-clang-1)/3_Run tests.txt"), "{paths:?}");
    // Nothing was extracted next to the archive.
    assert!(!set_dir().join("build (linux-clang-1)").exists());
}

#[test]
fn incremental_since_show_and_markdown() {
    let d = tmp("incr");
    let db = d.join("i.sqlite");
    let runs = set_dir().join("runs");
    let first = stdout(&triage(&db, &[runs.to_str().unwrap()]));
    assert!(
        first.starts_with("triage: 11 inputs: 11 indexed (11 crashes, 0 without a crash), 0 already indexed"),
        "{first}"
    );
    let again = stdout(&triage(&db, &[runs.to_str().unwrap()]));
    assert!(
        again.starts_with("triage: 11 inputs: 0 indexed (0 crashes, 0 without a crash), 11 already indexed"),
        "{again}"
    );
    // Reading only.
    let md = stdout(&triage(&db, &["--list", "--format", "markdown"]));
    assert!(
        md.contains("| Signature | Count | First seen | Last seen | Versions | Best example | Top finding |"),
        "{md}"
    );
    assert!(md.contains("parse\\_field") || md.contains("parse_field"), "{md}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&triage(&db, &["--format", "json"]))).unwrap();
    let clusters = json["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 4, "{json}");
    assert_eq!(json["totals"]["crashes"], 11);
    let top = &clusters[0];
    assert_eq!(top["count"], 5);
    assert!(top["best"]["signature_text"].as_str().unwrap().contains("parse_field"));
    // --show by cluster id prefix.
    let id = top["cluster"].as_str().unwrap();
    let show = stdout(&triage(&db, &["--show", &id[..8]]));
    assert!(show.contains(&format!("cluster {id} (5 crashes in 5 inputs)")), "{show}");
    assert!(show.contains("parse_field"), "{show}");
    assert!(show.contains("null-dereference"), "{show}");
    // --since: every run was indexed with its file's mtime; a date far ahead leaves nothing.
    let later = stdout(&triage(&db, &["--since", "2999-01-01"]));
    assert!(later.starts_with("0 clusters"), "{later}");
    let bad = bin().args(["triage", "--db"]).arg(&db).args(["--since", "last tuesday"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected a date as YYYY-MM-DD"));
}

#[test]
fn newer_schema_is_refused_and_old_is_migrated() {
    let d = tmp("schema");
    let db = d.join("new.sqlite");
    {
        let c = Connection::open(&db).unwrap();
        c.execute_batch("CREATE TABLE future(x); PRAGMA user_version = 99;").unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    let out = bin().args(["triage", "--db"]).arg(&db).arg(set_dir().join("runs")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("written by a newer tracecheck (schema version 99"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "a newer file is left untouched");

    let old = d.join("old.sqlite");
    tracecheck::triage::db::Db::create_at_version(&old, 1).unwrap();
    {
        let c = Connection::open(&old).unwrap();
        c.execute(
            "INSERT INTO inputs(path, content_hash, size, mtime, format, crash_count, indexed_at)
             VALUES('kept.log', 'abc', 1, 0, 'gdb', 0, 0)",
            [],
        )
        .unwrap();
    }
    triage(&old, &[set_dir().join("runs/null-user-t1-s2.gdb.txt").to_str().unwrap()]);
    let c = Connection::open(&old).unwrap();
    let v: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(v, tracecheck::triage::db::SCHEMA_VERSION);
    let n: i64 = c.query_row("SELECT COUNT(*) FROM inputs", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 2, "the row written at version 1 is kept");
    let mode: String = c.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn symlinked_database_is_refused() {
    let d = tmp("symlink");
    let target = d.join("elsewhere.sqlite");
    std::fs::write(&target, b"").unwrap();
    let link = d.join("link.sqlite");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = bin().args(["triage", "--db"]).arg(&link).arg(set_dir().join("runs")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is a symbolic link"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"", "nothing written through the link");
    // A -wal beside the database that is a link is refused too.
    let db = d.join("real.sqlite");
    std::os::unix::fs::symlink(&target, d.join("real.sqlite-wal")).unwrap();
    let out = bin().args(["triage", "--db"]).arg(&db).arg(set_dir().join("runs")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("real.sqlite-wal: is a symbolic link"));
}

/// Many distinct inputs (each run of the labelled set, with a distinct trailing line).
fn many_inputs(dir: &Path, copies: usize) -> usize {
    let runs: Vec<PathBuf> = {
        let mut v: Vec<PathBuf> =
            std::fs::read_dir(set_dir().join("runs")).unwrap().map(|e| e.unwrap().path()).collect();
        v.sort();
        v
    };
    let mut n = 0;
    for i in 0..copies {
        for r in &runs {
            let mut text = std::fs::read(r).unwrap();
            text.extend_from_slice(format!("ci: attempt {i}\n").as_bytes());
            std::fs::write(dir.join(format!("{i:04}-{}", r.file_name().unwrap().to_string_lossy())), text).unwrap();
            n += 1;
        }
    }
    n
}

fn consistent(db: &Path) -> (i64, i64) {
    let c = Connection::open(db).unwrap();
    let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    let version: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    if version == 0 {
        // Killed before the first migration committed: an empty database.
        let tables: i64 = c.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0)).unwrap();
        assert_eq!(tables, 0);
        return (0, 0);
    }
    // Every input has exactly the crashes it says, every crash its frames and a signature.
    let bad: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM inputs i WHERE crash_count != (SELECT COUNT(*) FROM crashes c WHERE c.input_id = i.id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(bad, 0, "inputs with missing crashes");
    let orphan: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM crashes c WHERE NOT EXISTS (SELECT 1 FROM frames f WHERE f.crash_id = c.id)
               OR NOT EXISTS (SELECT 1 FROM signatures s WHERE s.id = c.signature_id)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphan, 0);
    let inputs: i64 = c.query_row("SELECT COUNT(*) FROM inputs", [], |r| r.get(0)).unwrap();
    let crashes: i64 = c.query_row("SELECT COUNT(*) FROM crashes", [], |r| r.get(0)).unwrap();
    (inputs, crashes)
}

#[test]
fn kill_9_leaves_a_consistent_index() {
    let d = tmp("kill");
    let inputs = d.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let n = many_inputs(&inputs, 40);
    let db = d.join("k.sqlite");
    // Kill at several moments; each time the index must be consistent, and a re-run must
    // finish what was left.
    for delay_ms in [30u64, 120, 400] {
        let mut child = bin()
            .args(["triage", "--jobs", "2", "--db"])
            .arg(&db)
            .arg(&inputs)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        let _ = child.wait();
        if db.exists() {
            consistent(&db);
        }
    }
    triage(&db, &[inputs.to_str().unwrap()]);
    let (i, c) = consistent(&db);
    assert_eq!(i as usize, n);
    assert_eq!(c as usize, n, "one crash per run");
}

#[test]
fn two_processes_on_one_index() {
    let d = tmp("two");
    let inputs = d.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let n = many_inputs(&inputs, 12);
    let db = d.join("t.sqlite");
    let spawn = || {
        bin()
            .args(["triage", "--jobs", "1", "--db"])
            .arg(&db)
            .arg(&inputs)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let (i, c) = consistent(&db);
    assert_eq!((i as usize, c as usize), (n, n));
    // Between them each input was indexed once; the other saw it as known or duplicate.
    let indexed = |o: &Output| -> usize {
        let s = String::from_utf8_lossy(&o.stdout).to_string();
        s.split(" indexed (").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(indexed(&a) + indexed(&b), n);
}

#[test]
fn merge_of_shards_equals_one_run() {
    let d = tmp("merge");
    let list = labelled_inputs();
    let (a, b) = list.split_at(list.len() / 2);
    let run = |db: &Path, inputs: &[String]| {
        let out = bin().current_dir(set_dir()).arg("triage").arg("--db").arg(db).args(inputs).output().unwrap();
        assert!(out.status.success());
    };
    run(&d.join("a.sqlite"), a);
    run(&d.join("b.sqlite"), b);
    run(&d.join("one.sqlite"), &list);
    let all = d.join("all.sqlite");
    let out = bin()
        .args(["triage", "--merge"])
        .arg(d.join("a.sqlite"))
        .arg(d.join("b.sqlite"))
        .arg("--db")
        .arg(&all)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let one = assignments(&d.join("one.sqlite"), &set_dir());
    let merged = assignments(&all, &set_dir());
    assert_eq!(one, merged, "content-derived signatures and clusters: merging is exact");
    // Merging again adds nothing.
    let again = bin().args(["triage", "--merge"]).arg(d.join("a.sqlite")).arg("--db").arg(&all).output().unwrap();
    assert!(stdout(&again).contains(": 0 new inputs"), "{}", stdout(&again));
}

#[test]
fn bad_inputs_each_get_a_line_and_nothing_indexed_is_lost() {
    let d = tmp("bad");
    let db = d.join("b.sqlite");
    triage(&db, &[set_dir().join("runs").to_str().unwrap()]);
    let inp = d.join("in");
    std::fs::create_dir_all(inp.join("empty")).unwrap();
    std::fs::create_dir_all(inp.join("loop")).unwrap();
    std::os::unix::fs::symlink(inp.join("loop"), inp.join("loop/again")).unwrap();
    std::os::unix::fs::symlink(inp.join("missing"), inp.join("dangling.log")).unwrap();
    std::fs::write(inp.join("core.bin"), b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
    std::fs::write(inp.join("blob.dat"), b"abc\0\0\0def").unwrap();
    std::fs::copy(set_dir().join("runs/wild-index-t1-s6.gdb.txt"), inp.join("dup.log")).unwrap();
    std::fs::copy(set_dir().join("ci/linux-gcc-1.log"), inp.join("job-a.log")).unwrap();
    std::fs::copy(set_dir().join("ci/linux-gcc-1.log"), inp.join("job-b.log")).unwrap();
    // A zip bomb: 64 MB of zeros compress to ~64 KB (ratio ~1000:1).
    {
        let f = std::fs::File::create(inp.join("bomb.zip")).unwrap();
        let mut z = zip::ZipWriter::new(f);
        z.start_file("big.log", zip::write::SimpleFileOptions::default()).unwrap();
        let zeros = vec![b'0'; 1 << 20];
        for _ in 0..64 {
            std::io::Write::write_all(&mut z, &zeros).unwrap();
        }
        z.finish().unwrap();
    }
    // A log with 100,000 crashes.
    {
        let mut s = String::with_capacity(12 << 20);
        for i in 0..100_000u32 {
            s.push_str(&format!(
                "Program received signal SIGSEGV, Segmentation fault.\n0x{:016x} in worker_{} (p=0x0) at w.c:{}\n",
                0x401000 + i,
                i % 7,
                i % 50 + 1
            ));
        }
        std::fs::write(inp.join("storm.log"), s).unwrap();
    }
    let out = triage(&db, &["--max-stops", "2000", inp.to_str().unwrap()]);
    let text = stdout(&out);
    let line = |needle: &str| {
        assert!(text.lines().any(|l| l.contains(needle)), "no summary line with {needle:?}:\n{text}");
    };
    line("empty: directory holds no files");
    line("loop/again: directory already visited (symbolic link loop");
    line("dangling.log: broken or looping symbolic link");
    line("core.bin: ELF file, not a text log");
    line("blob.dat: binary file (NUL bytes), not a text log");
    line("bomb.zip!big.log: zip bomb: expands more than 250:1");
    line("storm.log: partly read:");
    line("job-b.log: duplicate: same content as");
    // dup.log was indexed by the first run under runs/: counted, not indexed again.
    assert!(
        text.starts_with(
            "triage: 7 inputs: 2 indexed (2001 crashes, 0 without a crash), 1 already indexed, 1 duplicates"
        ),
        "{text}"
    );
    let c = Connection::open(&db).unwrap();
    let storm: i64 =
        c.query_row("SELECT crash_count FROM inputs WHERE path LIKE '%storm.log'", [], |r| r.get(0)).unwrap();
    assert_eq!(storm, 2000, "crashes kept up to --max-stops");
    let runs: i64 = c.query_row("SELECT COUNT(*) FROM inputs WHERE path LIKE '%/runs/%'", [], |r| r.get(0)).unwrap();
    assert_eq!(runs, 11, "earlier inputs are kept");
    drop(c);
    consistent(&db);
}

/// Seed 004 (a Julia GC corruption report, ../shared): its Julia 1.12 backtrace (signal 11 in
/// `jl_datatype_layout` under `gc_mark_outrefs`) is one crash whose signature skips the GC and
/// `copy` frames and starts at the Enzyme augmented primal that allocated.
#[test]
fn seed_004_report() {
    let Some(seeds) = common::require_shared("seeds") else { return };
    let seed = std::fs::read_dir(&seeds)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("004_")))
        .expect("seed 004 in ../shared/seeds");
    let d = tmp("seed");
    let db = d.join("s.sqlite");
    let v: serde_json::Value =
        serde_json::from_slice(&triage(&db, &["--format", "json", seed.to_str().unwrap()]).stdout).unwrap();
    assert_eq!(v["summary"]["crashes"], 1, "{v}");
    let c = &v["clusters"][0];
    assert_eq!(c["best"]["signature_text"], "SIGSEGV/heap | augmented_primal > CombinedAdjointThunk > autodiff");
    assert_eq!(c["best"]["quality"], 1.0);
    let top = c["top_finding"].as_str().unwrap();
    assert!(top.starts_with("heap-corruption: ") && top.contains("gc_mark_outrefs"), "{top}");
    let missing = bin().args(["triage", "--db"]).arg(&db).args(["--show", "ffff"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no cluster or signature ffff in"));
}

/// The crash-marker pre-filter never hides a crash: every bundled sample transcript that has a
/// crash record when parsed passes it (and a plain CI log without a crash does not).
#[test]
fn prefilter_keeps_every_sample_crash() {
    let mut checked = 0;
    let mut stack = vec![common::samples_dir()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if !p.extension().is_some_and(|x| x == "txt" || x == "log") {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let parsed = tracecheck::input::parse_bytes(&bytes);
            let report = tracecheck::analyze::analyze("x", parsed, &Default::default());
            if !tracecheck::triage::record::records(&report, 3, None).is_empty() {
                assert!(tracecheck::triage::may_hold_crash(&bytes), "{}", p.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked} samples with crashes");
    let clean = std::fs::read(set_dir().join("ci/linux-gcc-2.log")).unwrap();
    assert!(!tracecheck::triage::may_hold_crash(&clean));
}

/// `tracecheck diff`: the same NULL dereference reached through two callers, two runs with
/// ASLR and different thread counts: frames aligned by function, threads matched, findings
/// the same; and a crash against a clean run.
#[test]
fn diff_two_runs_of_one_bug() {
    let runs = set_dir().join("runs");
    let out = bin()
        .args(["diff", "-f", "json"])
        .arg(runs.join("null-config-t1-s1.gdb.txt"))
        .arg(runs.join("null-user-t3-s5.gdb.txt"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stop = &v["diff"]["stops"][0];
    let marks: String = stop["frames"].as_array().unwrap().iter().map(|r| r["mark"].as_str().unwrap()).collect();
    assert!(
        marks.starts_with("=-+~"),
        "{marks}: parse_field same, load_config only in A, load_user only in B, serve moved"
    );
    assert_eq!(stop["frames"][1]["a"], "load_config at inventory.c:51");
    assert_eq!(stop["frames"][2]["b"], "load_user at inventory.c:56");
    // The crashed threads are paired first; B has two more threads than A.
    let threads = stop["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 4);
    assert_eq!(threads.iter().filter(|t| t[0].is_null()).count(), 2);
    assert_eq!(stop["findings_added"].as_array().unwrap().len(), 0, "{stop}");
    assert_eq!(stop["findings_removed"].as_array().unwrap().len(), 0, "{stop}");

    let md = bin()
        .args(["diff", "-f", "markdown"])
        .arg(runs.join("wild-index-t1-s6.gdb.txt"))
        .arg(common::samples_dir().join("julia-trampoline-good-r13.gdb.txt"))
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("| - | `checksum at inventory.c:"), "{md}");
    assert!(md.contains("findings only in A:"), "{md}");
    assert!(md.contains("noncanonical-address"), "{md}");
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo {}", p.display());
}

/// A FIFO inside a triaged folder (no writer: opening it plainly blocks forever) is named in
/// the summary as skipped, and the run finishes with the folder's real log indexed.
#[test]
fn a_fifo_in_a_triaged_folder_is_skipped_and_the_run_finishes() {
    let d = tmp("fifo");
    let inp = d.join("in");
    std::fs::create_dir_all(&inp).unwrap();
    std::fs::copy(set_dir().join("ci/linux-gcc-1.log"), inp.join("job.log")).unwrap();
    mkfifo(&inp.join("pipe.log"));
    std::os::unix::fs::symlink(inp.join("pipe.log"), inp.join("link-to-pipe.log")).unwrap();
    let mut cmd = bin();
    cmd.arg("triage").arg("--db").arg(d.join("f.sqlite")).arg(&inp);
    let o = child::run(cmd, None, std::time::Duration::from_secs(120));
    assert!(!o.timed_out, "triage blocked on a FIFO (killed after {:?})", o.elapsed);
    assert_eq!(o.code, Some(0), "{}\n{}", o.stderr_text(), o.stdout_text());
    let text = o.stdout_text();
    for name in ["pipe.log", "link-to-pipe.log"] {
        assert!(
            text.lines().any(|l| l.contains(&format!("/{name}: not a regular file"))),
            "{name} not reported as skipped:\n{text}"
        );
    }
    assert!(text.lines().next().unwrap_or("").contains(" 1 indexed"), "{text}");
}

/// The race the walk's `stat` cannot close: a file found as regular is a FIFO by the time it
/// is read. `sources::load` opens it non-blocking and refuses it instead of waiting for a
/// writer that never comes.
#[test]
fn a_file_replaced_by_a_fifo_after_listing_is_refused_not_waited_on() {
    use tracecheck::triage::sources;
    let d = tmp("fifo-race");
    let p = d.join("job.log");
    std::fs::write(&p, b"log\n").unwrap();
    let (items, skipped) =
        sources::enumerate(&[p.display().to_string()], &mut std::io::empty(), &sources::ReadLimits::default());
    assert_eq!((items.len(), skipped.len()), (1, 0));
    std::fs::remove_file(&p).unwrap();
    mkfifo(&p);
    let (tx, rx) = std::sync::mpsc::channel();
    let item = items[0].clone();
    std::thread::spawn(move || {
        let _ = tx.send(sources::load(&item, &sources::ReadLimits::default()).map(|l| l.bytes.len()));
    });
    let got = rx.recv_timeout(std::time::Duration::from_secs(20));
    if got.is_err() {
        // Release the blocked open (a reader is waiting, so a non-blocking writer opens).
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&p);
    }
    let got = got.expect("sources::load blocked on a FIFO");
    let err = got.expect_err("a FIFO was read as a log");
    assert!(err.contains("not a regular file"), "{err}");
}
