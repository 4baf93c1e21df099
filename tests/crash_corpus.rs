//! The generalization crash corpus (`sample-traces/crashers/`, issue #11): real crashes in
//! shapes the rules were not written for, plus a look-alike negative control for every rule.
//!
//! For every case of `sample-traces/crashers/manifest.json` the tracecheck binary reads the
//! recorded gdb transcript and (when gcc, clang, rustc, go, musl-gcc and gdb are here) the same
//! transcript with the rebuilt binary (`--exe`, so register provenance decodes its machine
//! code) and a core of the same program written by gdb's `generate-core-file` (the AArch64
//! `a64-*` cases: by qemu-user, which runs them), read with `--exe`. All three must give the manifest's signal and culprit, fire every `must` rule, and
//! fire nothing outside `must` and `may`; the culprit must agree between them. Text output must
//! never glue a frame number to its address.
//!
//! Each rule's precision and recall over the corpus are printed (`cargo test --test
//! crash_corpus -- --nocapture`); `docs/rules/generalization.md` keeps them.
//!
//! Known failures are listed by exact description in `sample-traces/crashers/known-failures.list`.
//! The test fails on any failure not in that list (a regression) and on any listed failure
//! that no longer happens (so the list only shrinks).

mod common;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_dir() -> PathBuf {
    common::samples_dir().join("crashers")
}

struct Case {
    name: String,
    signal: String,
    culprit: Option<String>,
    must: Vec<String>,
    may: Vec<String>,
    controls: Vec<String>,
    mention: BTreeMap<String, String>,
    core_mention: BTreeMap<String, String>,
    /// A `mention` for the transcript read with `--exe` only (register provenance).
    exe_mention: BTreeMap<String, String>,
    /// The core's own expectations (`must`, `culprit`) where a core cannot carry what the
    /// transcript has.
    core: Option<(Vec<String>, Option<String>)>,
    /// No core is written for this case (`core.none` in the manifest, with its reason):
    /// `regenerate.sh --cores` builds only the binary, for the transcript's `--exe` path.
    core_none: bool,
    /// The transcript's own `must` when it is read without the binary (`transcript` in the
    /// manifest): what needs the machine code fires only with `--exe`.
    transcript_only: Option<Vec<String>>,
    /// The same for the transcript read with `--exe` (`transcript_exe`).
    transcript_exe: Option<Vec<String>>,
    /// The lldb transcript's own `must` (`lldb` in the manifest, with its `why`): where lldb's
    /// output cannot show what a rule needs, and its own `mention` (lldb prints no `x@entry=`
    /// values, for one). The culprit is never excepted.
    lldb: Option<Vec<String>>,
    lldb_mention: Option<BTreeMap<String, String>>,
    /// The lldb transcript's own stop signal (`lldb.signal`, `null` for none): lldb's
    /// instrumentation plugin stops at a sanitizer's report hook, before the runtime aborts.
    lldb_signal: Option<Option<String>>,
    /// Functions the run may fault in instead of `culprit` (`culprit_either` in the manifest,
    /// with its `why`): a runaway recursion through two functions overflows in whichever one
    /// reaches the guard page, and that depends on where the stack starts (the length of the
    /// program's path and environment), which differs between the recording and a core made
    /// at test time.
    culprit_either: Vec<String>,
}

/// The outcome with a culprit from `culprit_either` taken as the case's `culprit`.
fn settle(case: &Case, mut o: Outcome) -> Outcome {
    if o.culprit.as_ref().is_some_and(|c| case.culprit_either.contains(c)) {
        o.culprit = case.culprit.clone();
    }
    o
}

/// One culprit, whatever path named it: the same function spelled the way each debugger or
/// the symbolizer spells it (`tracecheck::roles::same_function`: a Rust closure's legacy and
/// DWARF names, gdb's `julia.f` for `julia__f`, a cgo export wrapper for its Go function).
fn same_culprit(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => tracecheck::roles::same_function(a, b),
        (None, None) => true,
        _ => false,
    }
}

fn mentions(v: &Value) -> BTreeMap<String, String> {
    v.as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
        .unwrap_or_default()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

fn load_manifest() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus_dir().join("manifest.json")).expect("manifest.json");
    let v: Value = serde_json::from_str(&text).expect("manifest.json is JSON");
    let cases = v["cases"].as_array().expect("manifest has cases");
    cases
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().expect("name").to_string(),
            signal: c["signal"].as_str().expect("signal").to_string(),
            culprit: c["culprit"].as_str().map(str::to_string),
            must: strings(&c["must"]),
            may: strings(&c["may"]),
            controls: strings(&c["controls"]),
            mention: mentions(&c["mention"]),
            core_mention: mentions(&c["core_mention"]),
            exe_mention: mentions(&c["exe_mention"]),
            core: c["core"]
                .as_object()
                .map(|o| (strings(&o["must"]), o.get("culprit").and_then(|v| v.as_str()).map(str::to_string))),
            core_none: c["core"]["none"].as_str().is_some_and(|why| why.len() > 20),
            transcript_only: c["transcript"].as_object().map(|o| strings(&o["must"])),
            transcript_exe: c["transcript_exe"].as_object().map(|o| strings(&o["must"])),
            lldb: c["lldb"].as_object().map(|o| {
                let name = c["name"].as_str().unwrap_or("?");
                assert!(o["why"].as_str().is_some_and(|r| r.len() > 20), "{name}: an lldb exception needs its why");
                strings(o.get("must").unwrap_or(&c["must"]))
            }),
            lldb_mention: c["lldb"].get("mention").map(mentions),
            lldb_signal: c["lldb"].get("signal").map(|v| v.as_str().map(str::to_string)),
            culprit_either: c["culprit_either"].as_object().map_or_else(Vec::new, |o| {
                let name = c["name"].as_str().unwrap_or("?");
                assert!(o["why"].as_str().is_some_and(|r| r.len() > 20), "{name}: culprit_either needs its why");
                strings(&o["functions"])
            }),
        })
        .collect()
}

fn all_rules() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck")).arg("rules").output().expect("tracecheck rules");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// What tracecheck reported for one input.
struct Outcome {
    signal: Option<String>,
    culprit: Option<String>,
    findings: BTreeMap<String, Vec<String>>,
}

fn analyze(args: &[&Path]) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tracecheck"));
    cmd.args(["--format", "json", "--fail-on", "never"]);
    for a in args {
        cmd.arg(a);
    }
    let out = cmd.output().expect("run tracecheck");
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("tracecheck JSON");
    let input = &v["inputs"][0];
    let stop = input["stops"].as_array().and_then(|s| s.last()).cloned().unwrap_or(Value::Null);
    let mut findings: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in input["findings"].as_array().into_iter().flatten() {
        let rule = f["rule"].as_str().unwrap_or("?").to_string();
        // The message, then its evidence lines (a `mention` may be in either).
        let mut text = f["message"].as_str().unwrap_or("").to_string();
        for e in f["evidence"].as_array().into_iter().flatten() {
            text.push('\n');
            text.push_str(e["text"].as_str().unwrap_or(""));
        }
        findings.entry(rule).or_default().push(text);
    }
    Outcome {
        signal: stop["reason"]["signal"].as_str().map(str::to_string),
        culprit: stop["culprit"]["function"].as_str().map(str::to_string),
        findings,
    }
}

#[derive(Default)]
struct Counts {
    tp: usize,
    fp: usize,
    fn_: usize,
}

/// Checks one outcome against its case; failure descriptions go to `fails`, rule counts to
/// `counts`.
fn check(case: &Case, path: &str, o: &Outcome, fails: &mut BTreeSet<String>, counts: &mut BTreeMap<String, Counts>) {
    let id = format!("{path}:{}", case.name);
    let (must, culprit, mention) = match (&case.core, path) {
        (Some((must, culprit)), "core") => (must, culprit, &case.core_mention),
        (None, "core") => (&case.must, &case.culprit, &case.core_mention),
        // An lldb transcript is read without the binary, like a gdb transcript (`transcript`).
        (_, "lldb") => {
            (case.lldb.as_ref().or(case.transcript_only.as_ref()).unwrap_or(&case.must), &case.culprit, &case.mention)
        }
        _ => match (&case.transcript_only, &case.transcript_exe, path) {
            (Some(must), _, "transcript") | (_, Some(must), "transcript+exe") => (must, &case.culprit, &case.mention),
            _ => (&case.must, &case.culprit, &case.mention),
        },
    };
    let mention = if path == "transcript+exe" && !case.exe_mention.is_empty() { &case.exe_mention } else { mention };
    let mention = match (&case.lldb_mention, path) {
        (Some(m), "lldb") => m,
        _ => mention,
    };
    let signal = match (&case.lldb_signal, path) {
        (Some(s), "lldb") => s.clone(),
        _ => Some(case.signal.clone()),
    };
    if o.signal != signal {
        fails.insert(format!("{id}: signal is {:?}, expected {:?}", o.signal, signal));
    }
    if !same_culprit(&o.culprit, culprit) {
        fails.insert(format!("{id}: culprit is {:?}, expected {:?}", o.culprit, culprit));
    }
    for (rule, c) in counts.iter_mut() {
        let fired = o.findings.contains_key(rule);
        let expected = must.contains(rule);
        if expected && fired {
            c.tp += 1;
            if let Some(m) = mention.get(rule)
                && !o.findings[rule].iter().any(|msg| msg.contains(m.as_str()))
            {
                fails.insert(format!("{id}: {rule} does not mention \"{m}\""));
            }
        } else if expected {
            c.fn_ += 1;
            fails.insert(format!("{id}: {rule} did not fire"));
        } else if fired && !case.may.contains(rule) {
            c.fp += 1;
            fails.insert(format!("{id}: {rule} fired (false finding)"));
        }
    }
}

/// Text output must separate a frame number from the address: `#2683 0x…`, never `#26830x…`.
fn check_text_frames(case: &Case, transcript: &Path, fails: &mut BTreeSet<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--fail-on", "never", "--color", "never", "--max-frames", "100000"])
        .arg(transcript)
        .output()
        .expect("run tracecheck");
    let text = String::from_utf8_lossy(&out.stdout);
    let glued = text.split('#').skip(1).any(|rest| {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with("0x")
    });
    if glued {
        let path = if transcript.to_string_lossy().ends_with(".lldb.txt") { "lldb" } else { "transcript" };
        fails.insert(format!("{path}:{}: text output glues a frame number to its address", case.name));
    }
}

fn known_failures() -> BTreeSet<String> {
    let text = std::fs::read_to_string(corpus_dir().join("known-failures.list")).unwrap_or_default();
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect()
}

/// Whether every tool `regenerate.sh --cores` needs is here; false prints the SKIPPED line
/// (and under CI the test fails).
fn core_tools_present() -> bool {
    common::require_tools(&[
        "gcc",
        "g++",
        "gfortran",
        "clang",
        "clang++",
        "rustc",
        "go",
        "gccgo",
        "gdc",
        "gnatmake",
        "musl-gcc",
        "i686-linux-gnu-gcc",
        "gdb",
        "bash",
        "aarch64-linux-gnu-gcc",
        "qemu-aarch64",
        // the runtime-hosted cases (py-*, jni-*, node-*, lua-*, perl-*, fpc-*)
        "python3.11-config",
        "javac",
        "node",
        "fpc",
        "xsubpp",
    ])
}

/// Builds the named cases and writes their cores with gdb into a fresh scratch directory
/// (`regenerate.sh --cores DIR NAME...`; the AArch64 `a64-*` cases: cross-compiled, cores
/// written by qemu-user). The corpus is built a chunk at a time so that its cores (about
/// 6 GB in all) never sit on the disk together.
fn build_cores(names: &[&str]) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-crash-corpus-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new("bash")
        .arg(corpus_dir().join("regenerate.sh"))
        .arg("--cores")
        .arg(&dir)
        .args(names)
        .output()
        .expect("run regenerate.sh --cores");
    assert!(
        out.status.success(),
        "regenerate.sh --cores failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn pct(num: usize, den: usize) -> String {
    if den == 0 { "-".to_string() } else { format!("{:.0}%", 100.0 * num as f64 / den as f64) }
}

#[test]
fn crash_corpus_meets_manifest() {
    let cases = load_manifest();
    let rules = all_rules();
    assert!(rules.len() >= 16, "tracecheck rules listed {rules:?}");
    // Every rule has at least one look-alike negative control.
    for r in &rules {
        assert!(cases.iter().any(|c| c.controls.contains(r)), "no negative control for rule {r}");
    }
    for c in &cases {
        for r in c.must.iter().chain(&c.may).chain(&c.controls) {
            assert!(rules.contains(r), "{}: unknown rule {r}", c.name);
        }
        assert!(
            !c.controls.iter().any(|r| c.must.contains(r) || c.may.contains(r)),
            "{}: control rule also expected",
            c.name
        );
    }

    let mut counts: BTreeMap<String, Counts> = rules.iter().map(|r| (r.clone(), Counts::default())).collect();
    let mut fails = BTreeSet::new();
    let mut transcript_culprits = BTreeMap::new();
    for case in &cases {
        let t = corpus_dir().join(format!("{}.gdb.txt", case.name));
        assert!(t.is_file(), "missing transcript {}", t.display());
        let o = settle(case, analyze(&[&t]));
        check(case, "transcript", &o, &mut fails, &mut counts);
        check_text_frames(case, &t, &mut fails);
        transcript_culprits.insert(case.name.clone(), o.culprit);
    }

    // The lldb transcripts (x86-64 cases and `a64-x20-*`; `regenerate.sh --lldb`): same
    // expectations, and the culprit must be the gdb transcript's.
    let mut lldb_cases = 0;
    for case in &cases {
        let t = corpus_dir().join(format!("{}.lldb.txt", case.name));
        if case.name.starts_with("a64-") && !t.is_file() {
            continue;
        }
        assert!(t.is_file(), "missing lldb transcript {}", t.display());
        lldb_cases += 1;
        let o = settle(case, analyze(&[&t]));
        check(case, "lldb", &o, &mut fails, &mut counts);
        check_text_frames(case, &t, &mut fails);
        if !same_culprit(&o.culprit, &transcript_culprits[&case.name]) {
            fails.insert(format!(
                "lldb:{}: culprit differs between gdb ({:?}) and lldb ({:?}) transcripts",
                case.name, transcript_culprits[&case.name], o.culprit
            ));
        }
    }
    assert!(lldb_cases >= 50, "only {lldb_cases} lldb transcripts");

    let cores = core_tools_present();
    for chunk in cases.chunks(16).take_while(|_| cores) {
        let names: Vec<&str> = chunk.iter().map(|c| c.name.as_str()).collect();
        let dir = &build_cores(&names);
        for case in chunk {
            let exe = dir.join(&case.name);
            let core = dir.join(format!("{}.core", case.name));
            assert!(core.is_file() != case.core_none, "core of {} (core.none: {})", case.name, case.core_none);
            let exe_arg = Path::new("--exe");
            // The transcript with the binary (`--exe`): its machine code stands in for the
            // process's code (register provenance); same expectations, same culprit.
            let t = corpus_dir().join(format!("{}.gdb.txt", case.name));
            let ot = settle(case, analyze(&[exe_arg, &exe, &t]));
            check(case, "transcript+exe", &ot, &mut fails, &mut counts);
            if !same_culprit(&ot.culprit, &transcript_culprits[&case.name]) {
                fails.insert(format!(
                    "transcript+exe:{}: culprit differs from the transcript's ({:?}, {:?})",
                    case.name, transcript_culprits[&case.name], ot.culprit
                ));
            }
            if case.core_none {
                continue;
            }
            let o = settle(case, analyze(&[exe_arg, &exe, &core]));
            check(case, "core", &o, &mut fails, &mut counts);
            if case.core.is_none() && !same_culprit(&o.culprit, &transcript_culprits[&case.name]) {
                fails.insert(format!(
                    "core:{}: culprit differs between transcript ({:?}) and core ({:?})",
                    case.name, transcript_culprits[&case.name], o.culprit
                ));
            }
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    let runs = if cores {
        "gdb and lldb transcripts, gdb transcripts with --exe, and cores"
    } else {
        "gdb and lldb transcripts only"
    };
    println!("crash corpus: {} cases, {runs}", cases.len());
    println!("{:<22} {:>4} {:>4} {:>4} {:>10} {:>8}", "rule", "TP", "FP", "FN", "precision", "recall");
    let (mut tp, mut fp, mut fn_) = (0, 0, 0);
    for (r, c) in &counts {
        println!(
            "{:<22} {:>4} {:>4} {:>4} {:>10} {:>8}",
            r,
            c.tp,
            c.fp,
            c.fn_,
            pct(c.tp, c.tp + c.fp),
            pct(c.tp, c.tp + c.fn_)
        );
        tp += c.tp;
        fp += c.fp;
        fn_ += c.fn_;
    }
    println!("{:<22} {:>4} {:>4} {:>4} {:>10} {:>8}", "all rules", tp, fp, fn_, pct(tp, tp + fp), pct(tp, tp + fn_));
    let culprit_ok =
        cases.len() - fails.iter().filter(|f| f.starts_with("transcript:") && f.contains(": culprit is")).count();
    println!("culprit right (transcripts): {culprit_ok}/{}", cases.len());
    let lldb_ok = lldb_cases - fails.iter().filter(|f| f.starts_with("lldb:") && f.contains(": culprit is")).count();
    println!("culprit right (lldb transcripts): {lldb_ok}/{lldb_cases}");
    println!("failures now: {}", fails.len());
    for f in &fails {
        println!("  {f}");
    }

    let known = known_failures();
    let regressions: Vec<&String> = fails.iter().filter(|f| !known.contains(*f)).collect();
    let fixed: Vec<&String> = known
        .iter()
        .filter(|k| !fails.contains(*k) && (cores || k.starts_with("transcript:") || k.starts_with("lldb:")))
        .collect();
    assert!(regressions.is_empty(), "new failures (not in known-failures.list):\n{regressions:#?}");
    assert!(fixed.is_empty(), "fixed: remove these lines from sample-traces/crashers/known-failures.list:\n{fixed:#?}");
}
